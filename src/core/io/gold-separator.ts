/**
 * The gold-separator decision: whether gold cells hold several short answers joined by ` | `, `/`, `;`…, made once
 * on the first cells of the input (every surface alike) and said in a note.
 */
import { type ParsedTable } from './parse.ts';
import { getPath } from './formats/nested.ts';
import { resolveColumns, type ColumnMap, type MapOptions, type MappingNote } from './columns.ts';

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
export function joinedBy(v: unknown): string | undefined {
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
export class GoldSeparatorCount {
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
export function cellOf(d: Record<string, unknown>, col: string, alts: readonly string[] = []): unknown {
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
 * from the detected one). A suggestion (`found.suggested`) is not applied: the golds are read
 * whole, with a note saying what splitting them would do. With a separator given, `givenNotes` is the detected
 * one's note as the given one stands to it (split on it, or a hint when none is given; nothing for another one):
 * what the page, which always gives one, shows; the CLI's user typed theirs and is not told.
 */
export function chooseGoldSeparator(
  tables: readonly ParsedTable[],
  options: MapOptions = {},
): { options: MapOptions; notes: MappingNote[]; givenNotes: MappingNote[]; found?: GoldSeparatorFound } {
  const found = detectGoldSeparator(tables, options.map);
  if (options.goldSep !== undefined) {
    const sep = options.goldSep;
    const givenNotes = found && (sep === found.separator || !sep) ? [found.note(sep === found.separator)] : [];
    return { options, notes: [], givenNotes, ...(found ? { found } : {}) };
  }
  if (!found) return { options, notes: [], givenNotes: [] };
  // '' (none) once decided, so the row mapper does not count the same cells again for a hint.
  if (found.suggested) return { options: { ...options, goldSep: '' }, notes: [found.note(false)], givenNotes: [], found };
  return { options: { ...options, goldSep: found.separator }, notes: [found.note(true)], givenNotes: [], found };
}
