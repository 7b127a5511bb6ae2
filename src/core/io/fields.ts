/**
 * Maps parsed records to QA rows: finds the question / gold / candidate / label / choices columns by name
 * (case-insensitive, overridable), coerces values, and reports every row it cannot use and why.
 */
import { CAP_CLASSES, VerityError, type CapClass, type Label, type ProvidedNli, type QaRow } from '../types.ts';
import type { NliDistribution } from '../capabilities.ts';
import { isPlainObject, type ParsedTable, type RowIssue } from './parse.ts';
import { SHARE_BOUND, valueSharer } from './share.ts';
import { boundedMemo } from '../util/memo.ts';
import { getPath } from './formats/nested.ts';
import { fail, messageOf, ok, type Result } from '../errors.ts';

export const FIELDS = ['id', 'question', 'gold', 'candidate', 'label', 'choices', 'wrong_answers', 'nli', 'statements'] as const;
export type Field = (typeof FIELDS)[number];

/**
 * Column names recognised for each field, in order of preference, as column keys (columnKey: "Gold Answer",
 * "gold-answer" and "goldAnswer" are all gold_answer). The names after the first few are those other tools and
 * datasets write (HELM, simple-evals, OpenAI evals, DIVER-QA, pandas exports), so their files map without a `--map`.
 */
export const FIELD_ALIASES: Record<Field, string[]> = {
  id: ['id', 'qid', 'question_id', 'doc_id', 'example_id', 'sample_id', 'item_id', 'uid'],
  question: ['question', 'query', 'prompt', 'question_text', 'problem', 'input', 'user_input', 'q', 'questions'],
  gold: [
    'gold',
    'golds',
    'answer',
    'answers',
    'reference',
    'references',
    'golden_answer',
    'gold_answer',
    'gold_answers',
    'ground_truth',
    'ground_truths',
    'target',
    'targets',
    'expected',
    'expected_answer',
    'expected_output',
    'correct_answer',
    'correct_answers',
    'true_answer',
    'reference_answer',
    'reference_answers',
    'ideal',
    'ideal_answer',
  ],
  candidate: [
    'candidate',
    'prediction',
    'response',
    'model_answer',
    'output',
    'predicted_answer',
    'pred',
    'predicted',
    'model_output',
    'model_response',
    'model_prediction',
    'completion',
    'generation',
    'generated_answer',
    'generated_text',
    'system_answer',
    'llm_answer',
    'llm_response',
    'hypothesis',
    'predictions',
    'candidate_answer',
    'prediction_text',
    'predicted_text',
    'pred_text',
    'response_text',
    'model_completion',
  ],
  label: [
    'label',
    'judge',
    'judgment',
    'human_label',
    'correct',
    'judgement',
    'human_judgment',
    'human_judgement',
    'is_correct',
    'correctness',
    'human_correct',
    'human',
    'annotation',
    'verdict',
    'eval',
    'human_eval',
    'human_evaluation',
  ],
  choices: ['choices', 'options'],
  wrong_answers: ['wrong_answers', 'incorrect_answers', 'distractors'],
  nli: ['nli'],
  statements: ['statements'],
};

/** Every name some field answers to. */
export const FIELD_NAMES: ReadonlySet<string> = new Set(Object.values(FIELD_ALIASES).flat());

/**
 * A column name as the aliases are written: lower case, words joined by one '_' whether the name separates them
 * with spaces, hyphens or underscores ("Model Answer", "model-answer" → model_answer). Dots stay: they name
 * nested values (formats/nested.ts).
 */
