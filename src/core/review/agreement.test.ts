/**
 * Several reviewers end to end: the second person's share is a uniform draw of the review's questions (each as
 * likely, over seeds) in the review's order and blind to the judge; a share is read as people write it; label files'
 * text read as the CLI reads the files; the report's sentences say its figures and how each disagreement went.
 */
import { describe, expect, it } from 'vitest';
import { agreementLines, agreementReport, mergedJsonl, parseShare, secondReview, settleReview, verdictsOfText } from './agreement.ts';
import { reviewSheet } from './sheet.ts';
import { cohenKappa } from './reviewers.ts';

const lines = Array.from({ length: 40 }, (_, k) => ({
  order: k + 1,
  id: `q${k}`,
  question: `Q${k}?`,
  golds: [`g${k}`],
  candidate: `a${k}`,
  label: null,
  judge: { metric: 'pedants', score: 0.5, decision: true, explanation: 'why' },
  why: 'doubtful',
  design: { seed: 1 },
}));

describe('a second reviewer', () => {
  it("draws each question alike (over seeds), keeps the review's order, and leaves out the judge and the draw", () => {
    const seen = new Array<number>(40).fill(0);
    const seeds = 2000;
    for (let seed = 1; seed <= seeds; seed++) {
      const s = secondReview(lines, 0.1, seed);
      expect(s).toHaveLength(4);
      const orders = s.map((l) => l.order as number);
      expect(orders).toEqual([...orders].sort((a, b) => a - b));
      for (const o of orders) seen[o - 1]!++;
    }
    // Each question drawn with probability 0.1: 200 of 2000 expected, sd ≈ 13.4; four sd either way.
    for (const n of seen) expect(Math.abs(n - 200)).toBeLessThan(4 * Math.sqrt(seeds * 0.1 * 0.9));
    const one = secondReview(lines, 0.1, 7)[0]!;
    expect(Object.keys(one).sort()).toEqual(['candidate', 'golds', 'label', 'order', 'question', 'second']);
    expect(secondReview(lines, 0.001, 3)).toHaveLength(1);
    expect(secondReview([{ known: true, question: 'x' }], 0.5, 3)).toEqual([]);
    expect(() => secondReview(lines, 0, 1)).toThrow(/above 0 and at most 100%/);
  });

  it('reads a share as people write it', () => {
    expect(parseShare('10%')).toBeCloseTo(0.1, 12);
    expect(parseShare('0.25')).toBe(0.25);
    expect(parseShare('15')).toBeCloseTo(0.15, 12);
    expect(parseShare('100%')).toBe(1);
    for (const bad of ['0', '0%', '150%', 'ten', '']) expect(() => parseShare(bad), bad).toThrow(/not a share of the questions/);
  });
});

describe('agreement from label files', () => {
  const filled = (labels: boolean[], name: string) =>
    lines
      .slice(0, labels.length)
      .map((l, k) => JSON.stringify({ ...l, label: labels[k] }))
      .join('\n') + (name.endsWith('.csv') ? '' : '\n');
  const ana = [true, true, false, true, false, true];
  const ben = [true, false, false, true, false, true];

  it('reads JSONL and a review sheet alike, and says κ, the disagreement and how it went', () => {
    const anaText = filled(ana, 'ana.jsonl');
    const benSheet = reviewSheet(lines.slice(0, 6).map((l, k) => ({ ...l, label: ben[k] })));
    const read = [...verdictsOfText(anaText, 'ana.jsonl'), ...verdictsOfText(benSheet, 'folder/ben.csv')];
    expect(read).toHaveLength(12);
    const r = agreementReport(read, { unsettled: 'omit', resamples: 0, seed: 1, level: 0.95 });
    const code = (x: boolean[]) => x.map((v) => (v ? 'correct' : 'incorrect'));
    expect(r.agreement.reviewers).toEqual(['ana', 'ben']);
    expect(r.agreement.value).toBeCloseTo(cohenKappa(code(ana), code(ben))!, 12);
    expect(r.settling).toMatchObject({ omitted: 1, merged: 5, adjudicated: 0, majority: 0 });
    const text = agreementLines(r).join('\n');
    expect(text).toContain(`Cohen's κ = ${r.agreement.value!.toFixed(3)}.`);
    expect(text).toContain('"Q1?" — answer "a1" (gold "g1"): ana correct, ben incorrect');
    expect(text).toContain('5 answers have one verdict (of the disagreements: 1 left out (unsettled; the majority can be taken instead))');
    expect(mergedJsonl(r.merged).trim().split('\n')).toHaveLength(5);
  });

  it('refuses what cannot be measured, saying why', () => {
    expect(() => verdictsOfText('{"question":1}\nnot json\n', 'x.jsonl')).toThrow(/x\.jsonl, line 2 is not JSON/);
    expect(() => agreementReport([], { unsettled: 'omit', resamples: 0, seed: 1, level: 0.95, files: ['a.jsonl'] })).toThrow(
      /a\.jsonl: no verdict with what it judged/,
    );
    const only = verdictsOfText(filled(ana, 'ana.jsonl'), 'ana.jsonl');
    expect(() => agreementReport(only, { unsettled: 'omit', resamples: 0, seed: 1, level: 0.95 })).toThrow(/agreement needs two reviewers/);
  });

  it("settles a review's questions: the adjudicator's and the majority's verdicts in, an agreed line's own kept, an unsettled one unanswered", () => {
    // Four answered questions: ana's review; ben and cy judged them too; dee adjudicates question 2.
    const review = lines.slice(0, 5).map((l, k) => ({ ...l, label: k < 4 ? (k === 0 ? 'equivalent' : true) : null }));
    const verdict = (k: number, label: unknown, reviewer: string) => ({ ...lines[k]!, label, reviewer });
    const others = [
      verdict(0, 'exact', 'ben'), // agreed (both correct): ana's class stays
      verdict(1, false, 'ben'),
      verdict(1, false, 'cy'), // two against one: the majority's
      verdict(2, false, 'ben'),
      verdict(2, false, 'dee'), // adjudicated
      verdict(3, false, 'ben'), // one against one, nobody settles: unanswered
    ];
    const read = [
      ...verdictsOfText(review.map((l) => JSON.stringify(l)).join('\n'), 'ana.jsonl'),
      ...verdictsOfText(others.map((l) => JSON.stringify(l)).join('\n'), 'rest.jsonl'),
    ];
    const r = agreementReport(read, { adjudicator: 'dee', unsettled: 'majority', resamples: 0, seed: 1, level: 0.95 });
    const s = settleReview(review, r.merged);
    expect(s).toMatchObject({ agreed: 1, adjudicated: 1, majority: 1, unsettled: 1, firstUnsettled: 4 });
    expect(s.lines.map((l) => [l.label, l.settled ?? null, l.unsettled ?? false])).toEqual([
      ['equivalent', 'agreed', false],
      [false, 'majority', false],
      [false, 'adjudicated', false],
      [null, null, true],
      [null, null, false],
    ]);
  });
});
