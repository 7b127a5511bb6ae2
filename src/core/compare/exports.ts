/**
 * The comparison's exports, shared by `verity compare` and the app: the leaderboard as flat rows (CSV), the
 * whole report as JSON with the input's notes and coverage, and one record per scored row with its system and
 * the input's other columns (so results join back to the user's data).
 */
import Papa from 'papaparse';
import { type RowResults } from '../scoring.ts';
import { outputRecord } from '../records.ts';
import { NEEDS_NEUTRALIZING } from '../io/formula.ts';
import type { SplitSummary } from './split.ts';
import type { CompareReport } from './report.ts';
import type { FilesInput } from '../io/systems.ts';

/** What the JSON report says about the input besides its rows. */
export type InputInfo = Pick<FilesInput, 'sources' | 'layout' | 'keyBy' | 'pairing' | 'notes' | 'coverage'>;

/** One leaderboard line per metric and system, flat, for --out .csv. */
export function leaderboardRows(rep: CompareReport): Record<string, unknown>[] {
  return rep.leaderboard.metrics.flatMap((lb) => {
    const ranking = rep.ranking?.metrics.find((m) => m.metric === lb.metric);
    return lb.entries.map((e) => {
      const g = ranking?.gaps.find((x) => x.system === e.system);
      return {
        metric: lb.metric,
        threshold: lb.threshold,
        rank: e.rank,
        system: e.system,
        rows: e.rows,
        decided: e.decided,
        accuracy: e.accuracy.value,
        accuracy_lo: e.accuracy.ci?.[0] ?? null,
        accuracy_hi: e.accuracy.ci?.[1] ?? null,
        mean: e.mean.value,
        mean_lo: e.mean.ci?.[0] ?? null,
        mean_hi: e.mean.ci?.[1] ?? null,
        human_correct: e.human?.correct ?? null,
        human_labelled: e.human?.labelled ?? null,
        human_accuracy: e.human?.accuracy ?? null,
        human_lo: e.human?.ci?.[0] ?? null,
        human_hi: e.human?.ci?.[1] ?? null,
        // After a review (rows partly labelled) only: every row of the table has them then, or none has.
        ...(lb.rankedBy === 'reviewed'
          ? {
              reviewed: e.reviewed?.value ?? null,
              reviewed_lo: e.reviewed?.ci?.[0] ?? null,
              reviewed_hi: e.reviewed?.ci?.[1] ?? null,
              reviewed_labelled: e.reviewed?.labelled ?? 0,
            }
          : {}),
        gap: g?.gap ?? null,
        gap_lo: g?.gapCi?.[0] ?? null,
        gap_hi: g?.gapCi?.[1] ?? null,
        kendall_tau: ranking?.kendallTau ?? null,
      };
    });
  });
}

/** The leaderboard as CSV (formula-looking cells neutralized, as in every export). */
export function leaderboardCsv(rep: CompareReport): string {
  return `${Papa.unparse(leaderboardRows(rep), { newline: '\n', escapeFormulae: NEEDS_NEUTRALIZING })}\n`;
}

/** The systems × splits tables as CSV: a line per metric and system, a column per split, the macro average and its interval. */
export function splitsCsv(summaries: readonly SplitSummary[]): string {
  const splits = summaries[0]?.splits ?? [];
  // Rows as arrays: a split may be named like any column (metric, macro, __proto__).
  const data = summaries.flatMap((s) =>
    s.systems.map((r) => [
      s.metric,
      r.system,
      ...splits.map((k) => r.cells[k]?.accuracy ?? null),
      r.macro,
      r.ci?.[0] ?? null,
      r.ci?.[1] ?? null,
    ]),
  );
  const fields = ['metric', 'system', ...splits, 'macro', 'macro_lo', 'macro_hi'];
  return `${Papa.unparse({ fields, data }, { newline: '\n', escapeFormulae: NEEDS_NEUTRALIZING })}\n`;
}

/** The versioned name of the comparison's JSON form (docs/report.schema.json). */
export const COMPARE_SCHEMA = 'verity-compare/1';

/** The report as JSON, with the input notes and coverage. */
export function reportJson(rep: CompareReport, input: InputInfo): Record<string, unknown> {
  return {
    schema: COMPARE_SCHEMA,
    systems: rep.systems,
    sources: input.sources,
    layout: input.layout,
    join_by: input.keyBy,
    pairing: input.pairing,
    notes: input.notes,
    coverage: input.coverage,
    questions: rep.questions,
    rows: rep.rows,
    labelled: rep.labelled,
    leaderboard: rep.leaderboard,
    paired: rep.paired,
    ranking: rep.ranking,
    splits: rep.splits,
    judge: rep.judge,
  };
}

/** Per-row record: the system first, the usual output record, then the input's extra columns. */
export function rowRecord(row: FilesInput['rows'][number], results: RowResults, detailed: ReadonlySet<string>): Record<string, unknown> {
  return { system: row.system, ...outputRecord(row, results, detailed) };
}
