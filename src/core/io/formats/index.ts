/**
 * One entry point for every input the CLI and the app read: Parquet (by its magic bytes), Inspect AI eval logs
 * (a JSON object with `eval` and `samples`, or a `.eval` zip archive), and otherwise JSONL / JSON / CSV / TSV
 * through parseTable. Nested paths (`doc.question`) are added on request with `withPaths` before mapping.
 */
import type { Format, ParsedTable } from '../parse.ts';
import { parseTable } from '../parse.ts';
import { parseBlob, type BlobParseOptions } from '../parse-stream.ts';
import { blobSource, bytesSource, damagedParquet, isParquet, readParquet } from './parquet.ts';
import { inspectToTable, isInspectLog } from './inspect.ts';
import { inspectEvalToLog, isZip } from './inspect-eval.ts';
import { reshapeSingleObject } from './json-shapes.ts';
import { VerityError } from '../../types.ts';

export type SourceFormat = Format | 'parquet' | 'inspect';

/**
 * The input formats, one row each: how it is named, its file extensions (the app's file picker), and how a file is
 * recognised as it. The app's `accept` list, the CLI's help, error texts and the docs' lists all come from here
 * (a test holds the docs to it); the readers below dispatch on the recognition.
 */
export const INPUT_FORMATS: readonly {
  id: SourceFormat;
  label: string;
  plural: string;
  extensions: readonly string[];
  recognised: string;
}[] = [
  { id: 'jsonl', label: 'JSONL', plural: 'JSONL', extensions: ['.jsonl', '.ndjson'], recognised: 'one JSON object per line' },
  {
    id: 'json',
    label: 'JSON',
    plural: 'JSON',
    extensions: ['.json'],
    recognised: 'a JSON array of objects, or one object holding the table',
  },
  { id: 'csv', label: 'CSV', plural: 'CSV', extensions: ['.csv', '.txt'], recognised: 'comma- or semicolon-separated text with a header' },
  { id: 'tsv', label: 'TSV', plural: 'TSV', extensions: ['.tsv'], recognised: 'tab-separated text with a header' },
  { id: 'parquet', label: 'Parquet', plural: 'Parquet', extensions: ['.parquet'], recognised: 'its PAR1 magic bytes' },
  {
    id: 'inspect',
    label: 'Inspect log',
    plural: 'Inspect logs',
    extensions: ['.eval', '.json'],
    recognised: 'a JSON object with `eval` and `samples`, or a `.eval` zip archive',
  },
];

/** How a format is named to the user (the app's file header). */
export const FORMAT_LABEL = Object.fromEntries(INPUT_FORMATS.map((f) => [f.id, f.label])) as Readonly<Record<SourceFormat, string>>;

/** The formats as a sentence lists them: "JSONL, JSON, CSV, TSV, Parquet and Inspect logs" (with `and`, or `or`). */
export function formatList(conjunction: 'and' | 'or' = 'and'): string {
  const names = INPUT_FORMATS.map((f) => f.plural);
  return `${names.slice(0, -1).join(', ')} ${conjunction} ${names.at(-1)!}`;
}

/** Every extension the formats use, for a file picker's `accept`. */
export const INPUT_ACCEPT = [...new Set(INPUT_FORMATS.flatMap((f) => f.extensions))].join(',');

/** What a table was read as: its source format when a format reader says so, else its parsed format. */
export const sourceOf = (t: ParsedTable): SourceFormat => ('source' in t ? (t as InputTable).source : t.format);

export interface InputTable extends ParsedTable {
  /** What the file was read as. */
  source: SourceFormat;
  /** A one-object JSON file that holds the table: how it holds it ("pandas columns", …; json-shapes.ts). */
  reshaped?: string;
}

/** An Inspect log when the text is one JSON object that is one; null otherwise (including any parse error). */
function asInspect(bytes: Uint8Array): ParsedTable | null {
  let i = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i++;
  if (bytes[i] !== 0x7b) return null; // '{'
  // Cheap test before a full parse: the log's top-level keys appear near the start.
  const head = new TextDecoder('utf-8').decode(bytes.subarray(i, i + 4096));
  if (!/"eval"\s*:/.test(head) && !/"version"\s*:/.test(head)) return null;
  let v: unknown;
  try {
    v = JSON.parse(new TextDecoder('utf-8').decode(bytes.subarray(i)));
  } catch {
    return null;
  }
  return isInspectLog(v) ? inspectToTable(v) : null;
}

/** The spreadsheet a zip archive is, by the entry names its headers hold uncompressed ("xl/workbook.xml"). */
function spreadsheetKind(bytes: Uint8Array): string | null {
  const names = new TextDecoder('latin1').decode(bytes.subarray(0, Math.min(bytes.length, 1 << 20)));
  if (names.includes('xl/workbook.xml')) return 'an Excel workbook (.xlsx)';
  if (names.includes('application/vnd.oasis.opendocument.spreadsheet')) return 'an OpenDocument spreadsheet (.ods)';
  return null;
}

