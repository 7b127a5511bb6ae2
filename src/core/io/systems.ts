/**
 * Multi-system inputs: one long file with a system column, the wide layout (one candidate column and one label
 * column per system, as in EVOUNA), or several files, one per system — all mapped in one step to long rows with
 * a system name and a question key that pairs the systems' rows.
 *
 * Builds on mapRows (io/fields.ts): each system's rows go through the same mapping, coercion and messages as a
 * single-system file, so nothing about a row is decided twice. Every input column the mapping did not use is
 * kept on the row (`extra`), so exports join back to the user's data.
 *
 * Pairing (question keys), unless the caller chooses: the id column when its ids pair rows of different systems;
 * else the question text (normalised: case, spacing, punctuation and Unicode forms aside), with the gold answers
 * added for a question that repeats with other golds, the k-th repeat in one system pairing with the k-th repeat
 * in the others. In the wide layout without ids, the record (one record is one question for every system). Ids
 * that name rows (`q12-gpt4`) pair nothing, so such files pair by question text on their own.
 */
import { VerityError, type QaRow } from '../types.ts';
import {
  FIELD_NAMES,
  columnKey,
  columnsByKey,
  keysOf,
  mapRows,
  resolveColumns,
  type ColumnMap,
  type MapOptions,
  type MappingNote,
} from './fields.ts';
import type { ParsedTable, RowIssue } from './parse.ts';
import { LIMITS } from '../limits.ts';

/** Column names taken as the system column, in order of preference (as column keys: columnKey). */
export const SYSTEM_ALIASES = ['system', 'model', 'source', 'run', 'model_name', 'system_name', 'model_id'] as const;

/** The most systems one comparison takes (its pairwise tables grow with the square). */
const MAX_SYSTEMS = LIMITS.systems;

/** Prefixes of a per-system candidate column and of its label column in the wide layout. */
const WIDE_CANDIDATE = ['answer', 'candidate', 'prediction', 'response', 'output', 'pred', 'completion'];
const WIDE_LABEL = ['judge', 'label', 'judgment', 'judgement', 'human_label', 'human', 'correct', 'is_correct', 'eval'];

export interface SystemRow extends QaRow {
  system: string;
  /** Pairs this row with the other systems' rows for the same question. */
  key: string;
  /** Input columns the mapping did not use, as read. */
  extra: Record<string, unknown>;
}

export type KeyBy = 'id' | 'record' | 'question';

export interface WideSystem {
  system: string;
  candidate: string;
  label?: string;
}

export interface WideLayout {
  systems: WideSystem[];
  /** Columns shared by every system (question, gold, id, …). */
  shared: string[];
}

export interface SystemMapOptions extends MapOptions {
  /**
   * The system column; `false`: none (one system). Default: the first of SYSTEM_ALIASES present that the
   * mapping leaves free, taken only if some question is answered under two of its values (a `source` column
   * naming where each question came from is not a system column).
   */
  systemColumn?: string | false;
  /** System name when the input has no system column and is not wide (default "system"). */
  system?: string;
  /** 'auto' (default): wide when detected and no candidate column is mapped explicitly. */
  layout?: 'auto' | 'long' | 'wide';
  /** Leave out records with `improper: true` (EVOUNA's outdated or ambiguous questions); default true. */
  skipImproper?: boolean;
  /** How rows are paired (default: id when ids pair rows of different systems, else question text; record for wide without ids). */
  keyBy?: KeyBy;
}

export interface SystemInput {
  rows: SystemRow[];
  systems: string[];
  layout: 'single' | 'system-column' | 'wide' | 'files';
  /** The system column used, for the system-column layout. */
  systemColumn?: string;
  keyBy: KeyBy;
  /** Why the rows are paired as they are (shown with the pairing). */
  pairing: string;
  columns: ColumnMap;
  issues: RowIssue[];
  /** What was done to the input that the user should know (left-out records, pairing rule…). */
  notes: string[];
  /** What mapping the columns noticed (the layout chosen and why, key spellings, a separator only later rows use), once each. */
  mappingNotes: MappingNote[];
}

/** A row's question as notes name it: its id when rows pair by id, else its question text. */
function exampleOf(row: Pick<SystemRow, 'id' | 'question'>, keyBy: KeyBy): string {
  return keyBy === 'id' || !row.question ? row.id : JSON.stringify(row.question.slice(0, 80));
}

const KEY_SEP = '\u241f';
const GOLD_SEP = '\u241e';

