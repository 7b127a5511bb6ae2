/**
 * Review labels: the review-file form (groups, the design), plain labels and the earlier form read piece by piece
 * with any line ends; folded into rows with the inclusion probabilities of the answered prefix (by hand); and a
 * comparison of partly labelled rows measured against one reference estimate.
 */
import { describe, expect, it } from 'vitest';
import { foldLabels, foldNote, LabelReader, LABEL_LINE_LIMIT, missingSystems, parseReviewLabels, type ParsedLabels } from './labels.ts';
import { compareReport } from '../compare/report.ts';
import { ResultTable } from '../result-table.ts';
import type { RowResults } from '../scoring.ts';
import { groupDraw, stepProbabilities } from './design.ts';

const yes = { kind: 'binary' as const, correct: true };
const no = { kind: 'binary' as const, correct: false };
const design = { seed: 7, groups: 10, asked: 3, total: 20 };
/** Question `order`'s draw (the seed's, for its row) and a weight that puts its key, −ln(draw) / weight, at `order`. */
const sampleOf = (order: number) => {
  const draw = groupDraw(7, 'ab12', 'a', `q${order}`);
  return { weight: -Math.log(draw) / order, draw };
};
const line = (order: number, label: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    order,
    id: `q${order}`,
    system: 'a',
    label,
    sample: sampleOf(order),
    design,
    judge: { metric: 'pedants' },
    input: 'ab12',
    ...extra,
  });