/** What to do with a spreadsheet, which Verity does not read. */
const spreadsheetError = (sheet: string) =>
  new VerityError(
    `the file is ${sheet}, which Verity does not read: save the sheet as CSV (UTF-8) and open that; Verity reads ${formatList()}`,
    'input',
  );

/** The OLE2 compound-file signature, which old Excel workbooks (.xls) start with. */
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const isOle2 = (bytes: Uint8Array) => bytes.length >= OLE2.length && OLE2.every((b, i) => bytes[i] === b);
const XLS = 'an Excel 97–2003 workbook (.xls)';

/** An Inspect `.eval` archive's table; any other zip archive is an input error. */
function fromZip(bytes: Uint8Array): InputTable {
  const log = inspectEvalToLog(bytes);
  const sheet = log ? null : spreadsheetKind(bytes);
  if (sheet) throw spreadsheetError(sheet);
  if (!log)
    throw new VerityError(
      `a zip archive that is not an Inspect .eval log (no header.json or _journal/start.json with an eval spec); Verity reads ${formatList()}`,
      'input',
    );
  return { ...inspectToTable(log), source: 'inspect' };
}

export async function readInput(bytes: Uint8Array, nameHint = ''): Promise<InputTable> {
  if (isParquet(bytes)) return { ...(await readParquet(bytesSource(bytes))), source: 'parquet' };
  const damaged = damagedParquet(bytes);
  if (damaged) throw new VerityError(damaged, 'input');
  if (isZip(bytes)) return fromZip(bytes);
  if (isOle2(bytes)) throw spreadsheetError(XLS);
  const inspect = asInspect(bytes);
  if (inspect) return { ...inspect, source: 'inspect' };
  return textTable(parseTable(bytes, nameHint));
}

/** What the user should know about a table read from a one-object JSON file (json-shapes.ts), or null. */
export function reshapedNote(t: InputTable): string | null {
  return t.reshaped ? `the file is one JSON object holding the table (${t.reshaped}): read as its ${t.records.length} records` : null;
}

/** A text table as read, or the table a one-object JSON file holds. */
function textTable(t: ParsedTable): InputTable {
  const r = reshapeSingleObject(t);
  return { ...r, source: r.format };
}

/** What a File/Blob's first and last bytes say it is: Parquet, a zip archive (.eval), maybe an Inspect log, or text. */
async function sniffBlob(blob: Blob): Promise<'parquet' | 'zip' | 'xls' | 'inspect' | 'text'> {
  const head = new Uint8Array(await blob.slice(0, 8).arrayBuffer());
  const tail = new Uint8Array(await blob.slice(Math.max(0, blob.size - 4)).arrayBuffer());
  const magic = new Uint8Array(12);
  magic.set(head, 0);
  magic.set(tail, 8);
  if (blob.size >= 12 && isParquet(magic)) return 'parquet';
  const damaged = damagedParquet(blob.size >= 12 ? magic : head);
  if (damaged) throw new VerityError(damaged, 'input');
  if (isZip(head)) return 'zip';
  if (isOle2(head)) return 'xls';
  const first = new TextDecoder('utf-8')
    .decode(new Uint8Array(await blob.slice(0, 4096).arrayBuffer()))
    .replace(/^\uFEFF/, '')
    .trimStart();
  return first.startsWith('{') && /"eval"\s*:/.test(first) ? 'inspect' : 'text';
}

/** Whether a File/Blob needs readBlobInput's own readers (Parquet, an Inspect log) rather than a JSONL stream. */
export async function needsFormatReader(blob: Blob): Promise<boolean> {
  return (await sniffBlob(blob)) !== 'text';
}

/** The same from a File/Blob: Parquet is read a row group at a time from slices; JSONL streams (parse-stream.ts). */
export async function readBlobInput(blob: Blob, nameHint = '', opts: BlobParseOptions = {}): Promise<InputTable> {
  const kind = await sniffBlob(blob);
  if (kind === 'parquet')
    return {
      ...(await readParquet(blobSource(blob), (p) =>
        opts.onProgress?.(Math.round((p.rowsRead / Math.max(1, p.totalRows)) * blob.size), blob.size),
      )),
      source: 'parquet',
    };
  // An Inspect log is one JSON object, or a zip archive (.eval): read whole (they are written whole by Inspect too).
  if (kind === 'zip') return fromZip(new Uint8Array(await blob.arrayBuffer()));
  if (kind === 'xls') throw spreadsheetError(XLS);
  if (kind === 'inspect') {
    const bytes = new Uint8Array(await blob.arrayBuffer());
    const inspect = asInspect(bytes);
    if (inspect) return { ...inspect, source: 'inspect' };
    return textTable(parseTable(bytes, nameHint));
  }
  return textTable(await parseBlob(blob, nameHint, opts));
}

export { getPath, nestedPaths, withPaths } from './nested.ts';
export { blobSource, bytesSource, isParquet, parquetRowGroups, plainValue, readParquet } from './parquet.ts';
export { inspectToTable, isInspectLog } from './inspect.ts';
export { inspectEvalToLog, isZip } from './inspect-eval.ts';