/**
 * The wide layout, when the columns hold `<prefix>_<system>` candidates (with `judge_<system>` labels), or
 * `<system>_<prefix>` ones (`gpt4_answer` + `gpt4_judge`). Names match by columnKey (any case; spaces, hyphens or
 * underscores between the words). The suffix form needs a label column beside each candidate, and a column that
 * is a field's own name (`model_answer`, `gold_answer`) is never a system's.
 */
export function detectWideLayout(columns: readonly string[]): WideLayout | null {
  const byKey = columnsByKey(columns);
  const forms = [
    {
      split: (prefix: string) => new RegExp(`^${prefix}[\\s_-]+(.+)$`, 'iu'),
      label: (p: string, sys: string) => `${p}_${sys}`,
      needLabels: false,
    },
    {
      split: (prefix: string) => new RegExp(`^(.+?)[\\s_-]+${prefix}$`, 'iu'),
      label: (p: string, sys: string) => `${sys}_${p}`,
      needLabels: true,
    },
  ];
  for (const form of forms)
    for (const prefix of WIDE_CANDIDATE) {
      const re = form.split(prefix);
      const systems: WideSystem[] = [];
      for (const c of columns) {
        const m = re.exec(c.trim());
        if (!m || keysOf(c).some((k) => FIELD_NAMES.has(k))) continue;
        const system = m[1]!.trim();
        const sysKey = columnKey(system);
        const label = WIDE_LABEL.map((p) => byKey.get(form.label(p, sysKey))).find((l) => l !== undefined);
        systems.push({ system, candidate: c, ...(label ? { label } : {}) });
      }
      // Labelled pairs identify the layout; without labels, two or more same-prefix columns do.
      const labelled = systems.filter((s) => s.label);
      const chosen = labelled.length >= 1 ? labelled : systems.length >= 2 && !form.needLabels ? systems : [];
      if (chosen.length === 0) continue;
      const used = new Set(chosen.flatMap((s) => [s.candidate, ...(s.label ? [s.label] : [])]));
      return { systems: chosen, shared: columns.filter((c) => !used.has(c)) };
    }
  return null;
}

const isImproper = (v: unknown) => v === true || (typeof v === 'string' && v.trim().toLowerCase() === 'true');

function improperColumn(columns: readonly string[]): string | undefined {
  return columns.find((c) => c.toLowerCase() === 'improper');
}

/** A column name not among `taken`: `name`, else `name_1`, `name_2`… */
function freeName(name: string, taken: ReadonlySet<string>): string {
  let n = name;
  for (let i = 1; taken.has(n.toLowerCase()); i++) n = `${name}_${i}`;
  return n;
}

/** Splits a table by the values of one column; records without a value are reported and left out. */
function splitBySystem(table: ParsedTable, column: string, issues: RowIssue[]): Map<string, ParsedTable> {
  const out = new Map<string, ParsedTable>();
  for (const rec of table.records) {
    const v = rec.data[column];
    // Spaces around a name are dropped; other characters are part of it (names that differ by a tab stay two).
    const system = v === null || v === undefined ? '' : typeof v === 'string' ? v.replace(/^ +| +$/g, '') : JSON.stringify(v);
    if (!system) {
      issues.push({
        row: rec.row,
        ...(rec.line !== undefined ? { line: rec.line } : {}),
        severity: 'error',
        message: `row ${rec.row}: no system in column "${column}"; skipped`,
      });
      continue;
    }
    let t = out.get(system);
    if (!t) out.set(system, (t = { format: table.format, columns: table.columns, records: [], issues: [] }));
    t.records.push(rec);
  }
  return out;
}

/** The first column named like a system column (SYSTEM_ALIASES) that the mapping does not claim for another field. */
function namedSystemColumn(columns: readonly string[], map: ColumnMap = {}): string | undefined {
  const claimed = new Set(Object.values(map).map((c) => c.toLowerCase()));
  const byKey = columnsByKey(columns);
  return SYSTEM_ALIASES.map((a) => byKey.get(a)).find((c) => c !== undefined && !claimed.has(c.toLowerCase()));
}

/** Adds a mapping note unless one with the same words is there (every system of a file is mapped alike). */
function addNote(notes: MappingNote[], note: MappingNote): void {
  if (!notes.some((n) => n.message === note.message)) notes.push(note);
}

