/**
 * Scoring and agreement over parsed rows: the engine behind `verity score`, `verity evaluate` and the app.
 */
import {
  VerityError,
  isBatchMetric,
  type AnyMetric,
  type CapClass,
  type Label,
  type Metric,
  type MetricResult,
  type QaItem,
  type QaRow,
} from './types.ts';
import { withEvidenceCache, type RunContext } from './evidence.ts';

export { withEvidenceCache };
import {
  binaryReport,
  predictCombination,
  taxonomyReport,
  type BinaryReport,
  type BootstrapOptions,
  type Combination,
  type TaxonomyReport,
} from './agreement/index.ts';
import { labelIsCorrect } from './correctness.ts';
import { LIMITS, overLimit } from './limits.ts';
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
  onProgress?: (done: number, total: number) => void;
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
  const chunkAt = (k: number) => rows.slice(k * size, (k + 1) * size);
  const chunks = Math.ceil(rows.length / size);
  // Up to SYNC_AHEAD batches are with scoreSync at a time, so scoring threads (the CLI's) take them side
  // by side while the copies in their queues stay few.
  const scoreSync = sync.length ? opts.scoreSync : undefined;
  // Each batch sent keeps its rows, so the loop below reads them without slicing again.
  const sent = new Map<number, { chunk: QaItem[]; result: Promise<RowResults[]> }>();
  const send = (k: number) => {
    if (!scoreSync || k >= chunks) return;
    const chunk = chunkAt(k);
    const result = scoreSync(chunk);
    result.catch(() => {}); // awaited below in order; one left behind when another fails is not unhandled
    sent.set(k, { chunk, result });
  };
  for (let k = 0; k < SYNC_AHEAD; k++) send(k);
  for (let k = 0; k < chunks; k++) {
    opts.signal?.throwIfAborted();
    const away = sent.get(k);
    const chunk = away?.chunk ?? chunkAt(k);
    let part: RowResults[];
    if (away) {
      part = await away.result;
      sent.delete(k);
      send(k + SYNC_AHEAD);
    } else part = chunk.map((r) => scoreRow(r, sync, opts.scoresOnly));
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
    opts.onProgress?.(out.length, rows.length);
  }
  return out;
}

/** Output form of a label: true/false for binary labels, the class name for taxonomy labels. */
export const labelValue = (l: Label | undefined): boolean | CapClass | null =>
  l === undefined ? null : l.kind === 'binary' ? l.correct : l.cls;

/**
 * One JSONL output record (stable key order, so output is byte-identical across runs). `detailed` names the
 * metrics whose structured details (statements, NLI distributions, group scores…) go into the output.
 */
export function outputRecord(row: QaRow, results: RowResults, detailed: ReadonlySet<string> = new Set()): Record<string, unknown> {
  const metrics: Record<string, unknown> = {};
  for (const [name, r] of Object.entries(results))
    metrics[name] = {
      score: r.score,
      decision: r.decision,
      ...(r.class !== undefined ? { class: r.class } : {}),
      ...(r.set !== undefined ? { set: r.set } : {}),
      explanation: r.explanation,
      ...(r.details !== undefined && detailed.has(name) ? { details: r.details } : {}),
    };
  // Null-prototype: an input column named "__proto__" is a key like any other.
  const rec = Object.assign(Object.create(null) as Record<string, unknown>, {
    id: row.id,
    question: row.question,
    gold: row.golds,
    candidate: row.candidate,
    label: labelValue(row.label),
    metrics,
  });
  // The input's own columns follow; one named like a field of the record keeps its value as `input.<name>`.
  if (row.extra) for (const k in row.extra) rec[Object.hasOwn(rec, k) || k === 'system' ? `input.${k}` : k] = row.extra[k];
  return rec;
}

export type LabelKind = 'binary' | 'taxonomy';

export interface BinaryMetricReport {
  threshold: number;
  report: BinaryReport;
}

export interface AgreementReport {
  /** Labelled rows used. */
  n: number;
  /** Rows not used: unlabelled or bad label (file-level skips are added by the caller). */
  skipped: number;
  label_kind: LabelKind;
  binary?: Record<string, BinaryMetricReport>;
  taxonomy?: Record<string, TaxonomyReport>;
}

/**
 * What an agreement report needs of a run, column by column: a label per row and each metric's score and
 * decision by row index (so a long run can keep them in typed arrays rather than one object per row).
 */
