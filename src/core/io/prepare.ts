/**
 * The one input pipeline: parsed tables and a column mapping in, the rows every surface scores out — with the
 * issues, the notes, and the systems when the input has several. The app's session and every CLI command that
 * reads a file whole use it; the CLI's streamed reader (cli/input.ts readRows) is its batch form, making the same
 * decisions through the same plan (planInput on the first GOLD_SEP_SAMPLE records, then the plan's mapper row by
 * row). No surface calls the steps below the plan itself (an eslint rule keeps them out).
 *
 * Steps: nested paths the mapping names become columns (withPaths); the gold separator is decided once for all
 * tables (chooseGoldSeparator); the rows are mapped as one system (mapRows) or as several (mapSystemFiles: a
 * system column, the wide layout, or one file per system).
 */
import {
  chooseGoldSeparator,
  createRowMapper,
  mapRows,
  type ColumnMap,
  type GoldSeparatorFound,
  type MapOptions,
  type MappingNote,
  type RowMapper,
} from './fields.ts';
import type { ParsedTable, RowIssue } from './parse.ts';
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
  /** The note of the separator chosen because none was given (the CLI prints it). */
  separatorNotes: MappingNote[];
  /** With a separator given: the detected one's note as the given one stands to it (what the page shows). */
  givenNotes: MappingNote[];
  /** The separator applied ('' or absent: none), and the one the gold cells suggest, whether applied or not. */
  goldSep?: string;
  found?: GoldSeparatorFound;
  /** The systems and their pairing, when mapped as several systems. */
  systems: FilesInput | null;
}

/**
 * What every surface decides about an input before mapping a row, from a sample of its records (the whole tables,
 * or the streamed reader's first GOLD_SEP_SAMPLE records): the gold separator, and the options rows are mapped
 * with. `mapper` maps one table's records as every surface does (its `map` is the plan's mapRecord).
 */
export interface InputPlan {
  /** The mapping options with the gold separator decided. */
  options: MapOptions;
  /** The separator applied ('' or absent: none), and the one the gold cells suggest, whether applied or not. */
  goldSep?: string;
  found?: GoldSeparatorFound;
  /** The note of the separator chosen because none was given. */
  separatorNotes: MappingNote[];
  /** With a separator given: the detected one's note as the given one stands to it. */
  givenNotes: MappingNote[];
  mapper(columns: string[], headerLine?: number): RowMapper;
}

export function planInput(samples: readonly ParsedTable[], m: Omit<InputMapping, 'systems'> = {}): InputPlan {
  const chosen = chooseGoldSeparator(samples, {
    ...(m.map ? { map: m.map } : {}),
    ...(m.goldSep !== undefined ? { goldSep: m.goldSep } : {}),
    ...(m.answersOnly ? { answersOnly: true } : {}),
  });
  return {
    options: chosen.options,
    ...(chosen.options.goldSep !== undefined ? { goldSep: chosen.options.goldSep } : {}),
    ...(chosen.found ? { found: chosen.found } : {}),
    separatorNotes: chosen.notes,
    givenNotes: chosen.givenNotes,
    mapper: (columns, headerLine) => createRowMapper(columns, chosen.options, headerLine),
  };
}

export function prepareInput(files: readonly SystemFile[], m: InputMapping = {}): PreparedInput {
  const paths = Object.values(m.map ?? {});
  const tables = files.map((f) => ({ name: f.name, table: withPaths(f.table, paths) }));
  const several = m.systems !== undefined || tables.length > 1;
  // Several systems map answers against golds: answersOnly is a one-file statements job.
  const plan = planInput(
    tables.map((t) => t.table),
    { ...m, ...(several ? { answersOnly: false } : {}) },
  );
  const decided = {
    ...(plan.goldSep !== undefined ? { goldSep: plan.goldSep } : {}),
    ...(plan.found ? { found: plan.found } : {}),
    separatorNotes: plan.separatorNotes,
    givenNotes: plan.givenNotes,
  };
  if (several) {
    const input = mapSystemFiles(tables, { ...plan.options, ...m.systems });
    return { rows: input.rows, columns: input.columns, issues: input.issues, notes: input.mappingNotes, systems: input, ...decided };
  }
  const one = mapRows(tables[0]!.table, plan.options);
  return { rows: one.rows, columns: one.columns, issues: one.issues, notes: one.notes, systems: null, ...decided };
}