/** Maps one system's records; their keys are given later, once the pairing of every system is known. */
function mapSystem(system: string, table: ParsedTable, opts: SystemMapOptions, exclude: ReadonlySet<string>, out: SystemInput): void {
  const mapped = mapRows(table, opts);
  for (const i of mapped.issues) out.issues.push({ ...i, message: `${system}: ${i.message}` });
  for (const n of mapped.notes) addNote(out.mappingNotes, n);
  for (const row of mapped.rows) {
    const extra = Object.create(null) as Record<string, unknown>;
    for (const c in row.extra) if (!exclude.has(c)) extra[c] = row.extra[c];
    out.rows.push({ ...row, system, key: '', extra });
  }
  out.columns = mapped.columns;
}

/** Question text as rows are paired by it: case, spacing, punctuation and Unicode forms aside. */
function questionText(q: string): string {
  return q
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Each row's question text and gold answers as pairing compares them. */
interface Normalised {
  texts: readonly string[];
  golds: readonly string[];
}

/** The rows' Normalised forms, made on first use and once: every count and key of one pairing shares them. */
function normaliser(rows: readonly SystemRow[]): () => Normalised {
  let n: Normalised | null = null;
  return () =>
    (n ??= {
      texts: rows.map((r) => questionText(r.question)),
      golds: rows.map((r) => r.golds.map(questionText).sort().join(GOLD_SEP)),
    });
}

/**
 * Question keys by a rule. By question: the normalised text, plus the golds for a text that repeats with other
 * golds (two questions worded alike), and the k-th repeat within one group (a system, or a system's file)
 * numbered k. Returns the keys and how many texts needed their golds.
 */
function keysBy(
  rows: readonly SystemRow[],
  keyBy: KeyBy,
  norm: () => Normalised,
  group: (i: number) => string = (i) => rows[i]!.system,
): { keys: string[]; byGolds: number } {
  if (keyBy === 'id') return { keys: rows.map((r) => r.id), byGolds: 0 };
  if (keyBy === 'record') return { keys: rows.map((r) => `row ${r.row}`), byGolds: 0 };
  const { texts, golds } = norm();
  const goldsOf = new Map<string, string>();
  const ambiguous = new Set<string>();
  texts.forEach((t, i) => {
    const g = goldsOf.get(t);
    if (g === undefined) goldsOf.set(t, golds[i]!);
    else if (g !== golds[i]) ambiguous.add(t);
  });
  const seen = new Map<string, number>();
  const keys = texts.map((t, i) => {
    const base = ambiguous.has(t) ? `${t}${KEY_SEP}${golds[i]}` : t;
    const at = `${group(i)}${KEY_SEP}${base}`;
    const k = seen.get(at) ?? 0;
    seen.set(at, k + 1);
    return k === 0 ? base : `${base}${KEY_SEP}${k + 1}`;
  });
  return { keys, byGolds: ambiguous.size };
}

/** Keys that rows of two or more systems share, and of those, the ones whose rows all ask the same question. */
function sharedKeys(
  rows: readonly SystemRow[],
  keys: readonly string[],
  norm: () => Normalised,
): { shared: number; sameQuestion: number; differ: number; example?: string } {
  const { texts, golds } = norm();
  const first = new Map<string, { system: string; text: string; golds: string; shared: boolean; same: boolean; sameGolds: boolean }>();
  keys.forEach((k, i) => {
    const r = rows[i]!;
    const f = first.get(k);
    if (!f) first.set(k, { system: r.system, text: texts[i]!, golds: golds[i]!, shared: false, same: true, sameGolds: true });
    else if (f.system !== r.system) {
      f.shared = true;
      if (f.text !== texts[i]) f.same = false;
      if (f.golds !== golds[i]) f.sameGolds = false;
    }
  });
  let shared = 0;
  let sameQuestion = 0;
  let differ = 0;
  let example: string | undefined;
  for (const [k, f] of first)
    if (f.shared) {
      shared++;
      if (f.same) sameQuestion++;
      if (!f.same || !f.sameGolds) {
        differ++;
        example ??= k;
      }
    }
  return { shared, sameQuestion, differ, ...(example !== undefined ? { example } : {}) };
}

interface Pairing {
  keyBy: KeyBy;
  /** Why, for the note. */
  why: string;
  /** Ids that pair rows asking different questions or with other golds, said in a note of its own. */
  warn?: string;
  /** Keys that rows of two or more systems share under it. */
  shared: number;
}

/**
 * How rows are paired when the caller does not say: by id when the ids pair rows of different systems (and do
 * not mostly pair different questions where question text pairs more); else by question text. The wide layout
 * without ids pairs by record.
 */
function choosePairing(
  rows: readonly SystemRow[],
  hasId: boolean,
  wide: boolean,
  chosen: KeyBy | undefined,
  norm: () => Normalised,
): Pairing {
  const count = (keyBy: KeyBy) => sharedKeys(rows, keysBy(rows, keyBy, norm).keys, norm);
  // Rows paired by id that ask different questions, or carry other golds, are paired all the same, and said.
  const byId = (why: string, ids = count('id')): Pairing => ({
    keyBy: 'id',
    why,
    shared: ids.shared,
    ...(ids.differ
      ? {
          warn: `${ids.differ} of the ${ids.shared} ids shared by two systems give them different questions or gold answers (e.g. id ${ids.example}): their rows are paired all the same; check the ids, or pair by question text`,
        }
      : {}),
  });
  if (chosen === 'id') return byId('as chosen');
  if (chosen) return { keyBy: chosen, why: 'as chosen', shared: count(chosen).shared };
  if (wide) return hasId ? byId('') : { keyBy: 'record', why: '', shared: count('record').shared };
  const byQuestion = () => count('question').shared;
  if (!hasId) return { keyBy: 'question', why: 'no id column', shared: byQuestion() };
  const ids = count('id');
  if (ids.shared === 0) {
    const q = byQuestion();
    if (q > 0) return { keyBy: 'question', why: 'no id is shared by two systems: the ids name rows, not questions', shared: q };
    return byId('', ids);
  }
  if (ids.sameQuestion * 2 < ids.shared) {
    const q = byQuestion();
    if (q > ids.sameQuestion)
      return {
        keyBy: 'question',
        why: `${ids.shared - ids.sameQuestion} of the ${ids.shared} ids shared by two systems give them different questions`,
        shared: q,
      };
  }
  return byId('', ids);
}

const PAIRED_BY: Record<KeyBy, string> = {
  id: 'id',
  question: 'question text',
  record: 'record (one record is one question for every system)',
};

/** Gives every row its key under the pairing, and notes how the rows were paired. */
function applyPairing(out: SystemInput, pairing: Pairing, norm: () => Normalised): void {
  const { keys, byGolds } = keysBy(out.rows, pairing.keyBy, norm);
  keys.forEach((k, i) => (out.rows[i]!.key = k));
  out.keyBy = pairing.keyBy;
  out.pairing = pairingNote(out, pairing, byGolds);
  if (out.pairing) out.notes.push(out.pairing);
  if (pairing.warn && out.systems.length > 1) out.notes.push(pairing.warn);
}

/** How the rows were paired and how many questions each system has ('' for one system). */
function pairingNote(out: Pick<SystemInput, 'rows' | 'systems'>, pairing: Pairing, byGolds: number): string {
  if (out.systems.length < 2) return '';
  const perSystem = new Map(out.systems.map((s) => [s, new Set<string>()] as const));
  for (const r of out.rows) perSystem.get(r.system)?.add(r.key);
  const counts = [...perSystem.values()].map((k) => k.size);
  const questions = counts.every((n) => n === counts[0])
    ? `every system has ${counts[0]!.toLocaleString('en')} question${counts[0] === 1 ? '' : 's'}`
    : `questions per system: ${out.systems.map((s, i) => `${s} ${counts[i]!.toLocaleString('en')}`).join(', ')}`;
  const golds =
    byGolds > 0
      ? `; ${byGolds} question text${byGolds === 1 ? ' that repeats' : 's that repeat'} with other gold answers told apart by the golds`
      : '';
  return `rows paired by ${PAIRED_BY[pairing.keyBy]}${pairing.why ? ` (${pairing.why})` : ''}${golds}; ${questions}`;
}

/** Rows of every system in one table: a system column, the wide layout, or a single system. */
export function mapSystemRows(table: ParsedTable, opts: SystemMapOptions = {}): SystemInput {
  return mapTable(table, opts, false);
}

/**
 * mapSystemRows; `ofMany`: one of several files, whose rows are paired with the others' afterwards (mapSystemFiles),
 * and whose system column may hold one value (it names the file's system).
 */
function mapTable(table: ParsedTable, opts: SystemMapOptions, ofMany: boolean): SystemInput {
  const out: SystemInput = {
    rows: [],
    systems: [],
    layout: 'single',
    keyBy: 'question',
    pairing: '',
    columns: {},
    issues: [...table.issues],
    notes: [],
    mappingNotes: [],
  };
  const pair = (p: (norm: () => Normalised) => Pairing) => {
    if (!ofMany) {
      const norm = normaliser(out.rows);
      applyPairing(out, p(norm), norm);
    }
    return out;
  };
  const improper = opts.skipImproper === false ? undefined : improperColumn(table.columns);
  let records = table.records;
  if (improper) {
    records = records.filter((r) => !isImproper(r.data[improper]));
    const left = table.records.length - records.length;
    if (left) out.notes.push(`${left} record${left === 1 ? '' : 's'} marked ${improper}: true left out`);
  }
  const wide = opts.layout === 'long' || (opts.layout !== 'wide' && opts.map?.candidate) ? null : detectWideLayout(table.columns);
  if (opts.layout === 'wide' && !wide)
    throw new VerityError(
      `no wide layout: expected candidate columns such as answer_<system> with judge_<system> labels; the columns are ${table.columns.join(', ')}`,
      'input',
    );

  if (wide && wide.systems.length > MAX_SYSTEMS)
    throw new VerityError(
      `the wide layout names ${wide.systems.length.toLocaleString('en')} systems (columns such as ${wide.systems[0]!.candidate}); Verity compares at most ${MAX_SYSTEMS.toLocaleString('en')}: keep fewer answer columns, or write one row per system and question with a system column`,
      'input',
    );
  if (wide) {
    out.layout = 'wide';
    const taken = new Set(wide.shared.map((c) => c.toLowerCase()));
    const cand = freeName('candidate', taken);
    const label = freeName('label', new Set([...taken, cand.toLowerCase()]));
    const sys = freeName('system', new Set([...taken, cand.toLowerCase(), label.toLowerCase()]));
    const map: ColumnMap = { ...opts.map, candidate: cand, label };
    const columns = [...wide.shared, cand, label, sys];
    const hasId = resolveColumns(columns, map).id !== undefined;
    out.notes.push(
      `wide layout: ${wide.systems.map((s) => `${s.system} (${s.candidate}${s.label ? ` + ${s.label}` : ', no labels'})`).join(', ')}`,
    );
    for (const w of wide.systems) {
      const sub: ParsedTable = {
        format: table.format,
        columns,
        records: records.map((r) => {
          const data = Object.create(null) as Record<string, unknown>;
          for (const c of wide.shared) if (Object.hasOwn(r.data, c)) data[c] = r.data[c];
          data[cand] = r.data[w.candidate];
          data[label] = w.label ? r.data[w.label] : undefined;
          data[sys] = w.system;
          return { ...r, data };
        }),
        issues: [],
      };
      mapSystem(w.system, sub, { ...opts, map }, new Set([sys]), out);
      out.systems.push(w.system);
    }
    return pair((norm) => choosePairing(out.rows, hasId, true, opts.keyBy, norm));
  }

  const lower = new Map(table.columns.map((c) => [c.toLowerCase(), c] as const));
  let systemColumn: string | undefined;
  if (typeof opts.systemColumn === 'string') {
    systemColumn = lower.get(opts.systemColumn.toLowerCase());
    if (!systemColumn)
      throw new VerityError(
        `the system column "${opts.systemColumn}" is not in the file; the columns are ${table.columns.join(', ')}`,
        'usage',
        'unknown-system-column',
        { column: opts.systemColumn, columns: table.columns },
      );
  } else if (opts.systemColumn === undefined) systemColumn = namedSystemColumn(table.columns, opts.map);
  const hasId = resolveColumns(table.columns, opts.map).id !== undefined;
  const filtered: ParsedTable = { ...table, records, issues: [] };
  const single = () => {
    const name = opts.system ?? 'system';
    mapSystem(name, filtered, opts, new Set(), out);
    out.systems.push(name);
    return pair((norm) => choosePairing(out.rows, hasId, false, opts.keyBy, norm));
  };
  if (!systemColumn) return single();
  const groups = splitBySystem(filtered, systemColumn, out.issues);
  if (groups.size > MAX_SYSTEMS) {
    // A column of ids, or of free text: no comparison of that many systems means anything, and its S × S tables
    // would not fit in memory.
    const why = `column "${systemColumn}" has ${groups.size.toLocaleString('en')} values; Verity compares at most ${MAX_SYSTEMS.toLocaleString('en')} systems`;
    if (opts.systemColumn !== undefined) throw new VerityError(`${why}: choose another system column, or none`, 'input');
    out.issues = [...table.issues];
    out.notes.push(`${why}, so it is not read as the system column`);
    return single();
  }
  out.layout = 'system-column';
  out.systemColumn = systemColumn;
  for (const [system, sub] of groups) {
    // The system column stays among the row's own columns (a "source" is data), unless it is named as the output's `system`.
    mapSystem(system, sub, opts, new Set(systemColumn.toLowerCase() === 'system' ? [systemColumn] : []), out);
    out.systems.push(system);
  }
  if (out.systems.length === 0) throw new VerityError(`no row has a system in column "${systemColumn}"`, 'input');
  const found = opts.systemColumn === undefined;
  const norm = normaliser(out.rows);
  const pairing = !ofMany || out.systems.length > 1 ? choosePairing(out.rows, hasId, false, opts.keyBy, norm) : null;
  // Found by its name only: a column of one value (a dataset's name) in a file of its own, or of values that
  // answer no question in common (where each question came from), names no systems to compare.
  const oneValue = found && !ofMany && out.systems.length === 1;
  const nothingShared = found && out.systems.length > 1 && pairing!.shared === 0;
  if (oneValue || nothingShared) {
    const values = out.systems;
    Object.assign(out, { rows: [], systems: [], layout: 'single', columns: {}, issues: [...table.issues] });
    delete out.systemColumn;
    out.notes.push(
      oneValue
        ? `column "${systemColumn}" is not read as the system column: it has one value (${JSON.stringify(values[0])}), so the file holds one system`
        : `column "${systemColumn}" is not read as the system column: no question is answered under two of its ${values.length} values, by id or by question text (choose it as the system column to compare them anyway)`,
    );
    return single();
  }
  if (!ofMany) applyPairing(out, pairing!, norm);
  return out;
}

export interface SystemCoverage {
  system: string;
  rows: number;
  /** Questions other systems have and this one lacks, with a few examples. */
  missing: number;
  examples: string[];
}

export interface Coverage {
  /** Distinct questions over all systems. */
  questions: number;
  /** Questions every system has. */
  complete: number;
  systems: SystemCoverage[];
}

/** Which questions each system lacks (rows present in one input but not another), named as the pairing names them. */
export function coverage(
  rows: readonly Pick<SystemRow, 'system' | 'key' | 'id' | 'question'>[],
  systems: readonly string[],
  keyBy: KeyBy = 'id',
  examples = 5,
): Coverage {
  const keysOf = new Map(systems.map((s) => [s, new Set<string>()] as const));
  const all = new Map<string, (typeof rows)[number]>();
  for (const r of rows) {
    keysOf.get(r.system)?.add(r.key);
    if (!all.has(r.key)) all.set(r.key, r);
  }
  let complete = 0;
  for (const k of all.keys()) if (systems.every((s) => keysOf.get(s)!.has(k))) complete++;
  return {
    questions: all.size,
    complete,
    systems: systems.map((system) => {
      const have = keysOf.get(system)!;
      const lacking: string[] = [];
      let missing = 0;
      for (const [k, first] of all)
        if (!have.has(k)) {
          missing++;
          if (lacking.length < examples) lacking.push(exampleOf(first, keyBy));
        }
      return { system, rows: have.size, missing, examples: lacking };
    }),
  };
}

/** One line per system that lacks questions, for the CLI and the app. */
export function coverageNotes(c: Coverage, source: (system: string) => string = (s) => s, most = 10): string[] {
  const lacking = c.systems.filter((s) => s.missing > 0);
  const lines = lacking
    .slice(0, most)
    .map(
      (s) =>
        `${source(s.system)}: ${s.missing} of ${c.questions} questions missing (present in another input), e.g. ${s.examples.join(', ')}`,
    );
  // One line per system up to `most`, then one for the rest: never a line per system of hundreds.
  if (lacking.length > most) lines.push(`… and ${lacking.length - most} more systems lack questions another system has`);
  return lines;
}

/** A system name from a file name: the base name without its extensions (`runs/gpt4.samples.jsonl` → `gpt4.samples`). */
export function systemFromFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? name;
  const stripped = base.replace(/(\.gz)?$/i, '').replace(/\.(jsonl|ndjson|json|csv|tsv|parquet|txt|eval)$/i, '');
  return stripped || base;
}

