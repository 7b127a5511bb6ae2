/**
 * Maps parsed records to QA rows: finds the question / gold / candidate / label / choices columns by name
 * (case-insensitive, overridable), coerces values, and reports every row it cannot use and why.
 */
import { CAP_CLASSES, VerityError, type CapClass, type Label, type ProvidedNli, type QaRow } from '../types.ts';
import type { NliDistribution } from '../capabilities.ts';
import type { ParsedTable, RowIssue } from './parse.ts';

export const FIELDS = ['id', 'question', 'gold', 'candidate', 'label', 'choices', 'wrong_answers', 'nli', 'statements'] as const;
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
  statements: ['statements'],
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
  // String([1]) is "1": a list or an object must not pass for a label.
  if (typeof v === 'object') throw `label ${JSON.stringify(v)} is a JSON ${Array.isArray(v) ? 'array' : 'object'}, not true/false, 1/0 or a class name`;
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

/** A value as text (objects as JSON); throws a message string for one nested too deeply to write out. */
function toText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  try {
    return JSON.stringify(v);
  } catch (e) {
    throw `a value cannot be turned into text (${(e as Error).message})`;
  }
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

const jsonValue = (v: unknown): unknown => {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    throw 'is not valid JSON';
  }
};

function distribution(v: unknown, where: string): NliDistribution {
  if (!Array.isArray(v) || v.length !== 3) throw `${where} must be three numbers [entailment, neutral, contradiction]`;
  if (!v.every((x) => typeof x === 'number' && Number.isFinite(x) && x >= 0)) throw `${where} must hold numbers ≥ 0, got ${JSON.stringify(v)}`;
  const sum = (v[0] as number) + (v[1] as number) + (v[2] as number);
  if (Math.abs(sum - 1) > 1e-3) throw `${where} sums to ${sum.toFixed(4)}, not 1 (±0.001)`;
  return { entailment: v[0] as number, neutral: v[1] as number, contradiction: v[2] as number };
}

/**
 * Validates NLI probabilities supplied with a row: one entry per gold, in order, each
 * {"gold_to_candidate": [ent, neu, con], "candidate_to_gold": [ent, neu, con]}. Throws a message string.
 */
export function parseProvidedNli(raw: unknown, golds: number): ProvidedNli[] {
  const v = jsonValue(raw);
  const list = Array.isArray(v) ? v : [v];
  if (list.length !== golds) throw `has ${list.length} entries but the row has ${golds} gold answers (one entry per gold, in order)`;
  return list.map((e, i) => {
    if (typeof e !== 'object' || e === null) throw `entry ${i + 1} must be an object with gold_to_candidate and candidate_to_gold`;
    const o = e as Record<string, unknown>;
    return {
      goldToCandidate: distribution(o.gold_to_candidate, `entry ${i + 1}: gold_to_candidate`),
      candidateToGold: distribution(o.candidate_to_gold, `entry ${i + 1}: candidate_to_gold`),
    };
  });
}

/** Validates statements supplied with a row: {"gold": [one per gold], "candidate": "…"}. */
export function parseStatements(raw: unknown, golds: number): { gold: string[]; candidate: string } {
  const v = jsonValue(raw) as Record<string, unknown> | null;
  if (typeof v !== 'object' || v === null || !Array.isArray(v.gold) || typeof v.candidate !== 'string')
    throw 'must be {"gold": ["…", …], "candidate": "…"}';
  if (v.gold.length !== golds || !v.gold.every((g) => typeof g === 'string')) throw `needs one gold statement per gold answer (${golds})`;
  return { gold: v.gold as string[], candidate: v.candidate };
}

const isRunHeader = (d: Record<string, unknown>): boolean => {
  const keys = Object.keys(d);
  return keys.length === 1 && keys[0] === 'verity_run' && typeof d.verity_run === 'object' && d.verity_run !== null;
};

export interface MappedRows {
  rows: QaRow[];
  columns: ColumnMap;
  issues: RowIssue[];
}