export function columnKey(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** The keys a column answers to: its columnKey, then its camelCase words apart ("modelAnswer" → model_answer). */
export function keysOf(name: string): string[] {
  const plain = columnKey(name);
  const camel = columnKey(name.replace(/([a-z0-9])([A-Z])/g, '$1_$2'));
  return camel === plain ? [plain] : [plain, camel];
}

export type ColumnMap = Partial<Record<Field, string>>;

export interface MapOptions {
  /** Explicit field → column choices (the CLI's --map, the page's mapping). */
  map?: ColumnMap;
  /**
   * Separator that splits a single gold string into several golds, e.g. ' / '; '' for none. mapRows splits only
   * on a given one; the readers let chooseGoldSeparator fill it in when the user gave none.
   */
  goldSep?: string;
  /**
   * Answers only (a file of (question, answer) pairs to turn into statements): no gold column is needed; when there is
   * no candidate column, the one answer column (a gold-looking `answer`) is the candidate.
   */
  answersOnly?: boolean;
}

/**
 * Known file layouts, recognised by their columns as a whole: a ragas dataset's `answer` is the model's answer,
 * not the gold one the generic aliases would make of it. `needs` must all be present (any of each group);
 * `fields` lists, per field, the columns to use in order of preference (lower case).
 */
export type LayoutId = 'ragas' | 'ragas-v0.2' | 'lm-eval' | 'answer-candidate' | 'generic';

interface Layout {
  id: Exclude<LayoutId, 'generic'>;
  title: string;
  needs: string[][];
  /** Columns whose presence rules the layout out. */
  unless?: string[];
  fields: Partial<Record<Field, string[]>>;
}

/** Gold names that say "gold" more surely than `answer` does (which is a gold in some files, the model's in others). */
const SURE_GOLDS = FIELD_ALIASES.gold.filter((a) => a !== 'answer' && a !== 'answers');

const LAYOUTS: Layout[] = [
  {
    id: 'ragas-v0.2',
    title: 'a ragas v0.2 dataset',
    needs: [['user_input'], ['response'], ['reference']],
    fields: { question: ['user_input'], candidate: ['response'], gold: ['reference'] },
  },
  {
    id: 'ragas',
    title: 'a ragas dataset',
    needs: [['answer'], ['ground_truths', 'ground_truth']],
    fields: { question: ['question'], candidate: ['answer'], gold: ['ground_truths', 'ground_truth'] },
  },
  {
    id: 'lm-eval',
    title: 'lm-evaluation-harness samples',
    needs: [['filtered_resps', 'resps'], ['target']],
    // The task's question is inside `doc` for most QA tasks (triviaqa, nq_open, squad, gsm8k, arc, mmlu…).
    fields: { id: ['doc_id'], question: ['doc.question'], candidate: ['filtered_resps', 'resps'], gold: ['target'] },
  },
  {
    // question, answer, expected_answer: with no candidate column beside it, `answer` is the model's.
    id: 'answer-candidate',
    title: 'an answer column beside a gold one',
    needs: [['answer', 'answers'], SURE_GOLDS],
    unless: FIELD_ALIASES.candidate,
    fields: { candidate: ['answer', 'answers'], gold: SURE_GOLDS },
  },
];

/** The layout the columns were read as, and why; with the columns alone (no records), as the preview needs. */
export interface Resolution {
  columns: ColumnMap;
  layout: LayoutId;
  notes: MappingNote[];
}

/**
 * Something the user should know about how the file was read, worded without naming any control of the CLI
 * or the app (each surface may add its own hint from the structured fields).
 * - `layout`: the columns were recognised as a known layout (`layout`), with the alternatives that also fit.
 * - `key-spellings`: rows spell one column's key differently (`spellings`); every spelling is read as `column`.
 * - `gold-separator`: many gold cells (`share` of `cells`) hold short items joined by `separator`; `applied` when
 *   they are split on it (chooseGoldSeparator), else a hint found only after the first rows. `suggested`: a small
 *   file where as few as one cell does, too few to split on it unasked: the user decides.
 */
export type MappingNote =
  | { code: 'layout'; layout: LayoutId; alternatives: LayoutId[]; columns: ColumnMap; message: string }
  | { code: 'key-spellings'; field: Field; column: string; spellings: string[]; message: string }
  | {
      code: 'gold-separator';
      column: string;
      separator: string;
      applied: boolean;
      share: number;
      cells: number;
      message: string;
      suggested?: true;
    };

/** Human wording of a missing-column error; `hint` is what a surface adds (e.g. the CLI's `--map` advice). */
export function missingColumnMessage(d: { field: Field; expected: string[]; columns: string[]; headerLine?: number }, hint = ''): string {
  const what = d.field === 'candidate' ? 'candidate-answer' : d.field === 'gold' ? 'gold-answer' : d.field;
  const noHeader =
    d.headerLine !== undefined && !d.columns.some((c) => keysOf(c).some((k) => FIELD_NAMES.has(k)))
      ? `. No column has a name Verity knows, so line ${d.headerLine} may be data rather than a header: CSV and TSV files need a header row (e.g. question,gold,candidate)`
      : '';
  const names =
    d.expected.length > 5 ? `${d.expected.slice(0, 5).join(', ')} or ${d.expected.length - 5} other names` : d.expected.join(', ');
  return `no ${what} column: expected one of ${names}; the columns are ${d.columns.join(', ') || '(none)'}${hint}${noHeader}`;
}

const fmtMap = (m: ColumnMap): string =>
  (['question', 'gold', 'candidate'] as const)
    .filter((f) => m[f])
    .map((f) => `${f} = ${m[f]}`)
    .join(', ');

/** Each key (keysOf) to the first column with it; plain keys first: a camelCase reading never takes a key another column has as it is. */
export function columnsByKey(columns: readonly string[]): Map<string, string> {
  const byKey = new Map<string, string>();
  for (const pass of [0, 1])
    for (const c of columns) {
      const k = keysOf(c)[pass];
      if (k !== undefined && !byKey.has(k)) byKey.set(k, c);
    }
  return byKey;
}

/**
 * Chooses a column for each field: explicit map first, then a known layout whose columns are all there, then
 * the aliases (columns by their columnKey, so in any case and word separation; a spelling seen first wins).
 */
export function resolveLayout(columns: string[], map: ColumnMap = {}): Resolution {
  const byLower = new Map<string, string>();
  for (const c of columns) if (!byLower.has(c.toLowerCase())) byLower.set(c.toLowerCase(), c);
  const byKey = columnsByKey(columns);
  /** `doc.question` when `doc` is a column: a nested value, read per record (getPath), spelled with the column's own name. */
  const nested = (path: string): string | undefined => {
    const dot = path.indexOf('.');
    const head = dot > 0 ? byLower.get(path.slice(0, dot).toLowerCase()) : undefined;
    return head === undefined ? undefined : `${head}${path.slice(dot)}`;
  };
  const explicit: ColumnMap = {};
  for (const field of FIELDS) {
    const want = map[field];
    if (want === undefined) continue;
    const col = byLower.get(want.toLowerCase()) ?? byKey.get(columnKey(want)) ?? nested(want);
    if (!col)
      throw new VerityError(
        `the column "${want}" chosen for ${field} is not in the file; the columns are ${columns.join(', ')}`,
        'usage',
        'unknown-column',
        {
          field,
          column: want,
          columns,
        },
      );
    explicit[field] = col;
  }
  // A column mapped explicitly to one field is never picked for another (`--map candidate=answer` must not
  // also make `answer` the gold column).
  const claimed = new Set(Object.values(explicit).flatMap((c) => keysOf(c!)));
  const pick = (prefs: Partial<Record<Field, string[]>>): ColumnMap => {
    const out: ColumnMap = { ...explicit };
    const used = new Set(claimed);
    for (const field of FIELDS) {
      if (out[field] !== undefined) continue;
      for (const alias of prefs[field] ?? []) {
        const col = byKey.get(alias) ?? (alias.includes('.') ? nested(alias) : undefined);
        if (col && !used.has(alias)) {
          out[field] = col;
          used.add(alias);
          break;
        }
      }
    }
    return out;
  };
  const generic = pick(FIELD_ALIASES);
  const fitting = LAYOUTS.filter(
    (l) => l.needs.every((group) => group.some((c) => byKey.has(c) && !claimed.has(c))) && !l.unless?.some((c) => byKey.has(c)),
  );
  if (fitting.length === 0 || (explicit.candidate && explicit.gold)) return { columns: generic, layout: 'generic', notes: [] };
  const chosen = fitting[0]!;
  // Fields the layout does not name (label, choices…) still come from the aliases, from the columns left over.
  const layoutCols = pick(chosen.fields);
  const taken = new Set(Object.values(layoutCols).flatMap((c) => keysOf(c!)));
  const rest = pick(Object.fromEntries(Object.entries(FIELD_ALIASES).map(([f, as]) => [f, as.filter((a) => !taken.has(a))])));
  const cols: ColumnMap = { ...rest, ...layoutCols };
  const alternatives: LayoutId[] = [
    // A layout that reads the columns the same way is no alternative (ragas's answer + ground_truth).
    ...fitting
      .slice(1)
      .filter((l) => {
        const r = pick(l.fields);
        return r.candidate !== layoutCols.candidate || r.gold !== layoutCols.gold;
      })
      .map((l) => l.id),
    ...(generic.candidate && generic.gold ? (['generic'] as const) : []),
  ];
  const signature = chosen.needs.map((g) => byKey.get(g.find((c) => byKey.has(c) && !claimed.has(c))!)!).join(', ');
  const also = alternatives.length
    ? `; the columns also fit ${alternatives.map((a) => (a === 'generic' ? `the generic names (${fmtMap(generic)})` : LAYOUTS.find((l) => l.id === a)!.title)).join(' and ')}, but ${chosen.title} is the only reading that uses all of ${signature}`
    : '';
  const message = `the columns ${signature} are those of ${chosen.title}: read as ${fmtMap(cols)}${also}`;
  return { columns: cols, layout: chosen.id, notes: [{ code: 'layout', layout: chosen.id, alternatives, columns: cols, message }] };
}

/** The columns chosen for each field (see resolveLayout). */
export function resolveColumns(columns: string[], map: ColumnMap = {}): ColumnMap {
  return resolveLayout(columns, map).columns;
}

// c / i: Inspect's CORRECT and INCORRECT score values.
const TRUE_WORDS = new Set(['true', '1', 'yes', 'y', 'correct', 't', 'c', 'right', 'pass', 'accept', 'accepted']);
// not_attempted: SimpleQA's grade for an answer that gives none (not correct).
const FALSE_WORDS = new Set([
  'false',
  '0',
  'no',
  'n',
  'incorrect',
  'f',
  'wrong',
  'i',
  'fail',
  'reject',
  'rejected',
  'not_attempted',
  'not attempted',
]);
/** "1.0", "0.0", "1.00": a pandas export of a label column with gaps writes floats. */
const ONE_OR_ZERO = /^[+-]?(?:1|0)(?:\.0+)?$/;

/** Parses a label value: undefined for an empty one, or why an unknown one is not a label. */
export function parseLabel(v: unknown): Result<Label | undefined> {
  if (v === null || v === undefined) return ok(undefined);
  if (typeof v === 'boolean') return ok({ kind: 'binary', correct: v });
  if (typeof v === 'number') return v === 1 || v === 0 ? ok({ kind: 'binary', correct: v === 1 }) : fail(`label ${v} is not 1/0`);
  // String([1]) is "1": a list or an object must not pass for a label.
  if (typeof v === 'object')
    return fail(`label ${JSON.stringify(v)} is a JSON ${Array.isArray(v) ? 'array' : 'object'}, not true/false, 1/0 or a class name`);
  const s = String(v).trim().toLowerCase();
  if (s === '' || s === 'nan' || s === 'null' || s === 'none') return ok(undefined);
  if (ONE_OR_ZERO.test(s)) return ok({ kind: 'binary', correct: Number(s) === 1 });
  if (TRUE_WORDS.has(s)) return ok({ kind: 'binary', correct: true });
  if (FALSE_WORDS.has(s)) return ok({ kind: 'binary', correct: false });
  const cls = s.replace(/[_\s]+/g, '-') as CapClass;
  if ((CAP_CLASSES as readonly string[]).includes(cls)) return ok({ kind: 'taxonomy', cls });
  return fail(
    `label "${String(v)}" is not one of true/false, 1/0, yes/no, correct/incorrect or the eight class names (${CAP_CLASSES.join(', ')})`,
  );
}

/** A value as text (objects as JSON); throws (an exception: the row is skipped) for one nested too deeply to write out. */
function toText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  try {
    return JSON.stringify(v);
  } catch (e) {
    throw new Error(`a value cannot be turned into text (${messageOf(e)})`, { cause: e });
  }
}

