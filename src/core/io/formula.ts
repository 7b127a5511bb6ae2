/**
 * CSV/TSV formula-injection neutralization (OWASP "CSV Injection"). A spreadsheet evaluates a cell that starts
 * with `=`, `+`, `-`, `@`, a tab or a carriage return as a formula, so the export puts a single quote in front
 * of such a cell (and quotes the cell). The import takes that quote off again. To make the pair exact, a
 * cell that already is a run of quotes before a trigger character is neutralized too:
 *
 *   export: a cell matching  ^'*[=+\-@\t\r]  gets one more leading quote   "=1" → "'=1", "'=1" → "''=1"
 *   import: a cell matching  ^'+[=+\-@\t\r]  loses one leading quote       "'=1" → "=1", "''=1" → "'=1"
 *
 * Every exported cell matches the import pattern exactly when it was neutralized (the export pattern with one
 * quote added), so every cell reads back as it was. The cost: a cell written by another tool that starts with
 * quotes followed by a trigger (say "'-5") loses its first quote on import.
 */

/** Cells the export neutralizes (Papa Parse's `escapeFormulae`; its default misses multi-line cells). */
export const NEEDS_NEUTRALIZING = /^'*[=+\-@\t\r]/;

const NEUTRALIZED = /^'+[=+\-@\t\r]/;

/** Undoes the export's neutralization of one cell. */
export const restoreCell = (cell: string): string => (NEUTRALIZED.test(cell) ? cell.slice(1) : cell);
