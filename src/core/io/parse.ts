/**
 * Reads a file's bytes into plain records: JSONL, JSON (array of objects), CSV or TSV, detected from the
 * content. Bad records are reported with their row and line numbers, never dropped silently, and the good
 * records around them are kept (also in a JSON array with a broken or cut-off element).
 * CSV/TSV go through Papa Parse (quotes, embedded newlines, BOM-free text) rather than a hand-written splitter;
 * their cells lose the quote that the export's formula neutralization put in front (formula.ts).
 */
import Papa from 'papaparse';
import { VerityError } from '../types.ts';
import { restoreCell } from './formula.ts';
import { findBadUtf8, refuseBadUtf8, type Utf8Scanner } from './utf8.ts';
import { keeper } from './share.ts';

export type Format = 'jsonl' | 'json' | 'csv' | 'tsv';

export interface RowIssue {
  /** 1-based record number (data rows; a CSV header is not counted); 0 for the header or the file as a whole. */
  row: number;
  /** 1-based line in the file where the record starts, when known. */
  line?: number;
  severity: 'error' | 'warning';
  message: string;
}

export interface ParsedTable {
  format: Format;
  /** Column names in first-seen order. */
  columns: string[];
  /** CSV/TSV: the line of the header row. */
  headerLine?: number;
  records: { row: number; line?: number; data: Record<string, unknown> }[];
  issues: RowIssue[];
}

/** Decodes UTF-8; bytes that are not UTF-8 are located (only when strict decoding fails, to keep the common case fast). */
export function decodeUtf8(bytes: Uint8Array): { text: string; scan: Utf8Scanner | null } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), scan: null };
  } catch {
    return { text: new TextDecoder('utf-8').decode(bytes), scan: findBadUtf8(bytes) };
  }
}

/** A JSON object (not an array, not null): what a record, or a value nested in one, may be. */
export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The separators of a delimited file's header record, outside quotes (a quoted name may hold one, or a line break). */
function headerSeparators(text: string): { tabs: number; commas: number; semicolons: number } {
  const head = text.trimStart();
  let tabs = 0;
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (let i = 0; i < head.length; i++) {
    const c = head[i];
    if (c === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (c === '\n' || c === '\r') break;
    else if (c === '\t') tabs++;
    else if (c === ',') commas++;
    else if (c === ';') semicolons++;
  }
  return { tabs, commas, semicolons };
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

/** The records' keys, in first-seen order. */
export function collectColumns(records: ParsedTable['records']): string[] {
  const seen = new Set<string>();
  for (const r of records) for (const k of Object.keys(r.data)) seen.add(k);
  return [...seen];
}

/** Line numbers of offsets visited in increasing order, counted in one pass over the text. */
function lineCounter(text: string): (offset: number) => number {
  let pos = 0;
  let line = 1;
  return (offset) => {
    for (; pos < offset; pos++) if (text.charCodeAt(pos) === 10) line++;
    return line;
  };
}

const skipJsonSpace = (text: string, i: number): number => {
  while (i < text.length && /[ \t\n\r]/.test(text[i]!)) i++;
  return i;
};

/**
 * End (exclusive) of the JSON value that starts at `i`, found by matching brackets outside strings, without
 * validating the value; -1 when the text ends first (a cut-off file). So that one broken element does not
 * swallow the ones after it, a raw line break inside a string (never valid JSON) ends the value there, and a
 * closing bracket that matches an outer opener closes the inner ones too. Any other value runs to the next
 * comma, bracket or line break, and is at least one character long.
 */
function scanJsonValue(text: string, i: number): number {
  const start = i;
  const first = text[i];
  if (first !== '{' && first !== '[' && first !== '"') {
    while (i < text.length && !',]}\n\r'.includes(text[i]!)) i++;
    return Math.max(i, start + 1);
  }
  const closers: string[] = [];
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"' && text[i] !== '\n'; i++) if (text[i] === '\\') i++;
      if (i >= text.length) return -1;
      if (closers.length === 0 || text[i] === '\n') return i + 1;
    } else if (c === '{' || c === '[') closers.push(c === '{' ? '}' : ']');
    else if (c === '}' || c === ']') {
      const k = closers.lastIndexOf(c);
      if (k >= 0) closers.length = k;
      if (closers.length === 0) return i + 1;
    }
  }
  return -1;
}

