/**
 * A review file as a spreadsheet (CSV): one line a question, the `label` column empty for the person to fill in.
 * The columns a person reads (the question, golds, answer, the judge's verdict and why it was asked) come first;
 * the last, `verity`, holds everything else of the line as JSON (its order, rows, draw and design). Reading the
 * sheet back takes each line from `verity` and the answer from `label` alone, in the order the lines were written,
 * so a spreadsheet that reformats the readable columns (numbers, dates) or sorts the rows changes nothing read: the
 * labels read are exactly those of the JSONL form with the same answers. Cells a spreadsheet would run as formulas are neutralized as in
 * every CSV Verity writes (io/formula.ts).
 */
import Papa from 'papaparse';
import { NEEDS_NEUTRALIZING } from '../io/formula.ts';
import { parseDelimited } from '../io/delimited.ts';
import { goldCell } from '../io/export.ts';
import { isPlainObject } from '../io/table.ts';
import { fail, ok, type Result } from '../errors.ts';
import { LabelReader, type ParsedLabels } from './labels.ts';

/** How a label file is written: JSONL (one JSON object a line) or a review sheet (CSV). */
export type LabelFormat = 'jsonl' | 'csv';

/** The sheet's columns, in order; `label` is the one to fill in, `verity` the line itself. */
export const SHEET_COLUMNS = [
  'order',
  'id',
  'system',
  'question',
  'golds',
  'candidate',
  'label',
  'judge',
  'judge_score',
  'judge_decision',
  'judge_explanation',
  'why',
  'verity',
] as const;

/** A cell as people write it: texts as they are, numbers plainly, nothing for null (a label waiting for an answer). */
const plain = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/** Review lines (objects, as `verity review` or the app's export writes them as JSONL) as one CSV text. */
export function reviewSheet(lines: readonly Record<string, unknown>[]): string {
  const data = lines.map((o) => {
    const judge = isPlainObject(o.judge) ? o.judge : {};
    const rest = Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'label'));
    return [
      plain(o.order),
      plain(o.id),
      plain(o.system),
      plain(o.question),
      Array.isArray(o.golds) ? goldCell(o.golds, '|') : plain(o.golds),
      plain(o.candidate),
      plain(o.label),
      plain(judge.metric),
      plain(judge.score),
      plain(judge.decision),
      plain(judge.explanation),
      plain(o.why),
      JSON.stringify(rest),
    ];
  });
  return `${Papa.unparse({ fields: [...SHEET_COLUMNS], data }, { newline: '\n', escapeFormulae: NEEDS_NEUTRALIZING })}\n`;
}

/** Label lines as a file's text: a review sheet, or JSONL (one JSON object a line). */
export function labelFileText(lines: readonly Record<string, unknown>[], format: LabelFormat): string {
  return format === 'csv' ? reviewSheet(lines) : `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}

/** The format a label file's name asks for: .csv a sheet, else JSONL. */
export const formatOf = (name: string): LabelFormat => (/\.csv$/i.test(name) ? 'csv' : 'jsonl');

/**
 * A whole label file's lines as objects, as the JSONL form holds them: a sheet's (sheetLines), or each JSON line's
 * (blank lines and JSON that is not an object skipped). Refused, with the line, for one that is not JSON.
 */
export function labelFileLines(text: string, name: string): Result<Record<string, unknown>[]> {
  if (isSheet(name, text)) {
    const lines = sheetLines(text, name);
    return lines.ok ? ok(lines.value.map((l) => l.value)) : lines;
  }
  const out: Record<string, unknown>[] = [];
  const raw = text.split(/\r?\n/);
  for (let k = 0; k < raw.length; k++) {
    const line = raw[k]!.trim();
    if (!line) continue;
    let o: unknown;
    try {
      o = JSON.parse(line);
    } catch {
      return fail(`${name}, line ${k + 1} is not JSON: each line of a label file is one JSON object`);
    }
    if (isPlainObject(o)) out.push(o);
  }
  return ok(out);
}

/** Whether a label file's text is a sheet (CSV) rather than JSONL: its name, else its first character. */
export function isSheet(name: string, text: string): boolean {
  if (/\.csv$/i.test(name)) return true;
  if (/\.jsonl?$/i.test(name)) return false;
  const first = text.trimStart()[0];
  return first !== undefined && first !== '{';
}

/**
 * A sheet's lines as the JSONL form's objects: each from its `verity` cell, with the `label` cell as its label
 * (null when empty). Refused, with the row, for a sheet without those columns or a `verity` cell that is not the
 * JSON object Verity wrote.
 */
export function sheetLines(text: string, name = 'the review sheet'): Result<{ line: number; value: Record<string, unknown> }[]> {
  let table;
  try {
    table = parseDelimited(text, 'csv');
  } catch (e) {
    return fail(`${name}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const missing = ['label', 'verity'].filter((c) => !table.columns.includes(c));
  if (missing.length)
    return fail(
      `${name} has no ${missing.map((c) => `"${c}"`).join(' or ')} column: a review sheet is the CSV verity review --out FILE.csv (or the app) writes`,
    );
  const bad = table.issues.find((i) => i.severity === 'error');
  if (bad) return fail(`${name}, ${bad.message}`);
  const out: { line: number; value: Record<string, unknown> }[] = [];
  for (const r of table.records) {
    const line = r.line ?? r.row + 1;
    const where = `${name}, line ${line}`;
    let o: unknown;
    try {
      o = JSON.parse(String(r.data.verity));
    } catch {
      return fail(`${where}: its "verity" cell is not the JSON Verity wrote there (was it edited?)`);
    }
    if (!isPlainObject(o)) return fail(`${where}: its "verity" cell is not a JSON object`);
    const label = String(r.data.label ?? '').trim();
    out.push({ line, value: { ...o, label: label === '' ? null : label } });
  }
  return ok(out);
}

/** A whole review sheet read as a label file: the same labels, design and notes as its JSONL form gives. */
export function parseReviewSheet(text: string, name = 'the review sheet'): Result<ParsedLabels> {
  const lines = sheetLines(text, name);
  if (!lines.ok) return lines;
  const reader = new LabelReader(name);
  // In the order they were written (a sheet sorted by another column reads the same); lines outside a design last.
  const key = (l: { value: Record<string, unknown> }) => (typeof l.value.order === 'number' ? l.value.order : Infinity);
  const ordered = [...lines.value].sort((a, b) => key(a) - key(b));
  for (const { line, value } of ordered) if (!reader.pushLine(value, line)) break;
  return reader.end();
}