const PY_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', '0': '\0' };

/**
 * The strings of a Python list or NumPy array of strings as pandas writes them into a CSV cell: `['Paris', "Ol'
 * Man"]` (repr) or `['Paris' 'paris']` (a NumPy array, no commas). Null for anything else (numbers, nesting, a
 * bracketed plain string), which is then read as it is.
 */
export function pythonStringList(t: string): string[] | null {
  const out: string[] = [];
  let i = 1;
  const end = t.length - 1;
  for (;;) {
    while (i < end && /[\s,]/.test(t[i]!)) i++;
    if (i >= end) return out.length ? out : null;
    const q = t[i];
    if (q !== "'" && q !== '"') return null;
    let s = '';
    for (i++; ; i++) {
      if (i >= end) return null;
      const c = t[i]!;
      if (c === q) break;
      if (c !== '\\') {
        s += c;
        continue;
      }
      const e = t[++i]!;
      const hex = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
      if (hex) {
        const code = Number.parseInt(t.slice(i + 1, i + 1 + hex), 16);
        if (!/^[0-9a-f]+$/i.test(t.slice(i + 1, i + 1 + hex)) || code > 0x10ffff) return null;
        s += String.fromCodePoint(code);
        i += hex;
      } else s += PY_ESCAPES[e] ?? `\\${e}`;
    }
    out.push(s);
    i++;
    // Items are separated by a comma or (NumPy) whitespace.
    if (i < end && !/[\s,]/.test(t[i]!)) return null;
  }
}

