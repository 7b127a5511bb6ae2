/**
 * The row mapper: parsed records to QA rows, one at a time (createRowMapper, for a streamed file) or a whole table
 * (mapRows), with every row it cannot use and why. The jobs it draws on live beside it, one file each — the columns
 * and layouts (columns.ts), label words (labels.ts), cell coercion and chat messages (cells.ts), the gold separator
 * (gold-separator.ts), duplicate ids (id-set.ts) — and are re-exported here for the readers that map rows.
 */
import { VerityError, type Label, type QaRow } from '../types.ts';
import { type ParsedTable, type RowIssue } from './parse.ts';
import { SHARE_BOUND, valueSharer } from './share.ts';
import { boundedMemo } from '../util/memo.ts';
import { messageOf, ok, type Result } from '../errors.ts';
import {
  FIELD_ALIASES,
  FIELDS,
  missingColumnMessage,
  resolveLayout,
  type ColumnMap,
  type Field,
  type MapOptions,
  type MappingNote,
} from './columns.ts';
import { parseLabel } from './labels.ts';
import { answerText, firstResponse, parseProvidedNli, parseStatements, toList, toText } from './cells.ts';
import { cellOf, GoldSeparatorCount } from './gold-separator.ts';
import { IdSet } from './id-set.ts';
export * from './columns.ts';
export * from './labels.ts';
export * from './cells.ts';
export * from './gold-separator.ts';
export * from './id-set.ts';

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
