/**
 * The options every scoring command shares (metrics, mapping, normalization, calibration files, models,
 * progress), and the metrics they make.
 */
import { readFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import {
  DEFAULT_METRICS,
  METRIC_NAMES,
  SUPPORTED_METRICS,
  VARIANT_METRICS,
  metricOptionsProblem,
  resolveMetricList,
  type MetricSettings,
  type OptionValue,
} from '../core/metrics/index.ts';
import { parseCalibration, type Calibration } from '../core/agreement/index.ts';
import { VerityError, type AnyMetric } from '../core/types.ts';
import { FIELDS, type ColumnMap, type Field } from '../core/io/fields.ts';
import { metricsOf, type RunCalibration, type RunConfig } from '../core/run-config.ts';
import { setScoringThreads } from './thread.ts';
import { nodeLexicon } from '../runtime/lexicon-node.ts';
import { parseModelArg } from '../runtime/model-args.ts';
import { ROLE_TABLE, type Role } from '../runtime/registry.ts';
import { rolesFor } from '../runtime/roles.ts';
import type { ModelSpec } from '../runtime/messages.ts';
import { messageOf } from '../core/errors.ts';

export interface CommonOptions {
  metrics?: string;
  map?: string;
  goldSep?: string;
  normalization?: 'squad' | 'numeric';
  strict?: boolean;
  lexicalMode?: 'token' | 'substring';
  metricOption?: string[];
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
  threads?: string;
}

export const KNOWN_METRICS: ReadonlySet<string> = new Set([...METRIC_NAMES, ...VARIANT_METRICS]);

/** Calibration files: a BOM is allowed; a metric Verity does not have, or a threshold outside [0, 1], is refused. */
export function loadCalibrations(paths: string[] = []): Calibration[] {
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

/**
 * The run the flags describe, as every surface describes one (core/run-config.ts): the metrics, the settings, the
 * --calibration files as its calibration (thresholds, cut-points, nli_lex weights) and combinations, and the mapping.
 */
export function compileRun(o: CommonOptions): CliRunConfig {
  const cals = loadCalibrations(o.calibration);
  const calibration: RunCalibration = { thresholds: {} };
  for (const c of cals) {
    if (c.metric && c.threshold !== undefined && !c.combination) calibration.thresholds[c.metric] = c.threshold;
    if (c.cutpoints) calibration.cutpoints = c.cutpoints;
    if (c.nliLex) calibration.nliLexWeights = c.nliLex;
  }
  const metrics = resolveMetricList(o.metrics);
  const given = metricOptions([...(o.lexicalMode ? [`lexical_match.mode=${o.lexicalMode}`] : []), ...(o.metricOption ?? [])]);
  const problem = metricOptionsProblem(metrics, given);
  if (problem) throw new VerityError(`--metric-option: ${problem}`, 'usage', 'bad-option');
  const options = given && inTableOrder(given);
  const settings: MetricSettings = {
    ...(o.strict ? { normalization: 'squad' as const } : o.normalization ? { normalization: o.normalization } : {}),
    ...(options ? { options } : {}),
  };
  const combinations = cals.flatMap((c) => (c.combination ? [c.combination] : []));
  return {
    metrics,
    settings,
    ...(cals.length ? { calibration } : {}),
    ...(combinations.length ? { combinations } : {}),
    mapping: { ...(o.map ? { map: parseMapSpec(o.map) } : {}), ...goldSepOption(o.goldSep) },
    models: modelSpecs(metrics, o),
  };
}

/**
 * `--metric-option metric.key=value` (and `--lexical-mode`, its shorthand for lexical_match.mode) as the run's
 * `settings.options`: a number where the metric declares a number. Whether the metric, the option and the value
 * are allowed is the core's check (metricOptionsProblem); an option given twice with two values is refused here.
 */
function metricOptions(specs: readonly string[]): MetricSettings['options'] {
  if (!specs.length) return undefined;
  const out: Record<string, Record<string, OptionValue>> = {};
  for (const spec of specs) {
    const m = /^\s*([^.=\s]+)\.([^=\s]+)\s*=\s*(.*?)\s*$/.exec(spec);
    if (!m || m[3] === '')
      throw new VerityError(`--metric-option expects metric.option=value (e.g. cap.alpha=0.9), got "${spec}"`, 'usage', 'bad-option');
    const [, metric, key, text] = m as unknown as [string, string, string, string];
    const declared = SUPPORTED_METRICS.find((d) => d.name === metric)?.options?.[key];
    const value = declared?.kind === 'number' && text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
    const before = out[metric]?.[key];
    if (before !== undefined && before !== value)
      throw new VerityError(`--metric-option: ${metric}.${key} is given twice (${before}, ${value})`, 'usage', 'bad-option');
    (out[metric] ??= {})[key] = value;
  }
  return out;
}

/**
 * Checked options in the table's order and each metric's declared order, whatever the order of the flags: a shard
 * header compares the run's settings as text.
 */
function inTableOrder(options: NonNullable<MetricSettings['options']>): MetricSettings['options'] {
  return Object.fromEntries(
    SUPPORTED_METRICS.filter((d) => options[d.name]).map((d) => {
      const given = options[d.name]!;
      return [d.name, Object.fromEntries(Object.keys(d.options ?? {}).flatMap((k) => (k in given ? [[k, given[k]!]] : [])))];
    }),
  );
}

/** The CLI's run: a run with the models its metrics need, as the page's run carries them (session/api.ts). */
export interface CliRunConfig extends RunConfig {
  models: Partial<Record<Role, ModelSpec>>;
}

/**
 * The models these metrics need (runtime/roles.ts), as the role flags name them (the registry defaults
 * otherwise; --model-dir, --skip-canary). The statement writer is the instant rule writer unless
 * --statement-model is given.
 */
function modelSpecs(metrics: readonly string[], o: CommonOptions): Partial<Record<Role, ModelSpec>> {
  const given: Record<Role, string | undefined> = {
    nli: o.nliModel,
    reranker: o.rankerModel,
    embedder: o.embedderModel,
    statements: o.statementModel,
  };
  const specs: Partial<Record<Role, ModelSpec>> = {};
  for (const role of rolesFor(metrics, { modelWriter: !!o.statementModel })) {
    try {
      specs[role] = { ...parseModelArg(role, given[role], o.modelDir), ...(o.skipCanary ? { skipCanary: true } : {}) };
    } catch (e) {
      throw new VerityError(`${ROLE_TABLE[role].cliFlag}: ${messageOf(e)}`, 'usage');
    }
  }
  return specs;
}

/** A compiled run with its metrics: the scoring thread builds the same from `config`. */
export interface BuiltRun {
  config: CliRunConfig;
  metrics: AnyMetric[];
}

/** The run the flags describe, and its metrics (with WordNet, read here for every scoring command). */
export function buildMetrics(o: CommonOptions): BuiltRun {
  if (o.threads !== undefined) {
    const n = intOption(o.threads, '--threads', 0);
    if (n < 1) throw new VerityError(`--threads expects a whole number ≥ 1, got "${o.threads}"`, 'usage');
    setScoringThreads(n);
  }
  const config = compileRun(o);
  return { config, metrics: metricsOf(config, { lexicon: nodeLexicon() }) };
}

/** Every declared option's name, as `--help` lists them (verity metrics says what each does). */
const OPTION_LIST = SUPPORTED_METRICS.flatMap((d) => Object.keys(d.options ?? {}).map((key) => `${d.name}.${key}`)).join(', ');

export function common(cmd: Command): Command {
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
      new Option('--lexical-mode <mode>', 'lexical_match containment (same as --metric-option lexical_match.mode=…)').choices([
        'token',
        'substring',
      ]),
    )
    .option(
      '--metric-option <metric.option=value>',
      `a metric's own option, e.g. cap.alpha=0.9 (repeatable; verity metrics lists them): ${OPTION_LIST}`,
      (v: string, prev: string[] = []) => [...prev, v],
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
    .option('--threads <n>', 'threads scoring the embedded metrics (default: one per core, 1 to 4)')
    .option('--progress', 'always show the progress bar')
    .option('--no-progress', 'never show the progress bar');
}

/** Parses `--map field=column,field=column`. */
export function parseMapSpec(spec: string): ColumnMap {
  const out: ColumnMap = {};
  for (const part of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = part.indexOf('=');
    const field = part.slice(0, eq).trim().toLowerCase() as Field;
    const column = part.slice(eq + 1).trim();
    if (eq <= 0 || !column) throw new VerityError(`--map expects field=column pairs separated by commas, got "${part}"`, 'usage');
    if (!FIELDS.includes(field)) throw new VerityError(`--map: unknown field "${field}"; fields are ${FIELDS.join(', ')}`, 'usage');
    out[field] = column;
  }
  return out;
}

/** A whole-number option (--seed, --resamples), or its default; anything else is a usage error. */
export function intOption(v: string | undefined, name: string, dflt: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new VerityError(`${name} expects a whole number ≥ 0, got "${v}"`, 'usage');
  return n;
}

/** `--gold-sep`: absent lets the reader choose (chooseGoldSeparator); "none" (or "") splits nothing. */
export function goldSepOption(v: string | undefined): { goldSep?: string } {
  if (v === undefined) return {};
  return { goldSep: v === 'none' ? '' : v };
}
