/**
 * The label memory: every verdict a person gave, kept with what it judged — the question, the golds and the answer
 * as the judge reads them (normalised as answer groups are: groups.ts), who gave it and when — so that a later review
 * (next week's run of a system repeats most of this week's answers) never asks the same thing twice.
 *
 * A verdict matches a row of another file when the question, the answer and the golds read the same (SQuAD
 * normalisation with number forms; golds as a set). A review drawn beside a memory leaves the groups it knows out of
 * its draw (plan.ts): they are a census stratum (π = 1), counted as they are, and the draw among the rest keeps every
 * guarantee (sequential.test.ts simulates it). The same answer judged twice keeps the later verdict (by `time`, else
 * the one read last).
 *
 * Read from label files: a review line (its question, golds and answer, and the group's label, or the one label all
 * its rows were given) and a known line (a verdict a review carried, with what it judged). Plain lines name rows of
 * one input only, not what they judged, and are not memory.
 */
import { normalize } from '../text/normalize.ts';
import type { Label } from '../types.ts';
import { parseLabel } from '../io/labels.ts';
import { labelJson } from './labels.ts';

export interface Verdict {
  question: string;
  golds: string[];
  candidate: string;
  label: Label;
  /** Who gave it, when the line says. */
  reviewer?: string;
  /** When it was given (ISO 8601), when the line says. */
  time?: string;
  /** The project it was given in (the app keeps each project's verdicts apart), when the line says. */
  project?: string;
}

/** What makes two verdicts one: the question, the answer and the golds as the judge reads them. */
export function verdictKey(v: Pick<Verdict, 'question' | 'golds' | 'candidate'>): string {
  const golds = [...new Set(v.golds.map((g) => normalize(g, 'numeric')))].sort();
  return JSON.stringify([normalize(v.question, 'numeric'), normalize(v.candidate, 'numeric'), golds]);
}

export class LabelMemory {
  readonly #byKey = new Map<string, Verdict>();
  /** Verdicts read, replaced ones included. */
  read = 0;

  add(v: Verdict): void {
    this.read++;
    const k = verdictKey(v);
    const old = this.#byKey.get(k);
    if (old?.time !== undefined && v.time !== undefined && v.time < old.time) return;
    this.#byKey.set(k, v);
  }

  find(row: Pick<Verdict, 'question' | 'golds' | 'candidate'>): Verdict | undefined {
    return this.#byKey.get(verdictKey(row));
  }

  /** Distinct answers remembered. */
  get size(): number {
    return this.#byKey.size;
  }
}

const text = (x: unknown): x is string => typeof x === 'string';

/** The verdict a label file's line holds, or null (no question, golds and answer, or no one label). */
export function lineVerdict(o: Record<string, unknown>): Verdict | null {
  if (!text(o.question) || !Array.isArray(o.golds) || !o.golds.every(text) || !text(o.candidate)) return null;
  let label = parseLabel(o.label === 'skip' ? null : o.label);
  if (!label.ok) return null;
  // A line answered row by row counts when its rows were given one label.
  if (label.value === undefined && Array.isArray(o.rows)) {
    const given = o.rows.map((r) => (typeof r === 'object' && r !== null ? parseLabel((r as { label?: unknown }).label) : null));
    const values = given.map((g) => (g?.ok && g.value ? JSON.stringify(labelJson(g.value)) : null));
    if (values.length && values.every((v) => v !== null && v === values[0])) label = given[0]!;
  }
  if (!label.ok || label.value === undefined) return null;
  return {
    question: o.question,
    golds: o.golds,
    candidate: o.candidate,
    label: label.value,
    ...(text(o.reviewer) ? { reviewer: o.reviewer } : {}),
    ...(text(o.time) ? { time: o.time } : {}),
    ...(text(o.project) ? { project: o.project } : {}),
  };
}

/**
 * A known line: one row's verdict remembered from an earlier review, left out of this review's draw, with what it
 * judged (so the file is memory for the next review too).
 */
export function knownLine(
  row: { id: string; system?: string; question: string; golds: readonly string[]; candidate: string },
  v: Pick<Verdict, 'label' | 'reviewer' | 'time'>,
  input: string,
): Record<string, unknown> {
  return {
    id: row.id,
    ...(row.system !== undefined ? { system: row.system } : {}),
    label: labelJson(v.label),
    known: true,
    question: row.question,
    golds: [...row.golds],
    candidate: row.candidate,
    ...(v.reviewer !== undefined ? { reviewer: v.reviewer } : {}),
    ...(v.time !== undefined ? { time: v.time } : {}),
    input,
  };
}
