#!/usr/bin/env python3
"""Reference values for src/core/protocol, from scipy/sklearn and plain loops.

Builds small fixed data sets (deterministic: random.Random with fixed seeds), computes the
expected statistics and writes test/fixtures/agreement-reference.json, which the Vitest tests
pin within 1e-9. Undefined values (NaN in scipy, sklearn's 0 fallbacks for empty margins) are
written as null, as the TypeScript code returns null there.

    /usr/bin/python3 scripts/reference/agreement_reference.py
"""
import json
import math
import random
import statistics
from pathlib import Path

import numpy as np
from scipy import stats
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import (accuracy_score, balanced_accuracy_score, cohen_kappa_score,
                             f1_score, matthews_corrcoef, precision_score, recall_score,
                             roc_auc_score)

OUT = Path(__file__).resolve().parents[2] / 'test' / 'fixtures' / 'agreement-reference.json'

CLASSES = ['exact', 'equivalent', 'alternative-correct', 'overinclusive-valid', 'partial',
           'overinclusive-invalid', 'invalid', 'contradictory']
SEVERITY = {'exact': 7, 'equivalent': 6, 'alternative-correct': 6, 'overinclusive-valid': 5,
            'partial': 4, 'overinclusive-invalid': 2, 'invalid': 1, 'contradictory': 0}
HARD = {'Eq>Part': ('equivalent', 'partial'), 'OV>Part': ('overinclusive-valid', 'partial'),
        'OV>OI': ('overinclusive-valid', 'overinclusive-invalid'),
        'Alt>Inv': ('alternative-correct', 'invalid')}


def clean(v):
    """float or None (NaN → None)."""
    if v is None:
        return None
    v = float(v)
    return None if math.isnan(v) else v


# ---------------- stats ----------------

def stats_case(name, x, y=None, labels=None):
    case = {'name': name, 'x': x}
    if y is not None:
        case['y'] = y
        const = len(set(x)) < 2 or len(set(y)) < 2
        case['pearson'] = None if const else clean(stats.pearsonr(x, y)[0])
        case['spearman'] = None if const else clean(stats.spearmanr(x, y)[0])
        case['kendall'] = None if const else clean(stats.kendalltau(x, y)[0])
    if labels is not None:
        case['labels'] = labels
        case['auc'] = clean(roc_auc_score(labels, x)) if len(set(labels)) == 2 else None
    case['midranks'] = [float(r) for r in stats.rankdata(x)]
    return case


def stats_cases():
    r = random.Random(1)
    out = []
    x = [r.randint(0, 9) for _ in range(150)]
    y = [round(v + r.gauss(0, 3)) for v in x]
    out.append(stats_case('ties', x, y, [v + r.random() * 4 > 7 for v in x]))
    x = [r.random() for _ in range(80)]
    y = [v * v + r.gauss(0, 0.1) for v in x]
    out.append(stats_case('continuous', x, y, [r.random() < v for v in x]))
    x = [r.choice([0, 0.25, 0.5, 0.75, 1]) for _ in range(120)]
    y = [r.choice([0, 1, 2]) - 2 * v for v in x]
    out.append(stats_case('negative-heavy-ties', x, y, [r.random() < 1 - v for v in x]))
    out.append(stats_case('constant-x', [0.5] * 30, [r.random() for _ in range(30)], [True] * 15 + [False] * 15))
    out.append(stats_case('one-class', [r.random() for _ in range(20)], None, [True] * 20))
    return out


# ---------------- binary ----------------

def confusion(dec, lab):
    tp = sum(d and l for d, l in zip(dec, lab))
    fp = sum(d and not l for d, l in zip(dec, lab))
    tn = sum(not d and not l for d, l in zip(dec, lab))
    fn = sum(not d and l for d, l in zip(dec, lab))
    return {'tp': tp, 'fp': fp, 'tn': tn, 'fn': fn}


def binary_expected(scores, decisions, labels):
    keep = [i for i in range(len(labels)) if scores[i] is not None and decisions[i] is not None]
    s = [scores[i] for i in keep]
    d = [decisions[i] for i in keep]
    l = [labels[i] for i in keep]
    c = confusion(d, l)
    tp, fp, tn, fn = c['tp'], c['fp'], c['tn'], c['fn']
    both = (tp + fn) > 0 and (tn + fp) > 0
    margins = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
    chance = ((tp + fp) * (tp + fn) + (tn + fn) * (tn + fp)) / len(l) ** 2
    return {
        'n': len(keep), 'excluded': len(labels) - len(keep), 'confusion': c,
        'accuracy': clean(accuracy_score(l, d)),
        'precision': clean(precision_score(l, d, zero_division=0)) if tp + fp else None,
        'recall': clean(recall_score(l, d, zero_division=0)) if tp + fn else None,
        'f1': clean(f1_score(l, d, zero_division=0)) if 2 * tp + fp + fn else None,
        'mcc': clean(matthews_corrcoef(l, d)) if margins else None,  # sklearn says 0 here
        'balancedAccuracy': clean(balanced_accuracy_score(l, d)) if both else None,
        'kappa': clean(cohen_kappa_score(l, d)) if chance != 1 else None,
        'auc': clean(roc_auc_score(l, s)) if both else None,
    }


