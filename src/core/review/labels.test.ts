/**
 * Review labels (issue 36): the JSONL form read and written, folded into rows (unknown ids and duplicates
 * counted), and a comparison of partly labelled rows using the reviewed accuracy — leaderboard, ranks, τ and
 * paired tests — by hand.
 */
import { describe, expect, it } from 'vitest';
import { foldLabels, foldNote, parseReviewLabels, reviewLabelsJsonl, type ReviewLabel } from './labels.ts';
import { compareReport } from '../compare/report.ts';
import { ResultTable } from '../result-table.ts';
import type { RowResults } from '../run.ts';
import { PICK_QUEUE, PICK_RANDOM } from './estimate.ts';

const yes = { kind: 'binary' as const, correct: true };
const no = { kind: 'binary' as const, correct: false };

describe('parseReviewLabels', () => {
  it('reads labels, counts lines not labelled yet, and keeps the input they name', () => {
    const text = [
      '{"id":"1","system":"a","label":true,"picked":"random","time":"2026-11-27T00:00:00Z","input":"ab12"}',
      '{"id":2,"label":"wrong","picked":"uncertain"}',
      '{"id":"3","label":null}',
      '{"id":"4","label":"skip"}',
      '{"id":"5","label":"partial"}',
      '',
    ].join('\n');
    const r = parseReviewLabels(text);
    expect(r).toEqual({
      ok: true,
      value: {
        labels: [
          { id: '1', system: 'a', label: yes, picked: 'random', time: '2026-11-27T00:00:00Z' },
          { id: '2', label: no, picked: 'uncertain' },
          { id: '5', label: { kind: 'taxonomy', cls: 'partial' } },
        ],
        pending: 2,
        input: 'ab12',
      },
    });
  });

  it('fails on the first bad line, saying which and why', () => {
    expect(parseReviewLabels('{"id":"1","label":true}\nnot json', 'x.jsonl')).toEqual({
      ok: false,
      error: 'x.jsonl, line 2 is not JSON: each line of a label file is one JSON object',
    });
    expect(parseReviewLabels('{"label":true}')).toMatchObject({ ok: false, error: expect.stringMatching(/line 1 has no "id"/) });
    expect(parseReviewLabels('{"id":"1","label":"maybe"}')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/line 1: label "maybe"/),
    });
    expect(parseReviewLabels('{"id":"1","label":true,"picked":"often"}')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/"picked"/),
    });
    expect(parseReviewLabels('{"id":"1","label":true,"input":"aa"}\n{"id":"2","label":true,"input":"bb"}')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/line 2 names another input/),
    });
  });

  it('reads back what it writes', () => {
    const labels: ReviewLabel[] = [
      { id: '1', system: 's', label: yes, picked: 'both', time: 't' },
      { id: '2', label: { kind: 'taxonomy', cls: 'invalid' } },
    ];
    const text = reviewLabelsJsonl(labels, 'f00d');
    expect(text.split('\n')[0]).toBe('{"id":"1","system":"s","label":true,"picked":"both","time":"t","input":"f00d"}');
    expect(parseReviewLabels(text)).toEqual({ ok: true, value: { labels, pending: 0, input: 'f00d' } });
  });
});

describe('foldLabels', () => {
  const rows = [
    { id: '1', system: 'a' },
    { id: '1', system: 'b', label: no },
    { id: '2', system: 'a' },
  ];
  it('matches by system and id, keeps the last of two, counts unknown ids and replaced labels', () => {
    const f = foldLabels(rows, [
      { id: '1', system: 'a', label: no, picked: 'random' },
      { id: '1', system: 'a', label: yes, picked: 'random' },
      { id: '1', system: 'b', label: yes },
      { id: '9', system: 'a', label: yes },
      { id: '2', label: yes, picked: 'uncertain' },
    ]);
    expect(f.rows).toEqual([
      { id: '1', system: 'a', label: yes, pick: PICK_RANDOM },
      { id: '1', system: 'b', label: yes },
      { id: '2', system: 'a', label: yes, pick: PICK_QUEUE },
    ]);
    expect(f).toMatchObject({ applied: 3, duplicates: 1, unknown: 1, unknownIds: ['a/9'], replaced: 1 });
    expect(foldNote(f)).toBe(
      "3 rows labelled by review; 1 labelled twice (the last label kept); 1 replacing the file's own label; 1 label for ids not in the input (a/9) left out",
    );
    // The rows given are not changed.
    expect(rows[0]).toEqual({ id: '1', system: 'a' });
  });

  it('does not guess a system for an id two systems share', () => {
    expect(foldLabels(rows, [{ id: '1', label: yes }])).toMatchObject({ applied: 0, unknown: 1 });
  });
});

describe('a comparison of partly labelled rows', () => {
  // Two systems, ten questions. The metric credits A with 5 and B with 6; the review finds A right where the metric
  // said wrong on three rows of its queue, and the random slice agrees with the metric.
  const dA = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0];
  const dB = [1, 1, 1, 1, 1, 1, 0, 0, 0, 0];
  const rows: { system: string; key: string; label?: typeof yes; pick?: number }[] = [];
  const results: RowResults[] = [];
  const add = (system: string, d: number[], labels: Record<number, [boolean, number]>) =>
    d.forEach((x, q) => {
      const l = labels[q];
      rows.push({ system, key: `q${q}`, ...(l ? { label: l[0] ? yes : no, pick: l[1] } : {}) });
      results.push({ m: { score: x, decision: x === 1, explanation: '' } });
    });
  add('A', dA, { 5: [true, PICK_QUEUE], 6: [true, PICK_QUEUE], 7: [true, PICK_QUEUE], 0: [true, PICK_RANDOM], 9: [false, PICK_RANDOM] });
  add('B', dB, { 6: [false, PICK_QUEUE], 1: [true, PICK_RANDOM], 8: [false, PICK_RANDOM] });
  const { report } = compareReport(rows, ResultTable.of(results, ['m']), [{ name: 'm', threshold: 0.5 }], { resamples: 0 });
  const lb = report.leaderboard.metrics[0]!;

  it('ranks by the reviewed accuracy and says so', () => {
    expect(lb.rankedBy).toBe('reviewed');
    // A: census 3 labels (all correct) + 7 decisions (5 correct) = 8 of 10, slice z = [0, 0]. B: 0 + 6 of 9 decisions.
    expect(lb.entries.map((e) => [e.system, e.rank, e.accuracy.value, e.reviewed?.value, e.reviewed?.labelled])).toEqual([
      ['A', 1, 0.5, 0.8, 5],
      ['B', 2, 0.6, 0.6, 3],
    ]);
  });

  it('sets the metric against the reviewed accuracy (τ) and pairs the reviewed decisions', () => {
    const r = report.ranking!.metrics[0]!;
    expect(r.against).toBe('reviewed');
    expect(r.gaps.map((g) => [g.system, g.metricAccuracy, g.humanAccuracy])).toEqual([
      ['A', 0.5, 0.8],
      ['B', 0.6, 0.6],
    ]);
    expect(r.kendallTau).toBe(-1);
    expect(report.paired.basis).toBe('reviewed');
    // Reviewed decisions: A right on q5–q7 as labelled; B's decisions stand. A − B = 8/10 − 6/10.
    expect(report.paired.metrics[0]!.pairs[0]!.accuracy.diff).toBeCloseTo(0.2, 12);
    expect(report.paired.metrics.map((m) => m.metric)).toEqual(['m']);
  });
});
