/**
 * What Verity knows of a row before anybody labels it, for the review: the judge's own standing (its decision and
 * how near its score is to the threshold), whether the other metrics decide otherwise, whether the words and the
 * decision disagree, and what the other systems said — how many gave the same answer to the question and how many
 * answers agree with this one in content (systems tend to agree on correct answers, so an answer many systems
 * give and the judge rejects is often a correct answer the golds miss) — whether the answer's type fits the
 * question, and how the judge treats the row's system compared with the others. The priority (priority.ts: how
 * likely the judge is wrong, for the design) and the prediction learned from the answers (frame.ts) both read these.
 * Every value is in [0, 1]; a file of one system has no cross-system signal (0).
 */
import type { QaItem } from '../types.ts';
import { contentStems } from '../signals/words.ts';
import { answerGroups } from './groups.ts';

export const SIGNALS = [
  'near_threshold',
  'metrics_disagree',
  'text_disagrees',
  'judge_correct',
  'length',
  'system_contested',
  'same_answer',
  'consensus',
  'consensus_rejected',
  'type_fits',
  'system_rejected_more',
] as const;
export type Signal = (typeof SIGNALS)[number];

/** An answer's length in words (whitespace-separated). */
export const wordCount = (text: string): number => text.split(/\s+/).filter(Boolean).length;

/** The judge: a metric of the run, and the threshold it decides with. */
export interface Judge {
  metric: string;
  threshold: number;
}

/** What the signals read of the run: each row's judge score and decision, and the other metrics' decisions. */
export interface JudgeView {
  judge: Judge;
  score(i: number): number | null;
  decision(i: number): boolean | null;
  /** The other metrics' decisions on row i (null where a metric did not decide). */
  others(i: number): readonly (boolean | null)[];
}

export interface SignalRow extends Pick<QaItem, 'question' | 'golds' | 'candidate'> {
  /** The question's pairing key across systems (several systems only). */
  key?: string;
  system?: string;
}

/** Questions that ask for a number, a date or an amount, and those that ask for a person. */
const NUMERIC_Q =
  /\b(how (many|much|old|long|far|tall|high|big|large|deep|wide|heavy)|what (year|percentage|number|age|date)|in (which|what) year|which year|when)\b/i;
const PERSON_Q = /\b(who|whom|whose)\b/i;
const HAS_NUMBER =
  /\d|\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|billion|january|february|march|april|may|june|july|august|september|october|november|december|century)\b/i;
/** A capitalised word after the first word, or a first word that is all of a short answer: a name. */
const HAS_NAME = /(?:^|\s)\S*?\s+[A-Z][\p{L}'-]+|^[A-Z][\p{L}'-]+(\s|$)/u;

/** Whether the answer's type fits the question: 1 fits, 0 does not, 0.5 the question names no type. */
export function typeFits(question: string, candidate: string): number {
  if (NUMERIC_Q.test(question)) return HAS_NUMBER.test(candidate) ? 1 : 0;
  if (PERSON_Q.test(question)) return HAS_NAME.test(candidate.trim()) ? 1 : 0;
  return 0.5;
}

/** Content stems of the answer that the question does not already hold (what the answer adds). */
function answerContent(row: SignalRow): Set<string> {
  const q = new Set(contentStems(row.question));
  return new Set(contentStems(row.candidate).filter((t) => !q.has(t)));
}

const within = (a: ReadonlySet<string>, b: ReadonlySet<string>) => {
  if (a.size === 0) return false;
  for (const t of a) if (!b.has(t)) return false;
  return true;
};

/** Whether the candidate holds a gold's content words, all of them, and whether it shares any. */
function textRelation(row: SignalRow): { contains: boolean; shares: boolean } {
  const cand = new Set(contentStems(row.candidate));
  let shares = false;
  for (const g of row.golds) {
    const gs = contentStems(g);
    if (gs.length && gs.every((t) => cand.has(t))) return { contains: true, shares: true };
    if (gs.some((t) => cand.has(t))) shares = true;
  }
  return { contains: false, shares };
}

/** At most this many other answers to a question are read for a row's consensus (a file of 1,000 systems). */
const CONSENSUS_PEERS = 64;

/** Each row's signals, in SIGNALS order. */
export function reviewSignals(rows: readonly SignalRow[], view: JudgeView): Float64Array[] {
  const n = rows.length;
  const { threshold } = view.judge;
  const span = Math.max(threshold, 1 - threshold) || 1;
  const out: Float64Array[] = new Array(n);
  const many = new Set(rows.map((r) => r.system ?? '')).size > 1;
  // Per system: rows, contested rows, rows the judge rejects.
  const perSystem = new Map<string, { rows: number; contested: number; rejected: number }>();
  let rejected = 0;
  for (let i = 0; i < n; i++) {
    const row = rows[i]!;
    const s = view.score(i);
    const d = view.decision(i);
    let decided = 0;
    let against = 0;
    for (const o of view.others(i)) {
      if (o === null || d === null) continue;
      decided++;
      if (o !== d) against++;
    }
    const disagree = decided ? against / decided : 0;
    const t = textRelation(row);
    const textDisagrees = d === true ? !t.shares : d === false ? t.contains : false;
    const words = wordCount(row.candidate);
    const sys = row.system ?? '';
    let c = perSystem.get(sys);
    if (!c) perSystem.set(sys, (c = { rows: 0, contested: 0, rejected: 0 }));
    c.rows++;
    if (disagree > 0 || textDisagrees) c.contested++;
    if (d === false) {
      c.rejected++;
      rejected++;
    }
    const v = new Float64Array(SIGNALS.length);
    v[0] = s === null ? 1 : 1 - Math.min(1, Math.abs(s - threshold) / span);
    v[1] = disagree;
    v[2] = textDisagrees ? 1 : 0;
    v[3] = d === true ? 1 : 0;
    v[4] = Math.min(1, Math.log1p(words) / Math.log1p(60));
    v[9] = typeFits(row.question, row.candidate);
    out[i] = v;
  }
  const overall = n ? rejected / n : 0;
  for (let i = 0; i < n; i++) {
    const c = perSystem.get(rows[i]!.system ?? '')!;
    out[i]![5] = c.contested / c.rows;
    if (many) out[i]![10] = Math.max(0, Math.min(1, c.rejected / c.rows - overall));
  }
  if (!many) return out;
  // What the other systems said to the same question.
  const { groupOf } = answerGroups(rows);
  const byKey = new Map<string, number[]>();
  rows.forEach((r, i) => {
    const k = r.key ?? r.question;
    let l = byKey.get(k);
    if (!l) byKey.set(k, (l = []));
    l.push(i);
  });
  for (const list of byKey.values()) {
    if (list.length < 2) continue;
    const size = new Map<number, number>();
    for (const i of list) size.set(groupOf[i]!, (size.get(groupOf[i]!) ?? 0) + 1);
    const content = list.map((i) => answerContent(rows[i]!));
    list.forEach((i, a) => {
      const v = out[i]!;
      v[6] = (size.get(groupOf[i]!)! - 1) / (list.length - 1);
      let agree = 0;
      let peers = 0;
      for (let b = 0; b < list.length && peers < CONSENSUS_PEERS; b++) {
        if (b === a) continue;
        peers++;
        if (groupOf[list[b]!] === groupOf[i] || within(content[b]!, content[a]!) || within(content[a]!, content[b]!)) agree++;
      }
      v[7] = peers ? agree / peers : 0;
      v[8] = v[7] * (1 - v[3]!);
    });
  }
  return out;
}
