/**
 * A review as the journal keeps it (`review:<run>`): the asked questions and a log of answers, each with an id, so
 * two tabs answering the same run merge their logs instead of overwriting each other; undo marks an id taken back.
 */
import type { Label } from '../core/types.ts';
import type { ReviewAnswer } from './api.ts';

/** An asked group, as saved: its rows (indices), draw, and why it is asked. */
export interface SavedGroup {
  rows: number[];
  weight: number;
  draw: number;
  priority: number;
  why: string;
}

export interface Answer {
  /** Unique across tabs: merging two tabs' logs keeps both. */
  id: string;
  /** The question's position in the review; −1 for a label outside the design (imported). */
  position: number;
  /** A label for one row of the group apart from the rest (or the row of a label outside the design). */
  row?: number;
  answer: ReviewAnswer;
  at: number;
}

export interface SavedReview {
  version: 3;
  run: string;
  judge: string;
  budget: number;
  seed: number;
  /** Distinct answers in the run, and the sum of every group's weight (design.ts). */
  groups: number;
  total: number;
  asked: SavedGroup[];
  log: Answer[];
  /** Answer ids taken back. */
  undone: string[];
}

export const labelOf = (a: ReviewAnswer): Label | null =>
  a === 'skip' ? null : typeof a === 'boolean' ? { kind: 'binary', correct: a } : { kind: 'taxonomy', cls: a };

/** Two logs as one: every answer of both, in the order given; ids taken back by either stay taken back. */
export function merge(a: SavedReview, b: SavedReview | undefined): SavedReview {
  if (!b || b.version !== 3 || b.run !== a.run || b.seed !== a.seed || b.budget !== a.budget || b.judge !== a.judge) return a;
  const seen = new Set(a.log.map((x) => x.id));
  const log = [...a.log, ...b.log.filter((x) => !seen.has(x.id))].sort((x, y) => x.at - y.at || (x.id < y.id ? -1 : 1));
  return { ...a, log, undone: [...new Set([...a.undone, ...b.undone])] };
}

let counter = 0;
const tab = Math.random().toString(36).slice(2, 10);
/** An answer id no other tab makes. */
export const newId = (): string => `${tab}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

/** Each question's answer, each row's own, and the labels outside the design — after undo, the last given winning. */
export function answersOf(r: SavedReview): { group: Map<number, Answer>; own: Map<number, Answer>; outside: Map<number, Answer> } {
  const undone = new Set(r.undone);
  const group = new Map<number, Answer>();
  const own = new Map<number, Answer>();
  const outside = new Map<number, Answer>();
  for (const a of r.log) {
    if (undone.has(a.id)) continue;
    if (a.position < 0) outside.set(a.row!, a);
    else if (a.row !== undefined) own.set(a.row, a);
    else group.set(a.position, a);
  }
  return { group, own, outside };
}
