/**
 * The app's wording of the core's structured errors and mapping notes. The core's messages are complete but
 * name no control of either surface; here they point at the page's own controls (the column selects and the
 * gold-separator field), as the CLI's wording points at its flags.
 */
import { missingColumnMessage, type Field, type MappingNote } from '../core/io/fields.ts';
import { VerityError } from '../core/types.ts';
import { messageOf } from '../core/errors.ts';

/** Why the session refuses a change while a run is going. */
export const BUSY = 'a run is going: cancel it first';

/** One line for the user about an error thrown while reading or mapping a file. */
export function errorMessage(e: unknown): string {
  if (!(e instanceof VerityError)) return messageOf(e);
  const d = e.details as Record<string, unknown>;
  if (e.code === 'missing-column') {
    const details = d as { field: Field; expected: string[]; columns: string[]; headerLine?: number };
    return missingColumnMessage(details, `. Choose the ${details.field} column in the column mapping`);
  }
  if (e.code === 'unknown-column')
    return `The column "${String(d.column)}" chosen for ${String(d.field)} is not in this file; choose another in the column mapping.`;
  return e.message;
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
