/**
 * Reading an input file: a file or stdin (spooled to a temporary file, since a stream is read twice), streamed in
 * batches through the core's row mapper (JSONL, CSV and TSV over 64 KiB), or read whole (the other formats).
 */
import { count } from '../core/util/plural.ts';
import { createReadStream, createWriteStream, openAsBlob } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { pipeline } from 'node:stream/promises';
import { type ParsedTable, type RowIssue } from '../core/io/parse.ts';
import { getPath } from '../core/io/formats/nested.ts';
import { needsFormatReader, readBlobInput, reshapedNote, type InputTable } from '../core/io/formats/index.ts';
import { streamRecords } from '../core/io/parse-stream.ts';
import { planInput, prepareInput } from '../core/io/prepare.ts';
import { badUtf8LineMessage, badUtf8RecordMessage } from '../core/io/utf8.ts';
import { GOLD_SEP_CELL, GOLD_SEP_SAMPLE, mapRows, type MapOptions, type MappingNote } from '../core/io/fields.ts';
import { contentHash } from '../core/io/hash.ts';
import { VerityError, type QaRow } from '../core/types.ts';
import { say } from './say.ts';
import { pendingDirs } from './output.ts';
import { LIMITS } from '../core/limits.ts';

const MAX_SHOWN = LIMITS.issues.cli;

/** Prints a file's issues, the first LIMITS.issues.cli of them, then how many more. */
export function sayIssues(issues: readonly { severity: string; message: string }[], more = ' (fix the ones above and run again)'): void {
  for (const issue of issues.slice(0, MAX_SHOWN)) say(`${issue.severity}: ${issue.message}`);
  if (issues.length > MAX_SHOWN) say(`… and ${issues.length - MAX_SHOWN} more issues${more}`);
}

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
  /** Told the gold separator chosen for the input ('' for none: each gold cell is one gold), before any row. */
  onGoldSep?: (sep: string) => void;
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
      const plan = planInput([{ ...shape, records: sample, issues: [] }], o.mapOptions);
      o.onGoldSep?.(plan.goldSep ?? '');
      const mapper = plan.mapper(p1.columns);
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
      notes = [...plan.separatorNotes, ...mapper.notes()];
    } else {
      // Other formats: Parquet a row group at a time, Inspect logs, JSON, CSV and TSV whole; nested paths
      // (`doc.question`) named in the mapping become columns.
      const input = await readBlobInput(blob, file);
      format = input.source;
      const reshaped = reshapedNote(input);
      if (reshaped) say(`note: ${reshaped}`);
      // The pipeline the session and Learn use (core/io/prepare.ts), on the whole table.
      const mapped = prepareInput([{ name: file, table: input }], o.mapOptions);
      o.onGoldSep?.(mapped.goldSep ?? '');
      o.onTotal?.(mapped.rows.length);
      report(mapped.issues);
      notes = [...mapped.separatorNotes, ...mapped.notes];
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
