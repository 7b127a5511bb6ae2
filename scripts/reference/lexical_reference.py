"""Reference values for the BLEU, ROUGE-L and METEOR metrics (src/core/metrics/).

Run from the repo root with the Debian Python (nltk 3.8 from python3-nltk):

    /usr/bin/python3 scripts/reference/lexical_reference.py

Writes test/fixtures/lexical-reference.json (and refreshes the stems in
test/fixtures/porter-nltk.json, whose word list is fixed).

- BLEU: nltk.translate.bleu_score.sentence_bleu, all golds as references of one call.
- METEOR: nltk.translate.meteor_score.meteor_score with a stub WordNet (no synonyms),
  plus a few cases with a small fixed synonym table.
- ROUGE-L: rouge-score is not installable here, so its rougeL path is re-implemented
  below line for line from google-research/google-research: rouge/tokenize.py (tokenize),
  rouge/tokenizers.py (DefaultTokenizer), rouge/rouge_scorer.py (_score_lcs, _lcs_table,
  RougeScorer.score_multi), rouge/scoring.py (fmeasure).
Tokenization for BLEU/METEOR: s.lower().split().
"""

import json
import os
import re
import sys
import warnings

import nltk
from nltk.stem.porter import PorterStemmer
from nltk.translate.bleu_score import (
    SmoothingFunction,
    closest_ref_length,
    brevity_penalty,
    modified_precision,
    sentence_bleu,
)
from nltk.translate.meteor_score import meteor_score, single_meteor_score

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "test", "fixtures", "lexical-reference.json")
PORTER = os.path.join(ROOT, "test", "fixtures", "porter-nltk.json")

warnings.simplefilter("ignore")  # nltk warns on every zero n-gram order


# ---- WordNet stubs -------------------------------------------------------------------------
class _Lemma:
    def __init__(self, name):
        self._name = name

    def name(self):
        return self._name


class _Synset:
    def __init__(self, names):
        self._names = names

    def lemmas(self):
        return [_Lemma(n) for n in self._names]


class StubWordNet:
    """wordnet.synsets(word) from a fixed table {word: [lemma names]} (one synset per word)."""

    def __init__(self, table=None):
        self.table = table or {}
        self.calls = []

    def synsets(self, word):
        self.calls.append(word)
        return [_Synset(self.table[word])] if word in self.table else []


# ---- rouge-score rougeL, re-implemented ----------------------------------------------------
_stemmer = PorterStemmer()  # rouge-score: porter.PorterStemmer() (NLTK_EXTENSIONS)


def rouge_tokenize(text, use_stemmer):
    # rouge/tokenize.py
    text = text.lower()
    text = re.sub(r"[^a-z0-9]+", " ", text)
    tokens = re.split(r"\s+", text)
    if use_stemmer:
        tokens = [_stemmer.stem(x) if len(x) > 3 else x for x in tokens]
    return [x for x in tokens if re.match(r"^[a-z0-9]+$", x)]


def _lcs_table(ref, can):
    rows, cols = len(ref), len(can)
    t = [[0] * (cols + 1) for _ in range(rows + 1)]
    for i in range(1, rows + 1):
        for j in range(1, cols + 1):
            if ref[i - 1] == can[j - 1]:
                t[i][j] = t[i - 1][j - 1] + 1
            else:
                t[i][j] = max(t[i - 1][j], t[i][j - 1])
    return t


def _fmeasure(precision, recall):
    if precision + recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0


def _score_lcs(target_tokens, prediction_tokens):
    if not target_tokens or not prediction_tokens:
        return dict(precision=0, recall=0, fmeasure=0, lcs=0)
    lcs = _lcs_table(target_tokens, prediction_tokens)[-1][-1]
    precision = lcs / len(prediction_tokens)
    recall = lcs / len(target_tokens)
    return dict(precision=precision, recall=recall, fmeasure=_fmeasure(precision, recall), lcs=lcs)


def rouge_l_multi(golds, candidate, use_stemmer):
    pred = rouge_tokenize(candidate, use_stemmer)
    scores = [_score_lcs(rouge_tokenize(g, use_stemmer), pred) for g in golds]
    fs = [s["fmeasure"] for s in scores]
    best = fs.index(max(fs))  # np.argmax: first maximum
    return dict(best_index=best, per_gold=fs, **scores[best])


