/**
 * Reads a file's bytes into plain records: JSONL, JSON (array of objects), CSV or TSV, detected from the
 * content. Bad records are reported with their row and line numbers, never dropped silently.
 * CSV/TSV go through Papa Parse (quotes, embedded newlines, BOM-free text) rather than a hand-written splitter.
 */
import Papa from 'papaparse';
import { VerityError } from '../types.ts';

export type Format = 'jsonl' | 'json' | 'csv' | 'tsv';

export interface RowIssue {
  /** 1-based record number (data rows; a CSV header is not counted). */
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
  records: { row: number; line?: number; data: Record<string, unknown> }[];
  issues: RowIssue[];
}

/** Decodes UTF-8 strictly; on failure says where the first bad byte is. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    let line = 1;
    for (let i = 0; i < at; i++) if (bytes[i] === 0x0a) line++;
    throw new VerityError(
      `the file is not valid UTF-8 (first bad byte 0x${(bytes[at] ?? 0).toString(16).padStart(2, '0')} at offset ${at}, line ${line}); re-save it as UTF-8`,
      'input',
    );
  }
}

function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    const n = c < 0x80 ? 0 : c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    if (n < 0) return i;
    for (let k = 1; k <= n; k++) {
      const d = b[i + k];
      if (d === undefined || (d & 0xc0) !== 0x80) return i;
    }
    // Overlong, surrogate and out-of-range sequences.
    const d1 = b[i + 1] ?? 0;
    if ((c === 0xe0 && d1 < 0xa0) || (c === 0xed && d1 > 0x9f) || (c === 0xf0 && d1 < 0x90) || (c === 0xf4 && d1 > 0x8f)) return i;
    i += n + 1;
  }
  return b.length;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Detects the format from the text itself (the file name is only a hint for ties). */
export function detectFormat(text: string, nameHint = ''): Format {
  const head = text.trimStart();
  if (head.startsWith('[')) return 'json';
  if (head.startsWith('{')) return 'jsonl';
  const firstLine = head.split(/\r?\n/, 1)[0] ?? '';
  const tabs = (firstLine.match(/\t/g) ?? []).length;
  const commas = (firstLine.match(/,/g) ?? []).length;
  if (tabs > 0 && tabs >= commas) return 'tsv';
  if (commas > 0) return 'csv';
  if (tabs === 0 && /\.tsv$/i.test(nameHint)) return 'tsv';
  throw new VerityError(
    'the file is not a table: it is not JSON or JSONL, and its first line has no comma or tab separating columns. Expected JSONL, a JSON array of objects, CSV or TSV with a header row',
    'input',
  );
}

export function parseTable(bytes: Uint8Array | string, nameHint = ''): ParsedTable {
  let text = typeof bytes === 'string' ? bytes : decodeUtf8(bytes);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim().length === 0) throw new VerityError('the file is empty', 'input');
  const format = detectFormat(text, nameHint);
  if (format === 'json') return parseJsonArray(text);
  if (format === 'jsonl') return parseJsonl(text);
  return parseDelimited(text, format);
}

function collectColumns(records: ParsedTable['records']): string[] {
  const seen = new Set<string>();
  for (const r of records) for (const k of Object.keys(r.data)) seen.add(k);
  return [...seen];
}

function parseJsonArray(text: string): ParsedTable {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new VerityError(`the file starts like a JSON array but is not valid JSON (${(e as Error).message}); fix it or save it as JSONL, one object per line`, 'input');
  }
  if (!Array.isArray(data)) throw new VerityError('expected a JSON array of objects', 'input');
  const records: ParsedTable['records'] = [];
  const issues: RowIssue[] = [];
  data.forEach((v, i) => {
    if (isPlainObject(v)) records.push({ row: i + 1, data: v });
    else issues.push({ row: i + 1, severity: 'error', message: `element ${i + 1} is ${v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v}, not an object; skipped` });
  });
  return { format: 'json', columns: collectColumns(records), records, issues };
}

