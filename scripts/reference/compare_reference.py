#!/usr/bin/env python3
"""Reference values for src/core/compare, computed independently of the TypeScript code.

McNemar's exact test from scipy.stats.binomtest, Kendall tau-b from scipy.stats.kendalltau, the normal tail
from scipy.stats.norm.sf (bootstrap-SE p-values) and scipy.special.erfc, Holm's step-down
correction by hand from its definition, percentile intervals from numpy.quantile (linear). Every bootstrap
here resamples questions with its own mulberry32 (the seeded generator of src/core/util/random.ts), drawing the
same question indices as the TypeScript's score resample, so the mean-score intervals and bootstrap p-values
must match to rounding. The accuracy intervals (and the paired accuracy differences) are drawn in the
TypeScript from multinomial draws of the confusion counts instead: the same distribution, other draws, so the
tests compare them within Monte-Carlo error (compare.test.ts `mcCi`). The exact sign-flip p used for 16 or
fewer differing questions is pinned separately against scipy.stats.permutation_test (compare.test.ts); the
cases here have more questions, so their score p-values are the bootstrap's.
Data are small fixed systems x questions matrices (random.Random with fixed seeds), with missing cells.

    /usr/bin/python3 scripts/reference/compare_reference.py   # writes test/fixtures/compare-reference.json
"""
import json
import math
import random
from itertools import combinations
from pathlib import Path

import numpy as np
from scipy import special, stats

OUT = Path(__file__).resolve().parents[2] / 'test' / 'fixtures' / 'compare-reference.json'
M32 = 0xFFFFFFFF


def mulberry32(seed):
    a = seed & M32

    def rnd():
        nonlocal a
        a = (a + 0x6D2B79F5) & M32
        t = a
        t = ((t ^ (t >> 15)) * (t | 1)) & M32
        t ^= (t + (((t ^ (t >> 7)) * (t | 61)) & M32)) & M32
        return ((t ^ (t >> 14)) & M32) / 4294967296

    return rnd


def resamples(Q, B, seed):
    """Multiplicity vectors of B resamples of Q questions, as forEachResample draws them."""
    rng = mulberry32(seed)
    for _ in range(B):
        w = [0] * Q
        for _ in range(Q):
            w[math.floor(rng() * Q)] += 1
        yield w


def interval(values, level):
    v = sorted(x for x in values if x is not None)
    if not v:
        return None
    a = (1 - level) / 2
    return [float(np.quantile(v, a)), float(np.quantile(v, 1 - a))]


def wmean(w, xs):
    """Weighted mean of the present values (None = missing), None when no weight."""
    num = den = 0
    for k, x in zip(w, xs):
        if k and x is not None:
            num += k * x
            den += k
    return num / den if den else None


def mean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def mcnemar_p(b, c):
    return 1.0 if b + c == 0 else float(stats.binomtest(b, b + c, 0.5).pvalue)


def holm(ps):
    """Adjusted p-values by the definition max_{j<=i} min(1, (m-j+1) p_(j)); None stays None."""
    present = sorted((p, i) for i, p in enumerate(ps) if p is not None)
    m = len(present)
    out = [None] * len(ps)
    running = 0.0
    for j, (p, i) in enumerate(present):
        running = max(running, min(1.0, (m - j) * p))
        out[i] = running
    return out


def boot_p(diff, draws):
    """Two-sided p from the bootstrap standard error: 2 * P(Z >= |diff| / sd(draws, ddof=1))."""
    d = [x for x in draws if x is not None]
    if len(d) < 2:
        return None
    se = float(np.std(d, ddof=1))
    if se == 0:
        return 1.0 if diff == 0 else 0.0
    return min(1.0, float(2 * stats.norm.sf(abs(diff) / se)))


def make_case(name, seed, S, Q, miss, lab_miss, threshold=0.5):
    r = random.Random(seed)
    skill = [r.uniform(0.3, 0.8) for _ in range(S)]
    scores, labels = [], []
    for s in range(S):
        srow, lrow = [], []
        for q in range(Q):
            if r.random() < miss:
                srow.append(None)
                lrow.append(None)
                continue
            hard = r.random()
            sc = min(1.0, max(0.0, skill[s] + 0.5 * (r.random() - hard)))
            # A few answers the metric cannot score but a human labelled.
            srow.append(None if r.random() < 0.03 else round(sc, 4))
            lrow.append(None if r.random() < lab_miss else (r.random() < (0.8 * sc + 0.1)))
        scores.append(srow)
        labels.append(lrow)
    return {'name': name, 'systems': [f's{s}' for s in range(S)], 'threshold': threshold, 'scores': scores, 'labels': labels}


