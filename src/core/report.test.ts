/** The one agreement report: rounded once, best chosen once, empty metrics left out, the CLI's JSON form. */
import { describe, expect, it } from 'vitest';
import { agreementJson, agreementSummary, formatStat, roundStat } from './report.ts';
import { type RowResults } from './scoring.ts';
import { agreement } from './report.ts';
import type { CapClass } from './types.ts';
import { row } from '../../test/rows.ts';
import { leadSentence } from './agreement/headline.ts';
import { pairwiseLead } from './agreement/lead.ts';
import { SEVERITY } from './agreement/ordinal.ts';
import { mulberry32 } from './util/random.ts';

const res = (scores: Record<string, number | null>, why = 'needs an NLI model, or nli probabilities in the input'): RowResults =>
  Object.fromEntries(
    Object.entries(scores).map(([m, s]) => [m, { score: s, decision: s === null ? null : s >= 0.5, explanation: s === null ? why : '' }]),
  );

describe('roundStat / formatStat', () => {
  it('rounds once to 4 decimals and prints exactly those digits', () => {
    expect(roundStat(0.221458116580297)).toBe(0.2215);
    expect(formatStat(roundStat(0.221458116580297))).toBe('0.2215');
    expect(roundStat(-0.00001)).toBe(0);
    expect(Object.is(roundStat(-0.00001), -0)).toBe(false);
    expect(formatStat(null)).toBe('—');
    expect(formatStat(1)).toBe('1.0000');
  });
});

describe('agreementSummary', () => {
  const classes: CapClass[] = ['exact', 'equivalent', 'partial', 'invalid', 'contradictory', 'exact'];
  const rows = classes.map((cls, i) => row(i, { label: { kind: 'taxonomy', cls } }));
  // a is monotone; b is a third of a; c (a model metric whose model failed) scored nothing.
  const a = [1, 0.9, 0.6, 0.3, 0.1, 0.95];
  const results = a.map((x, i) => res({ a: x, b: i === 2 ? 0.9 : x / 3, c: null }));
  const metrics = ['a', 'b', 'c'].map((name) => ({ name, threshold: 0.5 }));

  it('every statistic is the exact one rounded once', () => {
    const s = agreementSummary(rows, results, metrics, { binaryFromClasses: true, resamples: 50 });
    const exact = agreement(rows, results, metrics.slice(0, 2)).taxonomy!;
    for (const m of ['a', 'b']) {
      expect(s.taxonomy![m]!.spearman).toBe(roundStat(exact[m]!.spearman));
      expect(s.taxonomy![m]!.kendall).toBe(roundStat(exact[m]!.kendall));
      for (const [k, v] of Object.entries(s.taxonomy![m]!.hardPairs)) expect(v).toBe(roundStat(exact[m]!.hardPairs[k as never]));
      for (const e of Object.values(s.binary![m]!.report.metrics)) {
        if (e.value !== null) expect(e.value).toBe(roundStat(e.value));
        if (e.ci) expect(e.ci).toEqual(e.ci.map((x) => roundStat(x)));
      }
    }
  });

  it('leaves a metric that scored no labelled row out of every table, and says why', () => {
    const s = agreementSummary(rows, results, metrics, { binaryFromClasses: true, resamples: 0 });
    expect(Object.keys(s.taxonomy!)).toEqual(['a', 'b']);
    expect(Object.keys(s.binary!)).toEqual(['a', 'b']);
    expect(s.omitted).toEqual({ c: 'no labelled row was scored: needs an NLI model, or nli probabilities in the input' });
    expect(agreementJson(s).omitted).toEqual(s.omitted);
  });

  it('picks the best metric and the column leaders on the shown numbers', () => {
    const s = agreementSummary(rows, results, metrics, { binaryFromClasses: true, resamples: 0 });
    expect(s.best.taxonomy).toBe('a');
    expect(s.leaders.taxonomy.spearman).toEqual(['a']);
    expect(s.leaders.taxonomy.violations).toEqual(['a']);
    // Binary: b is below 0.5 on every row but the partial one (labelled incorrect), so a has the better MCC.
    expect(s.best.binary).toBe('a');
    // Ties on the shown numbers are ties: a metric differing from a only below the 4th decimal leads with it.
    const near = results.map((r, i) => ({ ...r, a2: { ...r.a!, score: a[i]! - 1e-7 } }));
    const t = agreementSummary(rows, near, [...metrics, { name: 'a2', threshold: 0.5 }], { resamples: 0 });
    expect(t.leaders.taxonomy.spearman).toEqual(['a', 'a2']);
    expect(t.best.taxonomy).toBe('a');
  });

  it('in the CLI JSON form: the label kind only, snake_case names, same numbers', () => {
    const s = agreementSummary(rows, results, metrics, { resamples: 0 });
    expect(s.binary).toBeNull();
    const j = agreementJson(s, 2) as {
      n: number;
      skipped: number;
      label_kind: string;
      best: string;
      metrics: Record<string, Record<string, unknown>>;
    };
    expect(j).toMatchObject({ n: 6, skipped: 2, label_kind: 'taxonomy', best: 'a' });
    expect(j.metrics.a!.spearman).toBe(s.taxonomy!.a!.spearman);
    expect(j.metrics.a!.pairwise_accuracy).toBe(s.taxonomy!.a!.pairwiseAccuracy);
    expect(Object.keys(j.metrics)).toEqual(['a', 'b']);
  });
});

