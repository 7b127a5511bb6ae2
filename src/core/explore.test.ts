/** Views, the run report and calibration over a hand-made run (values worked out by hand). */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fitThresholds, commonPrefix, inFileOrder, queryView, rowAt, runReport, viewLength, viewOf, type ViewQuery } from './explore.ts';
import { ResultTable } from './result-table.ts';
import { agreementSummaryOfColumns } from './report.ts';
import type { RowResults } from './scoring.ts';
import type { CapClass } from './types.ts';
import { row } from '../../test/rows.ts';

/** A run's results as every surface keeps them (columns), from one object per row. */
const T = (rs: readonly RowResults[]) => ResultTable.of(rs, [...new Set(rs.flatMap((x) => Object.keys(x)))]);
const r = (score: number | null, t: number, cls?: CapClass): RowResults => ({
  m: { score, decision: score === null ? null : score >= t, explanation: '', ...(cls ? { class: cls } : {}) },
});

describe('queryView', () => {
  const rows = [row(0, { candidate: 'Paris' }), row(1), row(2, { golds: ['Lyon'] }), row(3)];
  const results = [r(0.9, 0.5), r(0.2, 0.5), r(null, 0.5), r(0.6, 0.5)];
  it('sorts by score with unscored rows last, ties in file order', () => {
    expect([...queryView(rows, T(results), { sort: { key: 'metric:m', dir: 'desc' } })]).toEqual([0, 3, 1, 2]);
    expect([...queryView(rows, T(results), { sort: { key: 'metric:m', dir: 'asc' } })]).toEqual([1, 3, 0, 2]);
    expect([...queryView(rows, T(results), { sort: { key: 'row', dir: 'desc' } })]).toEqual([3, 2, 1, 0]);
  });
  it('filters by decision, search text, and only rows already scored', () => {
    expect([...queryView(rows, T(results), { decision: { metric: 'm', value: true } })]).toEqual([0, 3]);
    expect([...queryView(rows, T(results), { decision: { metric: 'm', value: null } })]).toEqual([2]);
    expect([...queryView(rows, T(results), { search: 'PARIS' })]).toEqual([0]);
    expect([...queryView(rows, T(results), { search: 'lyon' })]).toEqual([2]);
    expect([...queryView(rows, T(results.slice(0, 2)), {})]).toEqual([0, 1]);
  });
  it('finds disagreements with the human label', () => {
    const labelled = rows.map((x, i) => ({ ...x, label: { kind: 'binary' as const, correct: i % 2 === 0 } }));
    // decisions: T F null T; labels: T F T F → only row 3 disagrees (row 2 has no decision).
    expect([...queryView(labelled, T(results), { disagreeWith: 'm' })]).toEqual([3]);
  });
});

describe('commonPrefix', () => {
  it('counts the leading positions two views share', () => {
    expect(commonPrefix(new Uint32Array([0, 1, 2]), new Uint32Array([0, 1, 2, 3, 4]))).toBe(3);
    expect(commonPrefix([0, 1, 2], [0, 5, 2])).toBe(1);
    expect(commonPrefix([2, 1, 0], [3, 2, 1, 0])).toBe(0);
    expect(commonPrefix([], [1])).toBe(0);
    expect(commonPrefix([4, 5], [4, 5])).toBe(2);
  });
  it('reads a count as that many rows in file order', () => {
    expect(commonPrefix(3, 5)).toBe(3);
    expect(commonPrefix(4, [0, 1, 3])).toBe(2);
    expect(commonPrefix([1, 0], 2)).toBe(0);
    expect(commonPrefix(0, [0])).toBe(0);
  });
});

