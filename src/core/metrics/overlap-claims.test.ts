/**
 * The overlap metrics' reasons against their rows: every count, ratio and gold a reason of exact_match, token_f1,
 * ROUGE-L, BLEU or METEOR names is computed again here from the row's tokens (the metric's own tokenizer, which
 * is the metric's definition; the counting, the LCS, the clipped n-grams, the brevity penalty, the alignment
 * arithmetic and the choice of gold are done anew), and a reason whose shape this file does not know is itself a
 * finding. Over every corpus the tests have, and EVOUNA-TQ where present.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createExactMatch } from './exact_match.ts';
import { createTokenF1 } from './token_f1.ts';
import { createRougeL, rougeTokenize } from './rouge_l.ts';
import { createBleu, lowerSplit } from './bleu.ts';
import { createMeteor } from './meteor.ts';
import { quote } from './common.ts';
import { normalizeTokens } from '../text/normalize.ts';
import type { Metric, QaItem } from '../types.ts';
import { ADVERSARIAL_PIECES } from '../text/adversarial.ts';
import { corpusItems, falseReasons, itOnEvouna } from '../../../test/corpora.ts';
import { lexicon } from '../../../test/lexicon.ts';

/** Whether `printed` (as a reason writes a number: fixed decimals or an exponent) is `value` to its last digit. */
export function shows(printed: string, value: number): boolean {
  const x = Number(printed);
  if (!Number.isFinite(x)) return false;
  if (/e/i.test(printed)) return Math.abs(x - value) <= Math.abs(value) * 0.01;
  const decimals = printed.split('.')[1]?.length ?? 0;
  return Math.abs(x - value) <= 0.5 * 10 ** -decimals + 1e-12;
}

/** The gold a reason names as `before` + quote(gold), or undefined. */
const goldNamed = (item: QaItem, reason: string, before: string) => item.golds.find((g) => reason.includes(`${before}${quote(g)}`));

const counts = (tokens: readonly string[]) => {
  const m = new Map<string, number>();
  for (const t of tokens) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
};

/** Tokens the two lists share, as multisets. */
function shared(a: readonly string[], b: readonly string[]): number {
  const left = counts(a);
  let n = 0;
  for (const t of b) {
    const k = left.get(t) ?? 0;
    if (k > 0) {
      n++;
      left.set(t, k - 1);
    }
  }
  return n;
}

/** The longest common subsequence, by the textbook table. */
function lcs(a: readonly string[], b: readonly string[]): number {
  const t = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) t[i]![j] = a[i - 1] === b[j - 1] ? t[i - 1]![j - 1]! + 1 : Math.max(t[i - 1]![j]!, t[i]![j - 1]!);
  return t[a.length]![b.length]!;
}

const f1 = (p: number, r: number) => (p + r === 0 ? 0 : (2 * p * r) / (p + r));

const squad = (s: string) => normalizeTokens(s, 'squad');

export function checkExactMatch(item: QaItem, reason: string): string | null {
  const cand = squad(item.candidate).join(' ');
  if (reason.startsWith('equals gold ')) {
    const g = goldNamed(item, reason, 'equals gold ');
    if (g === undefined) return 'the gold it names is not one';
    return squad(g).join(' ') === cand ? null : `"${g}" does not equal the candidate after normalization`;
  }
  const m = /^differs from every gold after normalization \(candidate → (".*")\)$/s.exec(reason);
  if (!m) return `a reason this checker does not know: ${reason.slice(0, 80)}`;
  if (m[1] !== quote(cand)) return `the candidate normalizes to ${quote(cand)}, not ${m[1]}`;
  const same = item.golds.find((g) => squad(g).join(' ') === cand);
  return same === undefined ? null : `gold "${same}" equals the candidate after normalization`;
}

