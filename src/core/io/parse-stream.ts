/**
 * Reads a Blob (a File the user picked) into the same ParsedTable as parseTable, without holding the whole text:
 * JSONL, CSV, TSV and JSON arrays are decoded and parsed piece by piece (a file never exists as one string, so
 * one over the ~512 M characters a string may have is read too), with progress — the same readers and messages
 * as parseTable. UTF-16 files and small ones are read whole.
 */
import { blobPieces } from './pieces.ts';
import { VerityError } from '../types.ts';
import { detectFormat, detectUtf16, JsonlReader, parseTable, prettyObject, type Format, type ParsedTable, type RowIssue } from './parse.ts';
import { DelimitedReader } from './delimited.ts';
import { JsonArrayReader } from './json-array.ts';
import { refuseBadUtf8, Utf8Scanner, Utf8StreamDecoder } from './utf8.ts';
import { LIMITS } from '../limits.ts';

export interface BlobParseOptions {
  /** Bytes per read (default JSONL_READ_BYTES for JSONL, READ_BYTES for the other formats). */
  chunkBytes?: number;
  /** Called after each PROGRESS_BYTES read, and at the end. */
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
const MAX_LINE_CHARS = LIMITS.recordChars;

/**
 * Bytes read at a time from CSV, TSV and JSON arrays: their readers scan an element cut by a piece's end again from
 * its start, so with smaller pieces a long element costs quadratic time.
 */
const READ_BYTES = 4 * 1024 * 1024;
/**
 * Bytes read at a time from JSONL. Chromium decodes a file in pieces of 128 KiB about twice as fast as in pieces of
 * 4 MiB (the text of a big piece is allocated outside the young generation and walked out of cache): a 517 MB file
 * read ~15% faster.
 */
const JSONL_READ_BYTES = 128 * 1024;
/** Bytes read between two progress reports (a report may cross to the page's thread). */
const PROGRESS_BYTES = 4 * 1024 * 1024;

/** Bytes a piece of a file of this format. */
const pieceBytes = (format: Format, opts: BlobParseOptions): number =>
  Math.max(1, opts.chunkBytes ?? (format === 'jsonl' ? JSONL_READ_BYTES : READ_BYTES));

/** Reports progress every PROGRESS_BYTES, and at the end. */
const progressEvery = (onProgress?: (read: number, total: number) => void) => {
  if (!onProgress) return undefined;
  let told = 0;
  return (read: number, total: number) => {
    if (read - told < PROGRESS_BYTES && read < total) return;
    told = read;
    onProgress(read, total);
  };
};

/** What `lines` yields for a line it passed over: its length. */
interface LongLine {
  skipped: number;
}

/** The format a Blob streams as, from its first bytes; null when it must be read whole (UTF-16, small, not a table). */
async function streamFormat(blob: Blob, nameHint: string, sniff: number): Promise<{ format: Format; head: string } | null> {
  if (blob.size <= sniff) return null;
  const headBytes = new Uint8Array(await blob.slice(0, sniff).arrayBuffer());
  if (detectUtf16(headBytes)) return null;
  const head = new TextDecoder('utf-8').decode(headBytes, { stream: true }).replace(/^\uFEFF/, '');
  if (head.trim().length === 0) return null;
  try {
    return { format: detectFormat(head, nameHint), head };
  } catch {
    return null;
  }
}

/** A CSV, TSV or JSON array reader: pieces of text in, records out. */
type PieceReader = DelimitedReader | JsonArrayReader;
const pieceReader = (format: Exclude<Format, 'jsonl'>, head: string): PieceReader =>
  format === 'json' ? new JsonArrayReader() : new DelimitedReader(format, head);

export async function parseBlob(blob: Blob, nameHint = '', opts: BlobParseOptions = {}): Promise<ParsedTable> {
  const whole = async () => parseTable(new Uint8Array(await blob.arrayBuffer()), nameHint);
  const kind = await streamFormat(blob, nameHint, opts.sniffBytes ?? 64 * 1024);
  if (!kind) return whole();
  const scan = new Utf8Scanner();
  if (kind.format !== 'jsonl') {
    const reader = pieceReader(kind.format, kind.head);
    const records: ParsedTable['records'] = [];
    for await (const { text, last } of texts(blob, pieceBytes(kind.format, opts), scan, progressEvery(opts.onProgress))) {
      reader.push(text, last);
      for (const r of reader.take()) records.push(r);
    }
    const end = reader.end();
    const table = refuseBadUtf8({ ...end, records: [...records, ...end.records] }, scan);
    if (table.records.length === 0 && table.issues.length === 0) throw new VerityError('the file is empty', 'input');
    return table;
  }

  const reader = new JsonlReader();
  const it = lines(blob, pieceBytes(kind.format, opts), scan, progressEvery(opts.onProgress), opts.maxLineChars);
  let next = await it.next();
  while (!next.done) {
    for (const raw of next.value) {
      if (typeof raw !== 'string') reader.tooLong(raw.skipped);
      // A first line that is not JSON may start a pretty-printed object (small: read it whole).
      else if (!reader.line(raw)) {
        const bytes = new Uint8Array(await blob.arrayBuffer());
        if (prettyObject(new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, ''))) return parseTable(bytes, nameHint);
        reader.line(raw, false, true);
      }
    }
    next = await it.next();
  }
  const table = refuseBadUtf8(reader.end(next.value), scan);
  if (table.records.length === 0 && table.issues.length === 0) throw new VerityError('the file is empty', 'input');
  return table;
}

