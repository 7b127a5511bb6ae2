/**
 * A review as the journal keeps it (`review:<run>`): the asked questions and a log of answers, each with an id, so
 * two tabs answering the same run merge their logs instead of overwriting each other; undo marks an id taken back —
 * and a question as the panel shows it.
 */
import type { Label, QaRow } from '../core/types.ts';
import type { ResultTable } from '../core/result-table.ts';
import type { SystemRow } from '../core/compare/index.ts';
import type { ReviewAnswer, ReviewItem, TableRow } from './api.ts';
import type { AskedEntry } from '../core/review/design.ts';

/** An asked group, as saved: its rows (indices), epoch, weight, draw, the epoch's total, and why it is asked. */
export interface SavedGroup {
  rows: number[];
  /** Absent in a review saved before the draw adapted: the first epoch, whose total is the review's. */
  epoch?: number;
  total?: number;
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
  /** The column the review was drawn split by (its weights depend on it), when it was. */
  split?: string;
  asked: SavedGroup[];
  log: Answer[];
  /** Answer ids taken back. */
  undone: string[];
  /** Rows whose verdict was remembered from an earlier review (every row of their group): never drawn, counted as judged. */
  known?: { row: number; answer: ReviewAnswer }[];
  /** The project whose remembered verdicts the review reads and keeps its answers in (the default when absent). */
  project?: string;
  /** Who answers, when they said. */
  reviewer?: string;
}

export const labelOf = (a: ReviewAnswer): Label | null =>
  a === 'skip' ? null : typeof a === 'boolean' ? { kind: 'binary', correct: a } : { kind: 'taxonomy', cls: a };

/** Two logs as one: every answer of both, in the order given; ids taken back by either stay taken back. */
export function merge(a: SavedReview, b: SavedReview | undefined): SavedReview {
  if (
    !b ||
    b.version !== 3 ||
    b.run !== a.run ||
    b.seed !== a.seed ||
    b.budget !== a.budget ||
    b.judge !== a.judge ||
    b.split !== a.split ||
    (b.known?.length ?? 0) !== (a.known?.length ?? 0)
  )
    return a;
  // One tab drew the rest of the review again (an epoch began there): the later draw stands, and the other tab's
  // answers to questions it no longer asks stay as labels of their rows, outside the design.
  const epochOf = (r: SavedReview) => r.asked.reduce((m, g) => Math.max(m, g.epoch ?? 0), 0);
  const [win, lose] = epochOf(b) > epochOf(a) ? [b, a] : [a, b];
  let from = 0;
  while (from < win.asked.length && from < lose.asked.length && sameGroup(win.asked[from]!, lose.asked[from]!)) from++;
  const seen = new Set(win.log.map((x) => x.id));
  const undone = new Set([...a.undone, ...b.undone]);
  const moved = lose.log
    .filter((x) => !seen.has(x.id))
    .flatMap((x): Answer[] => {
      if (x.position < from || x.position < 0) return [x];
      if (undone.has(x.id)) return [];
      const rows = x.row !== undefined ? [x.row] : (lose.asked[x.position]?.rows ?? []);
      return rows.map((row) => ({ ...x, id: `${x.id}:${row}`, position: -1, row }));
    })
    .filter((x) => !seen.has(x.id));
  const log = [...win.log, ...moved].sort((x, y) => x.at - y.at || (x.id < y.id ? -1 : 1));
  return { ...a, asked: win.asked, log, undone: [...undone] };
}

/** Whether two saved questions are one: the same rows drawn in the same epoch with the same draw. */
export const sameGroup = (x: SavedGroup, y: SavedGroup): boolean =>
  x.rows[0] === y.rows[0] && (x.epoch ?? 0) === (y.epoch ?? 0) && x.draw === y.draw;

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

/** How many questions are answered in order from the first (a skip ends them): the part the estimate uses. */
export function answeredInOrder(r: SavedReview, group: ReadonlyMap<number, Answer>): number {
  let n = 0;
  while (n < r.asked.length && group.has(n) && group.get(n)!.answer !== 'skip') n++;
  return n;
}

/** The asked groups as the design reads them (a group saved without an epoch is of the first). */
export function savedEntries(r: SavedReview): Omit<AskedEntry, 'group'>[] {
  return r.asked.map((g) => ({ epoch: g.epoch ?? 0, weight: g.weight, draw: g.draw, total: g.total ?? r.total }));
}

/** Question `position` as the panel shows it: its first row, every row it stands for, the judge's call, the answers. */
export function itemOf(
  r: SavedReview,
  g: SavedGroup,
  position: number,
  results: ResultTable,
  host: { rows(): readonly QaRow[]; systems(): boolean; tableRow(i: number): TableRow },
): ReviewItem {
  const first = g.rows[0]!;
  const cls = results.cls(r.judge, first);
  const { group, own } = answersOf(r);
  const systems = host.systems();
  const rows = host.rows();
  return {
    position,
    why: g.why,
    row: host.tableRow(first),
    rows: g.rows.map((i) => ({
      index: i,
      id: rows[i]!.id,
      ...(systems ? { system: (rows[i] as SystemRow).system } : {}),
      own: own.get(i)?.answer ?? null,
    })),
    judge: {
      metric: r.judge,
      score: results.score(r.judge, first),
      decision: results.decision(r.judge, first),
      explanation: results.explanation(r.judge, first) ?? '',
      ...(cls ? { class: cls } : {}),
    },
    answer: group.get(position)?.answer ?? null,
  };
}
