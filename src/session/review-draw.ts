/**
 * A run's review drawn, and drawn again: the plan for the run (core/review/plan.ts, kept while the run and its
 * calibration stay the same) and, once the answers in order reach a step where the estimate refits, the questions
 * after it drawn again from those answers — a new epoch (core/review/adapt.ts), which the review then saves.
 */
import { VerityError, type QaRow } from '../core/types.ts';
import { planReview, whyAsked, type ReviewPlan } from '../core/review/plan.ts';
import { adaptAt, isEpochStart } from '../core/review/adapt.ts';
import type { AskedEntry } from '../core/review/design.ts';
import { DEFAULT_METRICS } from '../core/metrics/index.ts';
import { labelIsCorrect } from '../core/correctness.ts';
import type { SystemRow } from '../core/compare/index.ts';
import { splitValues } from '../core/compare/split.ts';
import { forecastLine, reviewForecast } from '../core/review/ahead.ts';
import { DEFAULTS } from '../core/defaults.ts';
import type { ActiveRun } from './runner.ts';
import { answeredInOrder, answersOf, labelOf, savedEntries, type SavedGroup, type SavedReview } from './review-saved.ts';

/** Rows as the splits read them: a run of one system keys each row by its id. */
export const splitView = (rows: readonly QaRow[]) =>
  rows.map((r) => ({ system: (r as Partial<SystemRow>).system ?? '', key: (r as Partial<SystemRow>).key ?? r.id, extra: r.extra ?? {} }));

export class ReviewDraw {
  private planned: { key: string; plan: ReviewPlan } | null = null;

  constructor(
    private readonly rows: () => readonly QaRow[],
    private readonly systems: () => boolean,
  ) {}

  /**
   * The review's plan for run `a` (kept: each epoch's draw reads it again); `known`: rows whose verdict is remembered
   * (their groups are left out of the draw).
   */
  plan(a: ActiveRun, judgeName: string, seed: number, split?: string, known?: ReadonlySet<number>): ReviewPlan {
    const knownKey = known ? `${known.size}:${[...known].reduce((h, i) => (Math.imul(h, 31) + i) | 0, 7)}` : '';
    const key = `${a.meta.id}\u0000${a.results.length}\u0000${judgeName}\u0000${seed}\u0000${a.config.calibration?.at ?? ''}\u0000${split ?? ''}\u0000${knownKey}`;
    if (this.planned?.key === key) return this.planned.plan;
    const judge = a.metrics.find((m) => m.name === judgeName)!;
    const names = a.metrics.map((m) => m.name);
    const rows = this.rows().slice(0, a.results.length);
    const systems = this.systems();
    // The priority reads the embedded default set beside the judge; those the run lacks count as undecided.
    const others = DEFAULT_METRICS.filter((m) => m !== judge.name && names.includes(m));
    const splits = split !== undefined ? splitValues(splitView(rows), split) : null;
    if (splits && 'missing' in splits) throw new VerityError(`split by ${splits.message}`, 'usage', 'not-ready');
    const plan = planReview(
      rows.map((row, i) => ({
        id: row.id,
        question: row.question,
        golds: row.golds,
        candidate: row.candidate,
        ...(systems ? { key: (row as SystemRow).key, system: (row as SystemRow).system } : {}),
        ...(splits ? { split: splits[i]! } : {}),
      })),
      {
        judge: { metric: judge.name, threshold: judge.threshold },
        score: (i) => a.results.score(judge.name, i),
        decision: (i) => a.results.decision(judge.name, i),
        others: (i) => others.map((m) => a.results.decision(m, i)),
      },
      seed,
      a.meta.inputHash,
      split,
      known ? (i) => known.has(i) : undefined,
    );
    this.planned = { key, plan };
    return plan;
  }

  /** What the review should give, read before its first answer from the plan alone (core/review/ahead.ts). */
  forecast(a: ActiveRun, r: SavedReview): string {
    const plan = this.plan(a, r.judge, r.seed, r.split, knownRows(r));
    const rows = this.rows();
    const system = (i: number) => (rows[i] as Partial<SystemRow>).system ?? '';
    const decision = (i: number) => a.results.decision(r.judge, i);
    const line = forecastLine(reviewForecast(plan, system, r.asked.length, decision, DEFAULTS.bootstrap.level));
    return line.charAt(0).toUpperCase() + line.slice(1);
  }

  /**
   * The review with the questions after its answers in order drawn again, when those answers reach a step where the
   * estimate refits, none is given past it, and they allow a fit; else null.
   */
  adapted(r: SavedReview, a: ActiveRun): SavedReview | null {
    const { group, own } = answersOf(r);
    const prefix = answeredInOrder(r, group);
    // The plan (every row's signals) is built only at a step where a draw may happen, not at every answer.
    if (!isEpochStart(prefix)) return null;
    if ([...group.keys()].some((p) => p >= prefix) || [...own.values()].some((x) => x.position >= prefix)) return null;
    const plan = this.plan(a, r.judge, r.seed, r.split, knownRows(r));
    const saved = savedEntries(r);
    const entries = r.asked.map((g, k) => ({ ...saved[k]!, group: plan.groupOf[g.rows[0]!]! }));
    // Only the answers in order feed the refit (the design's sample).
    const positionOf = new Map<number, number>();
    r.asked.slice(0, prefix).forEach((g, k) => g.rows.forEach((i) => positionOf.set(i, k)));
    const label = (i: number): number => {
      const k = positionOf.get(i);
      const x = k === undefined ? undefined : (own.get(i) ?? group.get(k));
      const l = x ? labelOf(x.answer) : null;
      return l ? (labelIsCorrect(l) ? 1 : 0) : -1;
    };
    const next = adaptAt(plan, entries, prefix, label);
    return next && { ...r, asked: [...r.asked.slice(0, prefix), ...next.slice(prefix).map((e) => savedGroup(plan, e))] };
  }
}

/** The rows a review knows from remembered verdicts, or undefined when none. */
export const knownRows = (r: SavedReview): ReadonlySet<number> | undefined =>
  r.known?.length ? new Set(r.known.map((k) => k.row)) : undefined;

/** An asked entry as the review saves it: its rows, its draw, and why it is asked (its rows' highest priority). */
export function savedGroup(plan: ReviewPlan, e: AskedEntry): SavedGroup {
  const rows = plan.groups[e.group]!;
  const top = rows.reduce((best, i) => (plan.priority[i]! > plan.priority[best]! ? i : best), rows[0]!);
  return {
    rows,
    epoch: e.epoch,
    total: e.total,
    weight: e.weight,
    draw: e.draw,
    priority: plan.priority[top]!,
    why: whyAsked(plan, e.group),
  };
}

/** The position the last epoch began at (the questions from there drawn again from the answers before), or null. */
export function lastEpochStart(r: SavedReview): number | null {
  for (let k = r.asked.length - 1; k > 0; k--) if ((r.asked[k]!.epoch ?? 0) !== (r.asked[k - 1]!.epoch ?? 0)) return k;
  return null;
}
