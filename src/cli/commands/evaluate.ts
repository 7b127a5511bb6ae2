/** `verity evaluate FILE`: each metric's agreement with the human labels, as text or one JSON object. */
import type { Command } from 'commander';
import type { RowResults } from '../../core/scoring.ts';
import type { ScoreColumns } from '../../core/report.ts';
import { packChunk, ResultTable } from '../../core/result-table.ts';
import { agreementJson, agreementSummaryOfColumns, formatStat } from '../../core/report.ts';
import { HARD_PAIRS } from '../../core/agreement/ordinal.ts';
import { leadSentence, taxonomyHeadline, taxonomyHeadlineText, tiedNames, type TaxonomyHeadline } from '../../core/agreement/headline.ts';
import { VerityError, type QaRow, type Label } from '../../core/types.ts';
import { DEFAULTS } from '../../core/defaults.ts';
import { intOption } from '../options.ts';
import { usedModels } from '../models.ts';
import { buildMetrics, common, type CommonOptions } from '../options.ts';
import { foldInto, readLabels } from '../labels.ts';
import { reviewedFields, type ParsedLabels, type ReviewedRow } from '../../core/review/labels.ts';
import type { Reviewed } from '../../core/review/estimate.ts';
import { compareTable } from '../../core/compare/table.ts';
import { reviewedReport } from '../../core/compare/reviewed.ts';
import { scoreFile } from '../run.ts';
import { checkLabelsInput } from '../labels.ts';

/**
 * What a streamed evaluate keeps: the results in the table every surface keeps them in (scores and decisions;
 * no explanations), the labels, and per metric why it gave no score on its first unscored labelled row (the
 * report's "left out" reason).
 */
class Kept {
  labels: (Label | undefined)[] = [];
  readonly ids: string[] = [];
  /** The rows' text, kept only when review labels are folded in (the review's estimate reads it). */
  readonly texts: Pick<QaRow, 'question' | 'golds' | 'candidate'>[] | null;
  /** How review labels were drawn, per row, once folded in. */
  private design: ReviewedRow[] = [];
  readonly table: ResultTable;
  private readonly why = new Map<string, string>();
  /** Each row's question as a number (one per distinct question; memory for the questions, not every row's text). */
  private readonly questions: (number | string)[] = [];
  private readonly questionIds = new Map<string, number>();
  private questionId(q: string): number | string {
    if (q === '') return '';
    let id = this.questionIds.get(q);
    if (id === undefined) this.questionIds.set(q, (id = this.questionIds.size));
    return id;
  }

  constructor(
    private readonly names: readonly string[],
    texts: boolean,
  ) {
    this.table = new ResultTable(names, new Set(), new Set());
    this.texts = texts ? [] : null;
  }

  add(rows: readonly QaRow[], results: readonly RowResults[]): void {
    if (rows.length === 0) return;
    this.table.append(packChunk(results, this.names, new Set(), new Set()));
    rows.forEach((r, i) => {
      this.labels.push(r.label);
      this.ids.push(r.id);
      this.questions.push(this.questionId(r.question));
      this.texts?.push({ question: r.question, golds: r.golds, candidate: r.candidate });
      if (!r.label) return;
      for (const m of this.names) {
        const x = results[i]![m];
        if ((x?.score ?? null) === null && x?.explanation && !this.why.has(m)) this.why.set(m, x.explanation);
      }
    });
  }

  /** Folds review labels in (cli/labels.ts). */
  fold(labels: ParsedLabels, path: string): void {
    const rows = foldInto(
      this.ids.map((id, i) => ({ id, label: this.labels[i] })),
      labels,
      path,
    );
    this.labels = rows.map((r) => r.label);
    this.design = rows.map(reviewedFields);
  }

  /**
   * The review's estimate of the file's accuracy as the humans would give it (core/compare/reviewed.ts, one system)
   * when some decided rows are labelled and some are not; null otherwise (every row labelled: the agreement
   * report says it all).
   */
  reviewed(
    metrics: readonly { name: string; threshold: number }[],
    level: number,
    reference?: string,
  ): (Reviewed & { reference: string }) | null {
    const rows = this.ids.map((id, i) => ({
      system: '',
      key: String(i),
      ...(this.labels[i] ? { label: this.labels[i] } : {}),
      ...this.design[i],
      ...(this.texts ? this.texts[i] : {}),
    }));
    const t = compareTable(rows, this.table, metrics, reference ? { reference } : {});
    const r = reviewedReport(t, level, DEFAULTS.alpha);
    return r?.systems[0] ? { ...r.systems[0], reference: r.reference } : null;
  }

