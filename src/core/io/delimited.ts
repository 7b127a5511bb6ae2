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
  guessLineEndings(input: string, quoteChar: string): '\n' | '\r' | '\r\n';
}
const Handle = (Papa as unknown as { ParserHandle: new (config: Papa.ParseConfig<string[]>) => ParserHandle }).ParserHandle;

/** A line end that can be told apart: LF, or CR with what follows it (CR or CRLF). */
const HAS_LINE_END = /\n|\r[^]/;

/**
 * Longest record held while it is not complete, in characters: a quoted field opened and never closed would
 * otherwise take the rest of the file into one record, parsed again with every piece.
 */
export const MAX_RECORD_CHARS = 32 * 1024 * 1024;

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
  private readonly config: Papa.ParseConfig<string[]>;

  /** `head`: the start of the file (its header record decides the delimiter). */
  constructor(
    private readonly format: 'csv' | 'tsv',
    head: string,
  ) {
    const seps = headerSeparators(head);
    this.delimiter = format === 'tsv' ? '\t' : seps.commas === 0 && seps.semicolons > 0 ? ';' : ',';
    this.other = format === 'tsv' ? ',' : '\t';
    const config: Papa.ParseConfig<string[]> = {
      delimiter: this.delimiter,
      // Blank and whitespace-only lines are skipped here rather than by Papa ('greedy'), so that every
      // line passes through the cursor arithmetic below and later rows keep their true line numbers.
      skipEmptyLines: false,
      header: false,
      step: (res) => this.step(res.data, res.errors[0], res.meta.cursor),
    };
    this.handle = new Handle(config);
    this.config = config;
    // From the head, as a whole text's parse guesses it (a first piece may be too short to hold a line end);
    // without one there, from the first text that has one (see push).
    if (HAS_LINE_END.test(head)) config.newline = this.handle.guessLineEndings(head, '"');
  }

  private at(offset: number): number {
    return this.text.charCodeAt(offset - this.textBase);
  }

  /** The next piece of the file's text; `last` for the final one (it may be empty). */
  push(piece: string, last: boolean): void {
    if (this.stopped) return;
    if (!this.config.newline) {
      this.partial += piece;
      if (!last && this.partial.length <= MAX_RECORD_CHARS && !HAS_LINE_END.test(this.partial)) return;
      this.config.newline = this.handle.guessLineEndings(this.partial, '"');
      piece = '';
    }
    this.text = this.partial + piece;
    this.textBase = this.base;
    const res = this.handle.parse(this.text, this.base, !last);
    if (last) return;
    const cursor = res.meta.cursor;
    this.partial = this.text.substring(cursor - this.base);
    this.base = cursor;
    if (this.partial.length > MAX_RECORD_CHARS) {
      // Never complete: a quoted field opened and not closed. Whole, it would run to the end of the file too.
      const row = this.index + 1;
      while (this.pos < this.base && (this.at(this.pos) === 10 || this.at(this.pos) === 13)) if (this.at(this.pos++) === 10) this.line++;
      this.issues.push({
        row,
        line: this.line,
        severity: 'error',
        message: `row ${row} (line ${this.line}): a record over ${MAX_RECORD_CHARS.toLocaleString('en')} characters (a quoted field opened on this row is never closed?); it and the rest of the file were not read`,
      });
      this.stopped = true;
      this.partial = '';
    }
  }

  private step(data: string[], err: Papa.ParseError | undefined, end: number): void {
    while (this.pos < end && (this.at(this.pos) === 10 || this.at(this.pos) === 13)) if (this.at(this.pos++) === 10) this.line++;
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
