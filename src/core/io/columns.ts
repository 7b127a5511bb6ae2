/**
 * The fields a QA row has and the columns that hold them: the recognised names (FIELD_ALIASES), how a name is
 * matched (case, spaces, camelCase), the known layouts recognised as a whole, and the notes a mapping leaves.
 */
import { VerityError } from '../types.ts';

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