  columns(): ScoreColumns {
    return {
      labels: this.labels,
      score: (m, i) => this.table.score(m, i),
      decision: (m, i) => this.table.decision(m, i),
      explanation: (m) => this.why.get(m),
      question: (i) => this.questions[i]!,
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

interface Confusion {
  tp: number;
  fp: number;
  tn: number;
  fn: number;
}

/** Why a metric's precision, MCC or AUC has no value: the counts that leave it 0/0. */
function undefinedWhy(c: Confusion | undefined): string | null {
  if (!c) return null;
  const why: string[] = [];
  if (c.tp + c.fp === 0) why.push('the metric judged no row correct (precision is 0/0)');
  if (c.tp + c.fn === 0 || c.tn + c.fp === 0) why.push('the labels are all of one kind');
  if (c.tp + c.fp === 0 || c.tn + c.fn === 0) why.push('the metric decided every row alike (MCC has a 0 in its denominator)');
  return why.length ? why.join('; ') : null;
}

function reportText(
  json: Record<string, unknown>,
  headline: TaxonomyHeadline | null,
  mccLeaders: readonly string[] = [],
  mccLead: string | null = null,
): string {
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
    const stats = cols.filter((c) => c !== 'threshold');
    lines.push(
      '',
      '95% bootstrap intervals:',
      table(
        ['metric', ...stats],
        Object.entries(metrics).map(([n, m]) => {
          const ci = m.ci as Record<string, number[] | null> | undefined;
          return [n, ...stats.map((c) => (ci?.[c] ? `[${ci[c].map(fmt).join(', ')}]` : '—'))];
        }),
      ),
    );
    const blanks = Object.entries(metrics).flatMap(([n, m]) => {
      const why = undefinedWhy(m.confusion as Confusion | undefined);
      const missing = cols.filter((c) => m[c] === null || m[c] === undefined);
      return missing.length && why ? [`${n}: ${missing.join(', ')} — ${why}`] : [];
    });
    if (blanks.length) lines.push('', 'a "—" is a statistic the counts leave undefined:', ...blanks.map((b) => `  ${b}`));
    if (json.best) lines.push(`best MCC: ${tiedNames(mccLeaders.length ? mccLeaders : [json.best as string])}`);
    if (json.best && mccLead) lines.push(mccLead);
  } else {
    const cols = ['spearman', 'kendall', 'pairwise_accuracy'];
    lines.push(
      table(
        ['metric', ...cols, 'violations', ...Object.keys(HARD_PAIRS)],
        Object.entries(metrics).map(([n, m]) => {
          const v = m.violations as { count: number; of: number; ties: number };
          const h = m.hard_pairs as Record<string, number | null>;
          return [
            n,
            ...cols.map((c) => m[c]),
            `${v.count}/${v.of}${v.ties ? ` (${v.ties} tied)` : ''}`,
            ...Object.keys(HARD_PAIRS).map((k) => h[k]),
          ];
        }),
      ),
    );
    if (headline) lines.push('', ...taxonomyHeadlineText(headline));
  }
  const r = json.reviewed as (Reviewed & { reference: string }) | undefined;
  if (r)
    lines.push(
      '',
      `reviewed accuracy of the file (estimated from the review, starting from ${r.reference}; 95% interval` +
        (r.design === 'assumed-random' ? '; the labelled rows taken as drawn at random' : '') +
        `): ${formatStat(r.value)} [${r.ci ? r.ci.map(formatStat).join(', ') : '—'}] (${r.labelled} labelled, ${r.sampled} of them drawn by the review's design).`,
      "The agreement figures above are on the labelled rows, which a review picks by design (mostly where the judge is doubtful): they are not the metrics' agreement on the file.",
    );
  const omitted = json.omitted as Record<string, string> | undefined;
  if (omitted) for (const [m, why] of Object.entries(omitted)) lines.push(`left out: ${m} (${why})`);
  return `${lines.join('\n')}\n`;
}

async function cmdEvaluate(
  file: string,
  o: CommonOptions & { json?: boolean; seed?: string; resamples?: string; labels?: string },
): Promise<void> {
  const run = buildMetrics(o);
  const { metrics } = run;
  const labels = o.labels ? await readLabels(o.labels) : null;
  const seed = intOption(o.seed, '--seed', DEFAULTS.bootstrap.seed);
  const resamples = intOption(o.resamples, '--resamples', DEFAULTS.bootstrap.resamples);
  const kept = new Kept(
    metrics.map((m) => m.name),
    labels !== null,
  );
  let models: Record<string, unknown> | undefined;
  const { skipped, hash } = await scoreFile(
    file,
    run,
    o,
    async (rows, results, ctx) => {
      kept.add(rows, results);
      models = await usedModels(ctx);
    },
    undefined,
    { hash: labels !== null },
  );
  if (labels) {
    checkLabelsInput(o.labels!, labels, [file], hash ?? null);
    kept.fold(labels, o.labels!);
  }
  if (!kept.labels.some((l) => l))
    throw new VerityError(
      `${file} has no usable labels: add a "label" column (true/false or a class name), use --map label=COLUMN, or give review labels with --labels`,
      'input',
    );
  const summary = agreementSummaryOfColumns(kept.columns(), metrics, { seed, resamples });
  const json = agreementJson(summary, skipped);
  const reviewed = labels ? kept.reviewed(metrics, DEFAULTS.bootstrap.level, labels.design?.judge ?? undefined) : null;
  if (reviewed) json.reviewed = reviewed;
  if (models) json.models = models;
  process.stdout.write(
    o.json
      ? `${JSON.stringify(json)}\n`
      : reportText(json, taxonomyHeadline(summary), summary.leaders.binary.mcc ?? [], leadSentence(summary.lead.binary, 'MCC')),
  );
}

export function register(p: Command): void {
  common(p.command('evaluate').argument('<file>', 'a labelled file').description('agreement of each metric with human labels'))
    .option('--labels <file>', 'review labels (.jsonl from verity review or the app) folded in: the file gains its reviewed accuracy')
    .option('--json', 'print one JSON object')
    .option('--seed <n>', 'bootstrap seed', String(DEFAULTS.bootstrap.seed))
    .option('--resamples <n>', 'bootstrap resamples (0 = no intervals)', String(DEFAULTS.bootstrap.resamples))
    .action(cmdEvaluate);
}