def metric(objective, c):
    tp, fp, tn, fn = c
    if objective == 'accuracy':
        return (tp + tn) / (tp + fp + tn + fn)
    if objective == 'f1':
        return 2 * tp / (2 * tp + fp + fn) if 2 * tp + fp + fn else None
    m = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
    return (tp * tn - fp * fn) / math.sqrt(m) if m else None


def best_threshold(scores, labels, objective):
    """Brute force: every distinct score v as 'positive iff score >= v', scanned from the highest v
    down; a candidate within 1e-12 of the best so far replaces it (ties → smallest threshold).
    Reported threshold = midpoint to the next lower distinct score (the lowest v itself)."""
    pairs = [(s, l) for s, l in zip(scores, labels) if s is not None]
    vals = sorted({s for s, _ in pairs}, reverse=True)
    best = None
    for k, v in enumerate(vals):
        dec = [s >= v for s, _ in pairs]
        lab = [l for _, l in pairs]
        c = confusion(dec, lab)
        val = metric(objective, (c['tp'], c['fp'], c['tn'], c['fn']))
        if val is None or (best is not None and val < best['value'] - 1e-12):
            continue
        # cross-check the objective against sklearn
        ref = {'mcc': matthews_corrcoef, 'accuracy': accuracy_score,
               'f1': lambda a, b: f1_score(a, b, zero_division=0)}[objective](lab, dec)
        assert abs(ref - val) < 1e-12, (ref, val)
        t = (v + vals[k + 1]) / 2 if k + 1 < len(vals) else v
        best = {'threshold': t, 'value': val, 'confusion': c}
    return best


def binary_cases():
    r = random.Random(2)
    out = []
    n = 200
    labels = [r.random() < 0.45 for _ in range(n)]
    scores = [None if r.random() < 0.08 else round(min(1, max(0, (0.62 if l else 0.38) + r.gauss(0, 0.22))), 2) for l in labels]
    decisions = [None if s is None else s >= 0.5 for s in scores]
    out.append(('main', scores, decisions, labels))
    n = 90
    labels = [r.random() < 0.3 for _ in range(n)]
    scores = [r.choice([0, 0.25, 0.5, 0.75, 1]) if r.random() < 0.5 else (0.75 if l else 0.25) for l in labels]
    decisions = [None if r.random() < 0.05 else s >= 0.3 for s in scores]  # null decisions, scores present
    out.append(('heavy-ties', scores, decisions, labels))
    n = 60
    labels = [r.random() < 0.5 for _ in range(n)]
    scores = [round(r.random(), 1) for _ in range(n)]
    out.append(('all-predicted-positive', scores, [True] * n, labels))
    out.append(('one-class', scores[:40], [s >= 0.5 for s in scores[:40]], [True] * 40))
    cases = []
    for name, s, d, l in out:
        cases.append({'name': name, 'scores': s, 'decisions': d, 'labels': l,
                      'expected': binary_expected(s, d, l),
                      'bestThreshold': {o: best_threshold(s, l, o) for o in ('mcc', 'accuracy', 'f1')}})
    return cases


# ---------------- taxonomy ----------------