export function checkTokenF1(item: QaItem, reason: string): string | null {
  if (reason === 'no gold answer') return item.golds.length === 0 ? null : 'the row has golds';
  const m = /^best gold (".*"): P=([\d.]+) R=([\d.]+) F1=([\d.]+)$/s.exec(reason);
  if (!m) return `a reason this checker does not know: ${reason.slice(0, 80)}`;
  const g = goldNamed(item, reason, 'best gold ');
  if (g === undefined) return 'the gold it names is not one';
  const prf = (gold: string) => {
    const c = squad(item.candidate);
    const t = squad(gold);
    const n = shared(t, c);
    const p = c.length ? n / c.length : 0;
    const r = t.length ? n / t.length : 0;
    return { p, r, f: f1(p, r) };
  };
  const s = prf(g);
  if (!shows(m[2]!, s.p) || !shows(m[3]!, s.r) || !shows(m[4]!, s.f)) return `P, R, F1 are ${s.p}, ${s.r}, ${s.f}`;
  const better = item.golds.find((x) => prf(x).f > s.f + 1e-12);
  return better === undefined ? null : `gold "${better}" has a higher F1`;
}

export function checkRougeL(item: QaItem, reason: string): string | null {
  if (reason === 'No gold answer to compare with.') return item.golds.length === 0 ? null : 'the row has golds';
  const pred = rougeTokenize(item.candidate);
  if (reason === 'Empty candidate.') return item.candidate.trim() === '' ? null : 'the candidate is not empty';
  if (reason === 'Candidate has no a–z/0–9 token.')
    return pred.length === 0 && item.candidate.trim() ? null : 'the candidate has such a token';
  const m = /^ROUGE-L F ([\d.]+) vs gold (".*"): LCS (\d+) words?, P=([\d.]+) R=([\d.]+)\.$/s.exec(reason);
  if (!m) return `a reason this checker does not know: ${reason.slice(0, 80)}`;
  if (/LCS 1 words|LCS (?!1 )\d+ word,/.test(reason)) return 'the word count and its noun disagree in number';
  const g = goldNamed(item, reason, 'vs gold ');
  if (g === undefined) return 'the gold it names is not one';
  const score = (gold: string) => {
    const t = rougeTokenize(gold);
    const n = lcs(t, pred);
    const p = pred.length ? n / pred.length : 0;
    const r = t.length ? n / t.length : 0;
    return { n, p, r, f: f1(p, r) };
  };
  const s = score(g);
  if (Number(m[3]) !== s.n) return `the LCS is ${s.n} words`;
  if (!shows(m[1]!, s.f) || !shows(m[4]!, s.p) || !shows(m[5]!, s.r)) return `F, P, R are ${s.f}, ${s.p}, ${s.r}`;
  const better = item.golds.find((x) => score(x).f > s.f + 1e-12);
  return better === undefined ? null : `gold "${better}" scores higher`;
}

/** Clipped n-gram matches of `hyp` against `refs`, and the candidate's n-grams (at least 1), as nltk's modified precision. */
function clipped(hyp: readonly string[], refs: readonly (readonly string[])[], n: number): [number, number] {
  const grams = (t: readonly string[]) => counts(t.slice(0, Math.max(0, t.length - n + 1)).map((_, i) => t.slice(i, i + n).join('\u0000')));
  const h = grams(hyp);
  const maxRef = new Map<string, number>();
  for (const r of refs) for (const [g, k] of grams(r)) maxRef.set(g, Math.max(maxRef.get(g) ?? 0, k));
  let hit = 0;
  let all = 0;
  for (const [g, k] of h) {
    hit += Math.min(k, maxRef.get(g) ?? 0);
    all += k;
  }
  return [hit, Math.max(1, all)];
}

/** Punctuation at either end of a token. */
const bareToken = (t: string) => t.replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, '');

