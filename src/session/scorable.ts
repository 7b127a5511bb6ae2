/**
 * What a chosen metric can score in a mapped file, said before the run (and before any download is offered):
 * A-VERT ranks the answer against wrong targets, so rows without `choices` besides the golds or `wrong_answers`
 * give it nothing to compare with.
 */
import type { MappedSummary } from './api.ts';

export interface Unscorable {
  metric: string;
  /** Rows the metric can score (0: it is left out of the run). */
  rows: number;
  reason: string;
}

const NEEDS_WRONG_TARGETS = new Set(['avert', 'avert_embedding']);

/** The chosen metrics that cannot score some or all rows of this file, with why. */
export function unscorable(metrics: readonly string[], s: Pick<MappedSummary, 'rows' | 'withWrongTargets'>): Unscorable[] {
  const out: Unscorable[] = [];
  for (const m of metrics)
    if (NEEDS_WRONG_TARGETS.has(m) && s.withWrongTargets < s.rows)
      out.push({
        metric: m,
        rows: s.withWrongTargets,
        reason:
          s.withWrongTargets === 0
            ? `${m} cannot score this file: it needs wrong answers to rank against (a choices column with options besides the gold, or a wrong_answers column), and no row has them. It is left out of the run.`
            : `${m} can score ${s.withWrongTargets.toLocaleString('en')} of ${s.rows.toLocaleString('en')} rows; the others have no wrong answers (choices besides the gold, or wrong_answers) and give "not scored".`,
      });
  return out;
}

/** The metrics worth running: those that can score at least one row. */
export const runnable = (metrics: readonly string[], s: Pick<MappedSummary, 'rows' | 'withWrongTargets'>): string[] => {
  const none = new Set(
    unscorable(metrics, s)
      .filter((u) => u.rows === 0)
      .map((u) => u.metric),
  );
  return metrics.filter((m) => !none.has(m));
};
