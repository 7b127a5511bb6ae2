/**
 * The `verity` command line: score, evaluate and calibrate QA answers with the same core as the web app.
 * commander parses arguments (sub-commands, --help, usage errors); cli-progress draws the progress bar.
 */
import { readFileSync, writeFileSync, createWriteStream } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { SingleBar, Presets } from 'cli-progress';
import { parseTable, type ParsedTable, type RowIssue } from '../core/io/parse.ts';
import { mapRows, parseMapSpec, labelIsCorrect, resolveColumns, type MapOptions } from '../core/io/fields.ts';
import { createRuleWriter } from '../core/statements/rules.ts';
import { toCsv, toTsv } from '../core/io/export.ts';
import { createMetric, createSyncMetric, parseMetricList, DEFAULT_METRICS, METRIC_NAMES, VARIANT_METRICS, type MetricSettings } from '../core/metrics/index.ts';
import { agreement, combinedMetric, outputRecord, scoreRows, type AgreementReport, type RowResults } from '../core/run.ts';
import { bestThreshold, calibrateThreshold, fitCombination, fitCutpoints, parseCalibration, predictProba, trainLogistic, type Calibration, type Objective } from '../core/agreement/index.ts';
import { nliLexFeatures } from '../core/metrics/nli_lex.ts';
import { VerityError, isBatchMetric, type AnyMetric, type QaRow, type CapClass } from '../core/types.ts';
import type { ModelContext } from '../core/capabilities.ts';
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
  const given: Record<Role, string | undefined> = { nli: o.nliModel, reranker: o.rankerModel, embedder: o.embedderModel, statements: o.statementModel };
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
      process.stderr.write(
        `verity: ${info.role} model ${info.id}@${info.revision} on ${info.device}/${info.dtype} (canary: ${info.canary.detail})${info.warnings.length ? `; ${info.warnings.join('; ')}` : ''}\n`,
      ),
  });
}

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

/** A file (or stdin for "-") parsed into a table; unreadable files are input errors. */
function readTable(file: string): ParsedTable {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file === '-' ? 0 : file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new VerityError(code === 'ENOENT' ? `cannot read ${file}: no such file` : code === 'EISDIR' ? `${file} is a directory, not a file` : `cannot read ${file}: ${(e as Error).message}`, 'input');
  }
  return parseTable(bytes, file);
}

function load(file: string, o: CommonOptions): Loaded {
  const table = readTable(file);
  const mapOptions: MapOptions = { ...(o.map ? { map: parseMapSpec(o.map) } : {}), ...(o.goldSep ? { goldSep: o.goldSep } : {}) };
  const mapped = mapRows(table, mapOptions);
  const errors = mapped.issues.filter((i) => i.severity === 'error').length;
  const warnings = mapped.issues.length - errors;
  for (const issue of mapped.issues.slice(0, 50)) process.stderr.write(`verity: ${issue.severity}: ${issue.message}\n`);
  if (mapped.issues.length > 50) process.stderr.write(`verity: … and ${mapped.issues.length - 50} more issues (fix the ones above and run again)\n`);
  if (mapped.rows.length === 0) throw new VerityError(`no usable rows in ${file} (${errors} rows skipped)`, 'input');
  process.stderr.write(`verity: ${table.format.toUpperCase()}, ${mapped.rows.length} rows read, ${errors} skipped, ${warnings} warnings\n`);
  return { rows: mapped.rows, fileIssues: mapped.issues, skipped: errors };
}

// ---------- metrics ----------

function loadCalibrations(paths: string[] = []): Calibration[] {
  return paths.map((p) => {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(p, 'utf8'));
    } catch (e) {
      throw new VerityError(`cannot read calibration ${p}: ${(e as Error).message}`, 'input');
    }
    try {
      return parseCalibration(json);
    } catch (e) {
      throw new VerityError(`${p}: ${(e as Error).message}`, 'input');
    }
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
  const metrics = parseMetricList(o.metrics, settings);
  for (const c of cals) if (c.combination) metrics.push(combinedMetric(c.combination, c.combination.metrics.map((n) => createSyncMetric(n, settings))));
  return metrics;
}

// ---------- scoring ----------