# ---- BLEU / METEOR via nltk ----------------------------------------------------------------
def tok(s):
    return s.lower().split()


def bleu(golds, candidate):
    refs, hyp = [tok(g) for g in golds], tok(candidate)
    precisions = [modified_precision(refs, hyp, n) for n in range(1, 5)]
    r = closest_ref_length(refs, len(hyp))
    return dict(
        score=float(sentence_bleu(refs, hyp)),
        score_method1=float(sentence_bleu(refs, hyp, smoothing_function=SmoothingFunction().method1)),
        precisions=[[p.numerator, p.denominator] for p in precisions],
        hyp_length=len(hyp),
        closest_ref_length=r,
        brevity_penalty=float(brevity_penalty(r, len(hyp))),
    )


def meteor(golds, candidate, table=None):
    refs, hyp = [tok(g) for g in golds], tok(candidate)
    wn = StubWordNet(table)
    per = [single_meteor_score(r, hyp, wordnet=wn) for r in refs]
    wn2 = StubWordNet(table)
    score = meteor_score(refs, hyp, wordnet=wn2)
    return dict(score=score, per_gold=per, best_index=per.index(max(per)), synset_calls=wn2.calls)


# ---- cases ---------------------------------------------------------------------------------
CASES = [
    ("identical", ["The Eiffel Tower is in Paris"], "The Eiffel Tower is in Paris"),
    ("identical-case", ["george washington"], "George WASHINGTON"),
    ("paraphrase", ["The capital of France is Paris"], "Paris is the French capital city"),
    ("reordered", ["he read the book because he was interested in world history"],
     "he was interested in world history because he read the book"),
    ("contradiction", ["The treaty was signed in 1919"], "The treaty was not signed in 1919"),
    ("contradiction-2", ["Water boils at 100 degrees Celsius at sea level"],
     "Water never boils at 100 degrees Celsius at sea level"),
    ("multi-gold", ["JFK", "John F. Kennedy", "John Fitzgerald Kennedy"], "John Kennedy"),
    ("multi-gold-long", ["the cat sat on the mat", "there is a cat on the mat", "a cat was sitting on the mat"],
     "the cat is sitting on the mat"),
    ("multi-gold-lengths", ["a b c d e f g h i j k l m", "x y"], "a b c d e f g h i j k l"),
    ("short-1", ["Paris"], "Paris"),
    ("short-2", ["David Seville"], "David Seville"),
    ("short-3", ["Ross Bagdasarian Sr."], "Ross Bagdasarian Sr."),
    ("short-vs-long", ["Scorpio"], "Jamie Lee Curtis is a Scorpio."),
    ("short-wrong", ["Libra"], "Scorpio"),
    ("long-verbose", ["David Seville"],
     "The Chipmunks were created by Ross Bagdasarian Sr. (1919\u20131972), also known as \"David Seville\", "
     "who provided the voices for the characters."),
    ("long-verbose-2", ["The man behind The Chipmunks was Ross Bagdasarian Sr."],
     "The man behind The Chipmunks was Ross Bagdasarian Sr., who created the characters and the original "
     "music under the stage name David Seville, and he was the man behind the voices."),
    ("guide-hyp1", [
        "It is a guide to action that ensures that the military will forever heed Party commands",
        "It is the guiding principle which guarantees the military forces always being under the command of the Party",
        "It is the practical guide for the army always to heed the directions of the party"],
     "It is a guide to action which ensures that the military always obeys the commands of the party"),
    ("guide-hyp2", [
        "It is a guide to action that ensures that the military will forever heed Party commands",
        "It is the guiding principle which guarantees the military forces always being under the command of the Party",
        "It is the practical guide for the army always to heed the directions of the party"],
     "It is to insure the troops forever hearing the activity guidebook that party direct"),
    ("punctuation", ["Paris"], "Paris."),
    ("punctuation-2", ["Scorpio/Skorpio/Scorpio (disambiguation)"], "Scorpio (astrology)"),
    ("punctuation-3", ["rock-and-roll, baby!"], "Rock and roll baby"),
    ("numbers", ["1969"], "It happened in 1969."),
    ("numbers-2", ["3.14159"], "3.14"),
    ("numbers-3", ["The answer is 42"], "the answer is 42 not 24"),
    ("unicode", ["Caf\u00e9 M\u00fcller"], "cafe muller"),
    ("unicode-2", ["Caf\u00e9 M\u00fcller"], "CAF\u00c9 M\u00dcLLER"),
    ("unicode-3", ["\u6771\u4eac"], "\u6771\u4eac \u90fd"),
    ("unicode-4", ["\u00c5ngstr\u00f6m unit"], "\u00e5ngstr\u00f6m units \U0001F600"),
    ("whitespace", ["New\u00a0York  City"], "  new york\tcity\n"),
    ("empty-candidate", ["Paris"], ""),
    ("blank-candidate", ["Paris"], "   "),
    ("punct-only-candidate", ["Paris"], "?!"),
    ("stem-running", ["running"], "runs"),
    ("stem-running-2", ["He was running fast"], "he runs fast"),
    ("stem-studies", ["the studies of flies"], "the study of flying"),
    ("stem-generalization", ["generalizations about nationalism"], "generalize the nationalist"),
    ("stem-irregular", ["dying skies"], "die sky"),
    ("no-overlap", ["Abraham Lincoln"], "George Washington"),
    ("repeated", ["the cat is on the mat"], "the the the the the the the"),
    ("repeated-2", ["the cat the cat"], "cat the cat the"),
    ("empty-gold", ["", "Paris"], "Paris France"),
    ("one-word-overlap-long", ["Neil Armstrong was the first person to walk on the Moon in July 1969"],
     "Buzz Aldrin walked on the moon"),
]

