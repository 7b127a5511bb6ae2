/**
 * The app's wording of the session's failures (a Problem: the core's code, message and details) and of the mapping
 * notes. The core's messages are complete but name no control of either surface; here they point at the page's
 * own controls (the column selects and the gold-separator field), as the CLI's wording points at its flags.
 */
import { missingColumnMessage, type Field, type MappingNote } from '../../core/io/fields.ts';
import type { Problem } from '../../core/errors.ts';

/** One line for the user about a failure the session answered. */
export function say({ code, message, details }: Problem): string {
  if (code === 'missing-column') {
    const d = details as { field: Field; expected: string[]; columns: string[]; headerLine?: number };
    return missingColumnMessage(d, `. Choose the ${d.field} column in the column mapping`);
  }
  if (code === 'unknown-column')
    return `The column "${String(details.column)}" chosen for ${String(details.field)} is not in this file; choose another in the column mapping.`;
  return message;
}

/** One line for a mapping note (MappedRows.notes), with what to do about it on this page. */
export function noteMessage(n: MappingNote): string {
  if (n.code === 'gold-separator')
    return n.applied
      ? `${n.message}. Clear the gold separator to read each cell as one gold answer.`
      : `${n.message}: enter "${n.separator}" as the gold separator to score each item as its own gold answer.`;
  if (n.code === 'layout') return `${n.message}. Change the column mapping if this is not what you meant.`;
  return `${n.message}.`;
}

/** A mapping note as the page lists it: its words, and (a gold-separator note) the separator it offers. */
export interface ShownNote {
  code: MappingNote['code'];
  text: string;
  separator?: string;
  applied?: boolean;
  suggested?: boolean;
}

export const shownNote = (n: MappingNote): ShownNote => ({
  code: n.code,
  text: noteMessage(n),
  ...(n.code === 'gold-separator' ? { separator: n.separator, applied: n.applied, suggested: n.suggested === true } : {}),
});