export interface ScoreColumns {
  labels: readonly (Label | undefined)[];
  score(metric: string, row: number): number | null;
  decision(metric: string, row: number): boolean | null;
  /** Why a metric gave what it gave on a row (for the report's "left out" reasons); optional. */
  explanation?(metric: string, row: number): string | undefined;
  /**
   * The row's question (or a number standing for it): answers to one question count as one draw in the interval of
   * the best metric's lead. Without it, or for an empty question, each row is its own.
   */
  question?(row: number): string | number;
}

/**
 * Agreement of each metric with the human labels. Taxonomy when every label is one of the eight classes;
 * otherwise binary, reducing class labels to correct (exact … overinclusive-valid) / incorrect. Unrounded:
 * what the surfaces show is `agreementSummary` (core/report.ts), built from this.
 */
export function agreement(
  rows: readonly QaRow[],
  results: readonly RowResults[],
  metrics: readonly Pick<AnyMetric, 'name' | 'threshold'>[],
  bootstrap: BootstrapOptions = {},
): AgreementReport {
  return agreementOfColumns(
    {
      labels: rows.map((r) => r.label),
      score: (m, i) => results[i]![m]?.score ?? null,
      decision: (m, i) => results[i]![m]?.decision ?? null,
    },
    metrics,
    bootstrap,
  );
}

/** agreement() over columns. */
export function agreementOfColumns(
  cols: ScoreColumns,
  metrics: readonly Pick<AnyMetric, 'name' | 'threshold'>[],
  bootstrap: BootstrapOptions = {},
): AgreementReport {
  const idx: number[] = [];
  cols.labels.forEach((l, i) => l && idx.push(i));
  const labelled = idx.map((i) => cols.labels[i]!);
  const kind: LabelKind = labelled.length > 0 && labelled.every((l) => l.kind === 'taxonomy') ? 'taxonomy' : 'binary';
  const out: AgreementReport = { n: idx.length, skipped: cols.labels.length - idx.length, label_kind: kind };
  if (kind === 'taxonomy') {
    const classes = labelled.map((l) => (l as { cls: CapClass }).cls);
    out.taxonomy = Object.fromEntries(
      metrics.map((m) => [
        m.name,
        taxonomyReport(
          idx.map((i) => cols.score(m.name, i)),
          classes,
        ),
      ]),
    );
  } else {
    const labels = labelled.map(labelIsCorrect);
    out.binary = Object.fromEntries(
      metrics.map((m) => [
        m.name,
        {
          threshold: m.threshold,
          report: binaryReport(
            idx.map((i) => cols.score(m.name, i)),
            idx.map((i) => cols.decision(m.name, i)),
            labels,
            bootstrap,
          ),
        },
      ]),
    );
  }
  return out;
}

/**
 * A calibrated logistic combination of other metrics' scores, as a metric of its own ("combined").
 * Its components are scored again inside; they are cheap lexical metrics.
 */
export function combinedMetric(comb: Combination, components: readonly Metric[]): Metric {
  const byName = new Map(components.map((m) => [m.name, m] as const));
  const parts = comb.metrics.map((n) => {
    const m = byName.get(n);
    if (!m) throw new VerityError(`the calibration combines "${n}", which is not an available metric`, 'usage');
    return m;
  });
  return {
    name: 'combined',
    card: {
      what: `Calibrated logistic combination of ${comb.metrics.join(', ')}.`,
      formula: 'P(correct) = σ(Σ w_k·(score_k − mean_k)/std_k + b)',
      defaults: `Fitted with verity calibrate (L2 ${comb.l2}); threshold ${comb.threshold}.`,
      limits: 'Only as good as the labelled rows it was fitted on.',
      citation: 'Verity calibration.',
    },
    threshold: comb.threshold,
    score(item) {
      const scores = parts.map((m) => m.score(item).score);
      const p = predictCombination(comb, scores);
      if (!p) return { score: null, decision: null, explanation: 'a component metric gave no score' };
      return {
        score: p.probability,
        decision: p.decision,
        explanation: `P(correct)=${p.probability.toFixed(3)} from ${comb.metrics.map((n, k) => `${n}=${scores[k]!.toFixed(3)}`).join(', ')}`,
      };
    },
  };
}
