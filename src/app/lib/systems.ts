/**
 * The mapping step's first guess at the systems of a file, as `verity compare` guesses them: the wide layout
 * (answer_<system> + judge_<system>) when the columns have it, else a system / model / source / run column the
 * column mapping did not take for another field, else one system per file.
 */
import { SYSTEM_ALIASES, detectWideLayout, type WideSystem } from '../../core/compare/inputs.ts';
import type { ColumnMap } from '../../core/io/fields.ts';
import type { SystemsMapping } from '../../session/compare.ts';

export interface SystemsGuess {
  /** The column mapping to use with it (the wide layout brings its own candidate and label columns). */
  map: ColumnMap;
  systems?: SystemsMapping;
}

/** The wide layout's systems, when the columns have one. */
export function wideSystems(columns: readonly string[]): WideSystem[] | null {
  return detectWideLayout(columns)?.systems ?? null;
}

export function guessSystems(columns: readonly string[], detected: ColumnMap): SystemsGuess {
  if (wideSystems(columns)) {
    const { candidate: _c, label: _l, ...map } = detected;
    return { map, systems: { wide: true } };
  }
  const claimed = new Set(Object.values(detected).map((c) => c.toLowerCase()));
  const lower = new Map(columns.map((c) => [c.toLowerCase(), c] as const));
  const column = SYSTEM_ALIASES.map((a) => lower.get(a)).find((c) => c !== undefined && !claimed.has(c.toLowerCase()));
  return { map: { ...detected }, ...(column ? { systems: { column } } : {}) };
}
