/**
 * The `verity` command line: score, evaluate and calibrate QA answers with the same core as the web app.
 * commander parses arguments (sub-commands, --help, usage errors); cli-progress draws the progress bar.
 */
import { count } from '../core/util/plural.ts';
import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { SingleBar, Presets } from 'cli-progress';
import { type ParsedTable, type RowIssue } from '../core/io/parse.ts';
import { withPaths } from '../core/io/formats/index.ts';
import {
  chooseGoldSeparator,
  mapRows,
  missingColumnMessage,
  parseMapSpec,
  labelIsCorrect,
  resolveColumns,
  type ColumnMap,
  type Field,
  type MapOptions,
} from '../core/io/fields.ts';
import { createRuleWriter } from '../core/statements/rules.ts';
import {
  createMetric,
  metricDescriptor,
  DEFAULT_METRICS,
  METRIC_NAMES,
  SUPPORTED_METRICS,
  VARIANT_METRICS,
  withLimitLine,
  type MetricSettings,
} from '../core/metrics/index.ts';
import { itemOf, outputRecord, scoreRows, type RowResults, type ScoreOptions } from '../core/run.ts';
import { agreementJson, agreementSummaryOfColumns, formatStat } from '../core/report.ts';
import { HARD_PAIRS } from '../core/agreement/ordinal.ts';
import { overLimit } from '../core/limits.ts';
import {
  AtomicFile,
  checkOut,
  cliNote,
  escapeControls,
  fileSink,
  goldSepOption,
  intOption,
  OutputError,
  outKind,
  readInputFile,
  readRows,
  removePending,
  ioMessage,
  say,
  stdoutSink,
  type RecordSink,
} from './io.ts';
import {
  calibrateThreshold,
  fitCombination,
  fitCutpoints,
  parseCalibration,
  type Calibration,
  type Objective,
} from '../core/agreement/index.ts';
import { VerityError, isBatchMetric, type AnyMetric, type QaRow, type CapClass, type Label } from '../core/types.ts';
import type { ModelContext } from '../core/capabilities.ts';
import { registerCompare } from './compare.ts';
import { DEFAULTS } from '../core/defaults.ts';
import { metricsFrom, recipeOf } from './recipe.ts';
import { endScoringThread, scoreInThread } from './thread.ts';
import { messageOf } from '../core/errors.ts';
import { ROLE_TABLE, ROLES, type Role } from '../runtime/registry.ts';
import type { LoadedModel, ModelSpec } from '../runtime/messages.ts';
import type { ModelRecord } from '../runtime/context.ts';
import pkg from '../../package.json' with { type: 'json' };

interface CommonOptions {
  metrics?: string;
  map?: string;
  goldSep?: string;
  normalization?: 'squad' | 'numeric';
  strict?: boolean;
  lexicalMode?: 'token' | 'substring';
  calibration?: string[];
  progress?: boolean;
  nliModel?: string;
  rankerModel?: string;
  embedderModel?: string;
  statementModel?: string;
  mirror?: string;
  modelCache?: string;
  modelDir?: string;
  skipCanary?: boolean;
}

// ---------- models ----------

/**
 * The model capabilities the chosen metrics need, backed by the Node model host. Loaded lazily: rows that carry
 * their own NLI probabilities never load a model. The runtime is imported only when a model metric is used.
 */