/** Keys under which datasets keep an answer object's strings: TriviaQA's aliases, SQuAD's text, a value. */
const ANSWER_KEYS = ['aliases', 'text', 'texts', 'answers', 'answer', 'value'];

/**
 * The answer strings of an answer object as Hugging Face datasets hold them (TriviaQA `{aliases, value, …}`,
 * SQuAD `{text: [...], answer_start: [...]}`), without repeats; null for an object that holds none.
 */
export function answerObjectStrings(o: Record<string, unknown>): string[] | null {
  for (const k of ANSWER_KEYS) {
    const v = o[k];
    const list =
      typeof v === 'string' ? [v] : Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string') ? (v as string[]) : null;
    if (list) return [...new Set(list)];
  }
  return null;
}

/**
 * A string list from an array, a JSON-array string, a Python / NumPy list of strings, an answer object (or its
 * JSON), or a string split by `sep`.
 */
function toList(v: unknown, sep?: string): string[] {
  if (Array.isArray(v))
    // SQuAD v1 style: a list of answer objects ({text, answer_start}).
    return v
      .filter((x) => x !== null && x !== undefined)
      .flatMap((x) => (isPlainObject(x) ? (answerObjectStrings(x) ?? [toText(x)]) : [toText(x)]));
  if (isPlainObject(v)) {
    const answers = answerObjectStrings(v);
    if (answers) return answers;
  }
  if (typeof v === 'string') {
    const t = v.trim();
    if (t.startsWith('{') && t.endsWith('}')) {
      try {
        const o: unknown = JSON.parse(t);
        const answers = isPlainObject(o) ? answerObjectStrings(o) : null;
        if (answers) return answers;
      } catch {
        /* a plain string in braces */
      }
    }
    if (t.startsWith('[') && t.endsWith(']')) {
      try {
        const arr: unknown = JSON.parse(t);
        // Read as the array itself is (answer objects included).
        if (Array.isArray(arr)) return toList(arr);
      } catch {
        const py = pythonStringList(t);
        if (py) return py;
        /* else a plain string that happens to be bracketed */
      }
    }
    return sep ? v.split(sep) : [v];
  }
  if (v === null || v === undefined) return [];
  return [toText(v)];
}

const jsonValue = (v: unknown): Result<unknown> => {
  if (typeof v !== 'string') return ok(v);
  try {
    return ok(JSON.parse(v));
  } catch {
    return fail('is not valid JSON');
  }
};

function distribution(v: unknown, where: string): Result<NliDistribution> {
  if (!Array.isArray(v) || v.length !== 3) return fail(`${where} must be three numbers [entailment, neutral, contradiction]`);
  if (!v.every((x) => typeof x === 'number' && Number.isFinite(x) && x >= 0))
    return fail(`${where} must hold numbers ≥ 0, got ${JSON.stringify(v)}`);
  const sum = (v[0] as number) + (v[1] as number) + (v[2] as number);
  if (Math.abs(sum - 1) > 1e-3) return fail(`${where} sums to ${sum.toFixed(4)}, not 1 (±0.001)`);
  return ok({ entailment: v[0] as number, neutral: v[1] as number, contradiction: v[2] as number });
}

/**
 * Validates NLI probabilities supplied with a row: one entry per gold, in order, each
 * {"gold_to_candidate": [ent, neu, con], "candidate_to_gold": [ent, neu, con]}.
 */