async function scoreAll(rows: QaRow[], metrics: AnyMetric[], o: CommonOptions, ctx: ModelContext = {}): Promise<RowResults[]> {
  const show = o.progress ?? (process.stderr.isTTY === true && rows.length >= 2000);
  const bar = show ? new SingleBar({ stream: process.stderr, format: 'scoring [{bar}] {value}/{total} rows | {rate} rows/s | ETA {eta}s', hideCursor: true }, Presets.shades_classic) : null;
  const started = performance.now();
  bar?.start(rows.length, 0, { rate: 0 });
  const results = await scoreRows(rows, metrics, ctx, {
    batchSize: 256,
    onProgress: (done) => bar?.update(done, { rate: Math.round(done / ((performance.now() - started) / 1000)) }),
  });
  bar?.stop();
  return results;
}

async function cmdScore(file: string, o: CommonOptions & { out?: string }): Promise<void> {
  const metrics = buildMetrics(o);
  const { rows } = load(file, o);
  const ctx = await modelContext(metrics, o);
  const results = await scoreAll(rows, metrics, o, ctx);
  const detailed = new Set(metrics.filter(isBatchMetric).map((m) => m.name));
  const models = await usedModels(ctx);
  const records = rows.map((r, i) => ({ ...outputRecord(r, results[i]!, detailed), ...(models ? { models } : {}) }));
  const table = o.out === undefined ? undefined : /\.csv$/i.test(o.out) ? toCsv : /\.tsv$/i.test(o.out) ? toTsv : undefined;
  if (o.out !== undefined && !table && !/\.jsonl?$/i.test(o.out)) throw new VerityError(`--out ${o.out}: use a .jsonl, .csv or .tsv file name`, 'usage');
  const names = metrics.map((m) => m.name);
  if (table) return writeFileSync(o.out!, table(records, names));
  const stream = o.out ? createWriteStream(o.out) : process.stdout;
  for (const r of records) if (!stream.write(`${JSON.stringify(r)}\n`)) await new Promise<void>((res) => stream.once('drain', () => res()));
  if (o.out) await new Promise<void>((res, rej) => (stream as ReturnType<typeof createWriteStream>).end((e?: Error | null) => (e ? rej(e) : res())));
}

// ---------- evaluate ----------

const r4 = (x: number | null | undefined): number | null => (x === null || x === undefined ? null : Math.round(x * 1e4) / 1e4);

function reportJson(rep: AgreementReport, skippedInFile: number): Record<string, unknown> {
  const metrics: Record<string, unknown> = {};
  if (rep.binary) {
    for (const [name, { threshold, report }] of Object.entries(rep.binary)) {
      const m = report.metrics;
      metrics[name] = {
        accuracy: r4(m.accuracy.value),
        precision: r4(m.precision.value),
        recall: r4(m.recall.value),
        f1: r4(m.f1.value),
        mcc: r4(m.mcc.value),
        balanced_accuracy: r4(m.balancedAccuracy.value),
        kappa: r4(m.kappa.value),
        roc_auc: r4(m.auc.value),
        threshold: r4(threshold),
        n: report.n,
        excluded: report.excluded,
        confusion: report.confusion,
        ci: Object.fromEntries(Object.entries(m).map(([k, e]) => [k === 'balancedAccuracy' ? 'balanced_accuracy' : k === 'auc' ? 'roc_auc' : k, e.ci ? e.ci.map(r4) : null])),
      };
    }
  }
  if (rep.taxonomy) {
    for (const [name, t] of Object.entries(rep.taxonomy)) {
      metrics[name] = {
        spearman: r4(t.spearman),
        kendall: r4(t.kendall),
        pairwise_accuracy: r4(t.pairwiseAccuracy),
        violations: {
          count: t.violations.count,
          of: t.violations.of,
          pairs: t.violations.pairs.map((v) => ({ higher: v.higher, lower: v.lower, mean_higher: r4(v.meanHigher), mean_lower: r4(v.meanLower) })),
          excluding_ov_partial: t.violations.excluding_ov_partial,
        },
        hard_pairs: Object.fromEntries(Object.entries(t.hardPairs).map(([k, v]) => [k, r4(v)])),
        class_means: Object.fromEntries(Object.entries(t.classes).map(([k, v]) => [k, { n: v.count, mean: r4(v.mean), std: r4(v.std) }])),
        n: t.n,
        excluded: t.excluded,
      };
    }
  }
  return { n: rep.n, skipped: rep.skipped + skippedInFile, label_kind: rep.label_kind, metrics };
}

