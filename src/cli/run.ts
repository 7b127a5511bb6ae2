/**
 * The scoring commands' runs: a file read batch by batch (its rows mapped as the options say) and fed to the run
 * engine (session/engine.ts), the embedded metrics in the scoring threads and models loaded with the first rows;
 * the results handed over in input order, with a progress bar on a terminal.
 */
import { SingleBar, Presets } from 'cli-progress';
import { count } from '../core/util/plural.ts';
import type { ParsedTable, RowIssue } from '../core/io/parse.ts';
import { prepareInput } from '../core/io/prepare.ts';
import type { RowResults } from '../core/scoring.ts';
import { overLimit } from '../core/limits.ts';
import { VerityError, type QaRow } from '../core/types.ts';
import type { ModelContext } from '../core/capabilities.ts';
import { DEFAULTS } from '../core/defaults.ts';
import type { LoadedModel } from '../runtime/messages.ts';
import { cliNote, say } from './say.ts';
import { goldSepOption } from './options.ts';
import { readInputFile, readRows, sayIssues } from './input.ts';
import { type RecordSink } from './output.ts';
import { scoringPool } from './thread.ts';
import { detailedOf, RunEngine, rowsOf } from '../session/engine.ts';
import { planOf } from '../core/run-config.ts';
import { modelContext } from './models.ts';
import { sliceOf } from './shard.ts';
import { type BuiltRun, type CommonOptions, parseMapSpec } from './options.ts';

/** The output being written, so that an interrupt removes its temporary file. */
export const writing: { sink?: RecordSink } = {};

/** Runs `work` writing to `sink`, then closes it; on failure aborts it (no partial output) and rethrows. */
export async function writeThrough(sink: RecordSink, work: () => Promise<void>): Promise<void> {
  writing.sink = sink;
  try {
    await work();
    await sink.close();
  } catch (e) {
    await sink.abort();
    throw e;
  } finally {
    writing.sink = undefined;
  }
}

export interface Loaded {
  rows: QaRow[];
  fileIssues: RowIssue[];
  skipped: number;
}

/** A file (or stdin for "-") read into a table in any input format (Parquet, Inspect logs too); unreadable files are input errors. */
export const readTable = (file: string): Promise<ParsedTable> => readInputFile(file);

/** A file read whole and mapped as every surface maps it (prepareInput); issues and notes go to stderr. */
export async function load(file: string, o: Pick<CommonOptions, 'map' | 'goldSep'>, answersOnly = false): Promise<Loaded> {
  const map = o.map ? parseMapSpec(o.map) : undefined;
  const table = await readTable(file);
  const mapped = prepareInput([{ name: file, table }], {
    ...(map ? { map } : {}),
    ...goldSepOption(o.goldSep),
    ...(answersOnly ? { answersOnly } : {}),
  });
  const errors = mapped.issues.filter((i) => i.severity === 'error').length;
  const warnings = mapped.issues.length - errors;
  sayIssues(mapped.issues);
  for (const note of [...mapped.separatorNotes, ...mapped.notes]) say(`note: ${cliNote(note)}`);
  if (mapped.rows.length === 0) throw new VerityError(`no usable rows in ${file} (${errors} rows skipped)`, 'input');
  say(`${table.format.toUpperCase()}, ${count(mapped.rows.length, 'row')} read, ${errors} skipped, ${count(warnings, 'warning')}`);
  return { rows: mapped.rows, fileIssues: mapped.issues, skipped: errors };
}

/** Rows read, scored and written at a time: memory holds one batch, whatever the file's size. */
export const BATCH = 2048;