export function parseProvidedNli(raw: unknown, golds: number): Result<ProvidedNli[]> {
  const v = jsonValue(raw);
  if (!v.ok) return v;
  const list = Array.isArray(v.value) ? v.value : [v.value];
  if (list.length !== golds) return fail(`has ${list.length} entries but the row has ${golds} gold answers (one entry per gold, in order)`);
  const out: ProvidedNli[] = [];
  for (const [i, e] of list.entries()) {
    if (typeof e !== 'object' || e === null) return fail(`entry ${i + 1} must be an object with gold_to_candidate and candidate_to_gold`);
    const o = e as Record<string, unknown>;
    const g = distribution(o.gold_to_candidate, `entry ${i + 1}: gold_to_candidate`);
    if (!g.ok) return g;
    const c = distribution(o.candidate_to_gold, `entry ${i + 1}: candidate_to_gold`);
    if (!c.ok) return c;
    out.push({ goldToCandidate: g.value, candidateToGold: c.value });
  }
  return ok(out);
}

/** Validates statements supplied with a row: {"gold": [one per gold], "candidate": "…"}. */
export function parseStatements(raw: unknown, golds: number): Result<{ gold: string[]; candidate: string }> {
  const parsed = jsonValue(raw);
  if (!parsed.ok) return parsed;
  const v = parsed.value as Record<string, unknown> | null;
  if (typeof v !== 'object' || v === null || !Array.isArray(v.gold) || typeof v.candidate !== 'string')
    return fail('must be {"gold": ["…", …], "candidate": "…"}');
  if (v.gold.length !== golds || !v.gold.every((g) => typeof g === 'string'))
    return fail(`needs one gold statement per gold answer (${golds})`);
  return ok({ gold: v.gold as string[], candidate: v.candidate });
}

const isRunHeader = (d: Record<string, unknown>): boolean => {
  const keys = Object.keys(d);
  return keys.length === 1 && keys[0] === 'verity_run' && typeof d.verity_run === 'object' && d.verity_run !== null;
};

export interface MappedRows {
  rows: QaRow[];
  columns: ColumnMap;
  issues: RowIssue[];
  /** How the file was read, for the user (never errors; see MappingNote). */
  notes: MappingNote[];
}

/** Separators a gold column may use between several short answers, most specific first. */
const GOLD_SEPARATORS = [' | ', '|', ' / ', '/', '; ', ';'] as const;
const isShortItem = (s: string): boolean => {
  const t = s.trim();
  return t.length > 0 && t.length <= 40 && t.split(/\s+/).length <= 6;
};
const isNumber = (s: string): boolean => /^[\d.,]+$/.test(s.trim());

/**
 * The separator a gold cell joins several short answers with, if any. A slash joins no answers in a fraction or
 * date (every item a number: 1/2, 12/05/2001), an acronym pair (AC/DC, TCP/IP) or a unit (60 km/h, mg/L, m/s²:
 * an item that is one letter).
 */
function joinedBy(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  if (t === '' || t.startsWith('[') || t.startsWith('{')) return undefined;
  for (const sep of GOLD_SEPARATORS) {
    const parts = t.split(sep);
    if (parts.length < 2 || !parts.every(isShortItem)) continue;
    if (sep.trim() !== '/') return sep;
    if (parts.every(isNumber)) return undefined;
    if (parts.length === 2 && parts.every((p) => /^[A-Z0-9.&-]{1,4}$/.test(p.trim()))) return undefined;
    if (parts.length === 2 && parts.some((p) => /^\p{L}(\^\d|[²³])?$/u.test(p.trim()))) return undefined;
    return sep;
  }
  return undefined;
}

/**
 * Gold cells the automatic separator choice reads: the first ones of the file (of each file), so that every
 * reader (a streamed `verity score`, `verity compare`, the app) chooses alike before mapping a row.
 */
export const GOLD_SEP_SAMPLE = 5000;
/** Gold cells longer than this do not take part in the gold-separator decision (the streamed sample drops them). */
export const GOLD_SEP_CELL = 4000;

/**
 * Up to this many non-empty gold cells a file is small (a class exercise, a hand-made test): there one joined cell
 * is enough to ask whether the golds are lists, since a teacher's "France|Portugal|Andorra" among ten single answers
 * would otherwise be scored as one gold, silently.
 */
export const SMALL_FILE_GOLDS = 50;

/**
 * Counts gold cells holding several short items joined by one of GOLD_SEPARATORS. A separator is chosen when at
 * least a fifth of the non-empty gold cells (and two or more) use it: a file of single answers rarely has one
 * such cell in twenty, and a file of joined alternatives (EVOUNA's "/") leaves its single answers unjoined. Below
 * that, in a small file (SMALL_FILE_GOLDS), any such cell makes it a suggestion: not applied, the user decides.
 */