/** The claim about glued punctuation: 'c' ≠ 'g', where c is the candidate's, g a gold's, and they differ by punctuation. */
function checkGlued(hyp: readonly string[], refs: readonly (readonly string[])[], reason: string): string | null {
  const m = /("(?:[^"\\]|\\.)*") ≠ ("(?:[^"\\]|\\.)*"): tokens are split on spaces only/.exec(reason);
  if (!m) return /≠/.test(reason) ? `a reason this checker does not know: ${reason.slice(0, 80)}` : null;
  const [c, g] = [JSON.parse(m[1]!) as string, JSON.parse(m[2]!) as string];
  if (!hyp.includes(c)) return `the candidate has no token '${c}'`;
  if (!refs.some((r) => r.includes(g))) return `no gold has the token '${g}'`;
  if (c === g || bareToken(c) !== bareToken(g)) return `'${c}' and '${g}' do not differ by punctuation alone`;
  return null;
}

export function checkBleu(item: QaItem, reason: string): string | null {
  const hyp = lowerSplit(item.candidate);
  if (/^No gold answer to compare with\.$/.test(reason)) return item.golds.length === 0 ? null : 'the row has golds';
  if (reason === 'Empty candidate.') return hyp.length === 0 ? null : 'the candidate has words';
  const m =
    /^BLEU (\S+): (.*?)(p1=\d+\/\d+ p2=\d+\/\d+ p3=\d+\/\d+ p4=\d+\/\d+); (\d+) candidate tokens vs closest gold length (\d+), BP=(\S+)\.$/s.exec(
      reason,
    );
  if (!m) return `a reason this checker does not know: ${reason.slice(0, 80)}`;
  const refs = item.golds.map(lowerSplit);
  const p = [1, 2, 3, 4].map((n) => clipped(hyp, refs, n));
  const written = [...m[3]!.matchAll(/p\d=(\d+)\/(\d+)/g)].map((x) => [Number(x[1]), Number(x[2])]);
  for (let n = 0; n < 4; n++) if (written[n]![0] !== p[n]![0] || written[n]![1] !== p[n]![1]) return `p${n + 1} is ${p[n]![0]}/${p[n]![1]}`;
  if (Number(m[4]) !== hyp.length) return `the candidate has ${hyp.length} tokens`;
  // nltk: the gold length nearest the candidate's, the shorter on a tie.
  const closest = refs
    .map((r) => r.length)
    .reduce((a, b) =>
      Math.abs(b - hyp.length) < Math.abs(a - hyp.length) || (Math.abs(b - hyp.length) === Math.abs(a - hyp.length) && b < a) ? b : a,
    );
  if (Number(m[5]) !== closest) return `the closest gold length is ${closest}`;
  const bp = hyp.length > closest ? 1 : Math.exp(1 - closest / hyp.length);
  if (!shows(m[6]!, bp)) return `BP is ${bp}`;
  const zero = p.findIndex(([a]) => a === 0);
  if (zero < 0) {
    const score = bp * Math.exp(p.reduce((s, [a, b]) => s + Math.log(a / b) / 4, 0));
    if (!shows(m[1]!, score)) return `BLEU is ${score}`;
  }
  const why = m[2]!;
  if (why.includes('no token in common with any gold') && p[0]![0] !== 0) return 'the candidate shares a token with a gold';
  const word = /a (\d+)-word candidate has no (\d)-gram to match/.exec(why);
  if (word && !(Number(word[1]) === hyp.length && hyp.length < Number(word[2]))) return `the candidate has ${hyp.length} words`;
  const longest = refs.reduce((a, r) => Math.max(a, r.length), 0);
  const gold = /no gold has a (\d)-gram to match \(the longest has (\d+) words?\)/.exec(why);
  if (gold && !(Number(gold[2]) === longest && longest < Number(gold[1]))) return `the longest gold has ${longest} words`;
  const none = /no matching (\d)-gram/.exec(why);
  if (none && p[Number(none[1]) - 1]![0] !== 0) return `a ${none[1]}-gram matches`;
  if (/≈0/.test(why) && zero < 0) return 'every n-gram order matches';
  return checkGlued(hyp, refs, why);
}

