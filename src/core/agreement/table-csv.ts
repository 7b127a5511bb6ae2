/**
 * The monotonicity table as CSV (the Learn page's export, for a class's spreadsheet): one line per metric with the
 * report's numbers as they are shown (rounded once, in core/report.ts), violations with their ties, and which
 * metrics the headline crowns (every one tied at the best pairwise accuracy).
 */
import Papa from 'papaparse';
import type { AgreementSummary } from '../report.ts';
import { NEEDS_NEUTRALIZING } from '../io/formula.ts';
import { HARD_PAIRS, type HardPair } from './ordinal.ts';

export function taxonomyTableCsv(s: AgreementSummary): string {
  const hard = Object.keys(HARD_PAIRS) as HardPair[];
  const fields = ['metric', 'n', 'spearman', 'kendall', 'pairwise_accuracy', 'violations', 'tied', 'of', ...hard, 'most_monotone'];
  const data = Object.entries(s.taxonomy ?? {}).map(([name, t]) => [
    name,
    t.n,
    t.spearman ?? '',
    t.kendall ?? '',
    t.pairwiseAccuracy ?? '',
    t.violations.count,
    t.violations.ties,
    t.violations.of,
    ...hard.map((k) => t.hardPairs[k] ?? ''),
    // Every metric tied at the best pairwise accuracy is the most monotone.
    (s.leaders.taxonomy.pairwiseAccuracy ?? []).includes(name) ? 'yes' : '',
  ]);
  return `${Papa.unparse({ fields, data }, { newline: '\n', escapeFormulae: NEEDS_NEUTRALIZING })}\n`;
}