async function modelContext(metrics: AnyMetric[], o: CommonOptions): Promise<ModelContext & { provenance?: Record<string, LoadedModel> }> {
  const needs = new Set(metrics.filter(isBatchMetric).flatMap((m) => [...m.needs]));
  if (needs.size === 0 && !o.statementModel) return {};
  const { createNodeHost, parseModelArg } = await import('../runtime/node.ts');
  const { hostContext } = await import('../runtime/context.ts');
  const given: Record<Role, string | undefined> = {
    nli: o.nliModel,
    reranker: o.rankerModel,
    embedder: o.embedderModel,
    statements: o.statementModel,
  };
  const specs: Partial<Record<Role, ModelSpec>> = {};
  for (const role of ROLES) {
    // Statements come from the instant rule writer unless a model is asked for.
    if (role === 'statements' ? !o.statementModel : !needs.has(ROLE_TABLE[role].capability)) continue;
    try {
      specs[role] = { ...parseModelArg(role, given[role], o.modelDir), ...(o.skipCanary ? { skipCanary: true } : {}) };
    } catch (e) {
      throw new VerityError(`${ROLE_TABLE[role].cliFlag}: ${messageOf(e)}`, 'usage');
    }
  }
  const host = createNodeHost({ ...(o.modelCache ? { cacheDir: o.modelCache } : {}), ...(o.mirror ? { mirror: o.mirror } : {}) });
  return hostContext(host, specs, {
    onLoaded: (info) =>
      say(
        `${info.role} model ${info.id}@${info.revision} on ${info.device}/${info.dtype} (canary: ${info.canary.detail})${info.warnings.length ? `; ${info.warnings.join('; ')}` : ''}`,
      ),
    // Said once, not only inside every row; the run ends with exit 2 (a requested metric had no model).
    onFailed: (role, message) => {
      failedModels.add(role);
      say(`the ${ROLE_TABLE[role].name} model did not load: ${message}; the metrics that need it are not scored`);
    },
  });
}

/** Roles whose model failed to load in this run: the command then exits 2. */
const failedModels = new Set<Role>();

/** The models a row was scored with (id, revision, device, dtype, canary passed or skipped), for the output. */
async function usedModels(ctx: { provenance?: Record<string, LoadedModel> }): Promise<Record<string, ModelRecord> | undefined> {
  if (!ctx.provenance) return undefined;
  const { modelRecords } = await import('../runtime/context.ts');
  return modelRecords(ctx.provenance);
}

// ---------- input ----------

interface Loaded {
  rows: QaRow[];
  fileIssues: RowIssue[];
  skipped: number;
}

/**
 * A file (or stdin for "-") read into a table in any input format (Parquet, Inspect logs too), with the nested
 * paths the mapping names as columns; unreadable files are input errors.
 */
async function readTable(file: string, map: ColumnMap = {}): Promise<ParsedTable> {
  return withPaths(await readInputFile(file), Object.values(map));
}

async function load(file: string, o: CommonOptions): Promise<Loaded> {
  const map = o.map ? parseMapSpec(o.map) : undefined;
  const table = await readTable(file, map);
  const chosen = chooseGoldSeparator([table], { ...(map ? { map } : {}), ...goldSepOption(o.goldSep) });
  const mapped = mapRows(table, chosen.options);
  const errors = mapped.issues.filter((i) => i.severity === 'error').length;
  const warnings = mapped.issues.length - errors;
  for (const issue of mapped.issues.slice(0, 50)) say(`${issue.severity}: ${issue.message}`);
  if (mapped.issues.length > 50) say(`… and ${mapped.issues.length - 50} more issues (fix the ones above and run again)`);
  for (const note of [...chosen.notes, ...mapped.notes]) say(`note: ${cliNote(note)}`);
  if (mapped.rows.length === 0) throw new VerityError(`no usable rows in ${file} (${errors} rows skipped)`, 'input');
  say(`${table.format.toUpperCase()}, ${count(mapped.rows.length, 'row')} read, ${errors} skipped, ${count(warnings, 'warning')}`);
  return { rows: mapped.rows, fileIssues: mapped.issues, skipped: errors };
}

// ---------- metrics ----------

const KNOWN_METRICS: ReadonlySet<string> = new Set([...METRIC_NAMES, ...VARIANT_METRICS]);