/**
 * System names for several files: the base names, unless they collide or are lm-evaluation-harness sample files
 * (`samples_<task>_<date>.jsonl`, kept in one folder per model): then the folder names, when those tell the files
 * apart (`out/gpt4/samples.jsonl`, `out/llama/samples.jsonl` → gpt4, llama).
 */
export function systemNamesForFiles(names: readonly string[]): string[] {
  const bases = names.map(systemFromFileName);
  const parents = names.map((n) => n.split(/[\\/]/).slice(-2, -1)[0] ?? '');
  const collide = new Set(bases).size < bases.length;
  const harness = bases.length > 1 && bases.every((b) => /^samples_/.test(b));
  if ((collide || harness) && parents.every((p) => p && p !== '.' && p !== '..') && new Set(parents).size === parents.length)
    return parents;
  return bases;
}

export interface SystemFile {
  name: string;
  table: ParsedTable;
}

export interface FilesInput extends SystemInput {
  /** The file each system came from. */
  sources: Record<string, string>;
  coverage: Coverage;
}

/**
 * Several files, one per system (named after the file unless a system column or the wide layout names them),
 * paired by id when the files' ids pair their rows, else by question text (choosePairing).
 */
export function mapSystemFiles(files: readonly SystemFile[], opts: SystemMapOptions = {}): FilesInput {
  if (files.length === 0) throw new VerityError('no input files', 'usage');
  if (files.length > MAX_SYSTEMS)
    throw new VerityError(
      `${files.length.toLocaleString('en')} files; Verity compares at most ${MAX_SYSTEMS.toLocaleString('en')} systems`,
      'usage',
    );
  const out: FilesInput = {
    rows: [],
    systems: [],
    layout: files.length > 1 ? 'files' : 'single',
    keyBy: 'question',
    pairing: '',
    columns: {},
    issues: [],
    notes: [],
    mappingNotes: [],
    sources: Object.create(null) as Record<string, string>,
    coverage: { questions: 0, complete: 0, systems: [] },
  };
  const taken = new Set<string>();
  const names = systemNamesForFiles(files.map((f) => f.name));
  const mapped = files.map((f, i) => {
    let name = names[i]!;
    if (taken.has(name)) {
      let i = 2;
      while (taken.has(`${name}#${i}`)) i++;
      out.notes.push(`${f.name}: another file is also named "${name}"; its system is "${name}#${i}"`);
      name = `${name}#${i}`;
    }
    const one = mapTable(f.table, { ...opts, system: name }, files.length > 1);
    if (one.layout === 'single') taken.add(name);
    return one;
  });
  let pairing: Pairing | null = null;
  let byGolds = 0;
  if (files.length > 1) {
    // One rule for every file; a row's repeats are counted within its file, so two runs of one model stay apart.
    const rows: SystemRow[] = [];
    const fileOf: number[] = [];
    mapped.forEach((m, i) => {
      for (const r of m.rows) {
        rows.push(r);
        fileOf.push(i);
      }
    });
    const noId = files.filter((f) => resolveColumns(f.table.columns, opts.map).id === undefined).map((f) => f.name);
    const norm = normaliser(rows);
    pairing = choosePairing(rows, noId.length === 0, false, opts.keyBy, norm);
    if (pairing.why === 'no id column') pairing.why = `no id column in ${noId.join(', ')}`;
    const keyed = keysBy(rows, pairing.keyBy, norm, (i) => `${rows[i]!.system}${KEY_SEP}${fileOf[i]}`);
    keyed.keys.forEach((k, i) => (rows[i]!.key = k));
    byGolds = keyed.byGolds;
    out.keyBy = pairing.keyBy;
  }
  out.notes.push(...separateRuns(files, mapped, names, taken));
  for (const [i, f] of files.entries()) {
    const one = mapped[i]!;
    if (files.length === 1) out.keyBy = one.keyBy;
    // A loop, not push(...rows): spreading a million rows overflows the call stack.
    for (const r of one.rows) out.rows.push(r);
    for (const s of one.systems) {
      if (!(s in out.sources)) out.systems.push(s);
      out.sources[s] = out.sources[s] ? `${out.sources[s]}, ${f.name}` : f.name;
    }
    for (const i of one.issues) out.issues.push({ ...i, message: `${f.name}: ${i.message}` });
    if (files.length === 1) {
      out.notes.push(...one.notes.map((n) => (n === one.pairing ? n : `${f.name}: ${n}`)));
      out.pairing = one.pairing;
    } else out.notes.push(...one.notes.map((n) => `${f.name}: ${n}`));
    for (const n of one.mappingNotes) addNote(out.mappingNotes, files.length === 1 ? n : { ...n, message: `${f.name}: ${n.message}` });
    out.columns = one.columns;
    if (files.length === 1) out.layout = one.layout;
    if (one.systemColumn) out.systemColumn = one.systemColumn;
  }
  if (pairing) {
    out.pairing = pairingNote(out, pairing, byGolds);
    if (out.pairing) out.notes.push(out.pairing);
    if (pairing.warn && out.systems.length > 1) out.notes.push(pairing.warn);
  }
  out.notes.push(...repeatedAcrossFiles(out));
  out.coverage = coverage(out.rows, out.systems, out.keyBy);
  out.notes.push(...coverageNotes(out.coverage, (s) => (out.sources[s] && out.sources[s] !== s ? `${s} (${out.sources[s]})` : s)));
  return out;
}