describe('viewOf', () => {
  it('keeps the rows in file order as a count, and only for a query that filters and sorts nothing', () => {
    expect(inFileOrder({})).toBe(true);
    expect(inFileOrder({ sort: { key: 'row', dir: 'asc' }, search: '  ' })).toBe(true);
    expect(inFileOrder({ sort: { key: 'row', dir: 'desc' } })).toBe(false);
    expect(inFileOrder({ sort: { key: 'metric:m', dir: 'asc' } })).toBe(false);
    expect(inFileOrder({ search: 'x' })).toBe(false);
    expect(inFileOrder({ decision: { metric: 'm', value: null } })).toBe(false);
    expect(inFileOrder({ cls: 'exact' })).toBe(false);
    expect(inFileOrder({ disagreeWith: 'm' })).toBe(false);
  });

  // Any rows scored so far and any two queries in a row: the view, and what the second keeps of the first, read
  // the same as from queryView's arrays.
  it('shows the same rows as queryView, and keeps the same prefix from one view to the next', () => {
    const classes: CapClass[] = ['exact', 'partial', 'invalid'];
    const sortAndSearch = {
      sort: fc.record({ key: fc.constantFrom('row' as const, 'metric:m' as const), dir: fc.constantFrom('asc' as const, 'desc' as const) }),
      search: fc.constantFrom('', ' ', 'a', 'PAR'),
    };
    // Half with a sort and a search at most (most of these in file order), half with filters too.
    const query: fc.Arbitrary<ViewQuery> = fc.oneof(
      fc.record(sortAndSearch, { requiredKeys: [] }),
      fc.record(
        {
          ...sortAndSearch,
          cls: fc.constantFrom(...classes),
          classBy: fc.constantFrom('label', 'm'),
          decision: fc.record({ metric: fc.constant('m'), value: fc.constantFrom(true, false, null) }),
          disagreeWith: fc.constant('m'),
        },
        { requiredKeys: [] },
      ),
    );
    const scored = fc.array(
      fc.record({
        score: fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
        cls: fc.constantFrom(...classes),
        label: fc.option(fc.constantFrom(...classes)),
        candidate: fc.constantFrom('Paris', 'Lyon', 'a cat', 'Parma'),
      }),
      { maxLength: 30 },
    );
    fc.assert(
      fc.property(scored, fc.nat(30), fc.nat(30), query, query, (xs, before, after, q1, q2) => {
        const rows = xs.map((x, i) =>
          row(i, { candidate: x.candidate, ...(x.label ? { label: { kind: 'taxonomy' as const, cls: x.label } } : {}) }),
        );
        const table = (k: number) => T(xs.slice(0, Math.min(k, xs.length)).map((x) => r(x.score, 0.5, x.cls)));
        const [t1, t2] = [table(before), table(after)];
        const rowsOf = (v: ReturnType<typeof viewOf>) => Array.from({ length: viewLength(v) }, (_, p) => rowAt(v, p));
        const [v1, v2] = [viewOf(rows, t1, q1), viewOf(rows, t2, q2)];
        const [a1, a2] = [queryView(rows, t1, q1), queryView(rows, t2, q2)];
        expect(rowsOf(v1)).toEqual([...a1]);
        expect(rowsOf(v2)).toEqual([...a2]);
        expect(commonPrefix(v1, v2)).toBe(commonPrefix(a1, a2));
      }),
    );
  });
});

describe('runReport', () => {
  const classes: CapClass[] = ['exact', 'exact', 'partial', 'invalid'];
  const rows = classes.map((cls, i) => row(i, { label: { kind: 'taxonomy', cls } }));
  const results = [r(1, 0.5, 'exact'), r(0.8, 0.5, 'partial'), r(0.4, 0.5, 'partial'), r(0.1, 0.5, 'invalid')];
  const rep = runReport(rows, T(results), [{ name: 'm', threshold: 0.5 }], { resamples: 0 });
  it('counts decisions, label classes and predicted classes', () => {
    expect(rep.decided.m).toEqual({ correct: 2, incorrect: 2, none: 0 });
    expect(rep.labelClasses).toEqual({ exact: 2, partial: 1, invalid: 1 });
    expect(rep.predictedClasses.m).toEqual({ exact: 1, partial: 2, invalid: 1 });
    expect(rep.labelKind).toBe('taxonomy');
  });
  it('builds the predicted × human class matrix', () => {
    const mat = rep.classConfusion.m!;
    expect(mat[0]![0]).toBe(1); // exact predicted, exact labelled
    expect(mat[4]![0]).toBe(1); // partial predicted, exact labelled
    expect(mat[4]![4]).toBe(1);
    expect(mat[6]![6]).toBe(1);
    expect(mat.flat().reduce((a, b) => a + b, 0)).toBe(4);
  });
  it('reduces class labels to correct/incorrect for the binary table (exact correct; partial, invalid not)', () => {
    // decisions T T F F vs labels T T F F → accuracy 1.
    expect(rep.binary!.m!.report.metrics.accuracy.value).toBe(1);
    expect(rep.taxonomy!.m!.violations.count).toBe(0);
    expect(rep.best).toEqual({ binary: 'm', taxonomy: 'm' });
    expect(rep.bands[0]!.points).toHaveLength(4);
  });
});

