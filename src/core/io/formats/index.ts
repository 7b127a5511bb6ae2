/**
 * One entry point for every input the CLI and the app read: Parquet (by its magic bytes), Inspect AI eval logs
 * (a JSON object with `eval` and `samples`), and otherwise JSONL / JSON / CSV / TSV through parseTable. Nested
 * paths (`doc.question`) are added on request with `withPaths` before mapping.
 */
import type { Format, ParsedTable } from '../parse.ts';
import { parseTable } from '../parse.ts';
import { parseBlob, type BlobParseOptions } from '../parse-stream.ts';
import { blobSource, bytesSource, isParquet, readParquet } from './parquet.ts';
import { inspectToTable, isInspectLog } from './inspect.ts';

export type SourceFormat = Format | 'parquet' | 'inspect';

export interface InputTable extends ParsedTable {
  /** What the file was read as. */
  source: SourceFormat;
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

export async function readInput(bytes: Uint8Array, nameHint = ''): Promise<InputTable> {
  if (isParquet(bytes)) return { ...(await readParquet(bytesSource(bytes))), source: 'parquet' };
  const inspect = asInspect(bytes);
  if (inspect) return { ...inspect, source: 'inspect' };
  const t = parseTable(bytes, nameHint);
  return { ...t, source: t.format };
}

/** The same from a File/Blob: Parquet is read a row group at a time from slices; JSONL streams (parse-stream.ts). */
export async function readBlobInput(blob: Blob, nameHint = '', opts: BlobParseOptions = {}): Promise<InputTable> {
  const head = new Uint8Array(await blob.slice(0, 4).arrayBuffer());
  const tail = new Uint8Array(await blob.slice(Math.max(0, blob.size - 4)).arrayBuffer());
  const magic = new Uint8Array(12);
  magic.set(head, 0);
  magic.set(tail, 8);
  if (blob.size >= 12 && isParquet(magic))
    return {
      ...(await readParquet(blobSource(blob), (p) =>
        opts.onProgress?.(Math.round((p.rowsRead / Math.max(1, p.totalRows)) * blob.size), blob.size),
      )),
      source: 'parquet',
    };
  // An Inspect log is one JSON object: read whole (they are written whole by Inspect too).
  const first = new TextDecoder('utf-8')
    .decode(new Uint8Array(await blob.slice(0, 4096).arrayBuffer()))
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (first.startsWith('{') && /"eval"\s*:/.test(first)) {
    const bytes = new Uint8Array(await blob.arrayBuffer());
    const inspect = asInspect(bytes);
    if (inspect) return { ...inspect, source: 'inspect' };
    const t = parseTable(bytes, nameHint);
    return { ...t, source: t.format };
  }
  const t = await parseBlob(blob, nameHint, opts);
  return { ...t, source: t.format };
}

export { getPath, nestedPaths, withPaths } from './nested.ts';
export { blobSource, bytesSource, isParquet, parquetRowGroups, plainValue, readParquet } from './parquet.ts';
export { inspectToTable, isInspectLog } from './inspect.ts';