/**
 * Files whose system column names one and the same system (two Inspect logs of one model, say) are shards of one
 * run when they give different questions, and are merged; when they give a question twice they are separate
 * runs, and each becomes its own system, named "<system> (<file>)". Renames the rows in place; returns the notes.
 */
function separateRuns(files: readonly SystemFile[], mapped: SystemInput[], names: readonly string[], taken: Set<string>): string[] {
  const bySystem = new Map<string, number[]>();
  mapped.forEach((m, i) => {
    if (m.layout !== 'system-column' || m.systems.length !== 1) return;
    const s = m.systems[0]!;
    bySystem.set(s, [...(bySystem.get(s) ?? []), i]);
  });
  const notes: string[] = [];
  for (const [system, idx] of bySystem) {
    if (idx.length < 2) continue;
    const seen = new Set<string>();
    let overlap = false;
    for (const i of idx) {
      const keys = new Set(mapped[i]!.rows.map((r) => r.key));
      for (const k of keys) if (seen.has(k)) overlap = true;
      for (const k of keys) seen.add(k);
      if (overlap) break;
    }
    if (!overlap) continue;
    for (const i of idx) {
      let name = `${system} (${names[i]})`;
      for (let n = 2; taken.has(name); n++) name = `${system} (${names[i]}#${n})`;
      taken.add(name);
      for (const r of mapped[i]!.rows) r.system = name;
      mapped[i]!.systems = [name];
    }
    notes.push(
      `${idx.map((i) => files[i]!.name).join(', ')} all name the system "${system}" and answer the same questions: each file is compared as a system of its own (${idx.map((i) => `"${mapped[i]!.systems[0]}"`).join(', ')})`,
    );
  }
  return notes;
}