describe('the lead of the best metric', () => {
  // 400 class-labelled rows: sharp and sharp2 read the class with little noise (alike), blunt with much more.
  const CLASSES: CapClass[] = [
    'exact',
    'equivalent',
    'overinclusive-valid',
    'partial',
    'overinclusive-invalid',
    'invalid',
    'contradictory',
  ];
  const r = mulberry32(7);
  const labels = Array.from({ length: 400 }, () => CLASSES[Math.floor(r() * CLASSES.length)]!);
  const rows = labels.map((cls, i) => row(i, { label: { kind: 'taxonomy', cls } }));
  const noisy = (cls: CapClass, sd: number) => SEVERITY[cls] / 7 + sd * (r() - 0.5);
  const results = labels.map((cls) => res({ sharp: noisy(cls, 0.3), sharp2: noisy(cls, 0.3), blunt: noisy(cls, 2) }));
  const metrics = ['sharp', 'sharp2', 'blunt'].map((name) => ({ name, threshold: 0.5 }));

  it('is over the best metric below the leaders, the difference of their pairwise accuracies, with an interval', () => {
    const s = agreementSummary(rows, results, metrics, { binaryFromClasses: true, resamples: 0 });
    const [first, second] = s.best.taxonomy === 'sharp' ? ['sharp', 'sharp2'] : ['sharp2', 'sharp'];
    const l = s.lead.taxonomy!;
    expect([l.best, l.over, l.n]).toEqual([first, second, 400]);
    expect(l.difference).toBe(roundStat(s.taxonomy![first]!.pairwiseAccuracy! - s.taxonomy![second]!.pairwiseAccuracy!));
    const sev = labels.map((c) => SEVERITY[c]);
    const exact = pairwiseLead(
      [first, second],
      sev,
      results.map((x) => x[first]!.score),
      results.map((x) => x[second]!.score),
    )!;
    expect(l.ci).toEqual(exact.ci!.map((x) => roundStat(x)));
    // Two metrics alike: within noise, said so.
    expect(l.real).toBe(false);
    expect(leadSentence(l, 'pairwise accuracy')).toMatch(/within noise; these 400 rows do not separate them\.$/);
    expect(agreementJson(s).lead).toEqual({
      best: l.best,
      over: l.over,
      difference: l.difference,
      ci: l.ci,
      n: 400,
      questions: 400,
      real: false,
    });
    const { clusters, ...binary } = s.lead.binary!;
    expect(agreementJson(s).lead_binary).toEqual({ ...binary, questions: clusters });
  });

  it('counts the answers to one question as one draw; a row without a question as its own', () => {
    const asked = rows.map((x, i) => ({ ...x, question: i < 300 ? `q${i % 50}` : '' }));
    const s = agreementSummary(asked, results, metrics, { resamples: 0 });
    const l = s.lead.taxonomy!;
    expect([l.n, l.clusters]).toEqual([400, 150]);
    const sev = labels.map((c) => SEVERITY[c]);
    const cluster = asked.map((x, i) => (x.question === '' ? -1 - i : x.question));
    const exact = pairwiseLead(
      [l.best, l.over],
      sev,
      results.map((x) => x[l.best]!.score),
      results.map((x) => x[l.over]!.score),
      { cluster },
    )!;
    expect(l.ci).toEqual(exact.ci!.map((x) => roundStat(x)));
    expect(leadSentence(l, 'pairwise accuracy')).toContain('these 400 rows (answers to 150 questions) do not separate them.');
  });

  it('is real when the next metric is much worse, and absent when every metric leads', () => {
    const s = agreementSummary(
      rows,
      results,
      metrics.filter((m) => m.name !== 'sharp2'),
      { binaryFromClasses: true, resamples: 0 },
    );
    expect(s.lead.taxonomy).toMatchObject({ best: 'sharp', over: 'blunt', real: true });
    expect(s.lead.binary).toMatchObject({ best: 'sharp', over: 'blunt', real: true });
    expect(leadSentence(s.lead.taxonomy, 'pairwise accuracy')).toMatch(
      /^Lead over the next metric, blunt: \+0\.\d{4} pairwise accuracy \(95% interval 0\.\d{4} to 0\.\d{4}\): a lead these 400 rows support\.$/,
    );
    const alone = agreementSummary(rows, results, metrics.slice(0, 1), { binaryFromClasses: true, resamples: 0 });
    expect(alone.lead).toEqual({ binary: null, taxonomy: null });
    expect(leadSentence(null, 'MCC')).toBeNull();
  });
});