export function checkMeteor(item: QaItem, reason: string): string | null {
  const hyp = lowerSplit(item.candidate);
  if (reason === 'No gold answer to compare with.') return item.golds.length === 0 ? null : 'the row has golds';
  if (reason === 'Empty candidate.') return hyp.length === 0 ? null : 'the candidate has words';
  const refs = item.golds.map(lowerSplit);
  const glued = checkGlued(hyp, refs, reason);
  if (glued) return glued;
  if (reason.startsWith('METEOR 0: no token of the candidate aligns with any gold.')) {
    const same = hyp.find((t) => refs.some((r) => r.includes(t)));
    return same === undefined ? null : `'${same}' is in a gold as written`;
  }
  const m =
    /^METEOR ([\d.]+) vs gold (".*"): (\d+) aligned words \((\d+) exact, (\d+) stem, (\d+) synonym\) in (\d+) chunk\(s\), P=([\d.]+) R=([\d.]+), Fmean=([\d.]+) × \(1 − fragmentation penalty ([\d.]+)\)/s.exec(
      reason,
    );
  if (!m) return `a reason this checker does not know: ${reason.slice(0, 80)}`;
  const g = goldNamed(item, reason, 'vs gold ');
  if (g === undefined) return 'the gold it names is not one';
  const [matches, exact, stem, synonym, chunks] = [m[3], m[4], m[5], m[6], m[7]].map(Number) as [number, number, number, number, number];
  if (exact + stem + synonym !== matches) return 'the stages do not add up to the aligned words';
  const ref = lowerSplit(g);
  if (matches > Math.min(hyp.length, ref.length)) return 'more aligned words than a side has';
  if (chunks < 1 || chunks > matches) return 'a chunk count outside 1..aligned words';
  // Exact matches cannot outnumber the tokens the two sides share as written.
  if (exact > shared(ref, hyp)) return `only ${shared(ref, hyp)} tokens are shared as written`;
  const p = matches / hyp.length;
  const r = matches / ref.length;
  const fmean = (p * r) / (0.9 * p + 0.1 * r);
  const penalty = 0.5 * (chunks / matches) ** 3;
  if (!shows(m[8]!, p) || !shows(m[9]!, r)) return `P, R are ${p}, ${r}`;
  if (!shows(m[10]!, fmean)) return `Fmean is ${fmean}`;
  if (!shows(m[11]!, penalty)) return `the penalty is ${penalty}`;
  if (!shows(m[1]!, fmean * (1 - penalty))) return `METEOR is ${fmean * (1 - penalty)}`;
  if (reason.includes('one aligned word is one chunk of one') && !(matches === 1 && chunks === 1))
    return 'not one aligned word in one chunk';
  return null;
}

const CHECKS: [Metric, (item: QaItem, reason: string) => string | null][] = [
  [createExactMatch(), checkExactMatch],
  [createTokenF1(), checkTokenF1],
  [createRougeL(), checkRougeL],
  [createBleu(), checkBleu],
  [createMeteor({ lexicon }), checkMeteor],
];

/** Each metric's false reasons over `items`, by metric. */
const falseOf = (items: readonly QaItem[]) =>
  Object.fromEntries(CHECKS.map(([metric, check]) => [metric.name, falseReasons(items, metric, check).slice(0, 10)]));
const none = Object.fromEntries(CHECKS.map(([m]) => [m.name, []]));