/**
 * A system whose rows come from several files (two logs of one model, or shards of one run) may give a question
 * twice; only the first row of a (system, question) pair is compared (compare/table.ts), and this says so. Repeats
 * within one file are that file's duplicate-id warnings already.
 */
function repeatedAcrossFiles(out: FilesInput): string[] {
  const shared = new Set(out.systems.filter((s) => out.sources[s]?.includes(', ')));
  if (shared.size === 0) return [];
  const seen = new Map<string, Set<string>>();
  const repeats = new Map<string, { n: number; example: string }>();
  for (const r of out.rows) {
    if (!shared.has(r.system)) continue;
    let keys = seen.get(r.system);
    if (!keys) seen.set(r.system, (keys = new Set()));
    if (!keys.has(r.key)) keys.add(r.key);
    else {
      const rep = repeats.get(r.system);
      if (rep) rep.n++;
      else repeats.set(r.system, { n: 1, example: exampleOf(r, out.keyBy) });
    }
  }
  return [...repeats].map(
    ([system, { n, example }]) =>
      `${system} (${out.sources[system]}): ${n} row${n === 1 ? '' : 's'} give${n === 1 ? 's' : ''} a question another of its rows already gave (e.g. ${example}); only the first row of each is compared; to compare the files as separate systems, give their rows different system names`,
  );
}

