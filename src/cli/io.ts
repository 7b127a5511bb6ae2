/**
 * The CLI's file input and output, in bounded memory: JSONL input is streamed twice (once for the column
 * names, once to map and score), other formats are read whole; results are written batch by batch to a
 * temporary file beside the target and renamed onto it only when the run succeeds.
 */
import { count } from '../core/util/plural.ts';
import { constants, createReadStream, createWriteStream, openAsBlob, type WriteStream } from 'node:fs';
import { access, mkdtemp, open, rename, rm, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { type ParsedTable, type RowIssue } from '../core/io/parse.ts';
import { getPath } from '../core/io/formats/nested.ts';
import { needsFormatReader, readBlobInput, reshapedNote, withPaths, type InputTable } from '../core/io/formats/index.ts';
import { streamRecords } from '../core/io/parse-stream.ts';
import { badUtf8LineMessage, badUtf8RecordMessage } from '../core/io/utf8.ts';
import {
  chooseGoldSeparator,
  createRowMapper,
  GOLD_SEP_CELL,
  GOLD_SEP_SAMPLE,
  mapRows,
  type MapOptions,
  type MappingNote,
} from '../core/io/fields.ts';
import { DelimitedWriter } from '../core/io/export.ts';
import { contentHash } from '../core/io/hash.ts';
import { VerityError, type QaRow } from '../core/types.ts';
import { escapeControls } from '../core/text/visible.ts';

export { escapeControls };

// ---------- stderr ----------

/** One "verity: …" line on stderr. */
export const say = (msg: string): void => void process.stderr.write(`verity: ${escapeControls(msg)}\n`);

// ---------- input ----------

const MAX_SHOWN = 50;

/** Inputs whose end could not be read this run (RowIssue.unread): main() exits non-zero after the work is written. */
export const incompleteInputs: string[] = [];
/** Notes an input's issues that left its end unread. */
export function noteUnread(file: string, issues: readonly RowIssue[]): void {
  for (const i of issues) if (i.unread !== undefined) incompleteInputs.push(`${file}: ${i.message}`);
}

export interface ReadSummary {
  format: string;
  rows: number;
  skipped: number;
  warnings: number;
  notes: MappingNote[];
  /** The input's content hash (core/io/hash.ts), when asked for: of the bytes read, so stdin and pipes have theirs. */
  hash?: string;
}

export interface ReadOptions {
  mapOptions: MapOptions;
  /** Rows per call of onRows. */
  batch: number;
  onRows: (rows: QaRow[]) => Promise<void>;
  /** A row that is read but will not be scored (over the length limit): why, reported and counted as a warning. */
  rowWarning?: (row: QaRow) => string | null;
  /** Compute the input's content hash (review labels name the input they belong to by it). */
  hash?: boolean;
  /** Called once the number of records is known (before the first onRows). */
  onTotal?: (records: number) => void;
  onNote: (n: MappingNote) => string;
  /** Chunk and sniff sizes for the streamed reader (tests use small ones). */
  chunkBytes?: number;
  sniffBytes?: number;
}

/** Opens an input: a file, or stdin (copied to a temporary file, since a stream is read twice). */
async function inputPath(file: string): Promise<{ path: string; cleanup: () => Promise<void> }> {
  if (file !== '-') {
    let st;
    try {
      st = await stat(file);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new VerityError(
        code === 'ENOENT' ? `cannot read ${file}: no such file` : `cannot read ${file}: ${(e as Error).message}`,
        'input',
      );
    }
    if (st.isDirectory()) throw new VerityError(`${file} is a directory, not a file`, 'input');
    if (st.isFile()) return { path: file, cleanup: async () => {} };
  }
  // stdin, a pipe or a device: copied once, since the file is read twice.
  const dir = await mkdtemp(join(tmpdir(), 'verity-stdin-'));
  pendingDirs.add(dir);
  const path = join(dir, 'input');
  const cleanup = async () => {
    await rm(dir, { recursive: true, force: true });
    pendingDirs.delete(dir);
  };
  try {
    await pipeline(file === '-' ? process.stdin : createReadStream(file), createWriteStream(path));
  } catch (e) {
    await cleanup();
    throw e;
  }
  return { path, cleanup };
}

/**
 * Reads, maps and hands over the rows of a file in batches, printing its issues (the first 50) and notes on
 * stderr. JSONL over 64 KiB is streamed: memory holds one batch, whatever the file's size.
 */
export async function readRows(file: string, o: ReadOptions): Promise<ReadSummary> {
  const { path, cleanup } = await inputPath(file);
  try {
    let shown = 0;
    let rows = 0;
    let errors = 0;
    let warnings = 0;
    const report = (issues: RowIssue[]) => {
      noteUnread(file, issues);
      for (const i of issues) {
        if (i.severity === 'error') errors++;
        else warnings++;
        if (shown++ < MAX_SHOWN) say(`${i.severity}: ${i.message}`);
      }
      issues.length = 0;
    };
    const deliver = async (batch: QaRow[]) => {
      rows += batch.length;
      if (o.rowWarning) {
        const warned: RowIssue[] = [];
        for (const r of batch) {
          const why = o.rowWarning(r);
          if (why) warned.push({ row: r.row, severity: 'warning', message: `row ${r.row}: ${why}` });
        }
        report(warned);
      }
      await o.onRows(batch);
    };
    const blob = await openAsBlob(path).catch((e: Error) => {
      throw new VerityError(`cannot read ${file}: ${e.message}`, 'input');
    });
    const hash = o.hash ? await contentHash(blob) : undefined;
    const streamOpts = {
      ...(o.chunkBytes ? { chunkBytes: o.chunkBytes } : {}),
      ...(o.sniffBytes !== undefined ? { sniffBytes: o.sniffBytes } : {}),
    };
    // Pass 1: the column names (a key may first appear in the last row), and what cannot be read.
    // It also keeps the gold-looking cells of the first records, to choose the gold separator before any row is mapped.
    const sample: ParsedTable['records'] = [];
    const goldPath = o.mapOptions.map?.gold;
    const keepSample = (rec: ParsedTable['records'][number]) => {
      if (sample.length >= GOLD_SEP_SAMPLE || o.mapOptions.goldSep !== undefined) return;
      const data = Object.create(null) as Record<string, unknown>;
      for (const [k, v] of Object.entries(rec.data)) if (typeof v === 'string' && v.length <= GOLD_SEP_CELL) data[k] = v;
      if (goldPath?.includes('.')) data[goldPath] = getPath(rec.data, goldPath);
      sample.push({ ...rec, data });
    };
    let pass1 = (await needsFormatReader(blob)) ? null : await streamRecords(blob, keepSample, streamOpts);
    // One record may be an object that holds the table (pandas' to_json, {"data": [...]}): read it whole.
    if (pass1?.records === 1) pass1 = null;
    let notes: MappingNote[];
    let format: string;
    if (pass1) {
      const p1 = pass1;
      format = p1.format;
      const shape = { format: p1.format, columns: p1.columns, ...(p1.headerLine !== undefined ? { headerLine: p1.headerLine } : {}) };
      if (p1.records === 0) mapRows({ ...shape, records: [], issues: p1.issues }); // throws why
      const chosen = chooseGoldSeparator([{ ...shape, records: sample, issues: [] }], o.mapOptions);
      const mapper = createRowMapper(p1.columns, chosen.options);
      o.onTotal?.(p1.records);
      const issues: RowIssue[] = [...p1.issues];
      report(issues);
      // A record with bytes that are not UTF-8 on any of its lines (a CSV or JSON record may span several) is
      // refused: a record is mapped once the next one says where it ends.
      const badLines = [...p1.scan.bad.keys()].sort((a, b) => a - b);
      const covered = new Set<number>();
      let batch: QaRow[] = [];
      let held: ParsedTable['records'][number] | null = null;
      let k = 0; // records come in line order: the bad lines before this record are behind k
      const use = async (rec: ParsedTable['records'][number], nextLine: number) => {
        const from = rec.line ?? 0;
        while (k < badLines.length && badLines[k]! < from) k++;
        const badLine = from > 0 && k < badLines.length && badLines[k]! < nextLine ? badLines[k]! : undefined;
        if (badLine !== undefined) {
          for (; k < badLines.length && badLines[k]! < nextLine; k++) covered.add(badLines[k]!);
          issues.push({
            row: rec.row,
            line: from,
            severity: 'error',
            message: badUtf8RecordMessage(rec.row, from, p1.scan.bad.get(badLine)!),
          });
        } else {
          const row = mapper.map(rec, issues);
          if (row) batch.push(row);
        }
        if (issues.length) report(issues);
        if (batch.length >= o.batch) {
          const b = batch;
          batch = [];
          await deliver(b);
        }
      };
      await streamRecords(
        blob,
        async (rec) => {
          if (held) await use(held, badLines.length ? (rec.line ?? Infinity) : Infinity);
          held = rec;
        },
        streamOpts,
      );
      if (held) await use(held, Infinity);
      if (batch.length) await deliver(batch);
      for (const line of badLines)
        if (!covered.has(line))
          issues.push({ row: 0, line, severity: 'warning', message: badUtf8LineMessage(p1.scan.bad.get(line)!, line === p1.headerLine) });
      report(issues);
      notes = [...chosen.notes, ...mapper.notes()];
    } else {
      // Other formats: Parquet a row group at a time, Inspect logs, JSON, CSV and TSV whole; nested paths
      // (`doc.question`) named in the mapping become columns.
      const input = await readBlobInput(blob, file);
      const table = withPaths(input, Object.values(o.mapOptions.map ?? {}));
      format = input.source;
      const reshaped = reshapedNote(input);
      if (reshaped) say(`note: ${reshaped}`);
      const chosen = chooseGoldSeparator([table], o.mapOptions);
      const mapped = mapRows(table, chosen.options);
      o.onTotal?.(mapped.rows.length);
      report(mapped.issues);
      notes = [...chosen.notes, ...mapped.notes];
      for (let i = 0; i < mapped.rows.length; i += o.batch) await deliver(mapped.rows.slice(i, i + o.batch));
    }
    if (shown > MAX_SHOWN) say(`… and ${shown - MAX_SHOWN} more issues (fix the ones above and run again)`);
    for (const n of notes) say(`note: ${o.onNote(n)}`);
    if (rows === 0) throw new VerityError(`no usable rows in ${file} (${errors} rows skipped)`, 'input');
    say(`${format.toUpperCase()}, ${count(rows, 'row')} read, ${errors} skipped, ${count(warnings, 'warning')}`);
    return { format, rows, skipped: errors, warnings, notes, ...(hash !== undefined ? { hash } : {}) };
  } finally {
    await cleanup();
  }
}

// ---------- output ----------

export type OutKind = 'jsonl' | 'csv' | 'tsv';

/** The kind of an --out file from its extension; a usage error for any other. */
export function outKind(out: string, allowed: readonly OutKind[] = ['jsonl', 'csv', 'tsv']): OutKind {
  const kind: OutKind | undefined = /\.jsonl?$/i.test(out)
    ? 'jsonl'
    : /\.csv$/i.test(out)
      ? 'csv'
      : /\.tsv$/i.test(out)
        ? 'tsv'
        : undefined;
  if (!kind || !allowed.includes(kind))
    throw new VerityError(
      `--out ${out}: use a ${allowed
        .map((k) => `.${k}`)
        .join(', ')
        .replace(/, ([^,]*)$/, ' or $1')} file name`,
      'usage',
    );
  return kind;
}

/**
 * Checks, before any work, that an output file (--out, or `flag`) can be written: its folder exists and is
 * writable, and it is not a folder.
 */
export async function checkOut(out: string, flag = '--out'): Promise<void> {
  const dir = dirname(resolve(out));
  const st = await stat(dir).catch(() => null);
  if (!st) throw new VerityError(`${flag} ${out}: the folder ${dir} does not exist`, 'output');
  if (!st.isDirectory()) throw new VerityError(`${flag} ${out}: ${dir} is not a folder`, 'output');
  const target = await stat(out).catch(() => null);
  if (target?.isDirectory()) throw new VerityError(`${flag} ${out}: it is a folder; give a file name`, 'output');
  try {
    await access(dir, constants.W_OK);
  } catch {
    throw new VerityError(`${flag} ${out}: the folder ${dir} is not writable`, 'output');
  }
}

/** A write error in words (full disk, permission, read-only file system), else its own message. */
export const ioMessage = (e: unknown): string => {
  const err = e as NodeJS.ErrnoException;
  return err.code === 'ENOSPC'
    ? 'the disk is full'
    : err.code === 'EACCES' || err.code === 'EPERM'
      ? 'permission denied'
      : err.code === 'EROFS'
        ? 'the file system is read-only'
        : err.message;
};

/** Temporary files in progress, removed if the process is interrupted (see onSignal). */
const pending = new Set<AtomicFile>();
/** Temporary folders: the copy of standard input (private data: nothing of it may outlive the process). */
const pendingDirs = new Set<string>();

/** Removes every unfinished temporary file and folder (the process is about to exit). */
export async function removePending(): Promise<void> {
  await Promise.all([
    ...[...pending].map((f) => f.abort()),
    ...[...pendingDirs].map((d) => rm(d, { recursive: true, force: true }).catch(() => {})),
  ]);
  pending.clear();
  pendingDirs.clear();
}

/**
 * A file written whole or not at all: text goes to a temporary file beside the target (same folder, so the
 * rename is atomic), flushed to disk and renamed onto the target on `commit`; `abort` removes it.
 */
export class AtomicFile {
  private readonly tmp: string;
  private stream: WriteStream;
  private failed: Error | null = null;

  constructor(readonly target: string) {
    this.tmp = join(dirname(resolve(target)), `.${basename(target)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
    pending.add(this);
    this.stream = createWriteStream(this.tmp, { flags: 'wx' });
    this.stream.on('error', (e) => (this.failed ??= e));
  }

  private check(): void {
    if (this.failed) throw new VerityError(`cannot write ${this.target}: ${ioMessage(this.failed)}`, 'output');
  }

  async write(text: string): Promise<void> {
    this.check();
    if (!this.stream.write(text))
      await new Promise<void>((res) => {
        // Both listeners go when either fires: one left per batch added up (MaxListenersExceededWarning at 3M rows).
        const done = () => {
          this.stream.off('drain', done);
          this.stream.off('error', done);
          res();
        };
        this.stream.on('drain', done);
        this.stream.on('error', done);
      });
    this.check();
  }

  /** Ends writing; returns the temporary file's path (still to be committed or aborted). */
  async end(): Promise<string> {
    this.check();
    await new Promise<void>((res) => this.stream.end(() => res()));
    this.check();
    return this.tmp;
  }

  /** Finishes the file, flushes it to disk and renames it onto the target. */
  async commit(): Promise<void> {
    await this.end();
    try {
      const fh = await open(this.tmp, 'r+');
      await fh.sync();
      await fh.close();
      await rename(this.tmp, this.target);
      pending.delete(this);
    } catch (e) {
      await this.abort();
      throw new VerityError(`cannot write ${this.target}: ${ioMessage(e)}`, 'output');
    }
  }

  /**
   * Removes the temporary file. The stream is closed first: a file still being opened when an interrupt comes
   * (the second of two outputs) would otherwise be created after the unlink, and stay.
   */
  async abort(): Promise<void> {
    if (!this.stream.closed)
      await new Promise<void>((res) => {
        this.stream.once('close', () => res());
        this.stream.destroy();
      });
    await unlink(this.tmp).catch(() => {});
    pending.delete(this);
  }
}

/** Where result records go, batch by batch. */
export interface RecordSink {
  /** The --out path, when writing to a file. */
  target?: string;
  write(records: Record<string, unknown>[]): Promise<void>;
  /** Finishes the output (renames an --out file onto its target). */
  close(): Promise<void>;
  abort(): Promise<void>;
}

/** JSONL on stdout. */
/**
 * Records as JSONL lines, handed to `write` in pieces of about 8 MB: a batch of rows that carry the input's own long
 * columns would not fit in one string.
 */
async function jsonLines(records: readonly Record<string, unknown>[], write: (text: string) => Promise<void>): Promise<void> {
  let text = '';
  for (const r of records) {
    text += `${JSON.stringify(r)}\n`;
    if (text.length >= 8 << 20) {
      await write(text);
      text = '';
    }
  }
  if (text) await write(text);
}

export function stdoutSink(): RecordSink {
  const out = async (text: string) => {
    if (!process.stdout.write(text)) await new Promise<void>((res) => process.stdout.once('drain', () => res()));
  };
  return {
    write: (records) => jsonLines(records, out),
    async close() {},
    async abort() {},
  };
}

/**
 * An --out file. JSONL is written as it comes; CSV/TSV columns depend on every record, so the records are
 * kept in a temporary JSONL file and turned into the table at the end (memory stays one batch).
 */
export async function fileSink(out: string, kind: OutKind, metricNames: readonly string[]): Promise<RecordSink> {
  const file = new AtomicFile(out);
  if (kind === 'jsonl')
    return {
      target: out,
      write: (records) => jsonLines(records, (t) => file.write(t)),
      close: () => file.commit(),
      abort: () => file.abort(),
    };
  const spool = new AtomicFile(join(dirname(resolve(out)), `.${basename(out)}.spool.jsonl`));
  const table = new DelimitedWriter(metricNames, kind === 'tsv' ? '\t' : ',');
  return {
    target: out,
    async write(records) {
      for (const r of records) table.observe(r);
      await jsonLines(records, (t) => spool.write(t));
    },
    async close() {
      const spooled = await spool.end();
      try {
        await file.write(table.header());
        const lines = createInterface({ input: createReadStream(spooled), crlfDelay: Infinity });
        let batch: Record<string, unknown>[] = [];
        let chars = 0;
        for await (const line of lines) {
          batch.push(JSON.parse(line) as Record<string, unknown>);
          chars += line.length;
          // A thousand rows, or fewer when they carry long columns of the input: each piece fits in one string.
          if (batch.length >= 1024 || chars >= 8 << 20) {
            await file.write(table.rows(batch));
            batch = [];
            chars = 0;
          }
        }
        await file.write(table.rows(batch));
        await file.commit();
      } finally {
        await spool.abort();
      }
    },
    async abort() {
      await Promise.all([spool.abort(), file.abort()]);
    },
  };
}

/**
 * A file (or stdin for "-") read whole into a table, in any input format — streamed piece by piece, never as one
 * string (formats/index.ts readBlobInput) — for the commands that keep every row (compare, statements).
 */
export async function readInputFile(file: string): Promise<InputTable> {
  return (await readHashedInput(file, false)).table;
}

/**
 * readInputFile, with the input's content hash (core/io/hash.ts) when `hash`: of the bytes read, so stdin and a
 * pipe (`<(cat f)`) are named by what they held, not by an empty file.
 */
export async function readHashedInput(file: string, hash = true): Promise<{ table: InputTable; hash: string | null }> {
  const { path, cleanup } = await inputPath(file);
  try {
    const blob = await openAsBlob(path).catch((e: Error) => {
      throw new VerityError(`cannot read ${file}: ${e.message}`, 'input');
    });
    const table = await readBlobInput(blob, file);
    noteUnread(file, table.issues);
    return { table, hash: hash ? await contentHash(blob) : null };
  } finally {
    await cleanup();
  }
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

/** A mapping note worded for a CLI user. */
export function cliNote(n: MappingNote): string {
  if (n.code === 'gold-separator')
    return n.applied
      ? `${n.message} (--gold-sep none reads each cell as one gold answer)`
      : `${n.message}: use --gold-sep '${n.separator}' to score each item as a gold answer`;
  if (n.code === 'layout') return `${n.message} (--map field=COLUMN reads it otherwise)`;
  return n.message;
}
