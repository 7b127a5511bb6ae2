/**
 * Reads a file's bytes into plain records: JSONL, JSON (array of objects), CSV or TSV, detected from the
 * content. Bad records are reported with their row and line numbers, never dropped silently, and the good
 * records around them are kept (also in a JSON array with a broken or cut-off element).
 * CSV/TSV go through Papa Parse (quotes, embedded newlines, BOM-free text) rather than a hand-written splitter;
 * their cells lose the quote that the export's formula neutralization put in front (formula.ts).
 */
import { VerityError } from '../types.ts';
import { headerSeparators, parseDelimited } from './delimited.ts';
import { jsonKind, parseJsonArray, scanJsonValue } from './json-array.ts';
import { findBadUtf8, refuseBadUtf8, type Utf8Scanner } from './utf8.ts';
import { cellKeeper } from './share.ts';

import { isPlainObject, type Format, type ParsedTable, type RowIssue } from './table.ts';

export type { Format, ParsedTable, RowIssue } from './table.ts';
export { collectColumns, isPlainObject } from './table.ts';

/** Decodes UTF-8; bytes that are not UTF-8 are located (only when strict decoding fails, to keep the common case fast). */
export function decodeUtf8(bytes: Uint8Array): { text: string; scan: Utf8Scanner | null } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), scan: null };
  } catch {
    return { text: new TextDecoder('utf-8').decode(bytes), scan: findBadUtf8(bytes) };
  }
}

/** Detects the format from the text itself (the file name is only a hint for ties). */
export function detectFormat(text: string, nameHint = ''): Format {
  const head = text.trimStart();
  if (head.startsWith('[')) return 'json';
  if (head.startsWith('{')) return 'jsonl';
  const { tabs, commas, semicolons } = headerSeparators(head);
  if (tabs > 0 && tabs >= commas) return 'tsv';
  // A header split by semicolons only: Excel's CSV where the comma is the decimal separator.
  if (commas > 0 || semicolons > 0) return 'csv';
  if (tabs === 0 && /\.tsv$/i.test(nameHint)) return 'tsv';
  throw new VerityError(
    'the file is not a table: it is not JSON or JSONL, and its first line has no comma, semicolon or tab separating columns. Expected JSONL, a JSON array of objects, CSV or TSV with a header row',
    'input',
    'not-a-table',
  );
}

/**
 * UTF-16 from its byte-order mark, or, without one, from the NUL bytes that ASCII text has in every other
 * position (a table's first bytes are ASCII: brackets, braces or header names). Null for anything else.
 */
export function detectUtf16(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  const n = Math.min(bytes.length, 4096) & ~1;
  if (n < 4) return null;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenNul++;
    if (bytes[i + 1] === 0) oddNul++;
  }
  const half = n / 2;
  if (oddNul >= 0.4 * half && evenNul <= 0.05 * half) return 'utf-16le';
  if (evenNul >= 0.4 * half && oddNul <= 0.05 * half) return 'utf-16be';
  return null;
}

/** Decodes a UTF-16 file (its BOM dropped); an odd byte count or unpaired surrogates are refused, not guessed. */
export function decodeUtf16(bytes: Uint8Array, encoding: 'utf-16le' | 'utf-16be'): string {
  const name = encoding === 'utf-16le' ? 'UTF-16 little-endian' : 'UTF-16 big-endian';
  try {
    if (bytes.length % 2 !== 0) throw new Error(`it has an odd number of bytes (${bytes.length})`);
    const text = new TextDecoder(encoding, { fatal: true }).decode(bytes);
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch (e) {
    throw new VerityError(
      `the file looks like ${name} text but cannot be read as such (${(e as Error).message}); re-save it as UTF-8`,
      'input',
      'encoding',
      { encoding },
    );
  }
}

export function parseTable(bytes: Uint8Array | string, nameHint = ''): ParsedTable {
  const utf16 = typeof bytes === 'string' ? null : detectUtf16(bytes);
  const { text: decoded, scan } =
    typeof bytes === 'string' ? { text: bytes, scan: null } : utf16 ? { text: decodeUtf16(bytes, utf16), scan: null } : decodeUtf8(bytes);
  const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  if (text.trim().length === 0) throw new VerityError('the file is empty', 'input', 'empty-file');
  const format = detectFormat(text, nameHint);
  const table =
    format === 'json'
      ? parseJsonArray(text)
      : format === 'jsonl'
        ? // LF, CRLF and CR (old Mac files) end lines in any mix (a raw CR is never inside a JSON line).
          parseJsonl(text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text)
        : parseDelimited(text, format);
  return scan ? refuseBadUtf8(table, scan) : table;
}

/**
 * Strings from SHARE_SHORTEST to SHARE_LONGEST characters, and lists of strings, are kept once per distinct value
 * across a file's records. A shorter string (an id, a one-word answer) takes about the memory its entry in the
 * sharing map would: looking it up cost a million-row file a second of its reading and saved nothing.
 */
const SHARE_SHORTEST = 16;
const SHARE_LONGEST = 400;

/**
 * Makes a record's repeated values share one copy (in place): QA files repeat each question and gold list for
 * every system judged (EVOUNA: five answers per question, 14 golds each), so a million-row file's records take
 * far less memory. Equal values only, so nothing read from a record changes; the map is emptied past a bound.
 */
function shareValues(v: Record<string, unknown>, share: ReturnType<typeof cellKeeper>): void {
  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue;
    const x = v[k];
    if (typeof x === 'string') {
      if (x.length >= SHARE_SHORTEST && x.length <= SHARE_LONGEST) v[k] = share.text(x);
    } else if (Array.isArray(x) && x.length > 0 && x.every((e) => typeof e === 'string')) v[k] = share.list(x as string[]);
  }
}