def expected(case, B, seed, level, alpha):
    S = len(case['systems'])
    Q = len(case['scores'][0])
    th = case['threshold']
    sc = case['scores']
    dec = [[None if x is None else (1 if x >= th else 0) for x in row] for row in sc]
    hum = [[None if l is None else (1 if l else 0) for l in row] for row in case['labels']]
    W = list(resamples(Q, B, seed))

    board = []
    for s in range(S):
        hl = [h for h in hum[s] if h is not None]
        board.append({
            'system': case['systems'][s],
            'mean': mean(sc[s]),
            'mean_ci': interval([wmean(w, sc[s]) for w in W], level),
            'accuracy': mean(dec[s]),
            'accuracy_ci': interval([wmean(w, dec[s]) for w in W], level),
            'human_correct': sum(hl), 'human_labelled': len(hl),
            'human_accuracy': sum(hl) / len(hl) if hl else None,
            'human_ci': interval([wmean(w, hum[s]) for w in W], level),
        })

    def both(x, y):
        return [None if a is None or b is None else a - b for a, b in zip(x, y)]

    def paired_dec(d):
        out = []
        for a, b in combinations(range(S), 2):
            pairs = [(x, y) for x, y in zip(d[a], d[b]) if x is not None and y is not None]
            bb = sum(1 for x, y in pairs if x > y)
            cc = sum(1 for x, y in pairs if y > x)
            diff = both(d[a], d[b])
            out.append({'a': case['systems'][a], 'b': case['systems'][b], 'n': len(pairs), 'b_count': bb, 'c_count': cc,
                        'diff': mean(diff), 'ci': interval([wmean(w, diff) for w in W], level), 'p': mcnemar_p(bb, cc)})
        for x, adj in zip(out, holm([x['p'] for x in out])):
            x['p_holm'] = adj
            x['better'] = (x['a'] if x['diff'] > 0 else x['b']) if adj < alpha and x['diff'] != 0 else None
        return out

    score_pairs = []
    for a, b in combinations(range(S), 2):
        diff = both(sc[a], sc[b])
        draws = [wmean(w, diff) for w in W]
        score_pairs.append({'a': case['systems'][a], 'b': case['systems'][b], 'n': sum(1 for x in diff if x is not None),
                            'diff': mean(diff), 'ci': interval(draws, level), 'p': boot_p(mean(diff), draws)})
    for x, adj in zip(score_pairs, holm([x['p'] for x in score_pairs])):
        x['p_holm'] = adj
        x['better'] = (x['a'] if x['diff'] > 0 else x['b']) if adj < alpha and x['diff'] != 0 else None

    gaps = []
    for s in range(S):
        both_rows = [(d, h) for d, h in zip(dec[s], hum[s]) if d is not None and h is not None]
        g = [None if d is None or h is None else d - h for d, h in zip(dec[s], hum[s])]
        gaps.append({'system': case['systems'][s], 'n': len(both_rows),
                     'metric_accuracy': sum(d for d, _ in both_rows) / len(both_rows),
                     'human_accuracy': sum(h for _, h in both_rows) / len(both_rows),
                     'gap': mean(g), 'gap_ci': interval([wmean(w, g) for w in W], level)})
    m_acc = [g['metric_accuracy'] for g in gaps]
    h_acc = [g['human_accuracy'] for g in gaps]
    tau = stats.kendalltau(m_acc, h_acc)[0]
    discordant = [[case['systems'][i], case['systems'][j]] for i, j in combinations(range(S), 2)
                  if (m_acc[i] - m_acc[j]) * (h_acc[i] - h_acc[j]) < 0]
    m_rank = stats.rankdata([-x for x in m_acc]).tolist()
    h_rank = stats.rankdata([-x for x in h_acc]).tolist()
    return {
        'leaderboard': board,
        'accuracy_pairs': paired_dec(dec),
        'score_pairs': score_pairs,
        'human_pairs': paired_dec(hum),
        'ranking': {'kendall_tau': None if math.isnan(tau) else float(tau), 'discordant': discordant,
                    'metric_rank': m_rank, 'human_rank': h_rank, 'gaps': gaps},
    }


def main():
    B, seed, level, alpha = 300, 7, 0.95, 0.05
    rng = mulberry32(42)
    cases = []
    for name, cseed, S, Q, miss, lab_miss in [('five-systems', 11, 5, 80, 0.08, 0.1), ('three-systems-sparse', 23, 3, 45, 0.25, 0.3)]:
        case = make_case(name, cseed, S, Q, miss, lab_miss)
        case['expected'] = expected(case, B, seed, level, alpha)
        cases.append(case)
    mcnemar = [{'b': b, 'c': c, 'p': mcnemar_p(b, c)} for b, c in
               [(0, 0), (5, 5), (0, 1), (0, 12), (1, 30), (7, 3), (12, 21), (480, 560), (3000, 3150), (40000, 40500), (0, 2000)]]
    holm_cases = [{'p': ps, 'adjusted': holm(ps)} for ps in
                  [[0.01, 0.04, 0.03, 0.005], [0.02, 0.02, 0.5, None, 0.001], [0.3, 0.6, 0.9], [0.4], []]]
    erfc_points = [0, 0.1, 0.5, 1, 1.49, 1.5, 1.6, 2, 2.5, 3, 5, 10, 20, 26, -0.7, -3]
    out = {
        'erfc': [{'x': x, 'erfc': float(special.erfc(x))} for x in erfc_points],
        'bootstrap': {'resamples': B, 'seed': seed, 'level': level, 'alpha': alpha},
        'mulberry32_seed42': [rng() for _ in range(5)],
        'mcnemar': mcnemar,
        'holm': holm_cases,
        'cases': cases,
    }
    OUT.write_text(json.dumps(out, indent=1) + '\n')


if __name__ == '__main__':
    main()
