/**
 * A JSON array of objects, element by element, fed piece by piece (a file is never held as one string) or whole:
 * the same records and messages either way. Every element that parses is kept, and each one that does not is
 * reported with its row (= element number) and line; a file cut off mid-element keeps the elements before the
 * cut; a trailing comma is tolerated. A streaming JSON parser (e.g. @streamparser/json) stops at the first
 * error, so the elements are found here, by matching brackets outside strings, and each is given to JSON.parse.
 */
import { isPlainObject, type ParsedTable, type RowIssue } from './table.ts';
import { utf8Length } from './delimited.ts';
import { LIMITS } from '../limits.ts';

/**
 * Longest element held while it is not complete, in characters (as for a JSONL line, parse-stream.ts): a longer one
 * is skipped (and named) once it closes; one that never closes ends the reading, with the bytes not read said.
 */
const MAX_ELEMENT_CHARS = LIMITS.recordChars;

/** The bracket-matching of scanJsonValue, resumable across pieces, for an element too long to hold. */
class ValueSkipper {
  private readonly closers: string[] = [];
  private inString = false;
  private escape = false;
  /** Feeds text; the index after the value's end, or −1 when it goes on. */
  feed(text: string, from = 0): number {
    for (let i = from; i < text.length; i++) {
      const c = text[i]!;
      if (this.inString) {
        if (this.escape) this.escape = false;
        else if (c === '\\') this.escape = true;
        else if (c === '\n') return i + 1;
        else if (c === '"') {
          this.inString = false;
          if (this.closers.length === 0) return i + 1;
        }
      } else if (c === '"') this.inString = true;
      else if (c === '{' || c === '[') this.closers.push(c === '{' ? '}' : ']');
      else if (c === '}' || c === ']') {
        const k = this.closers.lastIndexOf(c);
        if (k >= 0) this.closers.length = k;
        if (this.closers.length === 0) return i + 1;
      }
    }
    return -1;
  }
}

const isJsonSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/**
 * End (exclusive) of the JSON value that starts at `i`, found by matching brackets outside strings, without
 * validating the value; -1 when the text ends first (a cut-off file, or a piece that ends inside it). So that
 * one broken element does not swallow the ones after it, a raw line break inside a string (never valid JSON)
 * ends the value there, and a closing bracket that matches an outer opener closes the inner ones too. Any other
 * value runs to the next comma, bracket or line break, and is at least one character long.
 */
export function scanJsonValue(text: string, i: number): number {
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

export const jsonKind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);

export class JsonArrayReader {
  private records: ParsedTable['records'] = [];
  private readonly issues: RowIssue[] = [];
  private readonly keys = new Set<string>();
  /** Text not consumed yet, and the file offset of its first character. */
  private buf = '';
  private base = 0;
  /** Line numbers: the offset counted up to, and its line. */
  private counted = 0;
  private line = 1;
  private row = 0;
  /** Before "[", among the elements, after "]", or stopped (the end, or an element that never closes). */
  private state: 'open' | 'elements' | 'closed' | 'stopped' = 'open';
  /** Skipping an element too long to hold: its scanner, row, line, and what was skipped so far. */
  private skipping: { scan: ValueSkipper; row: number; line: number; chars: number; bytes: number; lines: number } | null = null;
  /** After an element: whether it was valid JSON (only then can its comma be missing), null before any. */
  private after: boolean | null = null;

  private lineAt(offset: number): number {
    for (; this.counted < offset; this.counted++) if (this.buf.charCodeAt(this.counted - this.base) === 10) this.line++;
    return this.line;
  }

  private fileIssue(at: number, message: string): void {
    const line = this.lineAt(at);
    this.issues.push({ row: 0, line, severity: 'warning', message: `line ${line}: ${message}` });
  }