/** Calibration files: a BOM is allowed; a metric Verity does not have, or a threshold outside [0, 1], is refused. */
function loadCalibrations(paths: string[] = []): Calibration[] {
  return paths.map((p) => {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(p, 'utf8').replace(/^\uFEFF/, ''));
    } catch (e) {
      throw new VerityError(`cannot read calibration ${p}: ${(e as Error).message}`, 'input');
    }
    let cal: Calibration;
    try {
      cal = parseCalibration(json);
    } catch (e) {
      throw new VerityError(`${p}: ${(e as Error).message}`, 'input');
    }
    const named = [...(cal.metric !== undefined ? [cal.metric] : []), ...(cal.combination?.metrics ?? [])];
    const unknown = named.filter((n) => !KNOWN_METRICS.has(n));
    if (unknown.length)
      throw new VerityError(
        `${p}: unknown metric ${unknown.map((n) => `"${n}"`).join(', ')}; available: ${[...KNOWN_METRICS].join(', ')}`,
        'input',
      );
    if (cal.threshold !== undefined && !(cal.threshold >= 0 && cal.threshold <= 1))
      throw new VerityError(`${p}: threshold ${cal.threshold} is outside [0, 1], where every metric's scores lie`, 'input');
    return cal;
  });
}

function buildMetrics(o: CommonOptions): AnyMetric[] {
  const cals = loadCalibrations(o.calibration);
  const thresholds: Record<string, number> = {};
  for (const c of cals) if (c.metric && c.threshold !== undefined && !c.combination) thresholds[c.metric] = c.threshold;
  const settings: MetricSettings = {
    ...(o.strict ? { normalization: 'squad' as const } : o.normalization ? { normalization: o.normalization } : {}),
    ...(o.lexicalMode ? { lexicalMode: o.lexicalMode } : {}),
    thresholds,
  };
  for (const c of cals) {
    if (c.cutpoints) settings.cutpoints = c.cutpoints;
    if (c.nliLex) settings.nliLexWeights = c.nliLex;
  }
  return metricsFrom({ list: o.metrics, settings, combinations: cals.flatMap((c) => (c.combination ? [c.combination] : [])) });
}

// ---------- scoring ----------

/** Rows read, scored and written at a time: memory holds one batch, whatever the file's size. */
const BATCH = 2048;

function progressBar(o: CommonOptions, total: number): { update(done: number): void; stop(): void } {
  const show = o.progress ?? (process.stderr.isTTY === true && total >= 2000);
  if (!show) return { update() {}, stop() {} };
  const bar = new SingleBar(
    { stream: process.stderr, format: 'scoring [{bar}] {value}/{total} rows | {rate} rows/s | ETA {eta}s', hideCursor: true },
    Presets.shades_classic,
  );
  const started = performance.now();
  bar.start(total, 0, { rate: 0 });
  return {
    update: (done) => bar.update(done, { rate: Math.round(done / ((performance.now() - started) / 1000)) }),
    stop: () => bar.stop(),
  };
}

/**
 * The embedded metrics score in the scoring thread (thread.ts), so that the main thread answers a signal at once,
 * whatever row is being scored.
 */
function inThread(metrics: AnyMetric[]): Pick<ScoreOptions, 'scoreSync'> {
  const recipe = recipeOf(metrics);
  return recipe ? { scoreSync: (rows) => scoreInThread(recipe, rows.map(itemOf)) } : {};
}

/** Scores rows already in memory (the compare command's joined systems), with the same progress bar. */
async function scoreAll(rows: QaRow[], metrics: AnyMetric[], o: CommonOptions, ctx: ModelContext = {}): Promise<RowResults[]> {
  const bar = progressBar(o, rows.length);
  const results = await scoreRows(rows, metrics, ctx, {
    batchSize: DEFAULTS.rowsPerBatch.cli,
    onProgress: (d) => bar.update(d),
    ...inThread(metrics),
  });
  bar.stop();
  return results;
}

/**
 * Reads, scores and hands over a file batch by batch. Rows with a field over the per-field limit are named
 * on stderr (their metrics give null with the reason; the other rows are scored as usual).
 */
