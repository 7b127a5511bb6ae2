/**
 * The one input pipeline: parsed tables and a column mapping in, the rows every surface scores out — with the
 * issues, the notes, and the systems when the input has several. The app's session and every CLI command that
 * reads a file whole use it; the CLI's streamed reader (cli/input.ts readRows) is its batch form, making the same
 * decisions (chooseGoldSeparator on the first GOLD_SEP_SAMPLE records, then createRowMapper row by row).
 *
 * Steps: nested paths the mapping names become columns (withPaths); the gold separator is decided once for all
 * tables (chooseGoldSeparator); the rows are mapped as one system (mapRows) or as several (mapSystemFiles: a
 * system column, the wide layout, or one file per system).
 */
import { chooseGoldSeparator, mapRows, type ColumnMap, type GoldSeparatorFound, type MappingNote } from './fields.ts';
import type { RowIssue } from './parse.ts';
import { withPaths } from './formats/index.ts';
import { mapSystemFiles, type FilesInput, type SystemFile, type SystemMapOptions } from './systems.ts';
import type { QaRow } from '../types.ts';

export interface InputMapping {
  map?: ColumnMap;
  /** '' for none; absent: chosen from the gold cells (chooseGoldSeparator). */
  goldSep?: string;
  /** Map as several systems (always when several files are given); absent with one file: one system. */
  systems?: Omit<SystemMapOptions, 'map' | 'goldSep'>;
  /** A file of answers to turn into statements: no gold needed (fields.ts MapOptions). */
  answersOnly?: boolean;
}

export interface PreparedInput {
  rows: QaRow[];
  columns: ColumnMap;
  issues: RowIssue[];
  /** What mapping noticed (layout, key spellings, a separator only later rows use). */
  notes: MappingNote[];
  /** The note of the separator chosen because none was given (the CLI prints it; the page words its own from `found`). */
  separatorNotes: MappingNote[];
  /** The separator applied ('' or absent: none), and the one the gold cells suggest, whether applied or not. */
  goldSep?: string;
  found?: GoldSeparatorFound;
  /** The systems and their pairing, when mapped as several systems. */
  systems: FilesInput | null;
}

export function prepareInput(files: readonly SystemFile[], m: InputMapping = {}): PreparedInput {
  const paths = Object.values(m.map ?? {});
  const tables = files.map((f) => ({ name: f.name, table: withPaths(f.table, paths) }));
  const chosen = chooseGoldSeparator(
    tables.map((t) => t.table),
    { ...(m.map ? { map: m.map } : {}), ...(m.goldSep !== undefined ? { goldSep: m.goldSep } : {}) },
  );
  const decided = {
    ...(chosen.options.goldSep !== undefined ? { goldSep: chosen.options.goldSep } : {}),
    ...(chosen.found ? { found: chosen.found } : {}),
    separatorNotes: chosen.notes,
  };
  if (m.systems || tables.length > 1) {
    const input = mapSystemFiles(tables, { ...chosen.options, ...m.systems });
    return { rows: input.rows, columns: input.columns, issues: input.issues, notes: [], systems: input, ...decided };
  }
  const one = mapRows(tables[0]!.table, { ...chosen.options, ...(m.answersOnly ? { answersOnly: true } : {}) });
  return { rows: one.rows, columns: one.columns, issues: one.issues, notes: one.notes, systems: null, ...decided };
}