  /** The next piece of the file's text; `last` for the final one (it may be empty). */
  push(piece: string, last: boolean): void {
    if (this.state === 'stopped') return;
    if (this.skipping) {
      piece = this.skip(piece, last);
      if (this.skipping || (this.state as string) === 'stopped') return;
    }
    this.buf += piece;
    let i = 0;
    const skip = () => {
      while (i < this.buf.length && isJsonSpace(this.buf.charCodeAt(i))) i++;
    };
    const at = () => this.base + i;
    for (;;) {
      if (this.state === 'open') {
        const k = this.buf.indexOf('[', i);
        if (k < 0) break;
        i = k + 1;
        this.state = 'elements';
        continue;
      }
      skip();
      if (this.state === 'closed') {
        if (i < this.buf.length) {
          this.fileIssue(at(), 'text after the end of the JSON array is ignored');
          this.state = 'stopped';
        }
        break;
      }
      if (i >= this.buf.length) {
        if (last)
          this.fileIssue(at(), `the file ends before the JSON array is closed with "]"; it may be cut off after element ${this.row}`);
        break;
      }
      const c = this.buf[i];
      if (this.after !== null) {
        const valid = this.after;
        this.after = null;
        if (c === ',') {
          i++;
          continue;
        }
        // After a broken element the comma may have been part of it: only a well-formed one can be missing its comma.
        if (valid && c !== ']') this.fileIssue(at(), `no comma after element ${this.row}; reading on as if there were one`);
      }
      if (c === ']') {
        this.state = 'closed';
        i++;
        continue;
      }
      const line = this.lineAt(at());
      if (c === ',') {
        this.row++;
        this.issues.push({
          row: this.row,
          line,
          severity: 'error',
          message: `row ${this.row} (line ${line}): element ${this.row} is empty (two commas in a row); skipped`,
        });
        i++;
        continue;
      }
      const end = scanJsonValue(this.buf, i);
      // An element that reaches the end of what was read may go on in the next piece.
      if (!last && (end < 0 || end >= this.buf.length)) {
        if (this.buf.length - i > MAX_ELEMENT_CHARS) {
          // Too long to hold: scanned on for its end, and skipped.
          const text = this.buf.slice(i);
          const scan = new ValueSkipper();
          scan.feed(text);
          let lines = 0;
          for (let k = 0; k < text.length; k++) if (text.charCodeAt(k) === 10) lines++;
          this.skipping = { scan, row: ++this.row, line, chars: text.length, bytes: utf8Length(text), lines };
          this.line = line;
          this.buf = '';
          this.base = this.counted = this.base + i + text.length;
          return;
        }
        break;
      }
      this.row++;
      const where = `row ${this.row} (line ${line})`;
      if (end < 0) {
        const message = `${where}: element ${this.row} is still open at the end of the file (line ${this.lineAt(this.base + this.buf.length)}): the file is cut off, or a closing bracket or quote is missing; skipped`;
        this.issues.push({ row: this.row, line, severity: 'error', message });
        this.state = 'stopped';
        break;
      }
      let valid = false;
      try {
        const v: unknown = JSON.parse(this.buf.slice(i, end));
        valid = true;
        if (isPlainObject(v)) {
          this.records.push({ row: this.row, line, data: v });
          for (const k of Object.keys(v)) this.keys.add(k);
        } else
          this.issues.push({
            row: this.row,
            line,
            severity: 'error',
            message: `element ${this.row} is ${jsonKind(v)}, not an object; skipped`,
          });
      } catch (e) {
        this.issues.push({
          row: this.row,
          line,
          severity: 'error',
          message: `${where}: element ${this.row} is not valid JSON (${(e as Error).message}); skipped`,
        });
      }
      this.after = valid;
      i = end;
    }
    // Keep only what is not consumed; lines are counted through it first.
    if (this.counted < at()) this.lineAt(at());
    this.buf = this.buf.slice(i);
    this.base += i;
  }

  /** Scans a piece for the end of the element being skipped; the text after it (the reading goes on there). */
  private skip(piece: string, last: boolean): string {
    const s = this.skipping!;
    const k = s.scan.feed(piece);
    const done = k < 0 ? piece : piece.slice(0, k);
    s.chars += done.length;
    let lines = 0;
    for (let j = 0; j < done.length; j++) if (done.charCodeAt(j) === 10) lines++;
    s.lines += lines;
    if (k >= 0) {
      this.issues.push({
        row: s.row,
        line: s.line,
        severity: 'error',
        message: `row ${s.row} (line ${s.line}): element ${s.row} is ${s.chars.toLocaleString('en')} characters long, over the ${MAX_ELEMENT_CHARS.toLocaleString('en')} a row may have (each field is read up to 100,000 characters); skipped, and the reading goes on after it (line ${s.line + s.lines})`,
      });
      this.skipping = null;
      this.after = false;
      this.line = s.line + s.lines;
      this.base = this.counted = this.base + done.length;
      return piece.slice(k);
    }
    s.bytes += utf8Length(piece);
    this.base = this.counted = this.base + piece.length;
    if (last) {
      this.issues.push({
        row: s.row,
        line: s.line,
        severity: 'error',
        unread: s.bytes,
        message: `row ${s.row} (line ${s.line}): element ${s.row} never closes; the rest of the file, ${s.bytes.toLocaleString('en')} bytes from line ${s.line} on, was not read`,
      });
      this.skipping = null;
      this.state = 'stopped';
    }
    return '';
  }

  /** Column names in first-seen order, over every record so far. */
  get columns(): string[] {
    return [...this.keys];
  }

  /** The records read since the last call, handed over (a streamed file keeps none); columns still count them. */
  take(): ParsedTable['records'] {
    const out = this.records;
    this.records = [];
    return out;
  }

  /** The table, after the last push: the records not taken, the columns and every issue. */
  end(): ParsedTable {
    return { format: 'json', columns: this.columns, records: this.take(), issues: this.issues };
  }
}

/** A whole JSON array text. */
export function parseJsonArray(text: string): ParsedTable {
  const reader = new JsonArrayReader();
  reader.push(text, true);
  return reader.end();
}
