/**
 * CSV and TSV through Papa Parse (quotes, embedded newlines) rather than a hand-written splitter, fed piece by
 * piece as Papa's own streamers feed it (its ParserHandle with `ignoreLastRow`), so a file is read in chunks and
 * never held as one string — or, whole, in one piece: the same records and messages either way. Cells lose the
 * quote that the export's formula neutralization put in front (formula.ts).
 */
import Papa from 'papaparse';
import { VerityError } from '../types.ts';
import { restoreCell } from './formula.ts';
import type { ParsedTable, RowIssue } from './table.ts';
import { LIMITS } from '../limits.ts';

/** The separators of a delimited file's header record, outside quotes (a quoted name may hold one, or a line break). */
export function headerSeparators(text: string): { tabs: number; commas: number; semicolons: number } {
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

const DELIMITER_NAME = { ',': 'comma', '\t': 'tab', ';': 'semicolon' } as const;

/** Papa's parser handle (exported by papaparse, not declared by its types): what its streamers call. */
interface ParserHandle {
  parse(input: string, baseIndex: number, ignoreLastRow: boolean): { meta: { cursor: number } };
}
const Handle = (Papa as unknown as { ParserHandle: new (config: Papa.ParseConfig<string[]>) => ParserHandle }).ParserHandle;

/**
 * Longest record held while it is not complete, in characters: a longer one is skipped (and named) once it ends,
 * and a quoted field opened and never closed ends the reading there, with the bytes not read said.
 */
const MAX_RECORD_CHARS = LIMITS.recordChars;

/** UTF-8 bytes of a text (a surrogate pair is 4, each half counted 2). */
export function utf8Length(t: string): number {
  let n = 0;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    n += c < 0x80 ? 1 : c < 0x800 || (c >= 0xd800 && c < 0xe000) ? 2 : 3;
  }
  return n;
}

/**
 * Line ends made one kind across pieces: outside quoted fields, CRLF and CR become LF, so a file mixing LF, CR and
 * CRLF reads as the same file with LF throughout; a quoted field keeps its text as written (an exported cell holding
 * a CR reads back as written). Quoting follows CSV: a quote opens a field only at its start, and "" inside one is a
 * quote. A CR ending a piece waits for the next, which may begin with its LF.
 */
export class LineEnds {
  private quoted = false;
  /** Inside quotes, the last character was a quote: the next one says whether it closed the field or was doubled. */
  private quote = false;
  private fieldStart = true;
  private cr = false;

  constructor(private readonly delimiter: string) {}

  push(piece: string, last: boolean): string {
    if (!piece.includes('"') && !piece.includes('\r') && !this.quoted && !this.cr) {
      // The common case: no quote, no CR.
      if (piece.length) this.fieldStart = piece.endsWith('\n') || piece.endsWith(this.delimiter);
      return piece;
    }
    let out = '';
    let from = 0;
    const d = this.delimiter.charCodeAt(0);
    if (this.cr) {
      this.cr = false;
      out = '\n';
      if (piece.charCodeAt(0) === 10) from = 1;
      this.fieldStart = true;
    }
    let start = from;
    for (let i = from; i < piece.length; i++) {
      const c = piece.charCodeAt(i);
      if (this.quoted) {
        if (this.quote) {
          this.quote = false;
          if (c !== 34) this.quoted = false;
          else continue;
        } else {
          if (c === 34) this.quote = true;
          continue;
        }
      }
      if (c === 34 && this.fieldStart) {
        this.quoted = true;
        this.fieldStart = false;
      } else if (c === 13) {
        out += `${piece.slice(start, i)}\n`;
        if (i + 1 < piece.length) {
          if (piece.charCodeAt(i + 1) === 10) i++;
        } else if (!last) {
          // The LF of a CRLF may open the next piece: the CR waits for it.
          out = out.slice(0, -1);
          this.cr = true;
        }
        start = i + 1;
        this.fieldStart = true;
      } else this.fieldStart = c === 10 || c === d;
    }
    return out + piece.slice(start);
  }
}