const jsonKind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);

/**
 * A JSON array of objects, element by element: every element that parses is kept, and each one that does not
 * is reported with its row (= element number) and line. A file cut off mid-element keeps the elements before
 * the cut. A trailing comma is tolerated.
 */
function parseJsonArray(text: string): ParsedTable {
  const records: ParsedTable['records'] = [];
  const issues: RowIssue[] = [];
  const lineAt = lineCounter(text);
  const fileIssue = (at: number, message: string) => {
    const line = lineAt(at);
    issues.push({ row: 0, line, severity: 'warning', message: `line ${line}: ${message}` });
  };
  let i = text.indexOf('[') + 1;
  let row = 0;
  for (;;) {
    i = skipJsonSpace(text, i);
    if (i >= text.length) {
      fileIssue(i, `the file ends before the JSON array is closed with "]"; it may be cut off after element ${row}`);
      break;
    }
    if (text[i] === ']') {
      const rest = skipJsonSpace(text, i + 1);
      if (rest < text.length) fileIssue(rest, 'text after the end of the JSON array is ignored');
      break;
    }
    row++;
    const line = lineAt(i);
    const where = `row ${row} (line ${line})`;
    if (text[i] === ',') {
      issues.push({ row, line, severity: 'error', message: `${where}: element ${row} is empty (two commas in a row); skipped` });
      i++;
      continue;
    }
    const end = scanJsonValue(text, i);
    if (end < 0) {
      const message = `${where}: element ${row} is still open at the end of the file (line ${lineAt(text.length)}): the file is cut off, or a closing bracket or quote is missing; skipped`;
      issues.push({ row, line, severity: 'error', message });
      break;
    }
    let valid = false;
    try {
      const v: unknown = JSON.parse(text.slice(i, end));
      valid = true;
      if (isPlainObject(v)) records.push({ row, line, data: v });
      else issues.push({ row, line, severity: 'error', message: `element ${row} is ${jsonKind(v)}, not an object; skipped` });
    } catch (e) {
      issues.push({
        row,
        line,
        severity: 'error',
        message: `${where}: element ${row} is not valid JSON (${(e as Error).message}); skipped`,
      });
    }
    i = skipJsonSpace(text, end);
    if (text[i] === ',') i++;
    // After a broken element the comma may have been part of it: only a well-formed one can be missing its comma.
    else if (valid && i < text.length && text[i] !== ']') fileIssue(i, `no comma after element ${row}; reading on as if there were one`);
  }
  return { format: 'json', columns: collectColumns(records), records, issues };
}

/**
 * JSONL, one line at a time, so a file can be read whole (parseTable) or streamed in chunks (parseBlob) with the
 * same records and the same messages. `end(finalLine)` takes what followed the last newline: a download cut
 * short ends there, inside its last record.
 */
/** Strings up to this length, and lists of strings, are kept once per distinct value across a file's records. */
const SHARE_LONGEST = 400;

/**
 * Makes a record's repeated values share one copy (in place): QA files repeat each question and gold list for
 * every system judged (EVOUNA: five answers per question, 14 golds each), so a million-row file's records take
 * far less memory. Equal values only, so nothing read from a record changes; the map is emptied past a bound.
 */
function shareValues(v: Record<string, unknown>, share: (key: string, value: unknown) => unknown): void {
  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue;
    const x = v[k];
    let key: string;
    if (typeof x === 'string') {
      if (x.length > SHARE_LONGEST) continue;
      key = `s${x}`;
    } else if (Array.isArray(x) && x.length > 0 && x.every((e) => typeof e === 'string')) key = `a${JSON.stringify(x)}`;
    else continue;
    v[k] = share(key, x);
  }
}

