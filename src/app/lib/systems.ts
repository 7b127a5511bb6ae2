/**
 * The mapping step's first guess at the systems of a file, as `verity compare` guesses them: the wide layout
 * (answer_<system> + judge_<system>) when the columns have it; else, when a column is named like a system column,
 * the session's own choice (that column if its values answer the same questions); else one system per file.
 */
import { SYSTEM_ALIASES, detectWideLayout, type WideSystem } from '../../core/io/systems.ts';
import { keysOf, type ColumnMap } from '../../core/io/fields.ts';
import type { SystemsMapping } from '../../session/api.ts';

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
  // A system / model / source / run column the mapping leaves free: the session takes it only when its values
  // answer the same questions (as verity compare does), and the Systems select then shows the column it took.
  const claimed = new Set(Object.values(detected).map((c) => c.toLowerCase()));
  const free = columns.some(
    (c) => keysOf(c).some((k) => (SYSTEM_ALIASES as readonly string[]).includes(k)) && !claimed.has(c.toLowerCase()),
  );
  return { map: { ...detected }, ...(free ? { systems: { auto: true } } : {}) };
}
