/**
 * The review's plan: the budget read unambiguously, the questions asked in the design's order and written as a
 * label file that reads back whole; and the prediction learned from the answers never seeing a row's own label.
 */
import { describe, expect, it } from 'vitest';
import { designRecord, parseBudget, planReview, reviewLine } from './plan.ts';
import { firstEntries } from './adapt.ts';
import { entryProbabilities } from './design.ts';
import { parseReviewLabels, foldLabels, type ParsedLabels } from './labels.ts';
import { reviewFrame } from './frame.ts';
import { mulberry32 } from '../util/random.ts';

describe('parseBudget', () => {
  const b = (t: string) => parseBudget(t, 1000, 400);
  it('reads a count of questions, a percentage or a fraction of the rows', () => {
    expect(b('500')).toEqual({
      ok: true,
      value: { count: 400, note: 'the budget (500) is more than the 400 distinct answers to ask about: every one is asked', share: null },
    });
    expect(b('150')).toEqual({ ok: true, value: { count: 150, note: null, share: null } });
    expect(b('15%')).toEqual({ ok: true, value: { count: 150, note: null, share: '15%' } });
    expect(b('0.15')).toEqual({ ok: true, value: { count: 150, note: null, share: '0.15' } });
    expect(b('1')).toEqual({ ok: true, value: { count: 1, note: null, share: null } });
    expect(b('1.5e-1')).toEqual({ ok: true, value: { count: 150, note: null, share: '1.5e-1' } });
    // "1.0" is all of the rows, not one question.
    expect(b('1.0')).toMatchObject({ ok: true, value: { count: 400 } });
    expect(b('.5')).toMatchObject({ ok: true, value: { count: 400 } });
  });
  it('refuses what is not one of them, saying how to write it', () => {
    expect(b('1.5')).toMatchObject({ ok: false, error: expect.stringMatching(/at most 1 \(write 500 for 500 questions/) });
    expect(b('0')).toMatchObject({ ok: false, error: expect.stringMatching(/at least one/) });
    expect(b('150%')).toMatchObject({ ok: false, error: expect.stringMatching(/at most 100%/) });
    expect(b('ten')).toMatchObject({
      ok: false,
      error: 'budget "ten" is not a number of questions (500) or a share of the rows (15% or 0.15)',
    });
    expect(b('-3')).toMatchObject({ ok: false });
  });
});

describe('a plan written as a label file', () => {
  const rows = Array.from({ length: 40 }, (_, i) => ({
    id: `r${i}`,
    key: String(i % 10),
    system: ['a', 'b', 'c', 'd'][Math.floor(i / 10)]!,
    question: `Question ${i % 10}?`,
    golds: ['gold'],
    candidate: i % 3 === 0 ? 'gold' : `answer ${i % 10} ${i % 2}`,
  }));
  const view = {
    judge: { metric: 'j', threshold: 0.5 },
    score: (i: number) => (i % 3 === 0 ? 0.9 : 0.2),
    decision: (i: number) => i % 3 === 0,
    others: () => [],
  };

  it('asks each distinct answer once, in order, deterministic for a seed, and reads back with its design', () => {
    const plan = planReview(rows, view, 5, 'h');
    expect(plan.groups.flat().sort((x, y) => x - y)).toEqual(rows.map((_, i) => i));
    const entries = firstEntries(plan, 6);
    const qs = entryProbabilities(entries);
    const asked = entries.map((e, k) => ({ ...e, order: k + 1, q: qs[k]! }));
    expect(firstEntries(planReview(rows, view, 5, 'h'), 6)).toEqual(entries);
    const design = designRecord(plan, 6);
    const text = asked
      .map(({ group, order, q }, k) => {
        const members = plan.groups[group]!;
        const l = reviewLine({
          order,
          rows: members.map((i) => ({ id: `r${i}`, system: rows[i]!.system })),
          question: rows[members[0]!]!.question,
          golds: ['gold'],
          candidate: rows[members[0]!]!.candidate,
          judge: { metric: 'j', score: 0.2, decision: false, explanation: '' },
          priority: 0.5,
          why: 'w',
          entry: entries[k]!,
          q,
          design,
          input: 'h',
        });
        return JSON.stringify({ ...l, label: order <= 4 ? order % 2 === 0 : null });
      })
      .join('\n');
    const parsed = (parseReviewLabels(text) as { value: ParsedLabels }).value;
    expect(parsed.design).toMatchObject({ seed: 5, groups: plan.groups.length, asked: 6, judge: 'j' });
    const folded = foldLabels(
      rows.map((r, i) => ({ id: `r${i}`, system: r.system })),
      parsed,
    );
    // The four answered groups' rows are labelled with their step and its probability, as written in "sample";
    // the fifth and sixth wait for an answer.
    const n = asked.slice(0, 4).reduce((k, a) => k + plan.groups[a.group]!.length, 0);
    expect(folded.applied).toBe(n);
    for (const a of asked.slice(0, 4))
      for (const i of plan.groups[a.group]!) {
        expect(folded.rows[i]!.step).toBe(a.order - 1);
        expect(folded.rows[i]!.q).toBeCloseTo(a.q, 12);
        expect(folded.rows[i]!.planned).toBe(6);
      }
  });
});

describe('a plan split by a column', () => {
  // Two systems; split "small" holds questions 0–1, "big" questions 2–9: each system has 2 rows in one and 8 in the other.
  const rows = Array.from({ length: 20 }, (_, i) => ({
    id: `r${i}`,
    key: String(i % 10),
    system: i < 10 ? 'a' : 'b',
    question: `Question ${i % 10}?`,
    golds: ['gold'],
    candidate: `answer ${i}`,
    split: i % 10 < 2 ? 'small' : 'big',
  }));
  const view = { judge: { metric: 'j', threshold: 0.5 }, score: () => 0.5, decision: () => true, others: () => [] };

  it('weighs a row by how much it counts in the mean over splits: (mean stratum rows / its stratum rows)², by hand', () => {
    const plain = planReview(rows, view, 5, 'h');
    const split = planReview(rows, view, 5, 'h', 'ds');
    // Strata (system, split): 2, 8, 2, 8 rows, mean 5: (5/2)² = 6.25 and (5/8)² = 0.390625.
    expect(Array.from(plain.scale)).toEqual(rows.map(() => 1));
    expect(Array.from(split.scale)).toEqual(rows.map((r) => (r.split === 'small' ? 6.25 : 0.390625)));
    // Same priorities everywhere: a small split's answer weighs √6.25 / √0.390625 = 4 times a big one's.
    const w = split.design.weights;
    expect(w[split.groupOf[0]!]! / w[split.groupOf[5]!]!).toBeCloseTo(4, 12);
    expect(designRecord(split, 4)).toMatchObject({ split: 'ds' });
    expect(designRecord(plain, 4)).not.toHaveProperty('split');
  });
});

describe('reviewFrame', () => {
  it("predicts each row without its own label (cross-fitted): changing a label leaves that row's prediction alone", () => {
    const S = 3;
    const Q = 60;
    const rnd = mulberry32(9);
    const y = Int8Array.from({ length: S * Q }, () => (rnd() < 0.3 ? (rnd() < 0.6 ? 1 : 0) : -1));
    const decision = Int8Array.from({ length: S * Q }, () => (rnd() < 0.5 ? 1 : 0));
    const signals = Array.from({ length: S * Q }, (_, c) => Float64Array.of(decision[c]!, rnd()));
    const pi = Float64Array.from(y, (v) => (v >= 0 ? 0.3 : NaN));
    const unit = Int32Array.from(y, (v, c) => (v >= 0 ? c : -1));
    const group = Int32Array.from({ length: S * Q }, (_, c) => c);
    const input = { S, Q, decision, signals, y, sample: { pi, unit }, group };
    const a = reviewFrame(input);
    expect(a.learned).toBe(true);
    const c = y.findIndex((v) => v >= 0);
    const flipped = Int8Array.from(y);
    flipped[c] = 1 - flipped[c]!;
    const b = reviewFrame({ ...input, y: flipped });
    expect(b.f[c]).toBe(a.f[c]);
    // Other folds' rows do learn from it.
    expect(Array.from(b.f).some((v, k) => k !== c && v !== a.f[k])).toBe(true);
    // Too few labels: the judge's decisions.
    const few = reviewFrame({ ...input, y: Int8Array.from(y, (v, k) => (k < 20 ? v : -1)) });
    expect(few.learned).toBe(false);
    expect(Array.from(few.f.subarray(0, 5))).toEqual(Array.from(decision.subarray(0, 5)));
  });

  it('predicts a review drawn step by step only from the steps before: a later label changes no earlier prediction or λ', () => {
    const S = 3;
    const Q = 80;
    const rnd = mulberry32(4);
    const decision = Int8Array.from({ length: S * Q }, () => (rnd() < 0.6 ? 1 : 0));
    const truth = Int8Array.from(decision, (d) => (rnd() < 0.2 ? 1 - d : d));
    const signals = Array.from({ length: S * Q }, (_, c) => Float64Array.of(decision[c]!, rnd()));
    const steps = 150;
    const stepOf = new Int32Array(S * Q).fill(-1);
    for (let t = 0; t < steps; t++) stepOf[(t * 37) % (S * Q)] = t;
    const y = Int8Array.from(truth, (v, c) => (stepOf[c]! >= 0 ? v : -1));
    const q = Float64Array.from({ length: steps }, (_, t) => 1 / (S * Q - t));
    const sample = { pi: Float64Array.from(stepOf, (t) => (t >= 0 ? 0.5 : NaN)), unit: stepOf, steps: { stepOf, q, planned: steps } };
    const input = { S, Q, decision, signals, y, sample, group: null, priority: new Float64Array(S * Q).fill(0.2) };
    const a = reviewFrame(input);
    expect(a.learned).toBe(true);
    const epochs = a.seq!.epochs;
    expect(epochs.map((e) => e.from)).toEqual([0, 20, 30, 45, 68, 102]);
    // Flip the label of the cell drawn at step 60: the epochs from 0, 20, 30 and 45 are fitted before it.
    const c = stepOf.indexOf(60);
    const flipped = Int8Array.from(y);
    flipped[c] = 1 - flipped[c]!;
    const b = reviewFrame({ ...input, y: flipped }).seq!.epochs;
    for (let e = 0; e < 4; e++) {
      expect(Array.from(b[e]!.f)).toEqual(Array.from(epochs[e]!.f));
      expect(b[e]!.lambda).toBe(epochs[e]!.lambda);
    }
    expect(Array.from(b[4]!.f)).not.toEqual(Array.from(epochs[4]!.f));
  });
});