class GoldSeparatorCount {
  cells = 0;
  readonly hits = new Map<string, number>();
  add(v: unknown): void {
    // A cell past GOLD_SEP_CELL is not a list of short answers; leaving it out here keeps the streamed reader's
    // sample (which does not hold such cells) and a whole table to the same decision.
    if (typeof v !== 'string' || v.length > GOLD_SEP_CELL || v.trim() === '') return;
    this.cells++;
    const sep = joinedBy(v);
    if (sep) this.hits.set(sep, (this.hits.get(sep) ?? 0) + 1);
  }
  choice(): { separator: string; hits: number; suggested: boolean } | undefined {
    let best: [string, number] | undefined;
    for (const e of this.hits) if (!best || e[1] > best[1]) best = e;
    if (!best) return undefined;
    if (best[1] >= 2 && best[1] * 5 >= this.cells) return { separator: best[0], hits: best[1], suggested: false };
    return this.cells <= SMALL_FILE_GOLDS ? { separator: best[0], hits: best[1], suggested: true } : undefined;
  }
  note(column: string, applied: boolean): MappingNote | undefined {
    const c = this.choice();
    if (!c) return undefined;
    const share = c.hits / this.cells;
    const what = `${c.hits} of ${this.cells} gold cells (${Math.round(share * 100)}%) in column "${column}" ${c.hits === 1 ? 'holds' : 'hold'} short items joined by "${c.separator}"`;
    const message = applied
      ? `${what}; each item is read as a gold answer`
      : c.suggested
        ? `${what}, as a list of answers would be; ${c.hits === 1 ? 'it is' : 'they are'} read as one gold answer unless "${c.separator}" is set as the gold separator`
        : `${what}; they are read as one gold answer each unless "${c.separator}" is set as the gold separator`;
    return {
      code: 'gold-separator',
      column,
      separator: c.separator,
      applied,
      share,
      cells: this.cells,
      message,
      ...(c.suggested ? { suggested: true as const } : {}),
    };
  }
}

/**
 * A record's cell of column `col`: its own key (never Object.prototype's, as with --map question=constructor),
 * else one of its other spellings `alts`, else a nested path (`doc.question`) that no table step made a column of,
 * as in a streamed file.
 */
function cellOf(d: Record<string, unknown>, col: string, alts: readonly string[] = []): unknown {
  if (Object.hasOwn(d, col)) return d[col];
  for (const alt of alts) if (Object.hasOwn(d, alt)) return d[alt];
  return col.includes('.') ? getPath(d, col) : undefined;
}

/** What the first gold cells of some tables say about a separator (GoldSeparatorCount's choice). */
export interface GoldSeparatorFound {
  separator: string;
  column: string;
  /** Only a suggestion (a small file with few such cells): not applied unless the user says so. */
  suggested: boolean;
  /** The note saying so: `applied` worded as split on it, else as a hint to split on it. */
  note(applied: boolean): MappingNote;
}

/**
 * The separator most of the first GOLD_SEP_SAMPLE gold cells of each table use, if enough do
 * (GoldSeparatorCount). A gold column the mapping cannot resolve is left to mapRows to report.
 */
export function detectGoldSeparator(tables: readonly ParsedTable[], map?: ColumnMap): GoldSeparatorFound | undefined {
  const count = new GoldSeparatorCount();
  let column: string | undefined;
  for (const t of tables) {
    let col: string | undefined;
    try {
      col = resolveColumns(t.columns, map).gold;
    } catch {
      continue;
    }
    if (col === undefined) continue;
    column ??= col;
    const n = Math.min(t.records.length, GOLD_SEP_SAMPLE);
    for (let i = 0; i < n; i++) count.add(cellOf(t.records[i]!.data, col));
  }
  const c = count.choice();
  if (!c || column === undefined) return undefined;
  const col = column;
  return { separator: c.separator, column: col, suggested: c.suggested, note: (applied) => count.note(col, applied)! };
}

/**
 * The one gold-separator decision every reader makes (CLI commands, the app's session): `options.goldSep` when
 * given ('' for none), else the detected separator (detectGoldSeparator), with a note saying the golds are split
 * on it. `found` is what was detected either way, for a surface that always passes a separator (the page starts
 * from the detected one) and words its own note. A suggestion (`found.suggested`) is not applied: the golds are read
 * whole, with a note saying what splitting them would do.
 */
export function chooseGoldSeparator(
  tables: readonly ParsedTable[],
  options: MapOptions = {},
): { options: MapOptions; notes: MappingNote[]; found?: GoldSeparatorFound } {
  const found = detectGoldSeparator(tables, options.map);
  if (options.goldSep !== undefined) return { options, notes: [], ...(found ? { found } : {}) };
  if (!found) return { options, notes: [] };
  // '' (none) once decided, so the row mapper does not count the same cells again for a hint.
  if (found.suggested) return { options: { ...options, goldSep: '' }, notes: [found.note(false)], found };
  return { options: { ...options, goldSep: found.separator }, notes: [found.note(true)], found };
}

/** The first response of an lm-eval `filtered_resps` / `resps` cell (a list, or a list of lists). */
const firstResponse = (v: unknown): unknown => {
  let x = v;
  while (Array.isArray(x)) x = x[0];
  return x;
};

/** The text of one chat message or content part: `{role, content}`, `{type: 'text', text}`, or a list of parts. */
function messageText(v: unknown, depth = 0): string | null {
  if (typeof v === 'string') return v;
  if (depth > 8) return null;
  if (Array.isArray(v)) {
    const parts = v.map((p) => messageText(p, depth + 1)).filter((t): t is string => t !== null);
    return parts.length && parts.length === v.length ? parts.join('') : null;
  }
  if (!isPlainObject(v)) return null;
  if (v.content !== undefined) return messageText(v.content, depth + 1);
  if (typeof v.text === 'string') return v.text;
  if (v.message !== undefined) return messageText(v.message, depth + 1);
  return null;
}

