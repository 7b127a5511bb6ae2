/**
 * What a review's answers say so far: each system's estimated accuracy (the comparison's own estimate:
 * core/compare/reviewed.ts, over the rows with the answers in) beside the judge's, what one more answer buys, and
 * what they say about the judge.
 */
import { compareTable, type CompareRow, type CompareTable } from '../core/compare/table.ts';
import { reviewedJudge, reviewedReport } from '../core/compare/reviewed.ts';
import type { JudgeReport } from '../core/review/judge.ts';
import { DEFAULTS } from '../core/defaults.ts';
import type { SystemRow } from '../core/compare/index.ts';
import type { ResultTable } from '../core/result-table.ts';
import type { ReviewEstimate, ReviewStop } from './api.ts';
import { reviewedFields, type ReviewedRow } from '../core/review/labels.ts';
import { aheadText } from '../core/compare/headline-metric.ts';

/** What a review's figures are read from: the scored rows with its answers in, their results, the metrics, its judge. */
export interface ReviewRun {
  rows: readonly (SystemRow & ReviewedRow)[];
  results: ResultTable;
  metrics: readonly { name: string; threshold: number }[];
  judge: string;
  /** Several systems (else a run of one, whose estimate has no system). */
  systems: boolean;
}

/** The rows with the review's answers in as the comparison's table, the review's judge its reference. */
function reviewTable({ rows, results, metrics, judge, systems }: ReviewRun): CompareTable {
  const compareRows: CompareRow[] = rows.map((row, i) => ({
    system: systems ? row.system : '',
    key: systems ? row.key : String(i),
    question: row.question,
    golds: row.golds,
    candidate: row.candidate,
    ...(row.label ? { label: row.label } : {}),
    ...reviewedFields(row),
  }));
  return compareTable(
    compareRows,
    results,
    metrics.map((m) => ({ name: m.name, threshold: m.threshold })),
    { reference: judge },
  );
}

/** Each system's estimate (system null for a run of one), and the "you can stop now" figures. */
export function reviewEstimates(
  run: ReviewRun,
  /** Before the first answer: what the review should give (review/ahead.ts), said where no interval is yet. */
  before?: string,
): { estimates: ReviewEstimate[]; stop: ReviewStop } {
  const { judge, systems } = run;
  const t = reviewTable(run);
  const rep = reviewedReport(t, DEFAULTS.bootstrap.level, DEFAULTS.alpha);
  const Q = t.keys.length;
  const dec = t.decision[judge];
  const estimates = t.systems.map((system, s): ReviewEstimate => {
    let decided = 0;
    let correct = 0;
    for (let q = 0; q < Q; q++) {
      const d = dec?.[s * Q + q] ?? -1;
      if (d >= 0) {
        decided++;
        correct += d;
      }
    }
    return { system: systems ? system : null, judged: decided ? correct / decided : null, reviewed: rep?.systems[s] ?? null };
  });
  const stop = stopFigures(estimates, rep?.pairs ?? []);
  return { estimates, stop: before && stop.widest === null ? { ...stop, line: `${stop.line} ${before}.` } : stop };
}

/**
 * What the answers so far say about the judge (core/review/judge.ts: its false-negative and false-positive rates,
 * bias and errors by answer length, per system); null before any answer. Asked apart from the estimates: it costs more.
 */
export function reviewJudgeErrors(run: ReviewRun): (JudgeReport & { reference: string }) | null {
  return reviewedJudge(reviewTable(run), DEFAULTS.bootstrap.level);
}

/** The "you can stop now" figures: interval widths, pairs still undecided, and the line that says them. */
export function stopFigures(
  estimates: readonly ReviewEstimate[],
  pairs: readonly { a: string; b: string; better: string | null; n: number; more?: number | null }[],
): ReviewStop {
  const widths = estimates.flatMap((e) => (e.reviewed?.ci ? [e.reviewed.ci[1] - e.reviewed.ci[0]] : []));
  const widest = widths.length ? Math.max(...widths) : null;
  const mean = widths.length ? widths.reduce((x, y) => x + y, 0) / widths.length : null;
  const shared = pairs.filter((p) => p.n > 0);
  const undecided = shared.filter((p) => p.better === null).length;
  const pct = (x: number) => `±${((x / 2) * 100).toFixed(1)} points`;
  let line: string;
  if (widest === null) line = 'No interval yet: answer the questions in order from the first.';
  else {
    const ranking = shared.length
      ? undecided === 0
        ? 'every pair of systems is ordered: the ranking is decided, you can stop now'
        : `${undecided} of ${shared.length} pairs of systems are not yet ordered (their difference could be 0)${aheadText(shared.filter((p) => p.better === null))}`
      : '';
    // The confidence sequence's radius: tested in core/review/sequential.test.ts.
    line = `Each accuracy is known to ${pct(mean!)} on average (the widest ${pct(widest)})${ranking ? `; ${ranking}` : ''}. Four times as many answers narrow the intervals to about half, or less while the review is short of its planned length.`;
  }
  return { widest, mean, undecided, pairs: shared.length, line };
}
