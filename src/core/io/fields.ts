/**
 * Maps parsed records to QA rows: finds the question / gold / candidate / label / choices columns by name
 * (case-insensitive, overridable), coerces values, and reports every row it cannot use and why.
 */
import { CAP_CLASSES, VerityError, type CapClass, type Label, type QaRow } from '../types.ts';
import type { ParsedTable, RowIssue } from './parse.ts';

export const FIELDS = ['id', 'question', 'gold', 'candidate', 'label', 'choices', 'wrong_answers', 'nli'] as const;
export type Field = (typeof FIELDS)[number];

/** Column names recognised for each field, in order of preference. */
export const FIELD_ALIASES: Record<Field, string[]> = {
  id: ['id', 'qid', 'question_id'],
  question: ['question', 'query', 'prompt'],
  gold: ['gold', 'golds', 'answer', 'answers', 'reference', 'references', 'golden_answer', 'gold_answer', 'gold_answers'],
  candidate: ['candidate', 'prediction', 'response', 'model_answer', 'output'],
  label: ['label', 'judge', 'judgment', 'human_label', 'correct'],
  choices: ['choices', 'options'],
  wrong_answers: ['wrong_answers', 'incorrect_answers', 'distractors'],
  nli: ['nli'],
};

export type ColumnMap = Partial<Record<Field, string>>;

export interface MapOptions {
  /** Explicit field → column choices (from `--map`). */
  map?: ColumnMap;
  /** Separator that splits a single gold string into several golds, e.g. ' / '. */
  goldSep?: string;
}

/** Parses `--map field=column,field=column`. */
export function parseMapSpec(spec: string): ColumnMap {
  const out: ColumnMap = {};
  for (const part of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const eq = part.indexOf('=');
    const field = part.slice(0, eq).trim().toLowerCase() as Field;
    const column = part.slice(eq + 1).trim();
    if (eq <= 0 || !column) throw new VerityError(`--map expects field=column pairs separated by commas, got "${part}"`, 'usage');
    if (!FIELDS.includes(field)) throw new VerityError(`--map: unknown field "${field}"; fields are ${FIELDS.join(', ')}`, 'usage');
    out[field] = column;
  }
  return out;
}

/** Chooses a column for each field: explicit map first, then aliases (case-insensitive). */
export function resolveColumns(columns: string[], map: ColumnMap = {}): ColumnMap {
  const byLower = new Map(columns.map((c) => [c.toLowerCase(), c] as const));
  // A column mapped explicitly to one field is never picked by alias for another (`--map candidate=answer`
  // must not also make `answer` the gold column).
  const claimed = new Set(Object.values(map).map((c) => c!.toLowerCase()));
  const out: ColumnMap = {};
  for (const field of FIELDS) {
    const explicit = map[field];
    if (explicit !== undefined) {
      const col = byLower.get(explicit.toLowerCase());
      if (!col) throw new VerityError(`--map ${field}=${explicit}: no such column; the columns are ${columns.join(', ')}`, 'usage');
      out[field] = col;
      continue;
    }
    for (const alias of FIELD_ALIASES[field]) {
      const col = byLower.get(alias);
      if (col && !claimed.has(alias)) {
        out[field] = col;
        break;
      }
    }
  }
  return out;
}

const TRUE_WORDS = new Set(['true', '1', 'yes', 'y', 'correct', 't']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'n', 'incorrect', 'f', 'wrong']);

/** Parses a label value; undefined for an empty one; throws a message string for an unknown one. */
export function parseLabel(v: unknown): Label | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'boolean') return { kind: 'binary', correct: v };
  if (typeof v === 'number') {
    if (v === 1 || v === 0) return { kind: 'binary', correct: v === 1 };
    throw `label ${v} is not 1/0`;
  }
  const s = String(v).trim().toLowerCase();
  if (s === '' || s === 'nan' || s === 'null' || s === 'none') return undefined;
  if (TRUE_WORDS.has(s)) return { kind: 'binary', correct: true };
  if (FALSE_WORDS.has(s)) return { kind: 'binary', correct: false };
  const cls = s.replace(/[_\s]+/g, '-') as CapClass;
  if ((CAP_CLASSES as readonly string[]).includes(cls)) return { kind: 'taxonomy', cls };
  throw `label "${String(v)}" is not one of true/false, 1/0, yes/no, correct/incorrect or the eight class names (${CAP_CLASSES.join(', ')})`;
}

