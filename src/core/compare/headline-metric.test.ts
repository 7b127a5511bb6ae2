/**
 * The comparison's lead metric: the reviewed estimate after a review, the metric that agrees best with the labels
 * (not the first one given, here exact_match, which ranks the systems backwards), pedants without labels.
 */
import { describe, expect, it } from 'vitest';
import { compareReport } from './report.ts';
import { closingSummary, headlineMetric } from './headline-metric.ts';
import { compareHtml } from './html.ts';
import { coverage } from '../io/systems.ts';
import { ResultTable } from '../result-table.ts';
import type { RowResults } from '../scoring.ts';

const yes = { kind: 'binary' as const, correct: true };
const no = { kind: 'binary' as const, correct: false };
const metrics = [
  { name: 'exact_match', threshold: 0.5 },
  { name: 'pedants', threshold: 0.5 },
  { name: 'token_f1', threshold: 0.5 },
];

/** Two systems, 12 questions: A is right on 10 (long answers exact match rejects), B on 6 (short ones it accepts). */
function file(labelled: 'all' | 'none' | 'some') {
  const rows: { system: string; key: string; label?: typeof yes; pi?: number; unit?: number }[] = [];
  const results: RowResults[] = [];
  const truth = { A: (q: number) => q < 10, B: (q: number) => q < 6 };
  for (const system of ['A', 'B'] as const)
    for (let q = 0; q < 12; q++) {
      const right = truth[system](q);
      const label = labelled === 'all' || (labelled === 'some' && q % 3 === 0) ? { label: right ? yes : no } : {};
      rows.push({ system, key: `q${q}`, ...label, ...(labelled === 'some' && q % 3 === 0 ? { pi: 0.5, unit: rows.length } : {}) });
      const em = system === 'A' ? q < 3 : right;
      const d = (x: boolean) => ({ score: x ? 1 : 0, decision: x, explanation: '' });
      results.push({ exact_match: d(em), pedants: d(right), token_f1: d(system === 'A' ? q < 8 : right) });
    }
  return compareReport(
    rows,
    ResultTable.of(
      results,
      metrics.map((m) => m.name),
    ),
    metrics,
    { resamples: 0, reference: 'pedants' },
  );
}

describe('headlineMetric', () => {
  it('leads with the metric that agrees best with the labels, not the first given, and says why', () => {
    const { report } = file('all');
    expect(report.ranking!.metrics.find((m) => m.metric === 'exact_match')!.kendallTau).toBe(-1);
    const lead = headlineMetric(report)!;
    expect(lead).toMatchObject({ metric: 'pedants', basis: 'labels' });
    // pedants and token_f1 both rank A above B: a tie, named, going to the embedded judge.
    expect(lead.why).toMatch(
      /agrees best with the file's human labels \(Kendall τ 1\.00; exact_match -1\.00, token_f1 1\.00\), tied with token_f1/,
    );
  });

  it('leads with the reviewed estimate after a review, and with pedants without labels', () => {
    expect(headlineMetric(file('some').report)).toMatchObject({ metric: 'pedants', basis: 'reviewed' });
    expect(headlineMetric(file('none').report)).toMatchObject({ metric: 'pedants', basis: 'judge' });
  });

  it("heads the HTML report and puts the lead's who-beats-whom matrix first", () => {
    const html = page('all');
    expect(html).toContain('<h2>The answer: ranked by pedants</h2>');
    expect(html.indexOf('html-matrix-pedants')).toBeLessThan(html.indexOf('html-matrix-exact_match'));
    // After a review: the reviewed pairs as a matrix too, and the scatter's axis names the estimate.
    const reviewed = page('some');
    expect(reviewed).toContain('<h2>The answer: ranked by the reviewed estimate</h2>');
    expect(reviewed).toContain('data-testid="html-matrix-reviewed"');
    expect(reviewed).toContain('text-anchor="middle">reviewed estimate</text>');
    expect(reviewed).not.toContain('>human accuracy</text>');
  });

  function page(kind: 'all' | 'some'): string {
    const { report, table } = file(kind);
    const rows = table.systems.flatMap((system) =>
      table.keys.map((key) => ({ id: key, system, key, question: `${key}?`, golds: ['g'], candidate: 'c', extra: {} })),
    );
    const html = compareHtml(
      report,
      table,
      rows as never,
      {
        rows,
        notes: [],
        pairing: 'rows paired by key',
        keyBy: 'key',
        layout: 'long',
        systems: ['A', 'B'],
        sources: { A: 'a.jsonl', B: 'b.jsonl' },
        coverage: coverage(rows as never, ['A', 'B']),
      } as never,
      {
        verity: 'test',
        metrics,
      } as never,
    );
    return html;
  }

  it('closes the text report with five lines: why, the ranking, what is ordered, what is not, what next', () => {
    const lines = closingSummary(file('all').report);
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(/^In short: ranked by pedants: of the metrics/);
    expect(lines[1]).toBe('Ranking: A 0.833 > B 0.500.');
    expect(lines[2]).toMatch(/^Ordered \(95%, Holm-corrected\): (A > B|none)\.$/);
    expect(lines[4]).toMatch(/^Next: verity evaluate says how each metric agrees/);
    const none = closingSummary(file('none').report);
    expect(none[4]).toMatch(/review a few answers: verity review FILE --budget 10%|every pair is ordered by the judge/);
    const reviewed = closingSummary(file('some').report);
    expect(reviewed[0]).toMatch(/reviewed estimate/);
  });
});