/**
 * A CSV or TSV file read piece by piece: `push(text, last)` in order, `take()` for the records so far, `end()`
 * for the table (the records not taken, the columns, the issues).
 */
export class DelimitedReader {
  private readonly delimiter: ',' | '\t' | ';';
  private readonly other: ',' | '\t';
  private readonly handle: ParserHandle;
  private readonly issues: RowIssue[] = [];
  private records: ParsedTable['records'] = [];
  private columns: string[] = [];
  private headerLine = 1;
  private index = -1; // -1 = header row
  /** The text being parsed, and the file offset of its first character. */
  private text = '';
  private textBase = 0;
  /** The incomplete record after the last push, and its file offset. */
  private partial = '';
  private base = 0;
  /** Line numbers: the offset reached and its line (Papa's cursor is followed and newlines counted). */
  private pos = 0;
  private line = 1;
  private stopped = false;
  private readonly ends: LineEnds;
  /** Skipping a record too long to hold: inside quotes or not, its row and line, what was skipped so far. */
  private skipping: { quoted: boolean; row: number; line: number; chars: number; bytes: number; lines: number } | null = null;

  /** `head`: the start of the file (its header record decides the delimiter). */
  constructor(
    private readonly format: 'csv' | 'tsv',
    head: string,
  ) {
    const seps = headerSeparators(head);
    this.delimiter = format === 'tsv' ? '\t' : seps.commas === 0 && seps.semicolons > 0 ? ';' : ',';
    this.other = format === 'tsv' ? ',' : '\t';
    this.ends = new LineEnds(this.delimiter);
    const config: Papa.ParseConfig<string[]> = {
      delimiter: this.delimiter,
      newline: '\n',
      // Blank and whitespace-only lines are skipped here rather than by Papa ('greedy'), so that every
      // line passes through the cursor arithmetic below and later rows keep their true line numbers.
      skipEmptyLines: false,
      header: false,
      step: (res) => this.step(res.data, res.errors[0], res.meta.cursor),
    };
    this.handle = new Handle(config);
  }

  private at(offset: number): number {
    return this.text.charCodeAt(offset - this.textBase);
  }

  /** The next piece of the file's text; `last` for the final one (it may be empty). */
  push(piece: string, last: boolean): void {
    if (this.stopped) return;
    piece = this.ends.push(piece, last);
    if (this.skipping) {
      const k = this.skip(piece, last);
      if (k < 0) return;
      piece = piece.slice(k);
    }
    this.text = this.partial + piece;
    this.textBase = this.base;
    const res = this.handle.parse(this.text, this.base, !last);
    if (last) return;
    const cursor = res.meta.cursor;
    this.partial = this.text.substring(cursor - this.base);
    this.base = cursor;
    if (this.partial.length > MAX_RECORD_CHARS) this.startSkipping();
  }

  /** A record too long to hold: from here on it is only scanned for its end (a line end outside quotes). */
  private startSkipping(): void {
    while (this.pos < this.base && this.at(this.pos) === 10) {
      this.pos++;
      this.line++;
    }
    let quoted = false;
    let lines = 0;
    for (let i = 0; i < this.partial.length; i++) {
      const c = this.partial.charCodeAt(i);
      if (c === 34) quoted = !quoted;
      else if (c === 10) lines++;
    }
    this.skipping = { quoted, row: ++this.index, line: this.line, chars: this.partial.length, bytes: utf8Length(this.partial), lines };
    this.partial = '';
  }