/** Classes counted as correct when class labels are reduced to correct / incorrect. */
export const CORRECT_CLASSES: ReadonlySet<CapClass> = new Set(['exact', 'equivalent', 'alternative-correct', 'overinclusive-valid']);

export const labelIsCorrect = (l: Label): boolean => (l.kind === 'binary' ? l.correct : CORRECT_CLASSES.has(l.cls));

function toText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** A string list from an array, a JSON-array string, or a string split by `sep`. */
function toList(v: unknown, sep?: string): string[] {
  if (Array.isArray(v)) return v.filter((x) => x !== null && x !== undefined).map(toText);
  if (typeof v === 'string') {
    const t = v.trim();
    if (t.startsWith('[') && t.endsWith(']')) {
      try {
        const arr: unknown = JSON.parse(t);
        if (Array.isArray(arr)) return arr.filter((x) => x !== null && x !== undefined).map(toText);
      } catch {
        /* a plain string that happens to be bracketed */
      }
    }
    return sep ? v.split(sep) : [v];
  }
  if (v === null || v === undefined) return [];
  return [toText(v)];
}

export interface MappedRows {
  rows: QaRow[];
  columns: ColumnMap;
  issues: RowIssue[];
  /** Raw `nli` values by row number, for the model-based metrics. */
  extras: Map<number, Record<string, unknown>>;
}

export function mapRows(table: ParsedTable, options: MapOptions = {}): MappedRows {
  const cols = resolveColumns(table.columns, options.map);
  const issues: RowIssue[] = [...table.issues];
  if (!cols.candidate)
    throw new VerityError(
      `no candidate-answer column: expected one of ${FIELD_ALIASES.candidate.join(', ')}; the columns are ${table.columns.join(', ') || '(none)'}. Use --map candidate=COLUMN`,
      'input',
    );
  if (!cols.gold)
    throw new VerityError(
      `no gold-answer column: expected one of ${FIELD_ALIASES.gold.join(', ')}; the columns are ${table.columns.join(', ')}. Use --map gold=COLUMN`,
      'input',
    );
  const rows: QaRow[] = [];
  const extras = new Map<number, Record<string, unknown>>();
  const seenIds = new Set<string>();
  for (const rec of table.records) {
    const where = rec.line !== undefined && rec.line !== rec.row ? `row ${rec.row} (line ${rec.line})` : `row ${rec.row}`;
    const warn = (message: string, severity: RowIssue['severity'] = 'warning') =>
      issues.push({ row: rec.row, ...(rec.line !== undefined ? { line: rec.line } : {}), severity, message: `${where}: ${message}` });
    const d = rec.data;
    const golds = toList(d[cols.gold], options.goldSep).map((g) => g.trim()).filter((g) => g.length > 0);
    if (golds.length === 0) {
      warn(`no gold answer in column "${cols.gold}"; skipped`, 'error');
      continue;
    }
    const rawCand = d[cols.candidate];
    if (rawCand === null || rawCand === undefined) warn(`candidate is ${rawCand === null ? 'null' : 'missing'}; scored as an empty answer`);
    const candidate = rawCand === null || rawCand === undefined ? '' : toText(rawCand);
    let id = cols.id && d[cols.id] !== undefined && d[cols.id] !== null && d[cols.id] !== '' ? toText(d[cols.id]) : String(rec.row);
    if (seenIds.has(id)) warn(`duplicate id "${id}"`);
    seenIds.add(id);
    const row: QaRow = { row: rec.row, id, question: cols.question ? toText(d[cols.question] ?? '') : '', golds, candidate };
    if (cols.label) {
      const raw = d[cols.label];
      try {
        const label = parseLabel(raw);
        if (label) {
          row.label = label;
          row.rawLabel = toText(raw);
        }
      } catch (message) {
        warn(`${String(message)}; the row is scored but not used in agreement reports`);
      }
    }
    if (cols.choices && d[cols.choices] != null) row.choices = toList(d[cols.choices]);
    if (cols.wrong_answers && d[cols.wrong_answers] != null) row.wrongAnswers = toList(d[cols.wrong_answers]);
    if (cols.nli && d[cols.nli] != null) extras.set(rec.row, { nli: d[cols.nli] });
    rows.push(row);
  }
  return { rows, columns: cols, issues, extras };
}