function fmt(x: unknown): string {
  return typeof x === 'number' ? x.toFixed(3) : x === null || x === undefined ? '—' : String(x);
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
    lines.push(table(['metric', ...cols], Object.entries(metrics).map(([n, m]) => [n, ...cols.map((c) => m[c])])));
    lines.push('', '95% bootstrap intervals (MCC): ' + Object.entries(metrics).map(([n, m]) => `${n} [${((m.ci as Record<string, unknown>).mcc as number[] | null)?.map(fmt).join(', ') ?? '—'}]`).join('; '));
  } else {
    const cols = ['spearman', 'kendall', 'pairwise_accuracy'];
    lines.push(
      table(
        ['metric', ...cols, 'violations', 'Eq>Part', 'OV>Part', 'OV>OI', 'Alt>Inv'],
        Object.entries(metrics).map(([n, m]) => {
          const v = m.violations as { count: number; of: number };
          const h = m.hard_pairs as Record<string, number | null>;
          return [n, ...cols.map((c) => m[c]), `${v.count}/${v.of}`, h['Eq>Part'], h['OV>Part'], h['OV>OI'], h['Alt>Inv']];
        }),
      ),
    );
  }
  return `${lines.join('\n')}\n`;
}

async function cmdEvaluate(file: string, o: CommonOptions & { json?: boolean; seed?: string; resamples?: string }): Promise<void> {
  const metrics = buildMetrics(o);
  const { rows, skipped } = load(file, o);
  if (!rows.some((r) => r.label)) throw new VerityError(`${file} has no usable labels: add a "label" column (true/false or a class name) or use --map label=COLUMN`, 'input');
  const ctx = await modelContext(metrics, o);
  const results = await scoreAll(rows, metrics, o, ctx);
  const rep = agreement(rows, results, metrics, { seed: intOption(o.seed, '--seed', 42), resamples: intOption(o.resamples, '--resamples', 1000) });
  const json = reportJson(rep, skipped);
  const models = await usedModels(ctx);
  if (models) json.models = models;
  process.stdout.write(o.json ? `${JSON.stringify(json)}\n` : reportText(json));
}

function intOption(v: string | undefined, name: string, dflt: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new VerityError(`${name} expects a whole number ≥ 0, got "${v}"`, 'usage');
  return n;
}

// ---------- calibrate ----------

async function cmdCalibrate(file: string, o: CommonOptions & { metric: string; objective: Objective; out: string }): Promise<void> {
  const names = o.metric.split(',').map((s) => s.trim()).filter(Boolean);
  const metrics = buildMetrics({ ...o, metrics: names.join(','), calibration: [] });
  const { rows } = load(file, o);
  const labelled = rows.map((r, i) => ({ r, i })).filter((x) => x.r.label);
  if (labelled.length === 0) throw new VerityError(`${file} has no usable labels to calibrate on`, 'input');
  const labels = labelled.map((x) => labelIsCorrect(x.r.label!));
  let cal: Calibration;
  try {
    if (names.length === 1 && names[0] === 'nli_lex') {
      // Fit the paper's two weights and bias directly on [se, lm] (no standardization, so they plug into the metric).
      const feats = await nliLexFeatures(labelled.map((x) => x.r), await modelContext(metrics, o));
      const keep = feats.map((f, i) => (f ? i : -1)).filter((i) => i >= 0);
      if (keep.length === 0) throw new Error('no row could be scored by nli_lex (it needs an NLI model: --nli-model)');
      const lr = trainLogistic(keep.map((i) => feats[i]!), keep.map((i) => labels[i]!), { l2: 1e-3 });
      const probs = keep.map((i) => predictProba(lr, feats[i]!));
      const best = bestThreshold(probs, keep.map((i) => labels[i]!), o.objective);
      cal = { version: 1, metric: 'nli_lex', objective: o.objective, nliLex: { se: lr.weights[0]!, lm: lr.weights[1]!, bias: lr.bias }, ...(best ? { threshold: best.threshold } : {}) };
    } else if (names.length > 1) {
      const results = await scoreAll(labelled.map((x) => x.r), metrics, o, await modelContext(metrics, o));
      const comb = fitCombination(results.map((res) => names.map((n) => res[n]?.score ?? null)), labels, names);
      cal = { version: 1, objective: 'mcc', combination: comb };
    } else {
      const results = await scoreAll(labelled.map((x) => x.r), metrics, o, await modelContext(metrics, o));
      const scores = results.map((res) => res[names[0]!]?.score ?? null);
      cal = calibrateThreshold(scores, labels, o.objective, names[0]);
      if (labelled.every((x) => x.r.label!.kind === 'taxonomy'))
        cal.cutpoints = fitCutpoints(scores, labelled.map((x) => (x.r.label as { cls: CapClass }).cls));
    }
  } catch (e) {
    throw new VerityError(`cannot calibrate on ${file}: ${(e as Error).message}`, 'input');
  }
  writeFileSync(o.out, `${JSON.stringify(cal, null, 2)}\n`);
  process.stderr.write(`verity: wrote ${o.out}${cal.threshold !== undefined ? ` (threshold ${cal.threshold})` : ''}\n`);
}