def taxonomy_expected(scores, labels):
    keep = [i for i in range(len(labels)) if scores[i] is not None]
    s = [scores[i] for i in keep]
    c = [labels[i] for i in keep]
    sev = [SEVERITY[k] for k in c]
    agree = ties = total = 0
    for i in range(len(s)):
        for j in range(i + 1, len(s)):
            if sev[i] == sev[j]:
                continue
            total += 1
            hi, lo = (i, j) if sev[i] > sev[j] else (j, i)
            if s[hi] > s[lo]:
                agree += 1
            elif s[hi] == s[lo]:
                ties += 1
    classes = {}
    for k in CLASSES:
        xs = [v for v, kk in zip(s, c) if kk == k]
        classes[k] = {'count': len(xs), 'mean': statistics.fmean(xs) if xs else None,
                      'std': statistics.stdev(xs) if len(xs) > 1 else None}
    viol, of, of_x, cnt_x = [], 0, 0, 0
    for a in range(8):
        for b in range(a + 1, 8):
            hi, lo = CLASSES[a], CLASSES[b]
            if SEVERITY[hi] == SEVERITY[lo] or classes[hi]['mean'] is None or classes[lo]['mean'] is None:
                continue
            ovp = (hi, lo) == ('overinclusive-valid', 'partial')
            of += 1
            of_x += not ovp
            if classes[hi]['mean'] < classes[lo]['mean']:
                viol.append({'higher': hi, 'lower': lo, 'meanHigher': classes[hi]['mean'], 'meanLower': classes[lo]['mean']})
                cnt_x += not ovp
    hard = {}
    for name, (a, b) in HARD.items():
        xa = [v for v, k in zip(s, c) if k == a]
        xb = [v for v, k in zip(s, c) if k == b]
        if not xa or not xb:
            hard[name] = None
            continue
        hard[name] = sum(1.0 if u > v else 0.5 if u == v else 0.0 for u in xa for v in xb) / (len(xa) * len(xb))
    const = len(set(s)) < 2 or len(set(sev)) < 2
    return {
        'n': len(s), 'excluded': len(labels) - len(s),
        'spearman': None if const else clean(stats.spearmanr(s, sev)[0]),
        'kendall': None if const else clean(stats.kendalltau(s, sev)[0]),
        'pairwiseAccuracy': (agree + 0.5 * ties) / total if total else None, 'pairs': total,
        'classes': classes,
        'violations': {'count': len(viol), 'of': of, 'pairs': viol,
                       'excluding_ov_partial': {'count': cnt_x, 'of': of_x}},
        'hardPairs': hard,
    }


def taxonomy_cases():
    r = random.Random(3)
    # Class centres deliberately put overinclusive-valid below partial and invalid above
    # overinclusive-invalid, so there are violations to find.
    centre = {'exact': 0.95, 'equivalent': 0.8, 'alternative-correct': 0.7, 'overinclusive-valid': 0.5,
              'partial': 0.55, 'overinclusive-invalid': 0.3, 'invalid': 0.35, 'contradictory': 0.1}

    def draw(cls_list, n, nulls):
        labels = [cls_list[i % len(cls_list)] if i < len(cls_list) else r.choice(cls_list) for i in range(n)]
        scores = [None if r.random() < nulls else round(min(1, max(0, centre[k] + r.gauss(0, 0.15))) * 20) / 20 for k in labels]
        return scores, labels

    out = []
    s, l = draw(CLASSES, 200, 0.05)
    out.append(('all-classes', s, l))
    s, l = draw([k for k in CLASSES if k not in ('alternative-correct', 'overinclusive-invalid')], 120, 0.0)
    out.append(('missing-classes', s, l))
    labels = [r.choice(CLASSES) for _ in range(70)]
    out.append(('random-scores', [r.choice([0, 0.5, 1]) for _ in labels], labels))
    return [{'name': n, 'scores': s, 'labels': l, 'expected': taxonomy_expected(s, l)} for n, s, l in out]


# ---------------- logistic regression ----------------

def logistic_case():
    r = random.Random(4)
    n, l2 = 300, 0.05
    X = [[r.gauss(0, 1), r.gauss(0, 2), r.random()] for _ in range(n)]
    y = [r.random() < 1 / (1 + math.exp(-(1.5 * a - 0.7 * b + 2 * c - 1))) for a, b, c in X]
    # Exact optimum of (1/n)·Σ logloss + (l2/2)·‖w‖² by Newton's method (quadratic convergence),
    # cross-checked against sklearn, which minimizes C·Σ loss + ½‖w‖² with C = 1/(n·l2) but
    # stops its L-BFGS ~1e-5 short of the optimum.
    A = np.hstack([np.array(X), np.ones((n, 1))])
    t = np.array(y, dtype=float)
    theta = np.zeros(4)
    for _ in range(50):
        p = 1 / (1 + np.exp(-A @ theta))
        g = A.T @ (p - t) / n
        g[:3] += l2 * theta[:3]
        H = (A.T * (p * (1 - p))) @ A / n
        H[:3, :3] += l2 * np.eye(3)
        theta -= np.linalg.solve(H, g)
    assert np.abs(g).max() < 1e-14
    m = LogisticRegression(C=1 / (n * l2), tol=1e-12, max_iter=10000).fit(np.array(X), np.array(y))
    assert np.allclose(m.coef_[0], theta[:3], atol=1e-4) and abs(m.intercept_[0] - theta[3]) < 1e-4
    return {'X': X, 'y': y, 'l2': l2, 'weights': [float(w) for w in theta[:3]], 'bias': float(theta[3])}


def main():
    data = {'generatedBy': 'scripts/reference/agreement_reference.py',
            'stats': stats_cases(), 'binary': binary_cases(), 'taxonomy': taxonomy_cases(),
            'logistic': logistic_case()}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, allow_nan=False) + '\n')
    print(f'wrote {OUT}')


if __name__ == '__main__':
    main()