/** The mapping step's first guess at the systems of a file (guessSystems). */
export interface SystemsGuess {
  /** The column mapping to use with it (the wide layout brings its own candidate and label columns). */
  map: ColumnMap;
  /** The wide layout, or a system column left for the mapping to take (as verity compare takes it); absent: one system per file. */
  systems?: { wide: true } | { auto: true };
  /** The wide layout's systems, when the columns have one. */
  wide: WideSystem[] | null;
}

/**
 * The systems of a file as `verity compare` first guesses them: the wide layout (answer_<system> + judge_<system>)
 * when the columns have it; else, when a column is named like a system column and the detected mapping leaves it
 * free, that column if its values answer the same questions (decided when mapping); else one system per file.
 */
export function guessSystems(columns: readonly string[], detected: ColumnMap): SystemsGuess {
  const wide = detectWideLayout(columns)?.systems ?? null;
  if (wide) {
    const { candidate: _c, label: _l, ...map } = detected;
    return { map, systems: { wide: true }, wide };
  }
  // The column the mapping would take (namedSystemColumn), left to it: it is taken only if its values answer the same questions.
  const free = namedSystemColumn(columns, detected) !== undefined;
  return { map: { ...detected }, ...(free ? { systems: { auto: true as const } } : {}), wide: null };
}