async function scoreFile(
  file: string,
  metrics: AnyMetric[],
  o: CommonOptions,
  onScored: (rows: QaRow[], results: RowResults[], ctx: ModelContext & { provenance?: Record<string, LoadedModel> }) => Promise<void>,
  /** Rows to score (default: all). */
  keep: (r: QaRow) => boolean = () => true,
): Promise<{ skipped: number }> {
  let ctx: (ModelContext & { provenance?: Record<string, LoadedModel> }) | undefined;
  let bar: ReturnType<typeof progressBar> | undefined;
  let done = 0;
  const mapOptions: MapOptions = { ...(o.map ? { map: parseMapSpec(o.map) } : {}), ...goldSepOption(o.goldSep) };
  const summary = await readRows(file, {
    mapOptions,
    batch: BATCH,
    onNote: cliNote,
    rowWarning: (r) => (keep(r) && overLimit(r) ? `${overLimit(r)}; it is not scored (every metric gives null with the reason)` : null),
    onTotal: (n) => (bar = progressBar(o, n)),
    onRows: async (read) => {
      // Models load with the first rows, so that an unreadable file fails before any download.
      ctx ??= await modelContext(metrics, o);
      const rows = read.filter(keep);
      const results = await scoreRows(rows, metrics, ctx, {
        batchSize: DEFAULTS.rowsPerBatch.cli,
        onProgress: (d) => bar?.update(done + d),
        ...inThread(metrics),
      });
      done += read.length;
      await onScored(rows, results, ctx);
    },
  });
  bar?.stop();
  return { skipped: summary.skipped };
}

async function cmdScore(file: string, o: CommonOptions & { out?: string }): Promise<void> {
  // --out is checked before any work: a folder or a missing folder first, then the extension.
  if (o.out !== undefined) await checkOut(o.out);
  const kind = o.out === undefined ? undefined : outKind(o.out);
  const metrics = buildMetrics(o);
  const detailed = new Set(metrics.filter(isBatchMetric).map((m) => m.name));
  const names = metrics.map((m) => m.name);
  const sink: RecordSink = o.out !== undefined ? await fileSink(o.out, kind!, names) : stdoutSink();
  active = sink;
  try {
    await scoreFile(file, metrics, o, async (rows, results, ctx) => {
      const models = await usedModels(ctx);
      await sink.write(rows.map((r, i) => ({ ...outputRecord(r, results[i]!, detailed), ...(models ? { models } : {}) })));
    });
    await sink.close();
  } catch (e) {
    await sink.abort();
    throw e;
  } finally {
    active = undefined;
  }
}

/** Scores and decisions kept column by column for the agreement report (no row objects are kept). */
class Columns {
  readonly labels: (Label | undefined)[] = [];
  private readonly scores = new Map<string, Float64Array>();
  private readonly decisions = new Map<string, Int8Array>();
  /** Per metric, why it gave no score on its first unscored labelled row (the report's "left out" reason). */
  private readonly why = new Map<string, string>();
  private n = 0;

  constructor(private readonly names: readonly string[]) {
    for (const m of names) {
      this.scores.set(m, new Float64Array(1024));
      this.decisions.set(m, new Int8Array(1024));
    }
  }

  add(rows: readonly QaRow[], results: readonly RowResults[]): void {
    const need = this.n + rows.length;
    for (const m of this.names) {
      let s = this.scores.get(m)!;
      let d = this.decisions.get(m)!;
      if (need > s.length) {
        const cap = Math.max(need, s.length * 2);
        const s2 = new Float64Array(cap);
        s2.set(s);
        const d2 = new Int8Array(cap);
        d2.set(d);
        this.scores.set(m, (s = s2));
        this.decisions.set(m, (d = d2));
      }
      results.forEach((r, i) => {
        const x = r[m];
        s[this.n + i] = x?.score ?? Number.NaN;
        d[this.n + i] = x?.decision === true ? 1 : x?.decision === false ? 0 : -1;
        if (rows[i]!.label && (x?.score ?? null) === null && x?.explanation && !this.why.has(m)) this.why.set(m, x.explanation);
      });
    }
    for (const r of rows) this.labels.push(r.label);
    this.n = need;
  }