describe("the overlap metrics' reasons say only what holds of their row", () => {
  it('on the demo set, its comparison, the fixtures and rows made to reach every kind of reason', () => {
    const edge: QaItem[] = [
      { question: 'Who?', golds: ['Shakespeare'], candidate: 'shakespeare,' },
      { question: 'Who?', golds: ['William Shakespeare', 'Shakespeare'], candidate: 'The playwright Shakespeare wrote it' },
      { question: 'What?', golds: ['a b c d e'], candidate: 'e d c b a' },
      { question: 'What?', golds: ['x'], candidate: 'x y z w' },
      { question: 'What?', golds: ['Paris'], candidate: '' },
      { question: 'What?', golds: ['Paris'], candidate: '…' },
      { question: 'What?', golds: [], candidate: 'Paris' },
      { question: 'Which?', golds: ['the cat sat on the mat'], candidate: 'the cat sat on the mat' },
    ];
    expect(falseOf([...corpusItems(), ...edge])).toEqual(none);
  });

  it('on generated rows: words shared in any order, repeated, glued to punctuation and quotes, and hostile pieces', () => {
    const word = fc.constantFrom('the', 'cat', 'sat', 'mat', 'paris', 'Paris', "'quiver'", 'quiver.', 'a', '1', '20%', 'cats', 'running');
    const hostile = fc.constantFrom(...ADVERSARIAL_PIECES);
    const text = fc.oneof(
      { arbitrary: fc.array(word, { maxLength: 9 }).map((w) => w.join(' ')), weight: 4 },
      { arbitrary: fc.array(hostile, { maxLength: 6 }).map((w) => w.join(' ')), weight: 1 },
    );
    const item = fc.record({ question: fc.constant('Q?'), golds: fc.array(text, { maxLength: 3 }), candidate: text });
    fc.assert(
      fc.property(item, (it) => {
        expect(falseOf([it])).toEqual(none);
      }),
      { numRuns: 400 },
    );
  });

  itOnEvouna("the overlap metrics' reasons", (rows) => expect(falseOf(rows)).toEqual(none), 900_000);

  it('finds planted false reasons', () => {
    const item = { question: 'Who?', golds: ['William Shakespeare', 'Shakespeare'], candidate: 'Shakespeare wrote Hamlet' };
    expect(checkExactMatch(item, 'equals gold "Shakespeare" after normalization')).not.toBeNull();
    expect(checkExactMatch(item, 'differs from every gold after normalization (candidate → "shakespeare wrote")')).not.toBeNull();
    expect(checkTokenF1(item, 'best gold "William Shakespeare": P=0.333 R=0.5 F1=0.4')).not.toBeNull(); // "Shakespeare" is better
    expect(checkTokenF1(item, 'best gold "Shakespeare": P=0.5 R=1 F1=0.5')).not.toBeNull();
    expect(checkRougeL(item, 'ROUGE-L F 0.5000 vs gold "Shakespeare": LCS 1 words, P=0.333 R=1.000.')).not.toBeNull();
    expect(checkRougeL(item, 'ROUGE-L F 0.5000 vs gold "Shakespeare": LCS 2 words, P=0.333 R=1.000.')).not.toBeNull();
    expect(checkBleu(item, 'BLEU 0: p1=2/3 p2=0/2 p3=0/1 p4=0/1; 3 candidate tokens vs closest gold length 1, BP=1.')).not.toBeNull();
    expect(checkBleu(item, 'BLEU 0: p1=1/3 p2=0/2 p3=0/1 p4=0/1; 3 candidate tokens vs closest gold length 1, BP=1.')).not.toBeNull();
    expect(
      checkBleu(
        item,
        'BLEU 0: no token in common with any gold; p1=1/3 p2=0/2 p3=0/1 p4=0/1; 3 candidate tokens vs closest gold length 2, BP=1.',
      ),
    ).not.toBeNull();
    // The row's own reason holds.
    expect(checkBleu(item, createBleu().score(item).explanation)).toBeNull();
    expect(
      checkBleu(
        item,
        'BLEU 0: "wrote" ≠ "hamlet": tokens are split on spaces only, so punctuation stays on the word; p1=1/3 p2=0/2 p3=0/1 p4=0/1; 3 candidate tokens vs closest gold length 1, BP=1.',
      ),
    ).not.toBeNull();
    expect(
      checkMeteor(
        item,
        'METEOR 0.5000 vs gold "Shakespeare": 2 aligned words (1 exact, 0 stem, 1 synonym) in 1 chunk(s), P=0.667 R=2.000, Fmean=0.5 × (1 − fragmentation penalty 0.0625).',
      ),
    ).not.toBeNull();
    expect(checkMeteor(item, 'METEOR 0: no token of the candidate aligns with any gold.')).not.toBeNull();
  });
});