describe('LabelReader', () => {
  it('reads review lines (with their groups and design), plain lines and lines of the earlier form', () => {
    const text = [
      line(1, true, {
        rows: [
          { id: 'q1', system: 'a' },
          { id: 'q1', system: 'b', label: false },
        ],
      }),
      line(2, null),
      line(3, 'skip'),
      '{"id":"x","system":"a","label":"partial","time":"2026-11-27T00:00:00Z"}',
      '{"id":"y","system":"b","label":"wrong","picked":"random"}',
      '',
    ].join('\n');
    const r = parseReviewLabels(text);
    expect(r.ok).toBe(true);
    const v = (r as { value: ParsedLabels }).value;
    expect(v.labels).toEqual([
      { id: 'q1', system: 'a', label: yes, order: 1 },
      { id: 'q1', system: 'b', label: no, order: 1, own: true },
      { id: 'x', system: 'a', label: { kind: 'taxonomy', cls: 'partial' }, time: '2026-11-27T00:00:00Z' },
      { id: 'y', system: 'b', label: no, picked: 'random' },
    ]);
    expect(v).toMatchObject({ pending: 2, input: 'ab12', conflicts: 1 });
    expect(v.design).toMatchObject({ seed: 7, groups: 10, asked: 3, total: 20, judge: 'pedants' });
    expect(v.design!.lines.map((l) => [l.order, l.answered, l.rows.length])).toEqual([
      [1, true, 2],
      [2, false, 1],
      [3, false, 1],
    ]);
  });

  it('reads the same from any pieces and any mix of LF, CRLF and CR line ends', () => {
    const lines = [line(1, true), line(2, false), '{"id":"z","label":1}'];
    const whole = parseReviewLabels(lines.join('\n'));
    for (const sep of ['\r\n', '\r', '\n'])
      for (let cut = 1; cut < 40; cut += 3) {
        const text = lines.join(sep);
        const r = new LabelReader();
        for (let i = 0; i < text.length; i += cut) r.push(text.slice(i, i + cut));
        expect(r.end()).toEqual(whole);
      }
  });

  it('fails on the first bad line, saying which and why', () => {
    const bad = (text: string) => {
      const r = parseReviewLabels(text, 'x.jsonl');
      return r.ok ? '' : r.error;
    };
    expect(bad('{"id":"1","label":true}\nnot json')).toBe('x.jsonl, line 2 is not JSON: each line of a label file is one JSON object');
    expect(bad('{"label":true}')).toMatch(/line 1 has no "id"/);
    expect(bad('{"id":"1","label":"maybe"}')).toMatch(/line 1: label "maybe"/);
    expect(bad('{"id":"1","label":true,"picked":"often"}')).toMatch(/"picked"/);
    expect(bad('{"id":"1","label":true,"input":"aa"}\r{"id":"2","label":true,"input":"bb"}')).toMatch(/line 2 names another input/);
    expect(bad(`${line(1, true)}\n${line(1, false)}`)).toMatch(/line 2: "order" 1 is given twice/);
    expect(bad(line(1, true, { sample: { weight: 0, draw: 0.5 } }))).toMatch(/"sample" needs/);
    expect(bad(line(1, true, { design: { seed: 7, groups: 10, asked: 3, cutoff: 0.9 } }))).toMatch(
      /made by an earlier Verity, whose draw \(priority sampling\) gives no interval that holds wherever you stop/,
    );
    // A hole, a draw edited, lines of another input: refused, saying which.
    expect(bad(`${line(1, true)}\n${line(3, true)}`)).toMatch(/lacks the review's question 2 while holding later ones/);
    expect(bad(line(1, true, { sample: { ...sampleOf(1), draw: 0.5 } }))).toMatch(
      /question 1: its draw is not the one seed 7 gives its row \(a\/q1\)/,
    );
    expect(bad(line(1, true, { input: 'cd34' }))).toMatch(/question 1: its draw is not the one/);
    expect(bad(`${line(1, true)}\n${line(2, true, { design: { ...design, seed: 8 } })}`)).toMatch(/lines of two reviews/);
    expect(bad(line(1, true, { rows: [] }))).toMatch(/"rows" is not a list/);
  });

  it('stops at a line longer than any label line, naming it, without holding the rest', () => {
    const r = new LabelReader('big.jsonl');
    r.push('{"id":"1","label":true}\n');
    const chunk = 'x'.repeat(1 << 20);
    let pushes = 0;
    while (r.push(chunk)) pushes++;
    expect(pushes).toBeLessThanOrEqual(LABEL_LINE_LIMIT / chunk.length);
    expect(r.end()).toEqual({ ok: false, error: expect.stringMatching(/big\.jsonl, line 2 is longer than 8,388,608 characters/) });
  });
});

describe('foldLabels', () => {
  const rows = [
    { id: 'q1', system: 'a' },
    { id: 'q1', system: 'b', label: no },
    { id: 'q2', system: 'a' },
    { id: 'q3', system: 'a' },
    { id: 'q4', system: 'a' },
    { id: 'q4', system: 'a' },
  ];

  it('gives the answered prefix its steps and their probabilities and leaves answers after a gap waiting (by hand)', () => {
    const text = [
      line(1, true, {
        rows: [
          { id: 'q1', system: 'a' },
          { id: 'q1', system: 'b' },
        ],
      }),
      line(2, null),
      line(3, false),
      '{"id":"q4","system":"a","label":true}',
      '{"id":"q9","system":"a","label":true}',
    ].join('\n');
    const parsed = (parseReviewLabels(text) as { value: ParsedLabels }).value;
    const f = foldLabels(rows, parsed);
    // The prefix is question 1, drawn first: q = w₁ / total; π (for weighting fits) = 1 − e^(−w₁ · key₁), key₁ = 1.
    const w1 = sampleOf(1).weight;
    expect(stepProbabilities([w1], 20)[0]).toBeCloseTo(w1 / 20, 15);
    const fields = { pi: -Math.expm1(-w1), unit: 1, step: 0, q: w1 / 20, planned: 3, steps: 1 };
    expect(f.rows.slice(0, 2)).toEqual([
      { id: 'q1', system: 'a', label: yes, ...fields },
      { id: 'q1', system: 'b', label: yes, ...fields },
    ]);
    // Question 3 waits for question 2; q4 is a label outside the design, given to the first of its two rows.
    expect(f.rows[3]).toEqual({ id: 'q3', system: 'a' });
    expect(f.rows[4]).toEqual({ id: 'q4', system: 'a', label: yes });
    expect(f.rows[5]).toEqual({ id: 'q4', system: 'a' });
    expect(f).toMatchObject({ applied: 3, waiting: 1, gapAt: 2, unknown: 1, replaced: 1, ambiguous: 1 });
    expect(foldNote(f)).toBe(
      "3 rows labelled by review; 1 replacing the file's own label; 1 label for a (system, id) the input has more than once: applied to its first row, which the comparison keeps; " +
        "1 label after question 2 of the review, which has no answer, left out until it has one (answers are used in the review's order); 1 label for ids not in the input (a/q9) left out",
    );
    expect(rows[0]).toEqual({ id: 'q1', system: 'a' });
  });

  it("keeps the earlier form's design: the queue counted as it is, the random slice a uniform sample", () => {
    const parsed = (
      parseReviewLabels(
        ['{"id":"q1","system":"a","label":true,"picked":"uncertain"}', '{"id":"q2","system":"a","label":false,"picked":"random"}'].join(
          '\n',
        ),
      ) as { value: ParsedLabels }
    ).value;
    const f = foldLabels(rows, parsed);
    expect(f.rows[0]).toEqual({ id: 'q1', system: 'a', label: yes });
    // One random row among system a's 5 rows.
    expect(f.rows[2]).toMatchObject({ label: no, pi: 1 / 5 });
  });

  it('shows ids that hold control or bidirectional characters as escapes in its note', () => {
    const parsed = (parseReviewLabels('{"id":"q\u202e1","system":"a","label":true}') as { value: ParsedLabels }).value;
    expect(foldNote(foldLabels(rows, parsed))).toBe('0 rows labelled by review; 1 label for ids not in the input (a/q\\u202e1) left out');
  });

  it('refuses labels without a system for an input of several systems', () => {
    expect(missingSystems('l.jsonl', [{ id: '1', label: yes }], 2)).toMatch(
      /l\.jsonl: 1 of its 1 labels name no "system", and the input has 2 systems/,
    );
    expect(missingSystems('l.jsonl', [{ id: '1', label: yes }], 1)).toBeNull();
  });
});

describe('a comparison after a review', () => {
  // Two systems, twelve questions; the judge `m` credits A with 6 and B with 7; `other` is a second metric. The review
  // asked four of A's rows and two of B's (π 0.5 each): A was right on two rows the judge rejected.
  const rows: { system: string; key: string; label?: typeof yes; pi?: number; unit?: number }[] = [];
  const results: RowResults[] = [];
  const add = (system: string, d: number[], labels: Record<number, boolean>) =>
    d.forEach((x, q) => {
      const l = labels[q];
      rows.push({ system, key: `q${q}`, ...(l !== undefined ? { label: l ? yes : no, pi: 0.5, unit: rows.length } : {}) });
      results.push({ m: { score: x, decision: x === 1, explanation: '' }, other: { score: 1 - x, decision: x === 0, explanation: '' } });
    });
  add('A', [1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0], { 6: true, 7: true, 0: true, 8: false });
  add('B', [1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0], { 1: true, 9: false });
  const metrics = [
    { name: 'm', threshold: 0.5 },
    { name: 'other', threshold: 0.5 },
  ];
  const { report } = compareReport(rows, ResultTable.of(results, ['m', 'other']), metrics, { resamples: 0, reference: 'm' });

  it("ranks every metric's leaderboard by the one estimate of the judge the review was made for", () => {
    const [lbM, lbO] = report.leaderboard.metrics;
    expect(lbM!.rankedBy).toBe('reviewed');
    expect(lbM!.reference).toBe('m');
    // A: 6 + (1 − 0)/.5 × 2 = 10 of 12 → 0.8333; B: 7 of 12 (its two labels agree with the judge).
    expect(lbM!.entries.map((e) => [e.system, e.rank, e.reviewed?.value])).toEqual([
      ['A', 1, 10 / 12],
      ['B', 2, 7 / 12],
    ]);
    expect(lbO!.entries.map((e) => e.reviewed?.value)).toEqual(lbM!.entries.map((e) => e.reviewed?.value));
    // The labelled rows' own accuracy is never shown as a system's.
    expect(lbM!.entries.every((e) => e.human === null)).toBe(true);
    expect(lbM!.entries.every((e) => e.ranks !== null)).toBe(true);
  });

  it('measures each metric against that estimate, not against itself', () => {
    const [rM, rO] = report.ranking!.metrics;
    expect(rM!.against).toBe('reviewed');
    expect(rM!.reference).toBe('m');
    expect(rM!.gaps.map((g) => [g.system, g.metricAccuracy, g.humanAccuracy])).toEqual([
      ['A', 0.5, 10 / 12],
      ['B', 7 / 12, 7 / 12],
    ]);
    expect(rO!.gaps.map((g) => g.humanAccuracy)).toEqual([10 / 12, 7 / 12]);
    // m puts B above A, the estimate A above B.
    expect(rM!.kendallTau).toBe(-1);
    expect(rO!.kendallTau).toBe(1);
  });

  it('keeps each metric on its own decisions in the paired tests and adds the reviewed differences', () => {
    expect(report.paired.reference).toBe('m');
    expect(report.paired.metrics.map((m) => m.metric)).toEqual(['m', 'other', 'reviewed']);
    expect(report.paired.metrics[0]!.pairs[0]!.accuracy.diff).toBeCloseTo(6 / 12 - 7 / 12, 12);
    const rev = report.paired.metrics[2]!.pairs[0]!.accuracy;
    expect(rev.diff).toBeCloseTo(10 / 12 - 7 / 12, 12);
    expect(rev.mcnemar).toBeNull();
    expect(rev.p).toBeGreaterThan(0);
    expect(report.splits.human).toBeUndefined();
  });
});

describe('known lines (verdicts remembered from an earlier review)', () => {
  it('fold as census rows (π = 1), say how many, and count those the design lacks', () => {
    const text = [
      JSON.stringify({ id: 'q1', label: true, known: true, question: 'Q?', golds: ['a'], candidate: 'a' }),
      JSON.stringify({ id: 'q2', label: 'wrong', known: true }),
    ].join('\n');
    const parsed = parseReviewLabels(text);
    expect(parsed.ok && parsed.value.labels.map((l) => l.known)).toEqual([true, true]);
    if (!parsed.ok) return;
    const rows = [{ id: 'q1' }, { id: 'q2' }, { id: 'q3' }];
    const f = foldLabels(rows, parsed.value);
    expect(f.rows.map((r) => r.pi)).toEqual([1, 1, undefined]);
    expect([f.known, f.knownMissing]).toEqual([2, 0]);
    expect(foldNote(f)).toContain('2 of them known from earlier verdicts');
    // A design that left 3 rows out as known, with only 2 known lines: one is missing.
    const sequence = { step: new Int32Array(0), q: new Float64Array(0), pi: new Float64Array(0), answered: 0, lines: 0 };
    const d = { seed: 7, groups: 3, asked: 0, total: 1, judge: null, split: null, known: 3, lines: [], sequence };
    const short = foldLabels(rows, { ...parsed.value, design: d });
    expect(short.knownMissing).toBe(1);
  });

  it('are refused on a review line, without a label, or with "known" other than true', () => {
    const line = (o: object) => parseReviewLabels(JSON.stringify({ id: 'q1', label: true, ...o }));
    expect(line({ known: true, order: 1 })).toMatchObject({ ok: false });
    expect(line({ known: true, label: null })).toMatchObject({ ok: false });
    expect(line({ known: 'yes' })).toMatchObject({ ok: false });
    expect(line({ known: true })).toMatchObject({ ok: true });
  });
});