  score = (m: string, i: number): number | null => {
    const v = this.scores.get(m)![i]!;
    return Number.isNaN(v) ? null : v;
  };

  decision = (m: string, i: number): boolean | null => {
    const v = this.decisions.get(m)![i]!;
    return v < 0 ? null : v === 1;
  };

  explanation = (m: string): string | undefined => this.why.get(m);
}

// ---------- evaluate ----------

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
  const omitted = json.omitted as Record<string, string> | undefined;
  if (omitted) for (const [m, why] of Object.entries(omitted)) lines.push(`left out: ${m} (${why})`);
  return `${lines.join('\n')}\n`;
}

async function cmdEvaluate(file: string, o: CommonOptions & { json?: boolean; seed?: string; resamples?: string }): Promise<void> {
  const metrics = buildMetrics(o);
  const seed = intOption(o.seed, '--seed', DEFAULTS.bootstrap.seed);
  const resamples = intOption(o.resamples, '--resamples', DEFAULTS.bootstrap.resamples);
  const cols = new Columns(metrics.map((m) => m.name));
  let models: Record<string, unknown> | undefined;
  const { skipped } = await scoreFile(file, metrics, o, async (rows, results, ctx) => {
    cols.add(rows, results);
    models = await usedModels(ctx);
  });
  if (!cols.labels.some((l) => l))
    throw new VerityError(
      `${file} has no usable labels: add a "label" column (true/false or a class name) or use --map label=COLUMN`,
      'input',
    );
  const json = agreementJson(agreementSummaryOfColumns(cols, metrics, { seed, resamples }), skipped);
  if (models) json.models = models;
  process.stdout.write(o.json ? `${JSON.stringify(json)}\n` : reportText(json));
}

// ---------- calibrate ----------

async function cmdCalibrate(file: string, o: CommonOptions & { metric: string; objective: Objective; out: string }): Promise<void> {
  const names = o.metric
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const metrics = buildMetrics({ ...o, metrics: names.join(','), calibration: [] });
  if (!/\.json$/i.test(o.out)) throw new VerityError(`--out ${o.out}: use a .json file name`, 'usage');
  await checkOut(o.out);
  // A metric with its own calibration (nli_lex fits its weights on its features) needs the labelled rows whole;
  // the others keep each metric's score per labelled row, streamed like score and evaluate.
  const nliLex = names.length === 1 && metricDescriptor(names[0]!).calibrate !== undefined;
  const labelled: Label[] = [];
  const scores: (number | null)[][] = names.map(() => []);
  let rows: QaRow[] = [];
  if (nliLex) rows = (await load(file, o)).rows.filter((r) => r.label);
  else
    await scoreFile(
      file,
      metrics,
      o,
      async (batch, results) => {
        batch.forEach((r, i) => {
          labelled.push(r.label!);
          names.forEach((n, k) => scores[k]!.push(results[i]![n]?.score ?? null));
        });
      },
      (r) => r.label !== undefined,
    );
  // A loop, not push(...): a spread of one argument per row overflows the call stack on large files.
  if (nliLex) for (const r of rows) labelled.push(r.label!);
  if (labelled.length === 0) throw new VerityError(`${file} has no usable labels to calibrate on`, 'input');
  const labels = labelled.map(labelIsCorrect);
  let cal: Calibration;
  try {
    const own = names.length === 1 ? metricDescriptor(names[0]!).calibrate : undefined;
    if (own) {
      // The metric's own calibration (e.g. nli_lex fits its weights), from its descriptor.
      cal = await own(rows, await modelContext(metrics, o), o.objective);
    } else if (names.length > 1) {
      const comb = fitCombination(
        labels.map((_, i) => names.map((_n, k) => scores[k]![i]!)),
        labels,
        names,
      );
      cal = { version: 1, objective: 'mcc', combination: comb };
    } else {
      cal = calibrateThreshold(scores[0]!, labels, o.objective, names[0]);
      if (labelled.every((l) => l.kind === 'taxonomy'))
        cal.cutpoints = fitCutpoints(
          scores[0]!,
          labelled.map((l) => (l as { cls: CapClass }).cls),
        );
    }
  } catch (e) {
    throw new VerityError(`cannot calibrate on ${file}: ${(e as Error).message}`, 'input');
  }
  const out = new AtomicFile(o.out);
  try {
    await out.write(`${JSON.stringify(cal, null, 2)}\n`);
    await out.commit();
  } catch (e) {
    await out.abort();
    throw e;
  }
  say(`wrote ${o.out}${cal.threshold !== undefined ? ` (threshold ${cal.threshold})` : ''}`);
}