// ---------- statements / explain ----------

async function cmdStatements(file: string, o: { map?: string; progress?: boolean }): Promise<void> {
  const table = readTable(file);
  const cols = resolveColumns(table.columns, o.map ? parseMapSpec(o.map) : {});
  // The answer to restate: the candidate column when there is one, else the (first) gold answer.
  const answerCol = cols.candidate ?? cols.gold;
  if (!cols.question || !answerCol)
    throw new VerityError(`statements needs a question column and an answer column; the columns are ${table.columns.join(', ')}. Use --map question=COLUMN,candidate=COLUMN`, 'input');
  for (const issue of table.issues) process.stderr.write(`verity: ${issue.severity}: ${issue.message}\n`);
  const writer = createRuleWriter();
  const items = table.records.map((r) => {
    const a = r.data[answerCol];
    const answer = Array.isArray(a) ? String(a[0] ?? '') : a === null || a === undefined ? '' : String(a);
    const id = cols.id && r.data[cols.id] != null ? String(r.data[cols.id]) : String(r.row);
    return { id, question: String(r.data[cols.question!] ?? ''), answer };
  });
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
    lines.push(`${m.name.padEnd(14)} ${r.score === null ? '   —  ' : r.score.toFixed(3).padStart(6)}  ${verdict.padEnd(9)}${extra}  ${r.explanation}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

// ---------- program ----------

function common(cmd: Command): Command {
  return cmd
    .option('--metrics <list>', `comma-separated metrics (default: ${DEFAULT_METRICS.join(',')}; available: ${[...METRIC_NAMES, ...VARIANT_METRICS].join(',')})`)
    .option('--map <pairs>', 'column mapping, e.g. candidate=answer_gpt4,label=judge_gpt4')
    .option('--gold-sep <sep>', "split a gold string into several golds, e.g. ' / '")
    .addOption(new Option('--normalization <mode>', 'normalization for every lexical metric').choices(['squad', 'numeric']))
    .option('--strict', 'SQuAD normalization only (no number-aware forms); same as --normalization squad')
    .addOption(new Option('--lexical-mode <mode>', 'lexical_match containment: token boundaries or plain substring (EVOUNA)').choices(['token', 'substring']))
    .option('--calibration <file>', 'apply a calibration from verity calibrate (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
    .option('--nli-model <model>', 'NLI model: a local folder, a registry key (nli-xsmall, nli-small, nli-base, nli-large) or a hub id@revision')
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
      outputError: (str, write) => write(`verity: ${str.trim().replace(/^error: /, '').replace(/\s*\n\s*/g, ' ')} (run with --help for usage)\n`),
    })
    .exitOverride();
  common(p.command('score').argument('<file>', 'JSONL, JSON, CSV or TSV file ("-" for stdin)').description('score every row; JSONL to stdout or --out'))
    .option('--out <file>', 'write results to a .jsonl, .csv or .tsv file')
    .action(cmdScore);
  common(p.command('evaluate').argument('<file>', 'a labelled file').description('agreement of each metric with human labels'))
    .option('--json', 'print one JSON object')
    .option('--seed <n>', 'bootstrap seed', '42')
    .option('--resamples <n>', 'bootstrap resamples (0 = no intervals)', '1000')
    .action(cmdEvaluate);
  common(p.command('calibrate').argument('<file>', 'a labelled file').description('fit a decision threshold (one metric) or a combination (several)'))
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
  p.command('metrics')
    .description('list the metrics with their cards')
    .action(() => {
      for (const n of METRIC_NAMES) {
        const m = createMetric(n);
        process.stdout.write(`${n}${DEFAULT_METRICS.includes(n) ? ' (default)' : ''}\n  what: ${m.card.what}\n  formula: ${m.card.formula}\n  defaults: ${m.card.defaults}\n  limits: ${m.card.limits}\n  cite: ${m.card.citation}\n\n`);
      }
    });
  return p;
}

export async function main(argv: string[]): Promise<number> {
  try {
    await program().parseAsync(argv);
    return 0;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 1;
    if (e instanceof VerityError) {
      process.stderr.write(`verity: ${e.message}\n`);
      return e.kind === 'usage' ? 1 : 2;
    }
    process.stderr.write(`verity: internal error: ${(e as Error).stack ?? String(e)}\n`);
    return 3;
  }
}

process.exitCode = await main(process.argv);
