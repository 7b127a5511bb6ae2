/**
 * Where systems differ: the questions on which the systems' decisions are not all the same.
 *
 * What: for one metric (or "human" for the labels), every question at least two systems decided and on which
 *   some system was judged correct and another incorrect, with each system's decision (1 / 0 / −1 = none), in
 *   question order. Filters: only questions a given system got right (or wrong); only questions where the
 *   metric and the human labels disagree for some system. The caller shows answers side by side from `rowOf`.
 * Limits: "disagree" is about decisions, not scores: two different scores on the same side of the threshold
 *   are agreement here.
 */
import type { CompareTable } from './table.ts';

export interface DisagreementQuery {
  /** A metric name, or "human". */
  metric: string;
  /** Keep questions where this system's decision equals `correct`. */
  system?: string;
  correct?: boolean;
  /** Keep questions where, for some system, the metric's decision differs from the human label. */
  againstHuman?: boolean;
  /** Stop after this many (default: all). */
  limit?: number;
}

export interface Disagreement {
  /** Question index into table.keys. */
  q: number;
  key: string;
  /** Per system (table.systems order): 1 correct, 0 incorrect, −1 no decision / no row. */
  decisions: number[];
  /** Systems judged correct, out of the systems decided. */
  correct: number;
  decided: number;
}

export function disagreements(t: CompareTable, query: DisagreementQuery): Disagreement[] {
  const dec = query.metric === 'human' ? t.human : t.decision[query.metric];
  if (!dec)
    throw new RangeError(
      `no metric "${query.metric}" in the comparison; metrics are ${t.metrics.map((m) => m.name).join(', ')}${t.labelled ? ', human' : ''}`,
    );
  const S = t.systems.length;
  const Q = t.keys.length;
  let only = -1;
  if (query.system !== undefined) {
    only = t.systems.indexOf(query.system);
    if (only < 0) throw new RangeError(`no system "${query.system}"; systems are ${t.systems.join(', ')}`);
  }
  const limit = query.limit ?? Infinity;
  const out: Disagreement[] = [];
  for (let q = 0; q < Q && out.length < limit; q++) {
    let correct = 0;
    let decided = 0;
    let vsHuman = false;
    const decisions: number[] = [];
    for (let s = 0; s < S; s++) {
      const d = dec[s * Q + q]!;
      decisions.push(d);
      if (d < 0) continue;
      decided++;
      correct += d;
      const h = t.human[s * Q + q]!;
      if (h >= 0 && h !== d) vsHuman = true;
    }
    if (decided < 2 || correct === 0 || correct === decided) continue;
    if (only >= 0 && query.correct !== undefined && decisions[only] !== (query.correct ? 1 : 0)) continue;
    if (query.againstHuman && !vsHuman) continue;
    out.push({ q, key: t.keys[q]!, decisions, correct, decided });
  }
  return out;
}

/** How many questions fall in each split "k of n systems correct" (n = systems decided), for a summary chart. */
export function agreementSplits(t: CompareTable, metric: string): Record<string, number> {
  const dec = metric === 'human' ? t.human : t.decision[metric];
  if (!dec) throw new RangeError(`no metric "${metric}" in the comparison`);
  const S = t.systems.length;
  const Q = t.keys.length;
  const out: Record<string, number> = {};
  for (let q = 0; q < Q; q++) {
    let correct = 0;
    let decided = 0;
    for (let s = 0; s < S; s++) {
      const d = dec[s * Q + q]!;
      if (d < 0) continue;
      decided++;
      correct += d;
    }
    if (decided === 0) continue;
    const k = `${correct}/${decided}`;
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}
