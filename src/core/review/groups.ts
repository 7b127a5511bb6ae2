/**
 * Answer groups: the unit a review asks about. Rows that give the same answer to the same question with the same
 * golds are one group — one human label holds for all of them, whichever system gave it (on a public 12-system
 * file, 3,531 rows were 1,291 such groups, and only 2 groups drew different labels for different systems).
 *
 * Key: the question's pairing key (the comparison's `key`; the question text for a file of one system), the
 * answer as the judge normalises it (SQuAD normalisation with number forms, `normalize(…, 'numeric')`, as
 * pedants reads text) and the golds, normalised the same way and sorted. An empty answer is an answer like any other.
 * Order: groups in the order of their first row, rows of a group in input order.
 */
import { normalize } from '../text/normalize.ts';
import type { QaItem } from '../types.ts';

export interface GroupedRow extends Pick<QaItem, 'question' | 'golds' | 'candidate'> {
  /** The question's pairing key across systems, when the rows come from several systems. */
  key?: string;
}

/** The key that makes two rows one group. */
export function answerGroupKey(row: GroupedRow): string {
  const golds = [...new Set(row.golds.map((g) => normalize(g, 'numeric')))].sort();
  return JSON.stringify([row.key ?? row.question, normalize(row.candidate, 'numeric'), golds]);
}

export interface AnswerGroups {
  /** Row i's group. */
  groupOf: Int32Array;
  /** Each group's rows, in input order. */
  groups: number[][];
}

export function answerGroups(rows: readonly GroupedRow[]): AnswerGroups {
  const index = new Map<string, number>();
  const groupOf = new Int32Array(rows.length);
  const groups: number[][] = [];
  rows.forEach((r, i) => {
    const k = answerGroupKey(r);
    let g = index.get(k);
    if (g === undefined) {
      g = groups.length;
      index.set(k, g);
      groups.push([]);
    }
    groupOf[i] = g;
    groups[g]!.push(i);
  });
  return { groupOf, groups };
}
