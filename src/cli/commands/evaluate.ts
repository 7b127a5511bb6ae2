/** `verity evaluate FILE`: each metric's agreement with the human labels, as text or one JSON object. */
import type { Command } from 'commander';
import type { RowResults, ScoreColumns } from '../../core/run.ts';
import { packChunk, ResultTable } from '../../core/result-table.ts';
import { agreementJson, agreementSummaryOfColumns, formatStat } from '../../core/report.ts';
import { HARD_PAIRS } from '../../core/agreement/ordinal.ts';
import { VerityError, type QaRow, type Label } from '../../core/types.ts';
import { DEFAULTS } from '../../core/defaults.ts';
import { intOption } from '../io.ts';
import { usedModels } from '../models.ts';
import { buildMetrics, common, type CommonOptions } from '../options.ts';
import { foldInto, readLabels } from '../labels.ts';
import type { ReviewLabel } from '../../core/review/labels.ts';
import { reviewedAccuracy, type Reviewed } from '../../core/review/estimate.ts';
import { labelIsCorrect } from '../../core/io/fields.ts';
import { scoreFile } from '../scoring.ts';

/**
 * What a streamed evaluate keeps: the results in the table every surface keeps them in (scores and decisions;
 * no explanations), the labels, and per metric why it gave no score on its first unscored labelled row (the
 * report's "left out" reason).
 */
class Kept {
  labels: (Label | undefined)[] = [];
  readonly ids: string[] = [];
  /** Review pick bits per row (core/review/estimate.ts), when --labels says how rows were picked. */
  picks: Int8Array | null = null;
  readonly table: ResultTable;
  private readonly why = new Map<string, string>();

  constructor(private readonly names: readonly string[]) {
    this.table = new ResultTable(names, new Set(), new Set());
  }

  add(rows: readonly QaRow[], results: readonly RowResults[]): void {
    if (rows.length === 0) return;
    this.table.append(packChunk(results, this.names, new Set(), new Set()));
    rows.forEach((r, i) => {
      this.labels.push(r.label);
      this.ids.push(r.id);
      if (!r.label) return;
      for (const m of this.names) {
        const x = results[i]![m];
        if ((x?.score ?? null) === null && x?.explanation && !this.why.has(m)) this.why.set(m, x.explanation);
      }
    });
  }

  /** Folds review labels in (cli/labels.ts). */
  fold(labels: readonly ReviewLabel[], path: string): void {
    const rows = foldInto(
      this.ids.map((id, i) => ({ id, label: this.labels[i] })),
      labels,
      path,
    );
    this.labels = rows.map((r) => r.label);
    if (rows.some((r) => r.pick)) this.picks = Int8Array.from(rows, (r) => r.pick ?? 0);
  }

  /**
   * Each metric's reviewed accuracy (core/review/estimate.ts) when some decided rows are labelled and some are
   * not; null otherwise (every row labelled: the agreement report says it all).
   */
  reviewed(names: readonly string[], level: number): Record<string, Reviewed> | null {
    const n = this.labels.length;
    const human = Int8Array.from(this.labels, (l) => (l ? (labelIsCorrect(l) ? 1 : 0) : -1));
    const out: Record<string, Reviewed> = {};
    let partial = false;
    for (const m of names) {
      const d = Int8Array.from({ length: n }, (_, i) => {
        const x = this.table.decision(m, i);
        return x === null ? -1 : x ? 1 : 0;
      });
      if (d.some((x, i) => x >= 0 && human[i]! < 0) && human.some((h) => h >= 0)) partial = true;
      const r = reviewedAccuracy(
        d,
        human,
        this.picks,
        Array.from({ length: n }, (_, i) => i),
        level,
      );
      if (r) out[m] = r;
    }
    return partial ? out : null;
  }

  columns(): ScoreColumns {
    return {
      labels: this.labels,
      score: (m, i) => this.table.score(m, i),
      decision: (m, i) => this.table.decision(m, i),
      explanation: (m) => this.why.get(m),
    };
  }
}

/** Report numbers as every surface prints them (formatStat: the report's digits, no second rounding). */
function fmt(x: unknown): string {
  return typeof x === 'number' ? formatStat(x) : x === null || x === undefined ? '—' : String(x);
}

function table(header: string[], rows: unknown[][]): string {
  const cells = [header, ...rows.map((r) => r.map(fmt))];
  const widths = header.map((_, j) => Math.max(...cells.map((r) => String(r[j]).length)));
  return cells.map((r) => r.map((c, j) => (j === 0 ? String(c).padEnd(widths[j]!) : String(c).padStart(widths[j]!))).join('  ')).join('\n');
}