describe('runReport: empty rows', () => {
  it('a metric whose model did not load (no row scored) adds no n = 0 row to the agreement tables', () => {
    const rows = [0, 1, 2, 3].map((i) => row(i, { label: { kind: 'binary', correct: i >= 2 } }));
    const why = 'needs an NLI model, or nli probabilities in the input';
    const results: RowResults[] = [0.1, 0.3, 0.7, 0.9].map((s) => ({
      ...r(s, 0.5),
      cap: { score: null, decision: null, explanation: why },
    }));
    const rep = runReport(
      rows,
      T(results),
      [
        { name: 'm', threshold: 0.5 },
        { name: 'cap', threshold: 0.5 },
      ],
      { resamples: 0 },
    );
    expect(Object.keys(rep.binary!)).toEqual(['m']);
    expect(rep.omitted).toEqual({ cap: `no labelled row was scored: ${why}` });
    // The decisions table still counts it as not scored.
    expect(rep.decided.cap).toEqual({ correct: 0, incorrect: 0, none: 4 });
  });
});

describe('calibration', () => {
  it('moves each threshold to the best MCC and decides again', () => {
    const rows = [0, 1, 2, 3].map((i) => row(i, { label: { kind: 'binary', correct: i >= 2 } }));
    const results = T([r(0.1, 0.9), r(0.3, 0.9), r(0.5, 0.9), r(0.7, 0.9)]);
    const { thresholds, skipped } = fitThresholds(rows, results, ['m', 'missing']);
    expect(thresholds.m).toBeGreaterThan(0.3);
    expect(thresholds.m).toBeLessThanOrEqual(0.5);
    expect(Object.keys(skipped)).toEqual(['missing']);
    results.redecide(thresholds);
    expect([0, 1, 2, 3].map((i) => results.decision('m', i))).toEqual([false, false, true, true]);
  });
  it('refuses, with the reason, a threshold that only separates floating-point noise (BLEU 0 vs 1e-232)', () => {
    const rows = [0, 1, 2, 3].map((i) => row(i, { label: { kind: 'binary', correct: i % 2 === 1 } }));
    const results = [r(0, 0.25), r(1.2e-232, 0.25), r(0, 0.25), r(4e-250, 0.25)];
    const { thresholds, skipped } = fitThresholds(rows, T(results), ['m']);
    expect(thresholds).toEqual({});
    expect(skipped.m).toMatch(/every score is the same to within 1e-6/);
  });
});

describe('runReport at size', () => {
  it('draws as many resamples as verity evaluate above 20,000 labelled rows, so the app and the CLI give the same intervals', () => {
    const n = 20_001;
    const rows = Array.from({ length: n }, (_, i) => row(i, { label: { kind: 'binary', correct: i % 3 !== 0 } }));
    const results = rows.map((_, i) => r(((i * 7919) % 1000) / 1000, 0.5));
    const rep = runReport(rows, T(results), [{ name: 'm', threshold: 0.5 }]);
    const cli = agreementSummaryOfColumns(
      {
        labels: rows.map((x) => x.label),
        score: (_m, i) => results[i]!.m!.score,
        decision: (_m, i) => results[i]!.m!.decision,
        explanation: () => '',
      },
      [{ name: 'm', threshold: 0.5 }],
      { resamples: 1000 },
    );
    expect(rep.binary?.m).toEqual(cli.binary?.m);
  });
});