export class JsonlReader {
  private records: ParsedTable['records'] = [];
  private readonly shared = keeper<unknown>();
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

const DELIMITER_NAME = { ',': 'comma', '\t': 'tab', ';': 'semicolon' } as const;

function parseDelimited(text: string, format: 'csv' | 'tsv'): ParsedTable {
  const seps = headerSeparators(text);
  const delimiter = format === 'tsv' ? '\t' : seps.commas === 0 && seps.semicolons > 0 ? ';' : ',';
  const other = format === 'tsv' ? ',' : '\t';
  const issues: RowIssue[] = [];
  const records: ParsedTable['records'] = [];
  let columns: string[] = [];
  let headerLine = 1;
  let index = -1; // -1 = header row
  // Line numbers: follow Papa's cursor and count the newlines it has passed.
  let pos = 0;
  let line = 1;
  /** Why a row has the wrong number of fields, when the other delimiter would split it right. */
  const delimiterHint = (rowText: string): string =>
    Papa.parse<string[]>(rowText, { delimiter: other }).data[0]?.length === columns.length
      ? `; it looks ${DELIMITER_NAME[other]}-separated, but the header (line ${headerLine}) is ${DELIMITER_NAME[delimiter]}-separated`
      : '';
  Papa.parse<string[]>(text, {
    delimiter,
    // Blank and whitespace-only lines are skipped here rather than by Papa ('greedy'), so that every
    // line passes through the cursor arithmetic below and later rows keep their true line numbers.
    skipEmptyLines: false,
    header: false,
    step: (res) => {
      while (pos < text.length && (text[pos] === '\n' || text[pos] === '\r')) if (text[pos++] === '\n') line++;
      const start = pos;
      const startLine = line;
      const end = res.meta.cursor;
      for (; pos < end; pos++) if (text.charCodeAt(pos) === 10) line++;
      const cells = res.data.map(restoreCell);
      if (cells.join('').trim() === '') return;
      index++;
      if (index === 0) {
        headerLine = startLine;
        columns = headerNames(cells, startLine, issues);
        return;
      }
      const where = `row ${index} (line ${startLine})`;
      const err = res.errors[0];
      const fail = (message: string) =>
        issues.push({ row: index, line: startLine, severity: 'error', message: `${where}${message}; skipped` });
      if (err?.code === 'MissingQuotes')
        fail(': a quoted field opened on this row is never closed, so everything after it, to the end of the file, was read into it');
      else if (err) fail(`: ${err.message}`);
      else if (cells.length !== columns.length)
        fail(
          ` has ${cells.length} field${cells.length === 1 ? '' : 's'} but the header has ${columns.length}${delimiterHint(text.slice(start, end))}`,
        );
      // fromEntries, not assignment: a column named "__proto__" stays an ordinary key.
      else records.push({ row: index, line: startLine, data: Object.fromEntries(columns.map((c, k) => [c, cells[k]])) });
    },
  });
  if (columns.length < 2)
    throw new VerityError(
      `the ${format.toUpperCase()} header has fewer than two columns; expected a header row such as "question${delimiter === '\t' ? '<tab>' : delimiter}gold${delimiter === '\t' ? '<tab>' : delimiter}candidate"`,
      'input',
    );
  return { format, columns, headerLine, records, issues };
}

/** Header cells → unique column names (blank → column_N, duplicates → name_2), with warnings. */
function headerNames(header: string[], line: number, issues: RowIssue[]): string[] {
  const used = new Set<string>();
  return header.map((raw, i) => {
    const base = raw.trim() || `column_${i + 1}`;
    let name = base;
    for (let k = 2; used.has(name.toLowerCase()); k++) name = `${base}_${k}`;
    if (name !== base)
      issues.push({ row: 0, line, severity: 'warning', message: `duplicate header "${base}" (column ${i + 1}) renamed to "${name}"` });
    if (!raw.trim()) issues.push({ row: 0, line, severity: 'warning', message: `column ${i + 1} has no header; named "${name}"` });
    used.add(name.toLowerCase());
    return name;
  });
}
