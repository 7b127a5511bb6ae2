"""Stdlib-only SQuAD-style baseline for `npm run bench:core`: times exact match, token F1 and containment
(normalized gold inside normalized candidate, on token boundaries) over the rows in a JSONL file.
Prints one JSON object with rows/s per metric (best of the repeats) and checksums so the TypeScript side can confirm equal results.
"""
import json
import re
import string
import sys
import time
from collections import Counter

EXCLUDE = set(string.punctuation)


def normalize_answer(s):
    s = s.lower()
    s = ''.join(ch for ch in s if ch not in EXCLUDE)
    s = re.sub(r'\b(a|an|the)\b', ' ', s)
    return ' '.join(s.split())


def f1_score(prediction, ground_truth):
    p = normalize_answer(prediction).split()
    g = normalize_answer(ground_truth).split()
    common = Counter(p) & Counter(g)
    num_same = sum(common.values())
    if num_same == 0:
        return 0
    precision = num_same / len(p)
    recall = num_same / len(g)
    return 2 * precision * recall / (precision + recall)


def exact_match(prediction, ground_truth):
    return normalize_answer(prediction) == normalize_answer(ground_truth)


def contains(prediction, ground_truth):
    g = normalize_answer(ground_truth)
    return bool(g) and (' ' + g + ' ') in (' ' + normalize_answer(prediction) + ' ')


def run(fn, rows, repeats):
    best = float('inf')
    for _ in range(repeats):
        t = time.perf_counter()
        total = 0.0
        for cand, golds in rows:
            total += max(fn(cand, g) for g in golds)
        best = min(best, time.perf_counter() - t)
    return len(rows) / best, total


rows = [(r['candidate'], r['gold']) for r in map(json.loads, open(sys.argv[1], encoding='utf-8'))]
repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
out = {}
for name, fn in (('exact_match', exact_match), ('token_f1', f1_score), ('lexical_match', contains)):
    rate, total = run(fn, rows, repeats)
    out[name] = {'rows_per_s': rate, 'sum': total}
print(json.dumps(out))