// ---------- statements / explain ----------

/** A cell as text: strings as they are, anything else as JSON (a nested array is not flattened with commas). */
const cellText = (v: unknown): string =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : (JSON.stringify(v) ?? '');

async function cmdStatements(file: string, o: { map?: string; progress?: boolean }): Promise<void> {
  const map = o.map ? parseMapSpec(o.map) : {};
  const table = await readTable(file, map);
  const cols = resolveColumns(table.columns, map);
  // The answer to restate: the candidate column when there is one, else the (first) gold answer.
  const answerCol = cols.candidate ?? cols.gold;
  if (!cols.question || !answerCol)
    throw new VerityError(
      `statements needs a question column and an answer column; the columns are ${table.columns.join(', ')}. Use --map question=COLUMN,candidate=COLUMN`,
      'input',
    );
  for (const issue of table.issues) say(`${issue.severity}: ${issue.message}`);
  const writer = createRuleWriter();
  const items: { id: string; question: string; answer: string }[] = [];
  for (const r of table.records) {
    // A value nested too deeply to turn into text (a stack overflow) costs its row, not the run.
    try {
      const a = r.data[answerCol];
      const answer = Array.isArray(a) ? cellText(a[0] ?? '') : a === null || a === undefined ? '' : cellText(a);
      const id = cols.id && r.data[cols.id] != null ? cellText(r.data[cols.id]) : String(r.row);
      items.push({ id, question: cellText(r.data[cols.question!] ?? ''), answer });
    } catch (e) {
      say(
        `error: row ${r.row}${r.line !== undefined && r.line !== r.row ? ` (line ${r.line})` : ''}: a value cannot be turned into text (${(e as Error).message}); skipped`,
      );
    }
  }
  const statements = await writer.write(items);
  for (let i = 0; i < items.length; i++)
    process.stdout.write(`${JSON.stringify({ ...items[i], statement: statements[i], writer: writer.name })}\n`);
}