/** What a streamed pass over a file found, besides the records it handed over. */
export interface StreamPass {
  format: Format;
  /** Column names in first-seen order, over every record (a CSV's header). */
  columns: string[];
  /** CSV/TSV: the line of the header row. */
  headerLine?: number;
  /** Records handed over. */
  records: number;
  /** What could not be used (lines or elements that are not JSON objects, rows with the wrong fields, a cut). */
  issues: RowIssue[];
  /** Bytes that are not UTF-8, per line. */
  scan: Utf8Scanner;
}

/**
 * Hands a file's records to `onRecord` one at a time (awaited, so a slow consumer holds the reading), keeping
 * none: JSONL, CSV, TSV or a JSON array. Null when the file must be read whole (parseTable) instead: UTF-16, up
 * to `sniffBytes` long, not a table, or JSONL whose first record is not one line of JSON.
 */
export async function streamRecords(
  blob: Blob,
  onRecord: (rec: ParsedTable['records'][number]) => void | Promise<void>,
  opts: BlobParseOptions = {},
): Promise<StreamPass | null> {
  const kind = await streamFormat(blob, '', opts.sniffBytes ?? 64 * 1024);
  if (!kind) return null;
  const scan = new Utf8Scanner();
  let records = 0;
  if (kind.format !== 'jsonl') {
    const reader = pieceReader(kind.format, kind.head);
    for await (const { text, last } of texts(blob, pieceBytes(kind.format, opts), scan, progressEvery(opts.onProgress))) {
      reader.push(text, last);
      for (const rec of reader.take()) {
        records++;
        await onRecord(rec);
      }
    }
    const end = reader.end();
    for (const rec of end.records) {
      records++;
      await onRecord(rec);
    }
    return {
      format: kind.format,
      columns: end.columns,
      ...(end.headerLine !== undefined ? { headerLine: end.headerLine } : {}),
      records,
      issues: end.issues,
      scan,
    };
  }
  const reader = new JsonlReader();
  const it = lines(blob, pieceBytes(kind.format, opts), scan, progressEvery(opts.onProgress), opts.maxLineChars);
  let next = await it.next();
  while (!next.done) {
    for (const raw of next.value) {
      if (typeof raw !== 'string') reader.tooLong(raw.skipped);
      else if (!reader.line(raw)) return null;
      for (const rec of reader.take()) {
        records++;
        await onRecord(rec);
      }
    }
    next = await it.next();
  }
  const table = reader.end(next.value);
  for (const rec of table.records) {
    records++;
    await onRecord(rec);
  }
  return { format: 'jsonl', columns: table.columns, records, issues: table.issues, scan };
}