/**
 * The answer in a candidate cell that holds what a model API returned rather than text: a chat message
 * (`{role, content}`), a list of messages (the last assistant one), an OpenAI-style response (`choices[0]`), an
 * Anthropic-style content list, `{text}`, or a one-item list. Anything else is returned as it is (a cell nested
 * too deeply is then refused by toText, as before). `role: 'user'` reads a prompt the same way (OpenAI evals'
 * `input`: the last user message).
 */
export function answerText(v: unknown, role: 'assistant' | 'user' = 'assistant'): unknown {
  let x = v;
  for (let i = 0; i < 8 && Array.isArray(x) && x.length === 1; i++) x = x[0];
  if (isPlainObject(x) && Array.isArray(x.choices) && x.choices.length > 0) x = x.choices[0];
  if (typeof x === 'string') return x;
  if (Array.isArray(x)) {
    const said = x.filter((m) => isPlainObject(m) && typeof m.role === 'string');
    if (said.length === 0 || said.length !== x.length) return v;
    return messageText([...said].reverse().find((m) => m.role === role) ?? said.at(-1)) ?? v;
  }
  return isPlainObject(x) ? (messageText(x) ?? v) : v;
}

/**
 * The ids seen so far, in ~11 bytes per id whatever their length (a streamed run of millions of rows keeps
 * no strings): 52-bit hashes (two FNV-1a variants) in an open-addressing table. Two different ids share a
 * hash with probability about n²/2⁵³ — about 1 in 1,000 for 3 million rows — and would then be reported as
 * a duplicate, a warning only.
 */
export class IdSet {
  private table = new Float64Array(1024);
  private size = 0;

  private static hash(s: string): number {
    let a = 0x811c9dc5;
    let b = 0x01000193 ^ s.length;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
    }
    // 32 + 20 bits; 0 marks an empty slot.
    return (a >>> 0) * 0x100000 + (b >>> 12) || 1;
  }

  /** Adds an id; true when it (or an id with the same hash) was already there. */
  add(id: string): boolean {
    if ((this.size + 1) * 4 > this.table.length * 3) this.grow();
    return this.put(this.table, IdSet.hash(id));
  }

  private put(t: Float64Array, h: number): boolean {
    const mask = t.length - 1;
    for (let i = h % t.length; ; i = (i + 1) & mask) {
      if (t[i] === h) return true;
      if (t[i] === 0) {
        t[i] = h;
        if (t === this.table) this.size++;
        return false;
      }
    }
  }

  private grow(): void {
    const old = this.table;
    const t = new Float64Array(old.length * 2);
    for (const h of old) if (h !== 0) this.put(t, h);
    this.table = t;
  }
}

/** Maps records one at a time (a streamed file), with the same rows, issues and notes as mapRows; rows repeating a question, gold list or label share one copy (share.ts). */
export interface RowMapper {
  columns: ColumnMap;
  /** The row for a record, or null when it is skipped; its problems are appended to `issues`. */
  map(rec: ParsedTable['records'][number], issues: RowIssue[]): QaRow | null;
  /** Notes so far: the layout and key spellings from the start, the gold separator once every row is seen. */
  notes(): MappingNote[];
}

/**
 * Chooses the columns for a table's column names (all spellings, as collected over every record). Column
 * keys are matched per row case-insensitively (`candidate` in one row and `Candidate` in another are one
 * column, noted once).
 */