# Synonym-stage cases (METEOR only). Keys are what nltk passes to wordnet.synsets: the Porter
# stems of unmatched hypothesis words (so 'large' arrives as 'larg').
SYNONYMS = {
    "larg": ["large", "big", "great_big"],
    "automobil": ["automobile", "car", "auto", "motorcar"],
    "car": ["car", "auto", "automobile", "machine", "motorcar"],
    "quick": ["quick", "fast", "speedy"],
}
SYN_CASES = [
    ("syn-large-car", ["the big car"], "the large automobile"),
    ("syn-car-auto", ["an automobile was parked"], "a car was parked"),
    ("syn-quick", ["a fast answer", "a slow answer"], "a quick answer"),
    ("syn-none", ["a red apple"], "a large apple"),
]


def _rows_json(obj):
    """Top-level keys one per line; a list of rows gets one row per line (a readable diff)."""
    dump = lambda v: json.dumps(v, ensure_ascii=False)
    parts = []
    for k, v in obj.items():
        if isinstance(v, list) and v and isinstance(v[0], list):
            parts.append(f" {dump(k)}: [\n" + ",\n".join("  " + dump(r) for r in v) + "\n ]")
        else:
            parts.append(f" {dump(k)}: {dump(v)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def main():
    out = dict(
        generator="scripts/reference/lexical_reference.py",
        python=sys.version.split()[0],
        nltk_version=nltk.__version__,
        rouge_source="google-research/google-research rouge/{tokenize,tokenizers,rouge_scorer,scoring}.py (re-implemented)",
        cases=[],
        synonyms=SYNONYMS,
        synonym_cases=[],
    )
    for cid, golds, cand in CASES:
        out["cases"].append(dict(
            id=cid, golds=golds, candidate=cand,
            bleu=bleu(golds, cand),
            rouge_l=rouge_l_multi(golds, cand, False),
            rouge_l_stem=rouge_l_multi(golds, cand, True),
            meteor=meteor(golds, cand),
        ))
    for cid, golds, cand in SYN_CASES:
        out["synonym_cases"].append(dict(id=cid, golds=golds, candidate=cand, meteor=meteor(golds, cand, SYNONYMS)))
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"wrote {OUT}: {len(out['cases'])} cases, {len(out['synonym_cases'])} synonym cases")

    if os.path.exists(PORTER):  # fixed word list; only the stems are recomputed
        with open(PORTER, encoding="utf-8") as f:
            porter = json.load(f)
        stemmer = PorterStemmer()
        porter["nltk_version"] = nltk.__version__
        porter["cases"] = [[w, stemmer.stem(w)] for w, _ in porter["cases"]]
        with open(PORTER, "w", encoding="utf-8") as f:
            f.write(_rows_json(porter))
        print(f"refreshed {PORTER}: {len(porter['cases'])} words")


if __name__ == "__main__":
    main()