async function cmdExplain(o: CommonOptions & { question: string; gold: string[]; candidate: string; json?: boolean }): Promise<void> {
  const metrics = o.metrics ? buildMetrics(o) : METRIC_NAMES.map((n) => createMetric(n));
  const row: QaRow = { row: 1, id: '1', question: o.question, golds: o.gold, candidate: o.candidate };
  const [results] = await scoreRows([row], metrics, await modelContext(metrics, o));
  const record = outputRecord(row, results!, new Set(metrics.map((m) => m.name)));
  if (o.json) return void process.stdout.write(`${JSON.stringify(record)}\n`);
  const lines = [`question:  ${o.question}`, `gold:      ${o.gold.join(' | ')}`, `candidate: ${o.candidate}`, ''];
  for (const m of metrics) {
    const r = results![m.name]!;
    const verdict = r.decision === null ? 'n/a' : r.decision ? 'correct' : 'incorrect';
    const extra = r.class ? ` [${r.class}]` : r.set ? ` [${r.set}]` : '';
    lines.push(
      `${m.name.padEnd(14)} ${r.score === null ? '   —  ' : r.score.toFixed(3).padStart(6)}  ${verdict.padEnd(9)}${extra}  ${r.explanation}`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

// ---------- program ----------

function common(cmd: Command): Command {
  return cmd
    .option(
      '--metrics <list>',
      `comma-separated metrics (default: ${DEFAULT_METRICS.join(',')}; available: ${[...METRIC_NAMES, ...VARIANT_METRICS].join(',')})`,
    )
    .option('--map <pairs>', 'column mapping, e.g. candidate=answer_gpt4,label=judge_gpt4')
    .option(
      '--gold-sep <sep>',
      "split a gold string into several golds, e.g. ' / ' (default: the separator most gold cells use, if any; none: never split)",
    )
    .addOption(new Option('--normalization <mode>', 'normalization for every lexical metric').choices(['squad', 'numeric']))
    .option('--strict', 'SQuAD normalization only (no number-aware forms); same as --normalization squad')
    .addOption(
      new Option('--lexical-mode <mode>', 'lexical_match containment: token boundaries or plain substring (EVOUNA)').choices([
        'token',
        'substring',
      ]),
    )
    .option('--calibration <file>', 'apply a calibration from verity calibrate (repeatable)', (v: string, prev: string[] = []) => [
      ...prev,
      v,
    ])
    .option(
      '--nli-model <model>',
      'NLI model: a local folder, a registry key (nli-xsmall, nli-small, nli-base, nli-large) or a hub id@revision',
    )
    .option('--ranker-model <model>', 'reranker for A-VERT: folder, registry key or hub id@revision')
    .option('--embedder-model <model>', 'embedding model for BERTScore / A-VERT embeddings: folder, registry key or hub id@revision')
    .option('--statement-model <model>', 'seq2seq statement writer (default: the built-in rule writer)')
    .option('--model-dir <dir>', 'a folder of local model copies: DIR/<hub id>/ is used for a role given no model (works offline)')
    .option('--mirror <url>', 'download models from a mirror with the hub URL layout')
    .option('--skip-canary', 'use the models without their canary check (every output row records that the check was skipped)')
    .option('--model-cache <dir>', 'where downloaded models are kept (default ~/.cache/verity/models)')
    .option('--progress', 'always show the progress bar')
    .option('--no-progress', 'never show the progress bar');
}

export function program(): Command {
  const p = new Command('verity')
    .description('Score question-answering outputs against gold answers, privately, with published metrics.')
    .version(pkg.version)
    // Usage errors from commander get the same one-line "verity: …" form as ours (sub-commands inherit this).
    .configureOutput({
      outputError: (str, write) =>
        write(
          `verity: ${str
            .trim()
            .replace(/^error: /, '')
            .replace(/\s*\n\s*/g, ' ')} (run with --help for usage)\n`,
        ),
    })
    .exitOverride();
  common(
    p
      .command('score')
      .argument('<file>', 'JSONL, JSON, CSV or TSV file ("-" for stdin)')
      .description('score every row; JSONL to stdout or --out'),
  )
    .option('--out <file>', 'write results to a .jsonl, .csv or .tsv file')
    .action(cmdScore);
  common(p.command('evaluate').argument('<file>', 'a labelled file').description('agreement of each metric with human labels'))
    .option('--json', 'print one JSON object')
    .option('--seed <n>', 'bootstrap seed', String(DEFAULTS.bootstrap.seed))
    .option('--resamples <n>', 'bootstrap resamples (0 = no intervals)', String(DEFAULTS.bootstrap.resamples))
    .action(cmdEvaluate);
  common(
    p
      .command('calibrate')
      .argument('<file>', 'a labelled file')
      .description('fit a decision threshold (one metric) or a combination (several)'),
  )
    .requiredOption('--metric <name>', 'metric to calibrate; several (a,b) fit a logistic combination')
    .addOption(new Option('--objective <name>', 'what the threshold maximizes').choices(['mcc', 'accuracy', 'f1']).default('mcc'))
    .requiredOption('--out <file>', 'calibration JSON to write')
    .action(cmdCalibrate);
  p.command('statements')
    .argument('<file>', 'rows with a question and an answer (candidate, else gold) column')
    .description('turn each (question, answer) into a declarative statement; one JSONL line per row')
    .option('--map <pairs>', 'column mapping, e.g. question=q,candidate=a')
    .action(cmdStatements);
  common(p.command('explain').description('every metric on one example, with its reasons'))
    .requiredOption('--question <text>', 'the question')
    .requiredOption('--gold <text>', 'a gold answer (repeat for several)', (v: string, prev: string[] = []) => [...prev, v])
    .requiredOption('--candidate <text>', 'the answer to judge')
    .option('--json', 'print one JSON object')
    .action(cmdExplain);
  registerCompare(p, { common, buildMetrics, modelContext, scoreAll, version: pkg.version, usedModels });
  p.command('metrics')
    .description('list the metrics with their cards')
    .action(() => {
      for (const d of SUPPORTED_METRICS) {
        const ex = d.examples[0];
        const card = withLimitLine(d.card);
        const score = ex.expected.score === null ? 'not scored' : `score ${ex.expected.score}`;
        const verdict = ex.expected.decision === null ? '' : ex.expected.decision ? ', correct' : ', incorrect';
        process.stdout.write(
          `${d.name}${d.default ? ' (default)' : ''}${d.variants?.length ? `; variants: ${d.variants.join(', ')}` : ''}\n` +
            `  what: ${card.what}\n  formula: ${card.formula}\n  defaults: ${card.defaults}\n  limits: ${card.limits}\n  cite: ${card.citation}\n` +
            `  example: question ${JSON.stringify(ex.item.question)}, gold ${JSON.stringify(ex.item.golds)}, candidate ${JSON.stringify(ex.item.candidate)}` +
            `${ex.given ? ` (${ex.given})` : ''} → ${score}${verdict}\n\n`,
        );
      }
    });
  return p;
}

/** The core's structured errors worded for a CLI user: with the flag that fixes them. */
function cliMessage(e: VerityError): string {
  const d = e.details as Record<string, unknown>;
  if (e.code === 'missing-column') {
    const details = d as { field: Field; expected: string[]; columns: string[]; headerLine?: number };
    return missingColumnMessage(details, `. Use --map ${details.field}=COLUMN`);
  }
  if (e.code === 'unknown-column')
    return `--map ${String(d.field)}=${String(d.column)}: no such column; the columns are ${(d.columns as string[]).join(', ')}`;
  return e.message;
}

/** The output being written, so that an interrupt removes its temporary file. */
let active: RecordSink | undefined;

/**
 * Exit codes (README): 0 success, 1 usage error, 2 unusable input, 3 internal error (a bug), 4 the results
 * cannot be written, 130 / 143 interrupted by SIGINT / SIGTERM (nothing is left at the --out path).
 */
export async function main(argv: string[]): Promise<number> {
  const onSignal = (signal: NodeJS.Signals) => {
    say(`interrupted (${signal})${active?.target !== undefined ? `; nothing was written to ${active.target}` : ''}`);
    void Promise.all([endScoringThread(), active?.abort(), removePending()]).finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // A reader that stops early (`verity score f | head`) closes stdout: stop quietly, as other tools do. Any
  // other write error (a full disk behind `> file`) is exit 4, in one line, like an --out that cannot be written.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    say(`cannot write the results to standard output: ${ioMessage(e)}`);
    void Promise.all([active?.abort(), removePending()]).finally(() => process.exit(4));
  });
  try {
    await program().parseAsync(argv);
    return failedModels.size ? 2 : 0;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 1;
    if (e instanceof VerityError) {
      say(cliMessage(e));
      return e.kind === 'usage' ? 1 : 2;
    }
    if (e instanceof OutputError) {
      say(e.message);
      return 4;
    }
    process.stderr.write(`verity: internal error: ${escapeControls((e as Error).stack ?? String(e)).replaceAll('\\x0a', '\n')}\n`);
    return 3;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await endScoringThread();
  }
}

process.exitCode = await main(process.argv);