export function createRowMapper(columns: string[], options: MapOptions = {}, headerLine?: number): RowMapper {
  const { columns: cols, notes } = resolveLayout(columns, options.map);
  if (options.answersOnly && !cols.candidate && cols.gold) {
    cols.candidate = cols.gold;
    delete cols.gold;
  }
  // lm-eval's response lists, however the column was chosen (the app passes its mapping explicitly).
  const firstOnly = ['filtered_resps', 'resps'].includes(cols.candidate?.toLowerCase() ?? '');
  for (const field of options.answersOnly ? (['candidate'] as const) : (['candidate', 'gold'] as const))
    if (!cols[field]) {
      const details = { field, expected: FIELD_ALIASES[field], columns, ...(headerLine !== undefined ? { headerLine } : {}) };
      throw new VerityError(missingColumnMessage(details), 'input', 'missing-column', details);
    }
  // Every spelling of each chosen column's key, the chosen one first.
  const spellings = new Map<string, string[]>();
  for (const c of columns) {
    const k = c.toLowerCase();
    spellings.set(k, [...(spellings.get(k) ?? []), c]);
  }
  const variants: Partial<Record<Field, string[]>> = {};
  for (const field of FIELDS) {
    const col = cols[field];
    if (col === undefined) continue;
    const all = spellings.get(col.toLowerCase()) ?? [col];
    if (all.length < 2) continue;
    variants[field] = [col, ...all.filter((c) => c !== col)];
    notes.push({
      code: 'key-spellings',
      field,
      column: col,
      spellings: variants[field]!,
      message: `the key of column "${col}" is spelled differently across rows (${variants[field]!.map((c) => `"${c}"`).join(', ')}); every spelling is read as that column`,
    });
  }
  // No separator chosen: count, to hint at one that only later rows use.
  const goldCount = options.goldSep === undefined && cols.gold !== undefined ? new GoldSeparatorCount() : undefined;
  // The columns the row is made of (every spelling; a nested path's head too): the others are the row's `extra`.
  const usedKeys = new Set<string>();
  for (const field of FIELDS) {
    const col = cols[field];
    if (col === undefined) continue;
    for (const c of variants[field] ?? [col]) {
      usedKeys.add(c);
      if (c.includes('.')) usedKeys.add(c.slice(0, c.indexOf('.')));
    }
  }
  const seenIds = new IdSet();
  const share = valueSharer();
  // Once per distinct cell (the records of a JSONL file share equal gold lists, parse.ts), shared across cells that
  // give equal values.
  const goldsOf = boundedMemo(
    (raw: unknown) =>
      share.golds(
        toList(raw, options.goldSep)
          .map((g) => g.trim())
          .filter((g) => g.length > 0),
      ),
    SHARE_BOUND,
  );
  const labelOf = boundedMemo((raw: unknown): Result<Label | undefined> => {
    const label = parseLabel(raw);
    return label.ok && label.value ? ok(share.label(label.value)) : label;
  }, SHARE_BOUND);
  return {
    columns: cols,
    notes() {
      const sepNote = goldCount?.note(cols.gold!, false);
      return sepNote ? [...notes, sepNote] : [...notes];
    },
    map(rec, issues) {
      // The first line of a JSONL file exported by the app describes the run, not a row.
      if (rec.row === 1 && isRunHeader(rec.data)) return null;
      const warn = (message: string, severity: RowIssue['severity'] = 'warning') => {
        const where = rec.line !== undefined && rec.line !== rec.row ? `row ${rec.row} (line ${rec.line})` : `row ${rec.row}`;
        issues.push({ row: rec.row, ...(rec.line !== undefined ? { line: rec.line } : {}), severity, message: `${where}: ${message}` });
      };
      const d = rec.data;
      const get = (field: Field): unknown => {
        const col = cols[field];
        return col === undefined ? undefined : cellOf(d, col, variants[field]);
      };
      let row: QaRow;
      let rawCand = get('candidate');
      rawCand = firstOnly ? firstResponse(rawCand) : answerText(rawCand);
      try {
        const rawGold = get('gold');
        goldCount?.add(rawGold);
        const golds = cols.gold === undefined ? [] : goldsOf(rawGold);
        if (golds.length === 0 && !options.answersOnly) {
          warn(`no gold answer in column "${cols.gold}"; skipped`, 'error');
          return null;
        }
        const rawId = get('id');
        const id = rawId !== undefined && rawId !== null && rawId !== '' ? toText(rawId) : String(rec.row);
        const candidate = rawCand === null || rawCand === undefined ? '' : toText(rawCand);
        row = {
          row: rec.row,
          id,
          question: cols.question ? share.question(toText(answerText(get('question'), 'user') ?? '')) : '',
          golds,
          candidate,
        };
        const choices = get('choices');
        if (choices != null) row.choices = toList(choices);
        const wrong = get('wrong_answers');
        if (wrong != null) row.wrongAnswers = toList(wrong);
      } catch (e) {
        warn(`${messageOf(e)}; skipped`, 'error');
        return null;
      }
      if (rawCand === null || rawCand === undefined)
        warn(`candidate is ${rawCand === null ? 'null' : 'missing'}; scored as an empty answer`);
      if (seenIds.add(row.id)) warn(`duplicate id "${row.id}"`);
      const rawLabel = get('label');
      const label = labelOf(rawLabel);
      if (!label.ok) warn(`${label.error}; the row is scored but not used in agreement reports`);
      else if (label.value) {
        row.label = label.value;
        row.rawLabel = toText(rawLabel);
      }
      const nli = get('nli');
      if (nli != null && nli !== '') {
        const parsed = parseProvidedNli(nli, row.golds.length);
        if (parsed.ok) row.nli = parsed.value;
        else warn(`nli: ${parsed.error}; the row is scored without these probabilities`);
      }
      const statements = get('statements');
      if (statements != null && statements !== '') {
        const parsed = parseStatements(statements, row.golds.length);
        if (parsed.ok) row.statements = parsed.value;
        else warn(`statements: ${parsed.error}; they are ignored`);
      }
      // The input's other columns, kept so that exports join back to the user's data.
      let extra: Record<string, unknown> | undefined;
      for (const k in d)
        if (!usedKeys.has(k)) {
          extra ??= Object.create(null) as Record<string, unknown>;
          extra[k] = d[k];
        }
      if (extra) row.extra = extra;
      return row;
    },
  };
}

export function mapRows(table: ParsedTable, options: MapOptions = {}): MappedRows {
  // Nothing was read at all: say why, rather than that there is no column called "candidate".
  if (table.records.length === 0 && table.columns.length === 0) {
    const errors = table.issues.filter((i) => i.severity === 'error');
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more errors)` : '';
    if (errors.length)
      throw new VerityError(`no record could be read: ${errors[0]!.message}${more}`, 'input', 'no-records', { errors: errors.length });
    throw new VerityError('the file has no records', 'input', 'empty-file');
  }
  const mapper = createRowMapper(table.columns, options, table.headerLine);
  const issues: RowIssue[] = [...table.issues];
  const rows: QaRow[] = [];
  for (const rec of table.records) {
    const row = mapper.map(rec, issues);
    if (row) rows.push(row);
  }
  return { rows, columns: mapper.columns, issues, notes: mapper.notes() };
}
