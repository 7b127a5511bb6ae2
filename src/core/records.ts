/** A scored row as an output record: the JSONL line `verity score` writes and the app's JSONL export holds. */
import type { CapClass, Label, QaRow } from './types.ts';
import type { RowResults } from './scoring.ts';

/** Output form of a label: true/false for binary labels, the class name for taxonomy labels. */
export const labelValue = (l: Label | undefined): boolean | CapClass | null =>
  l === undefined ? null : l.kind === 'binary' ? l.correct : l.cls;

/**
 * One JSONL output record (stable key order, so output is byte-identical across runs). `detailed` names the
 * metrics whose structured details (statements, NLI distributions, group scores…) go into the output.
 */
export function outputRecord(row: QaRow, results: RowResults, detailed: ReadonlySet<string> = new Set()): Record<string, unknown> {
  const metrics: Record<string, unknown> = {};
  for (const [name, r] of Object.entries(results))
    metrics[name] = {
      score: r.score,
      decision: r.decision,
      ...(r.class !== undefined ? { class: r.class } : {}),
      ...(r.set !== undefined ? { set: r.set } : {}),
      explanation: r.explanation,
      ...(r.details !== undefined && detailed.has(name) ? { details: r.details } : {}),
    };
  // Null-prototype: an input column named "__proto__" is a key like any other.
  const rec = Object.assign(Object.create(null) as Record<string, unknown>, {
    id: row.id,
    question: row.question,
    gold: row.golds,
    candidate: row.candidate,
    label: labelValue(row.label),
    metrics,
  });
  // The input's own columns follow; one named like a field of the record keeps its value as `input.<name>`.
  if (row.extra) for (const k in row.extra) rec[Object.hasOwn(rec, k) || k === 'system' ? `input.${k}` : k] = row.extra[k];
  return rec;
}
