/**
 * A review's plan, the same on every surface (`verity review`, the app): the rows' answer groups (groups.ts), each
 * row's signals and priority (signals.ts, priority.ts), the design's order of the groups (design.ts), and the
 * lines a person is asked — one per group, in order — with everything a label file needs to stand alone.
 */
import { fail, ok, type Result } from '../errors.ts';
import { answerGroups } from './groups.ts';
import { DESIGN_FLOOR, designWeights, drawDesign, groupDraw, stratumScale, type AskedEntry, type DrawnDesign } from './design.ts';
import { reviewPriorities, priorityReasons } from './priority.ts';
import { reviewSignals, type Judge, type JudgeView, type SignalRow } from './signals.ts';

export interface ReviewPlan {
  judge: Judge;
  /** Each group's rows (input order). */
  groups: number[][];
  groupOf: Int32Array;
  /** Per row: the priority (probability the judge is wrong) and the signals it came from. */
  priority: Float64Array;
  signals: Float64Array[];
  /** The first draw (epoch 0); adapt.ts draws the later epochs. */
  design: DrawnDesign;
  /** Each group's first row (what its draws are made from), the input's hash, and each row's system (index; −1 none). */
  heads: { id: string; system?: string }[];
  input: string;
  systemOf: Int32Array;
  systems: number;
  /** Per row, how much it counts in its stratum's accuracy relative to the others (design.ts stratumScale). */
  scale: Float64Array;
  /** The column the review is split by (each system's accuracy the mean over its values), when it is. */
  split?: string;
  /** Per group: 1 when its label is known from an earlier review (never drawn: a census stratum, π = 1). */
  known: Uint8Array;
  /** Rows of the known groups. */
  knownRows: number;
}

/** A row of a review: what its signals read, its id, and its split's value when the review is split. */
export type PlanRow = SignalRow & { id: string; split?: string };

/**
 * The plan for `rows` (each with its id, its system when the input has several, its split's value when the review
 * is split by `split`): groups, priorities and the design's order, the draws made from the seed and `input` (the
 * input's SHA-256) so a label file can be checked. Split, every split gets the share of the draw its own accuracy
 * needs, however few its rows (stratumScale).
 */
export function planReview(
  rows: readonly PlanRow[],
  view: JudgeView,
  seed: number,
  input: string,
  split?: string,
  knownRow?: (row: number) => boolean,
): ReviewPlan {
  const { groups, groupOf } = answerGroups(rows);
  // A group is known when its first row is (its rows share the answer, the question and the golds).
  const known = Uint8Array.from(groups, (g) => (knownRow?.(g[0]!) ? 1 : 0));
  let knownRows = 0;
  groups.forEach((g, k) => (knownRows += known[k]! ? g.length : 0));
  const signals = reviewSignals(rows, view);
  const priority = reviewPriorities(signals);
  const heads = groups.map((g) => {
    const r = rows[g[0]!]!;
    return { id: r.id, ...(r.system !== undefined ? { system: r.system } : {}) };
  });
  const draws = Float64Array.from(heads, (h) => groupDraw(seed, input, h.system, h.id));
  const names = new Map<string, number>();
  const systemOf = Int32Array.from(rows, (r) => {
    if (r.system === undefined) return -1;
    let k = names.get(r.system);
    if (k === undefined) names.set(r.system, (k = names.size));
    return k;
  });
  const strata = new Map<string, number>();
  const stratumOf = Int32Array.from(rows, (r, i) => {
    if (split === undefined) return systemOf[i]!;
    const key = `${systemOf[i]!} ${r.split ?? ''}`;
    let k = strata.get(key);
    if (k === undefined) strata.set(key, (k = strata.size));
    return k;
  });
  const scale = stratumScale(stratumOf, split === undefined ? names.size : strata.size);
  return {
    judge: view.judge,
    groups,
    groupOf,
    priority,
    signals,
    design: drawDesign(designWeights(groups, priority, DESIGN_FLOOR, scale), draws, seed, known),
    known,
    knownRows,
    scale,
    heads,
    input,
    systemOf,
    systems: names.size,
    ...(split !== undefined ? { split } : {}),
  };
}

/**
 * The budget: how many questions (answer groups) to ask. "500" is 500 questions; "15%" and "0.15" are 15% of the
 * rows' worth of questions (one question stands for every row that gave its answer, so 15% of rows asks about
 * 15% × rows groups); "1.0" is every row. At most every group; `note` says when the budget asked for more;
 * `share` is the budget as written when it was a share of the rows (null for a count).
 */