function parseJsonl(text: string): ParsedTable {
  const lines = text.split('\n');
  const records: ParsedTable['records'] = [];
  const issues: RowIssue[] = [];
  let row = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line.length === 0) continue;
    row++;
    try {
      const v: unknown = JSON.parse(line);
      if (isPlainObject(v)) records.push({ row, line: i + 1, data: v });
      else issues.push({ row, line: i + 1, severity: 'error', message: `line ${i + 1} is not a JSON object; skipped` });
    } catch (e) {
      // A pretty-printed single object is valid JSON but not JSONL: accept it as one record.
      if (row === 1 && records.length === 0) {
        try {
          const whole: unknown = JSON.parse(text);
          if (isPlainObject(whole)) return { format: 'json', columns: Object.keys(whole), records: [{ row: 1, line: 1, data: whole }], issues: [] };
        } catch {
          /* fall through to the per-line error */
        }
      }
      issues.push({ row, line: i + 1, severity: 'error', message: `line ${i + 1} is not valid JSON (${(e as Error).message}); skipped` });
    }
  }
  return { format: 'jsonl', columns: collectColumns(records), records, issues };
}

function parseDelimited(text: string, format: 'csv' | 'tsv'): ParsedTable {
  const delimiter = format === 'tsv' ? '\t' : ',';
  const issues: RowIssue[] = [];
  const records: ParsedTable['records'] = [];
  let columns: string[] = [];
  let index = -1; // -1 = header row
  // Line numbers: follow Papa's cursor and count the newlines it has passed.
  let pos = 0;
  let line = 1;
  Papa.parse<string[]>(text, {
    delimiter,
    // Blank and whitespace-only lines are skipped here rather than by Papa ('greedy'), so that every
    // line passes through the cursor arithmetic below and later rows keep their true line numbers.
    skipEmptyLines: false,
    header: false,
    step: (res) => {
      while (pos < text.length && (text[pos] === '\n' || text[pos] === '\r')) if (text[pos++] === '\n') line++;
      const startLine = line;
      const end = res.meta.cursor;
      for (; pos < end; pos++) if (text.charCodeAt(pos) === 10) line++;
      const cells = res.data;
      if (cells.join('').trim() === '') return;
      index++;
      if (index === 0) {
        columns = headerNames(cells, issues);
        return;
      }
      const where = `row ${index} (line ${startLine})`;
      const err = res.errors[0];
      if (err) issues.push({ row: index, line: startLine, severity: 'error', message: `${where}: ${err.message}; skipped` });
      else if (cells.length !== columns.length)
        issues.push({ row: index, line: startLine, severity: 'error', message: `${where} has ${cells.length} fields but the header has ${columns.length}; skipped` });
      else {
        const data: Record<string, unknown> = {};
        columns.forEach((c, k) => (data[c] = cells[k]));
        records.push({ row: index, line: startLine, data });
      }
    },
  });
  if (columns.length < 2)
    throw new VerityError(`the ${format.toUpperCase()} header has fewer than two columns; expected a header row such as "question${delimiter === ',' ? ',' : '<tab>'}gold${delimiter === ',' ? ',' : '<tab>'}candidate"`, 'input');
  return { format, columns, records, issues };
}

/** Header cells → unique column names (blank → column_N, duplicates → name_2), with warnings. */
function headerNames(header: string[], issues: RowIssue[]): string[] {
  const used = new Set<string>();
  return header.map((raw, i) => {
    const base = raw.trim() || `column_${i + 1}`;
    let name = base;
    for (let k = 2; used.has(name.toLowerCase()); k++) name = `${base}_${k}`;
    if (name !== base) issues.push({ row: 0, line: 1, severity: 'warning', message: `duplicate header "${base}" (column ${i + 1}) renamed to "${name}"` });
    if (!raw.trim()) issues.push({ row: 0, line: 1, severity: 'warning', message: `column ${i + 1} has no header; named "${name}"` });
    used.add(name.toLowerCase());
    return name;
  });
}
