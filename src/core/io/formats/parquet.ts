/**
 * Parquet input (Hugging Face datasets, lighteval details) through hyparquet, a dependency-free pure-JS reader
 * that runs in Node, the browser and workers. Read one row group at a time from a byte source that is sliced
 * on demand (a File/Blob in the app, a file handle in the CLI), so the file is never held whole.
 * Values become plain JSON-like data: INT64 as numbers (as strings beyond 2^53), timestamps as ISO strings,
 * binary as UTF-8 text; lists and structs stay arrays and objects. Codecs: SNAPPY and uncompressed (hyparquet's
 * built-ins, pyarrow's default); other codecs are reported as such.
 */
import { parquetMetadataAsync, parquetReadObjects, parquetSchema, type AsyncBuffer } from 'hyparquet';
import { VerityError } from '../../types.ts';
import type { ParsedTable } from '../parse.ts';

export type { AsyncBuffer } from 'hyparquet';

/** "PAR1" at both ends. */
const par1 = (bytes: Uint8Array, o: number) =>
  o >= 0 && bytes[o] === 0x50 && bytes[o + 1] === 0x41 && bytes[o + 2] === 0x52 && bytes[o + 3] === 0x31;

export function isParquet(bytes: Uint8Array): boolean {
  return bytes.length >= 12 && par1(bytes, 0) && par1(bytes, bytes.length - 4);
}

/**
 * Why bytes that are half a Parquet file — its "PAR1" at one end only (cut short, or a wrong magic number) —
 * cannot be read; null when they are not (whole Parquet, or no Parquet at all). Read as text, such a file gave
 * 1.5 KB of binary as its "columns".
 */
export function damagedParquet(bytes: Uint8Array): string | null {
  const head = par1(bytes, 0);
  const tail = bytes.length >= 8 && par1(bytes, bytes.length - 4);
  if (head === tail && (bytes.length >= 12 || !head)) return null;
  return `the file is a damaged Parquet file (${head ? 'it begins with PAR1 but does not end with it: cut short?' : 'it ends with PAR1 but does not begin with it'}); Verity cannot read it: write it again`;
}

/** A Blob (a File the user dropped) as a byte source read in slices. */
export function blobSource(blob: Blob): AsyncBuffer {
  return { byteLength: blob.size, slice: (start, end) => blob.slice(start, end).arrayBuffer() };
}

/** An in-memory buffer as a byte source. */
export function bytesSource(bytes: Uint8Array): AsyncBuffer {
  const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  return { byteLength: buf.byteLength, slice: (start, end) => buf.slice(start, end) };
}

const utf8 = new TextDecoder('utf-8');

/** A decoded Parquet value as plain data. */
export function plainValue(v: unknown): unknown {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (v instanceof Uint8Array) return utf8.decode(v);
  if (Array.isArray(v)) return v.map(plainValue);
  if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<number>, plainValue);
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plainValue(x)]));
  return v;
}

export interface ParquetProgress {
  rowsRead: number;
  totalRows: number;
}

async function metadataOf(file: AsyncBuffer) {
  try {
    return await parquetMetadataAsync(file);
  } catch (e) {
    throw new VerityError(`the file is a damaged Parquet file (${(e as Error).message}); Verity cannot read it: write it again`, 'input');
  }
}

/** The records of each row group in turn, with their 1-based row numbers. */
export async function* parquetRowGroups(
  file: AsyncBuffer,
  onProgress?: (p: ParquetProgress) => void,
  known?: Awaited<ReturnType<typeof parquetMetadataAsync>>,
): AsyncGenerator<ParsedTable['records']> {
  const metadata = known ?? (await metadataOf(file));
  const totalRows = Number(metadata.num_rows);
  let start = 0;
  for (const group of metadata.row_groups) {
    const n = Number(group.num_rows);
    let rows: Record<string, unknown>[];
    try {
      rows = await parquetReadObjects({ file, metadata, rowStart: start, rowEnd: start + n });
    } catch (e) {
      throw new VerityError(`Parquet rows ${start + 1}–${start + n}: ${(e as Error).message}`, 'input');
    }
    yield rows.map((r, i) => ({ row: start + i + 1, data: plainValue(r) as Record<string, unknown> }));
    start += n;
    onProgress?.({ rowsRead: start, totalRows });
  }
}

/** A whole Parquet file as a table (columns in schema order). */
export async function readParquet(file: AsyncBuffer, onProgress?: (p: ParquetProgress) => void): Promise<ParsedTable> {
  const metadata = await metadataOf(file);
  const columns = parquetSchema(metadata).children.map((c) => c.element.name);
  const records: ParsedTable['records'] = [];
  for await (const group of parquetRowGroups(file, onProgress, metadata)) for (const r of group) records.push(r);
  if (records.length === 0) throw new VerityError('the Parquet file has no rows', 'input');
  return { format: 'json', columns, records, issues: [] };
}