/** The file's text in pieces, decoded as read (bytes that are not UTF-8 become U+FFFD and are noted in `scan`). */
async function* texts(
  blob: Blob,
  chunk: number,
  scan: Utf8Scanner,
  onProgress?: (read: number, total: number) => void,
): AsyncGenerator<{ text: string; last: boolean }> {
  const decoder = new Utf8StreamDecoder();
  let read = 0;
  for await (const bytes of blobPieces(blob, chunk)) {
    const first = read === 0;
    read += bytes.length;
    const last = read >= blob.size;
    const text = decoder.decode(bytes, last);
    scan.pushDecoded(bytes, last, text);
    yield { text: first ? text.replace(/^\uFEFF/, '') : text, last };
    onProgress?.(read, blob.size);
  }
}

/**
 * The file's lines, decoded chunk by chunk (bytes that are not UTF-8 become U+FFFD and are noted in `scan`), a
 * chunk's lines at a time (one await a line cost a promise each); returns the text after the last newline.
 */
async function* lines(
  blob: Blob,
  chunk: number,
  scan: Utf8Scanner,
  onProgress?: (read: number, total: number) => void,
  maxLine = MAX_LINE_CHARS,
): AsyncGenerator<(string | LongLine)[], string> {
  const decoder = new Utf8StreamDecoder();
  const total = blob.size;
  let carry = '';
  let carryCr = false;
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
    let text = decoder.decode(bytes, last);
    scan.pushDecoded(bytes, last, text);
    if (first) text = text.replace(/^\uFEFF/, '');
    // Without a CR, a line ends at the next LF (found natively, not by the pattern).
    const lfOnly = !carryCr && !text.includes('\r');
    const out: (string | LongLine)[] = [];
    // No line ends in the piece: it joins the line as it is (a long line is neither searched again nor copied
    // with every piece).
    if (lfOnly && !text.includes('\n')) carry += text;
    else {
      const buf = carry + text;
      let start = 0;
      // The carry holds no line end, bar a CR at its very end (perhaps half a CRLF): the search starts after it.
      let from = carryCr ? carry.length - 1 : carry.length;
      eol.lastIndex = from;
      for (;;) {
        let at: number;
        let end: number;
        if (lfOnly) {
          at = buf.indexOf('\n', from);
          if (at < 0) break;
          end = from = at + 1;
        } else {
          const m = eol.exec(buf);
          if (!m) break;
          // A CR that ends what is read so far may be the first half of a CRLF: wait for the next piece.
          if (m[0] === '\r' && m.index === buf.length - 1 && !last) break;
          at = m.index;
          end = at + m[0].length;
          eol.lastIndex = end;
        }
        if (skipped > 0) {
          // The end of a line too long to keep: say how long it was, and go on with the next.
          out.push({ skipped: skipped + at - start });
          skipped = 0;
        } else out.push(buf.slice(start, at));
        start = end;
      }
      carry = buf.slice(start);
      carryCr = carry.endsWith('\r');
    }
    if (out.length > 0) yield out;
    // A line longer than maxLine is not kept: only its length is counted until it ends. A CR at its end stays: it
    // may be half a CRLF, and the line ends there either way (counted in, the next line was taken for its rest).
    if (skipped > 0 || carry.length > maxLine) {
      skipped += carry.length - (carryCr ? 1 : 0);
      carry = carryCr ? '\r' : '';
    }
    onProgress?.(read, total);
  }
  if (skipped > 0) yield [{ skipped }];
  return carry;
}