export function progressBar(o: CommonOptions, total: number): { update(done: number): void; stop(): void } {
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
 * The run engine (session/engine.ts) as the CLI drives it: the embedded metrics in the scoring threads (thread.ts),
 * so that the main thread answers a signal at once, whatever row is being scored; the model metrics here, a job at a
 * time; every explanation kept. `take` gets each job's rows and results in input order.
 */
function engineFor(
  run: BuiltRun,
  ctx: ModelContext,
  take: (rows: readonly QaRow[], results: RowResults[]) => Promise<void> | void,
): RunEngine<QaRow> {
  const pool = scoringPool();
  const detailed = detailedOf(run.metrics);
  return new RunEngine<QaRow>(
    {
      metrics: run.metrics,
      pool: { workers: pool, plan: planOf(run.config) },
      ctx,
      jobRows: DEFAULTS.rowsPerBatch.cli,
      // Two jobs for each thread.
      ahead: 2 * pool.size,
      modelBatch: DEFAULTS.rowsPerBatch.cli,
      explainEmbedded: true,
    },
    (job, chunk) => take(job.rows, rowsOf(chunk, detailed)),
  );
}

/** Scores rows already in memory (the compare command's joined systems), with the same progress bar. */
export async function scoreAll(rows: QaRow[], run: BuiltRun, o: CommonOptions, ctx: ModelContext = {}): Promise<RowResults[]> {
  const bar = progressBar(o, rows.length);
  const results: RowResults[] = [];
  const engine = engineFor(run, ctx, (_rows, part) => {
    results.push(...part);
    bar.update(results.length);
  });
  await engine.add(0, rows);
  await engine.finish();
  bar.stop();
  return results;
}

/**
 * Reads, scores and hands over a file batch by batch. Rows with a field over the per-field limit are named
 * on stderr (their metrics give null with the reason; the other rows are scored as usual).
 */
export async function scoreFile(
  file: string,
  run: BuiltRun,
  o: CommonOptions,
  onScored: (
    rows: readonly QaRow[],
    results: RowResults[],
    ctx: ModelContext & { provenance?: Record<string, LoadedModel> },
  ) => Promise<void>,
  /** Rows to score (default: all). */
  keep: (r: QaRow) => boolean = () => true,
  more: {
    /** Also compute the input's content hash (review labels name their input by it). */
    hash?: boolean;
    /** Score only the K-th of N slices of the file's records (by record number): see shard.ts. */
    shard?: { k: number; n: number };
    /** Told the number of records before any row is scored. */
    onRecords?: (n: number) => void;
    /** Told the input's gold separator before any row is scored ('' for none). */
    onGoldSep?: (sep: string) => void;
  } = {},
): Promise<{ skipped: number; hash?: string; records: number }> {
  const { hash = false, shard } = more;
  let records = 0;
  const inShard = (r: QaRow) => !shard || sliceOf(r.row, records, shard.n) === shard.k;
  let bar: ReturnType<typeof progressBar> | undefined;
  let done = 0;
  const { config } = run;
  let engine: RunEngine<QaRow> | undefined;
  let start = 0;
  const reading = readRows(file, {
    mapOptions: config.mapping,
    batch: BATCH,
    onNote: cliNote,
    ...(more.onGoldSep ? { onGoldSep: more.onGoldSep } : {}),
    hash,
    rowWarning: (r) => (keep(r) && overLimit(r) ? `${overLimit(r)}; it is not scored (every metric gives null with the reason)` : null),
    onTotal: (n) => {
      records = n;
      more.onRecords?.(n);
      bar = progressBar(o, shard ? Math.ceil(n / shard.n) : n);
    },
    onRows: async (read) => {
      if (!engine) {
        // Models load with the first rows, so that an unreadable file fails before any download.
        const had = await modelContext(run, o);
        engine = engineFor(run, had, async (rows, results) => {
          done += rows.length;
          bar?.update(done);
          await onScored(rows, results, had);
        });
      }
      const rows = read.filter((r) => inShard(r) && keep(r));
      // Jobs are written in the order read; the next batch is read while the last jobs of this one score.
      await engine.add(start, rows);
      start += rows.length;
    },
  });
  // A read that fails leaves the batch in hand to finish first: nothing is written once the caller gives up.
  const summary = await reading.catch(async (e: unknown) => {
    await engine?.finish().catch(() => {});
    throw e;
  });
  await engine?.finish();
  bar?.stop();
  return { skipped: summary.skipped, records, ...(summary.hash !== undefined ? { hash: summary.hash } : {}) };
}
