/**
 * Scoring parsed rows: every metric on every row, what the run engine (session/engine.ts) calls for each job it
 * scores in its own thread.
 * What a row's results become in an output file is records.ts; their agreement with labels, report.ts.
 */
import { isBatchMetric, type AnyMetric, type Metric, type MetricResult, type QaItem } from './types.ts';
import { withEvidenceCache, type RunContext } from './evidence.ts';
import { LIMITS, overLimit } from './limits.ts';
import { InOrder } from './in-order.ts';
import { DEFAULTS } from './defaults.ts';

export type RowResults = Record<string, MetricResult>;

const finite = (m: { name: string }, r: MetricResult): MetricResult =>
  r.score === null || Number.isFinite(r.score) ? r : { score: null, decision: null, explanation: `${m.name} produced no finite score` };

const notScored = (why: string): MetricResult => ({
  score: null,
  decision: null,
  explanation: `not scored: ${why}, over the limit of ${LIMITS.fieldChars.toLocaleString('en-US')} characters per field`,
});

/**
 * Scores one row with every synchronous metric; a metric that throws gives nulls and says why instead of stopping
 * the run. The metrics named in `scoresOnly` are asked for their scores alone (their explanations are not kept).
 */
export function scoreRow(row: QaItem, metrics: readonly Metric[], scoresOnly?: ReadonlySet<string>): RowResults {
  const out: RowResults = {};
  const tooLong = overLimit(row);
  for (const m of metrics) {
    if (tooLong) {
      out[m.name] = notScored(tooLong);
      continue;
    }
    try {
      out[m.name] = finite(m, m.score(row, scoresOnly?.has(m.name) ? 'scores' : 'full'));
    } catch (e) {
      out[m.name] = { score: null, decision: null, explanation: `${m.name} failed on this row: ${(e as Error).message}` };
    }
  }
  return out;
}

/** What a metric reads of a row (a scoring worker or thread gets no more). */
export const itemOf = (r: QaItem): QaItem => {
  const it: QaItem = { question: r.question, golds: r.golds, candidate: r.candidate };
  if (r.choices) it.choices = r.choices;
  if (r.wrongAnswers) it.wrongAnswers = r.wrongAnswers;
  if (r.nli) it.nli = r.nli;
  if (r.statements) it.statements = r.statements;
  return it;
};

export interface ScoreOptions {
  /** Rows per batch handed to model-based metrics (default DEFAULTS.rowsPerBatch.session). */
  batchSize?: number;
  /**
   * Scores a batch's rows with the synchronous metrics elsewhere (the CLI's scoring thread), giving each row's
   * results of those metrics; by default they are scored here.
   */
  scoreSync?: (rows: QaItem[]) => Promise<RowResults[]>;
  signal?: AbortSignal;
  /** Synchronous metrics asked for their scores alone (scoreRow): the caller keeps nothing else of theirs. */
  scoresOnly?: ReadonlySet<string>;
}

/** Batches with ScoreOptions.scoreSync at a time (two for each of up to four threads). */
const SYNC_AHEAD = 8;

/**
 * Scores rows with any mix of synchronous and model-based metrics, batch by batch. A model metric that fails
 * on a batch gives nulls with the reason for those rows; the other metrics and batches go on. Metrics share
 * statements and NLI through `ctx.evidence` (a new cache for this call when the caller gives none).
 */
export async function scoreRows(
  rows: readonly QaItem[],
  metrics: readonly AnyMetric[],
  ctx: RunContext = {},
  opts: ScoreOptions = {},
): Promise<RowResults[]> {
  const sync = metrics.filter((m): m is Metric => !isBatchMetric(m));
  const batch = metrics.filter(isBatchMetric);
  const size = Math.max(1, opts.batchSize ?? DEFAULTS.rowsPerBatch.session);
  // One evidence cache per run: a caller that scores a run in several calls passes its own in ctx.evidence.
  const run = ctx.evidence ? ctx : withEvidenceCache(ctx);
  const out: RowResults[] = [];
  const scoreSync = sync.length ? opts.scoreSync : undefined;
  // Each batch's synchronous metrics (with scoreSync, up to SYNC_AHEAD batches at a time, so scoring threads take
  // them side by side while the copies in their queues stay few), then its model metrics, in row order.
  const order = new InOrder<{ chunk: readonly QaItem[]; part: RowResults[] }>(async ({ chunk, part }) => {
    opts.signal?.throwIfAborted();
    // Rows with a field over the limit never reach a model.
    const tooLong = chunk.map(overLimit);
    const fit = chunk.filter((_, i) => tooLong[i] === null);
    for (const m of batch) {
      let res: MetricResult[];
      try {
        res = fit.length ? await m.scoreBatch(fit, run) : [];
        if (res.length !== fit.length) throw new Error(`returned ${res.length} results for ${fit.length} rows`);
      } catch (e) {
        const explanation = `${m.name} failed on this batch: ${(e as Error).message}`;
        res = fit.map(() => ({ score: null, decision: null, explanation }));
      }
      let k = 0;
      chunk.forEach((_, i) => (part[i]![m.name] = tooLong[i] ? notScored(tooLong[i]) : finite(m, res[k++]!)));
    }
    // Keep the caller's metric order in every row.
    for (const p of part) out.push(Object.fromEntries(metrics.map((m) => [m.name, p[m.name]!])));
  });
  for (let at = 0; at < rows.length; at += size) {
    opts.signal?.throwIfAborted();
    const chunk = rows.slice(at, at + size);
    if (scoreSync) {
      order.add(scoreSync(chunk).then((part) => ({ chunk, part })));
      await order.until(SYNC_AHEAD - 1);
    } else {
      order.add(Promise.resolve({ chunk, part: chunk.map((r) => scoreRow(r, sync, opts.scoresOnly)) }));
      await order.until(0);
    }
  }
  await order.until(0);
  return out;
}