export function mapRows(table: ParsedTable, options: MapOptions = {}): MappedRows {
  // Nothing was read at all: say why, rather than that there is no column called "candidate".
  if (table.records.length === 0 && table.columns.length === 0) {
    const errors = table.issues.filter((i) => i.severity === 'error');
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more errors)` : '';
    throw new VerityError(errors.length ? `no record could be read: ${errors[0]!.message}${more}` : 'the file has no records', 'input');
  }
  const cols = resolveColumns(table.columns, options.map);
  const issues: RowIssue[] = [...table.issues];
  if (!cols.candidate) {
    const known = new Set(Object.values(FIELD_ALIASES).flat());
    const noHeader =
      table.headerLine !== undefined && !table.columns.some((c) => known.has(c.toLowerCase()))
        ? `. No column has a name Verity knows, so line ${table.headerLine} may be data rather than a header: CSV and TSV files need a header row (e.g. question,gold,candidate)`
        : '';
    throw new VerityError(
      `no candidate-answer column: expected one of ${FIELD_ALIASES.candidate.join(', ')}; the columns are ${table.columns.join(', ') || '(none)'}. Use --map candidate=COLUMN${noHeader}`,
      'input',
    );
  }
  if (!cols.gold)
    throw new VerityError(
      `no gold-answer column: expected one of ${FIELD_ALIASES.gold.join(', ')}; the columns are ${table.columns.join(', ')}. Use --map gold=COLUMN`,
      'input',
    );
  const rows: QaRow[] = [];
  const seenIds = new Set<string>();
  for (const rec of table.records) {
    // The first line of a JSONL file exported by the app describes the run, not a row.
    if (rec.row === 1 && isRunHeader(rec.data)) continue;
    const where = rec.line !== undefined && rec.line !== rec.row ? `row ${rec.row} (line ${rec.line})` : `row ${rec.row}`;
    const warn = (message: string, severity: RowIssue['severity'] = 'warning') =>
      issues.push({ row: rec.row, ...(rec.line !== undefined ? { line: rec.line } : {}), severity, message: `${where}: ${message}` });
    const d = rec.data;
    // Own keys only: with --map question=constructor, a record without that key must not read Object.prototype.
    const get = (col: string | undefined): unknown => (col !== undefined && Object.hasOwn(d, col) ? d[col] : undefined);
    let row: QaRow;
    const rawCand = get(cols.candidate);
    try {
      const golds = toList(get(cols.gold), options.goldSep).map((g) => g.trim()).filter((g) => g.length > 0);
      if (golds.length === 0) {
        warn(`no gold answer in column "${cols.gold}"; skipped`, 'error');
        continue;
      }
      const rawId = get(cols.id);
      const id = rawId !== undefined && rawId !== null && rawId !== '' ? toText(rawId) : String(rec.row);
      const candidate = rawCand === null || rawCand === undefined ? '' : toText(rawCand);
      row = { row: rec.row, id, question: cols.question ? toText(get(cols.question) ?? '') : '', golds, candidate };
      const choices = get(cols.choices);
      if (choices != null) row.choices = toList(choices);
      const wrong = get(cols.wrong_answers);
      if (wrong != null) row.wrongAnswers = toList(wrong);
    } catch (message) {
      warn(`${String(message)}; skipped`, 'error');
      continue;
    }
    if (rawCand === null || rawCand === undefined) warn(`candidate is ${rawCand === null ? 'null' : 'missing'}; scored as an empty answer`);
    if (seenIds.has(row.id)) warn(`duplicate id "${row.id}"`);
    seenIds.add(row.id);
    const rawLabel = get(cols.label);
    try {
      const label = parseLabel(rawLabel);
      if (label) {
        row.label = label;
        row.rawLabel = toText(rawLabel);
      }
    } catch (message) {
      warn(`${String(message)}; the row is scored but not used in agreement reports`);
    }
    const nli = get(cols.nli);
    if (nli != null && nli !== '') {
      try {
        row.nli = parseProvidedNli(nli, row.golds.length);
      } catch (message) {
        warn(`nli: ${String(message)}; the row is scored without these probabilities`);
      }
    }
    const statements = get(cols.statements);
    if (statements != null && statements !== '') {
      try {
        row.statements = parseStatements(statements, row.golds.length);
      } catch (message) {
        warn(`statements: ${String(message)}; they are ignored`);
      }
    }
    rows.push(row);
  }
  return { rows, columns: cols, issues };
}