export function parseBudget(
  text: string,
  rows: number,
  groups: number,
): Result<{ count: number; note: string | null; share: string | null }> {
  const v = text.trim();
  const pct = /^(\d+(?:\.\d+)?)\s*%$/.exec(v);
  let count: number;
  let share: string | null = v;
  if (pct) {
    const f = Number(pct[1]) / 100;
    if (!(f > 0 && f <= 1)) return fail(`budget ${text}: a share of the rows is above 0% and at most 100%`);
    count = Math.max(1, Math.round(f * rows));
  } else if (/^\d+$/.test(v)) {
    count = Number(v);
    share = null;
    if (count < 1) return fail(`budget ${text}: ask at least one question`);
  } else if (/^(\d*\.\d+|\d+\.\d*|\d+(\.\d*)?e-?\d+)$/i.test(v)) {
    const f = Number(v);
    if (!(f > 0 && f <= 1))
      return fail(`budget ${text}: a fraction of the rows is above 0 and at most 1 (write 500 for 500 questions, 15% or 0.15 for a share)`);
    count = Math.max(1, Math.round(f * rows));
  } else return fail(`budget "${text}" is not a number of questions (500) or a share of the rows (15% or 0.15)`);
  if (count > groups)
    return ok({
      count: groups,
      note: `the budget (${count}) is more than the ${groups} distinct answers to ask about: every one is asked`,
      share,
    });
  return ok({ count, note: null, share });
}

/**
 * What a budget stands for, in words: "15% of 3,531 rows = 530 questions (of 1,291 distinct answers), which with
 * the systems that gave the same answers cover 1,310 rows (37%)".
 */
export function budgetWords(share: string | null, questions: number, covered: number, rows: number, groups: number): string {
  const pct = (x: number) => `${Math.round((100 * x) / Math.max(1, rows))}%`;
  const n = (x: number) => x.toLocaleString('en-US');
  return (
    `${share !== null ? `${share} of ${n(rows)} rows = ` : ''}${n(questions)} question${questions === 1 ? '' : 's'} (of ${n(groups)} distinct answers; ` +
    `each asked once for every system that gave it), which cover ${n(covered)} rows (${pct(covered)})`
  );
}

/** The design as a label file line records it (the same on every line of one review). */
export interface DesignRecord {
  seed: number;
  /** Distinct answers in the input, how many the review asks, and the sum of every group's weight. */
  groups: number;
  asked: number;
  total: number;
  /** The column the review was split by, when it was (the weights depend on it). */
  split?: string;
  /** Rows whose label was known from an earlier review, left out of the draw (each in the file as a known line). */
  known?: number;
}

export function designRecord(plan: ReviewPlan, count: number): DesignRecord {
  return {
    seed: plan.design.seed,
    groups: plan.groups.length,
    asked: Math.min(count, plan.design.order.length),
    total: plan.design.total,
    ...(plan.split !== undefined ? { split: plan.split } : {}),
    ...(plan.knownRows > 0 ? { known: plan.knownRows } : {}),
  };
}

/** Why a group is asked, in words: the signals that raise its rows' priority most. */
export function whyAsked(plan: ReviewPlan, group: number): string {
  const rows = plan.groups[group]!;
  let top = rows[0]!;
  for (const i of rows) if (plan.priority[i]! > plan.priority[top]!) top = i;
  const reasons = priorityReasons(plan.signals[top]!);
  const p = `the judge is wrong here with probability ${plan.priority[top]!.toFixed(2)}`;
  return reasons.length ? `${p}: ${reasons.join('; ')}` : `${p} (drawn so that every answer can be asked)`;
}

/** What a review line says of one row besides the group: its id, and its system when the input has several. */
export interface LineRow {
  id: string;
  system?: string;
}

/** One line of a review file (label null, to fill in). */
export function reviewLine(a: {
  order: number;
  rows: readonly LineRow[];
  question: string;
  golds: readonly string[];
  candidate: string;
  judge: { metric: string; score: number | null; decision: boolean | null; explanation: string };
  priority: number;
  why: string;
  entry: Omit<AskedEntry, 'group'>;
  q: number;
  design: DesignRecord;
  input: string;
}): Record<string, unknown> {
  const first = a.rows[0]!;
  const systems = a.rows.flatMap((r) => (r.system !== undefined ? [r.system] : []));
  return {
    order: a.order,
    id: first.id,
    ...(first.system !== undefined ? { system: first.system } : {}),
    ...(a.rows.length > 1 ? { rows: a.rows.map((r) => ({ id: r.id, ...(r.system !== undefined ? { system: r.system } : {}) })) } : {}),
    ...(systems.length > 1 ? { given_by: `${systems.length} systems: ${systems.join(', ')}` } : {}),
    question: a.question,
    golds: a.golds,
    candidate: a.candidate,
    judge: a.judge,
    priority: Math.round(a.priority * 1e4) / 1e4,
    why: a.why,
    sample: { weight: a.entry.weight, draw: a.entry.draw, q: a.q, epoch: a.entry.epoch, total: a.entry.total },
    design: a.design,
    input: a.input,
    label: null,
  };
}