function reportText(json: Record<string, unknown>): string {
  const metrics = json.metrics as Record<string, Record<string, unknown>>;
  const lines = [`${json.n} labelled rows (${json.label_kind} labels), ${json.skipped} skipped`, ''];
  if (json.label_kind === 'binary') {
    const cols = ['accuracy', 'precision', 'recall', 'f1', 'mcc', 'balanced_accuracy', 'kappa', 'roc_auc', 'threshold'];
    lines.push(
      table(
        ['metric', ...cols],
        Object.entries(metrics).map(([n, m]) => [n, ...cols.map((c) => m[c])]),
      ),
    );
    lines.push(
      '',
      '95% bootstrap intervals (MCC): ' +
        Object.entries(metrics)
          .map(([n, m]) => `${n} [${((m.ci as Record<string, unknown>).mcc as number[] | null)?.map(fmt).join(', ') ?? '—'}]`)
          .join('; '),
    );
    if (json.best) lines.push(`best MCC: ${json.best}`);
  } else {
    const cols = ['spearman', 'kendall', 'pairwise_accuracy'];
    lines.push(
      table(
        ['metric', ...cols, 'violations', ...Object.keys(HARD_PAIRS)],
        Object.entries(metrics).map(([n, m]) => {
          const v = m.violations as { count: number; of: number };
          const h = m.hard_pairs as Record<string, number | null>;
          return [n, ...cols.map((c) => m[c]), `${v.count}/${v.of}`, ...Object.keys(HARD_PAIRS).map((k) => h[k])];
        }),
      ),
    );
    if (json.best) lines.push('', `most monotone (Spearman ρ): ${json.best}`);
  }
  const reviewed = Object.entries(metrics).filter(([, m]) => m.reviewed);
  if (reviewed.length) {
    const design = (reviewed[0]![1].reviewed as Reviewed).design;
    lines.push(
      '',
      'reviewed accuracy (the label where a row has one, the metric elsewhere, corrected by the random slice; 95% prediction-powered interval' +
        (design === 'assumed-random' ? '; the labelled rows taken as a random sample' : '') +
        '):',
      ...reviewed.map(([n, m]) => {
        const r = m.reviewed as Reviewed;
        return `  ${n} ${formatStat(r.value)} [${r.ci ? r.ci.map(formatStat).join(', ') : '—'}] (${r.labelled} labelled, ${r.random} in the random slice)`;
      }),
    );
  }
  const omitted = json.omitted as Record<string, string> | undefined;
  if (omitted) for (const [m, why] of Object.entries(omitted)) lines.push(`left out: ${m} (${why})`);
  return `${lines.join('\n')}\n`;
}

async function cmdEvaluate(
  file: string,
  o: CommonOptions & { json?: boolean; seed?: string; resamples?: string; labels?: string },
): Promise<void> {
  const metrics = buildMetrics(o);
  const labels = o.labels ? await readLabels(o.labels, [file]) : null;
  const seed = intOption(o.seed, '--seed', DEFAULTS.bootstrap.seed);
  const resamples = intOption(o.resamples, '--resamples', DEFAULTS.bootstrap.resamples);
  const kept = new Kept(metrics.map((m) => m.name));
  let models: Record<string, unknown> | undefined;
  const { skipped } = await scoreFile(file, metrics, o, async (rows, results, ctx) => {
    kept.add(rows, results);
    models = await usedModels(ctx);
  });
  if (labels) kept.fold(labels, o.labels!);
  if (!kept.labels.some((l) => l))
    throw new VerityError(
      `${file} has no usable labels: add a "label" column (true/false or a class name), use --map label=COLUMN, or give review labels with --labels`,
      'input',
    );
  const json = agreementJson(agreementSummaryOfColumns(kept.columns(), metrics, { seed, resamples }), skipped);
  const reviewed = kept.reviewed(
    metrics.map((m) => m.name),
    DEFAULTS.bootstrap.level,
  );
  if (reviewed)
    for (const [m, r] of Object.entries(reviewed)) {
      const entry = (json.metrics as Record<string, Record<string, unknown>>)[m];
      if (entry) entry.reviewed = r;
    }
  if (models) json.models = models;
  process.stdout.write(o.json ? `${JSON.stringify(json)}\n` : reportText(json));
}

export function register(p: Command): void {
  common(p.command('evaluate').argument('<file>', 'a labelled file').description('agreement of each metric with human labels'))
    .option('--labels <file>', 'review labels (.jsonl: id, label, picked) folded in: each metric gains its reviewed accuracy')
    .option('--json', 'print one JSON object')
    .option('--seed <n>', 'bootstrap seed', String(DEFAULTS.bootstrap.seed))
    .option('--resamples <n>', 'bootstrap resamples (0 = no intervals)', String(DEFAULTS.bootstrap.resamples))
    .action(cmdEvaluate);
}