/**
 * JSONL, one line at a time, so a file can be read whole (parseTable) or streamed in chunks (parseBlob) with the
 * same records and the same messages. `end(finalLine)` takes what followed the last newline: a download cut
 * short ends there, inside its last record.
 */
export class JsonlReader {
  private records: ParsedTable['records'] = [];
  private readonly shared = cellKeeper();
  private readonly issues: RowIssue[] = [];
  private readonly keys = new Set<string>();
  private row = 0;
  private lineNo = 0;

  /** The records read since the last call, handed over (a streamed file keeps none); columns still count them. */
  take(): ParsedTable['records'] {
    const out = this.records;
    this.records = [];
    return out;
  }

  /**
   * One complete line (without its newline). Returns false, and consumes nothing, when the very first record
   * is not valid JSON: the caller may then try the whole text as one pretty-printed object, or call
   * `line(raw, false, true)` to record the error and go on.
   */
  line(raw: string, finalSegment = false, noPretty = false): boolean {
    const line = raw.trim();
    if (line.length === 0) {
      this.lineNo++;
      return true;
    }
    const row = this.row + 1;
    const at = this.lineNo + 1;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch (e) {
      if (row === 1 && !finalSegment && !noPretty) return false;
      const cut = finalSegment && scanJsonValue(line, 0) < 0;
      const what = cut ? 'is cut off: the file ends before its JSON object is complete' : 'is not valid JSON';
      this.issues.push({ row, line: at, severity: 'error', message: `line ${at} ${what} (${(e as Error).message}); row ${row} skipped` });
      this.row = row;
      this.lineNo = at;
      return true;
    }
    this.row = row;
    this.lineNo = at;
    if (isPlainObject(v)) {
      shareValues(v, this.shared);
      this.records.push({ row, line: at, data: v });
      for (const k in v) if (Object.hasOwn(v, k)) this.keys.add(k);
    } else {
      const kind = jsonKind(v);
      const what = kind === 'null' || kind.startsWith('an ') ? kind : `a ${kind}`;
      this.issues.push({
        row,
        line: at,
        severity: 'error',
        message: `line ${at} is not a JSON object (it is ${what}); row ${row} skipped`,
      });
    }
    return true;
  }

  /** A line too long to read (parse-stream's MAX_LINE_CHARS), passed over unbuilt: its row is reported and skipped. */
  tooLong(chars: number): void {
    const row = this.row + 1;
    const at = this.lineNo + 1;
    this.issues.push({
      row,
      line: at,
      severity: 'error',
      message: `line ${at} is ${chars.toLocaleString('en')} characters long, too long to be a row (each field is read up to 100,000 characters); row ${row} skipped`,
    });
    this.row = row;
    this.lineNo = at;
  }

  /** The text after the last newline ('' when the file ends with one). */
  end(finalLine: string): ParsedTable {
    if (finalLine.trim().length > 0) this.line(finalLine, true);
    return { format: 'jsonl', columns: [...this.keys], records: this.records, issues: this.issues };
  }
}

function parseJsonl(text: string): ParsedTable {
  const reader = new JsonlReader();
  let start = 0;
  for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
    const raw = text.slice(start, nl);
    if (!reader.line(raw)) {
      const one = prettyObject(text);
      if (one) return one;
      reader.line(raw, false, true);
    }
    start = nl + 1;
  }
  return reader.end(text.slice(start));
}

/** A pretty-printed single object is valid JSON but not JSONL: accepted as one record. */
export function prettyObject(text: string): ParsedTable | null {
  try {
    const whole: unknown = JSON.parse(text);
    if (isPlainObject(whole))
      return { format: 'json', columns: Object.keys(whole), records: [{ row: 1, line: 1, data: whole }], issues: [] };
  } catch {
    /* not one object either */
  }
  return null;
}
