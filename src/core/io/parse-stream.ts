/**
 * Reads a Blob (a File the user picked) into the same ParsedTable as parseTable, without holding the whole text:
 * JSONL is decoded and parsed chunk by chunk (a 100 MB file never exists as one string), with progress. JSON
 * arrays, CSV and TSV are read whole and handed to parseTable — the same code and messages either way.
 */
import { blobPieces } from './pieces.ts';
import { VerityError } from '../types.ts';
import { detectFormat, detectUtf16, JsonlReader, parseTable, prettyObject, type ParsedTable, type RowIssue } from './parse.ts';
import { refuseBadUtf8, Utf8Scanner } from './utf8.ts';

export interface BlobParseOptions {
  /** Bytes per read (default 4 MiB). */
  chunkBytes?: number;
  onProgress?: (bytesRead: number, totalBytes: number) => void;
  /** Files up to this size are read whole (default 64 KiB; also how much is read to detect the format). */
  sniffBytes?: number;
  /** Longest JSONL line read (default MAX_LINE_CHARS); a longer one is skipped, with its line named. */
  maxLineChars?: number;
}

/**
 * Longest JSONL line read as a row, in characters. A row is scored only when each of its fields is under 100,000
 * characters; a line this long cannot be such a row, and one of ~512 M characters cannot even be made into a
 * string ("Invalid string length"). Longer lines are passed over without being built, and reported.
 */
export const MAX_LINE_CHARS = 32 * 1024 * 1024;

/** What `lines` yields for a line it passed over: its length. */
interface LongLine {
  skipped: number;
}

export async function parseBlob(blob: Blob, nameHint = '', opts: BlobParseOptions = {}): Promise<ParsedTable> {
  const chunk = Math.max(1, opts.chunkBytes ?? 4 * 1024 * 1024);
  const total = blob.size;
  const sniff = opts.sniffBytes ?? 64 * 1024;
  const whole = async () => parseTable(new Uint8Array(await blob.arrayBuffer()), nameHint);
  // The format comes from the first bytes; anything but UTF-8 JSONL is read whole.
  const headBytes = new Uint8Array(await blob.slice(0, sniff).arrayBuffer());
  if (detectUtf16(headBytes)) return whole();
  const head = new TextDecoder('utf-8').decode(headBytes, { stream: true }).replace(/^\uFEFF/, '');
  if (head.trim().length === 0 || total <= sniff) return whole();
  let format;
  try {
    format = detectFormat(head, nameHint);
  } catch {
    return whole();
  }
  if (format !== 'jsonl') return whole();

  const reader = new JsonlReader();
  const scan = new Utf8Scanner();
  const it = lines(blob, chunk, scan, opts.onProgress, opts.maxLineChars);
  let next = await it.next();
  while (!next.done) {
    const raw = next.value;
    if (typeof raw !== 'string') {
      reader.tooLong(raw.skipped);
      next = await it.next();
      continue;
    }
    // A first line that is not JSON may start a pretty-printed object (small: read it whole).
    if (!reader.line(raw)) {
      const bytes = new Uint8Array(await blob.arrayBuffer());
      if (prettyObject(new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, ''))) return parseTable(bytes, nameHint);
      reader.line(raw, false, true);
    }
    next = await it.next();
  }
  const table = refuseBadUtf8(reader.end(next.value), scan);
  if (table.records.length === 0 && table.issues.length === 0) throw new VerityError('the file is empty', 'input');
  return table;
}

/** What a streamed pass over a JSONL file found, besides the records it handed over. */
export interface JsonlPass {
  /** Column names in first-seen order, over every record. */
  columns: string[];
  /** Records handed over. */
  records: number;
  /** Lines that could not be used (not JSON, not an object, cut off). */
  issues: RowIssue[];
  /** Bytes that are not UTF-8, per line. */
  scan: Utf8Scanner;
}

/**
 * Hands a JSONL file's records to `onRecord` one at a time (awaited, so a slow consumer holds the reading),
 * keeping none. Null when the file is not line-by-line JSONL — another format, UTF-16, up to `sniffBytes`
 * long, or a first record that is not one line of JSON — and must be read whole (parseTable) instead.
 */
export async function streamJsonl(
  blob: Blob,
  onRecord: (rec: ParsedTable['records'][number]) => void | Promise<void>,
  opts: BlobParseOptions = {},
): Promise<JsonlPass | null> {
  const chunk = Math.max(1, opts.chunkBytes ?? 4 * 1024 * 1024);
  const sniff = opts.sniffBytes ?? 64 * 1024;
  if (blob.size <= sniff) return null;
  const headBytes = new Uint8Array(await blob.slice(0, sniff).arrayBuffer());
  if (detectUtf16(headBytes)) return null;
  const head = new TextDecoder('utf-8').decode(headBytes, { stream: true }).replace(/^\uFEFF/, '');
  try {
    if (head.trim().length === 0 || detectFormat(head) !== 'jsonl') return null;
  } catch {
    return null;
  }
  const reader = new JsonlReader();
  const scan = new Utf8Scanner();
  const it = lines(blob, chunk, scan, opts.onProgress, opts.maxLineChars);
  let records = 0;
  let next = await it.next();
  while (!next.done) {
    if (typeof next.value !== 'string') reader.tooLong(next.value.skipped);
    else if (!reader.line(next.value)) return null;
    for (const rec of reader.take()) {
      records++;
      await onRecord(rec);
    }
    next = await it.next();
  }
  const table = reader.end(next.value);
  for (const rec of table.records) {
    records++;
    await onRecord(rec);
  }
  return { columns: table.columns, records, issues: table.issues, scan };
}

/** The file's lines, decoded chunk by chunk (bytes that are not UTF-8 become U+FFFD and are noted in `scan`); returns the text after the last newline. */
async function* lines(
  blob: Blob,
  chunk: number,
  scan: Utf8Scanner,
  onProgress?: (read: number, total: number) => void,
  maxLine = MAX_LINE_CHARS,
): AsyncGenerator<string | LongLine, string> {
  const decoder = new TextDecoder('utf-8');
  const total = blob.size;
  let carry = '';
  /** Characters of a too-long line passed over so far (0: none). */
  let skipped = 0;
  // LF, CRLF and CR end lines in any mix (the first line end once decided for the whole file, and a file
  // that began with CR and went on with LF lost its rows).
  const eol = /\r\n|\r|\n/g;
  let read = 0;
  for await (const bytes of blobPieces(blob, chunk)) {
    const first = read === 0;
    read += bytes.length;
    const last = read >= total;
    scan.push(bytes, last);
    let text = decoder.decode(bytes, { stream: !last });
    if (first) text = text.replace(/^\uFEFF/, '');
    const buf = carry + text;
    let start = 0;
    eol.lastIndex = 0;
    for (let m = eol.exec(buf); m; m = eol.exec(buf)) {
      // A CR that ends what is read so far may be the first half of a CRLF: wait for the next piece.
      if (m[0] === '\r' && m.index === buf.length - 1 && !last) break;
      const end = m.index + m[0].length;
      if (skipped > 0) {
        // The end of a line too long to keep: say how long it was, and go on with the next.
        yield { skipped: skipped + m.index - start };
        skipped = 0;
      } else yield buf.slice(start, m.index);
      start = end;
      eol.lastIndex = end;
    }
    carry = buf.slice(start);
    // A line longer than maxLine is not kept: only its length is counted until it ends.
    if (skipped > 0 || carry.length > maxLine) {
      skipped += carry.length;
      carry = '';
    }
    onProgress?.(read, total);
  }
  if (skipped > 0) yield { skipped };
  return carry;
}