  /** Scans `piece` for the end of the record being skipped: the index after it, or −1 (not in this piece). */
  private skip(piece: string, last: boolean): number {
    const s = this.skipping!;
    for (let i = 0; i < piece.length; i++) {
      const c = piece.charCodeAt(i);
      if (c === 34) s.quoted = !s.quoted;
      else if (c === 10) {
        if (s.quoted) {
          s.lines++;
          continue;
        }
        s.chars += i;
        const next = s.line + s.lines + 1;
        this.issues.push({
          row: s.row,
          line: s.line,
          severity: 'error',
          message: `row ${s.row} (line ${s.line}): a record of ${s.chars.toLocaleString('en')} characters, over the ${MAX_RECORD_CHARS.toLocaleString('en')} a record may have (it runs to line ${next - 1}); skipped, and the reading goes on at line ${next}`,
        });
        this.skipping = null;
        this.line = next;
        this.base = this.pos = this.base + s.chars + 1;
        return i + 1;
      }
    }
    s.chars += piece.length;
    s.bytes += utf8Length(piece);
    if (last) {
      this.issues.push({
        row: s.row,
        line: s.line,
        severity: 'error',
        unread: s.bytes,
        message: `row ${s.row} (line ${s.line}): a quoted field opened on this row is never closed; the rest of the file, ${s.bytes.toLocaleString('en')} bytes from line ${s.line} on, was not read`,
      });
      this.skipping = null;
      this.stopped = true;
    }
    return -1;
  }

  private step(data: string[], err: Papa.ParseError | undefined, end: number): void {
    while (this.pos < end && this.at(this.pos) === 10) {
      this.pos++;
      this.line++;
    }
    const start = this.pos;
    const startLine = this.line;
    for (; this.pos < end; this.pos++) if (this.at(this.pos) === 10) this.line++;
    const cells = data.map(restoreCell);
    if (cells.join('').trim() === '') return;
    const index = ++this.index;
    if (index === 0) {
      this.headerLine = startLine;
      this.columns = headerNames(cells, startLine, this.issues);
      return;
    }
    const where = `row ${index} (line ${startLine})`;
    const fail = (message: string) =>
      this.issues.push({ row: index, line: startLine, severity: 'error', message: `${where}${message}; skipped` });
    if (err?.code === 'MissingQuotes')
      fail(': a quoted field opened on this row is never closed, so everything after it, to the end of the file, was read into it');
    else if (err) fail(`: ${err.message}`);
    else if (cells.length !== this.columns.length)
      fail(
        ` has ${cells.length} field${cells.length === 1 ? '' : 's'} but the header has ${this.columns.length}${this.delimiterHint(start, end)}`,
      );
    // fromEntries, not assignment: a column named "__proto__" stays an ordinary key.
    else this.records.push({ row: index, line: startLine, data: Object.fromEntries(this.columns.map((c, k) => [c, cells[k]])) });
  }

  /** Why a row has the wrong number of fields, when the other delimiter would split it right. */
  private delimiterHint(start: number, end: number): string {
    const rowText = this.text.slice(start - this.textBase, end - this.textBase);
    return Papa.parse<string[]>(rowText, { delimiter: this.other }).data[0]?.length === this.columns.length
      ? `; it looks ${DELIMITER_NAME[this.other]}-separated, but the header (line ${this.headerLine}) is ${DELIMITER_NAME[this.delimiter]}-separated`
      : '';
  }

  /** The header's column names once it has been read (empty before). */
  get header(): readonly string[] {
    return this.columns;
  }

  /** The records read since the last call, handed over (a streamed file keeps none). */
  take(): ParsedTable['records'] {
    const out = this.records;
    this.records = [];
    return out;
  }

  /** The table, after the last push: the records not taken, the columns and every issue. */
  end(): ParsedTable {
    if (this.columns.length < 2)
      throw new VerityError(
        `the ${this.format.toUpperCase()} header has fewer than two columns; expected a header row such as "question${this.delimiter === '\t' ? '<tab>' : this.delimiter}gold${this.delimiter === '\t' ? '<tab>' : this.delimiter}candidate"`,
        'input',
      );
    return { format: this.format, columns: this.columns, headerLine: this.headerLine, records: this.take(), issues: this.issues };
  }
}

/** A whole CSV or TSV text. */
export function parseDelimited(text: string, format: 'csv' | 'tsv'): ParsedTable {
  const reader = new DelimitedReader(format, text);
  reader.push(text, true);
  return reader.end();
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
