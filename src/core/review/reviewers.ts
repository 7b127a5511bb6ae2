/**
 * Agreement between reviewers: how far people who judged the same answers agree, and where they do not.
 *
 * Units: the answers judged (verdictKey: the question, the answer and the golds as the judge reads them), each with
 *   every reviewer's verdict; the same reviewer's later verdict on a unit replaces the earlier one (by `time`, else
 *   the one read last). Verdicts are compared as correct / incorrect (what the review's estimate counts), so
 *   "exact" and "equivalent" agree.
 * What, over the units two or more reviewers judged:
 *   two reviewers: Cohen's κ = (p_o − p_e) / (1 − p_e), p_o the share of units they agree on and p_e = Σ_c p_1c p_2c
 *     from each one's own shares (Cohen 1960);
 *   more: Krippendorff's α (nominal) = 1 − (n − 1) Σ_{c≠k} o_ck / Σ_{c≠k} n_c n_k, o the coincidence matrix (each
 *     unit's m_u verdicts give every ordered pair of them 1 / (m_u − 1)), n_c its margins, n their sum (Krippendorff,
 *     "Computing Krippendorff's Alpha-Reliability", 2011); units with one verdict are left out.
 * Interval: percentile bootstrap over the units (units drawn with replacement, mulberry32(seed)), 95% by default.
 * Disagreements: every unit whose verdicts differ, with each reviewer's verdict. An adjudicator settles them
 *   (mergeVerdicts): their verdict wins; unsettled ones count as the majority's or are left out, as the user says.
 * Limits: κ and α are undefined (null) when every verdict is the same class (no variation to agree on); with few
 *   shared units the interval is wide, and it is the units' sampling only (reviewers are taken as fixed).
 */
import { labelIsCorrect } from '../correctness.ts';
import { mulberry32 } from '../util/random.ts';
import { percentileInterval } from '../compare/resample.ts';
import type { Label } from '../types.ts';
import { verdictKey, type Verdict } from './memory.ts';

export interface ReviewedUnit {
  question: string;
  golds: string[];
  candidate: string;
  /** Reviewer → their (latest) verdict. */
  verdicts: Map<string, { label: Label; time?: string }>;
}

export interface ReviewerAgreement {
  statistic: 'kappa' | 'alpha';
  reviewers: string[];
  /** Units judged by two or more reviewers. */
  shared: number;
  /** Units in all, and the verdicts they hold (a reviewer's replaced verdicts not counted). */
  units: number;
  verdicts: number;
  value: number | null;
  ci: [number, number] | null;
  level: number;
  resamples: number;
  seed: number;
  disagreements: { question: string; golds: string[]; candidate: string; verdicts: { reviewer: string; label: Label }[] }[];
}

/** Every verdict by unit; `reviewer` names whose a verdict is when it does not say. */
export function reviewedUnits(verdicts: readonly { verdict: Verdict; reviewer: string }[]): ReviewedUnit[] {
  const units = new Map<string, ReviewedUnit>();
  for (const { verdict: v, reviewer } of verdicts) {
    const k = verdictKey(v);
    let u = units.get(k);
    if (!u) units.set(k, (u = { question: v.question, golds: v.golds, candidate: v.candidate, verdicts: new Map() }));
    const who = v.reviewer ?? reviewer;
    const old = u.verdicts.get(who);
    if (old?.time !== undefined && v.time !== undefined && v.time < old.time) continue;
    u.verdicts.set(who, { label: v.label, ...(v.time !== undefined ? { time: v.time } : {}) });
  }
  return [...units.values()];
}

/** Cohen's κ of two raters' nominal codes over the same units; null without variation. */
export function cohenKappa(a: readonly string[], b: readonly string[]): number | null {
  const n = a.length;
  if (n === 0) return null;
  const pa = new Map<string, number>();
  const pb = new Map<string, number>();
  let agree = 0;
  for (let i = 0; i < n; i++) {
    if (a[i] === b[i]) agree++;
    pa.set(a[i]!, (pa.get(a[i]!) ?? 0) + 1 / n);
    pb.set(b[i]!, (pb.get(b[i]!) ?? 0) + 1 / n);
  }
  let pe = 0;
  for (const [c, p] of pa) pe += p * (pb.get(c) ?? 0);
  return pe >= 1 - 1e-12 ? null : (agree / n - pe) / (1 - pe);
}

/** Krippendorff's α (nominal) of units' codes (each unit: the codes it was given, any number); null without variation. */
export function krippendorffAlpha(units: readonly (readonly string[])[]): number | null {
  const o = new Map<string, Map<string, number>>();
  const add = (c: string, k: string, w: number) => {
    let row = o.get(c);
    if (!row) o.set(c, (row = new Map()));
    row.set(k, (row.get(k) ?? 0) + w);
  };
  for (const u of units) {
    const m = u.length;
    if (m < 2) continue;
    for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) if (i !== j) add(u[i]!, u[j]!, 1 / (m - 1));
  }
  const margins = new Map<string, number>();
  let n = 0;
  let observed = 0;
  for (const [c, row] of o)
    for (const [k, w] of row) {
      margins.set(c, (margins.get(c) ?? 0) + w);
      n += w;
      if (c !== k) observed += w;
    }
  let expected = 0;
  for (const [c, nc] of margins) for (const [k, nk] of margins) if (c !== k) expected += nc * nk;
  if (n === 0 || expected === 0) return null;
  return 1 - ((n - 1) * observed) / expected;
}

const code = (l: Label) => (labelIsCorrect(l) ? 'correct' : 'incorrect');

/** κ (two reviewers) or α (more) over the units, with a bootstrap interval over the shared units, and the disagreements. */
export function reviewerAgreement(
  units: readonly ReviewedUnit[],
  opts: { resamples?: number; seed?: number; level?: number } = {},
): ReviewerAgreement {
  const resamples = opts.resamples ?? 1000;
  const seed = opts.seed ?? 1;
  const level = opts.level ?? 0.95;
  const reviewers = [...new Set(units.flatMap((u) => [...u.verdicts.keys()]))].sort();
  const shared = units.filter((u) => u.verdicts.size >= 2);
  const statistic = reviewers.length === 2 ? 'kappa' : 'alpha';
  const stat = (sample: readonly ReviewedUnit[]): number | null => {
    if (statistic === 'kappa') {
      const [r1, r2] = reviewers as [string, string];
      const both = sample.filter((u) => u.verdicts.has(r1) && u.verdicts.has(r2));
      return cohenKappa(
        both.map((u) => code(u.verdicts.get(r1)!.label)),
        both.map((u) => code(u.verdicts.get(r2)!.label)),
      );
    }
    return krippendorffAlpha(sample.map((u) => [...u.verdicts.values()].map((v) => code(v.label))));
  };
  const value = shared.length ? stat(shared) : null;
  let ci: [number, number] | null = null;
  if (value !== null && resamples > 0) {
    const rng = mulberry32(seed);
    const values: number[] = [];
    const draw: ReviewedUnit[] = new Array<ReviewedUnit>(shared.length);
    for (let b = 0; b < resamples; b++) {
      for (let i = 0; i < shared.length; i++) draw[i] = shared[Math.floor(rng() * shared.length)]!;
      // A resample with no variation has no κ: left out, as percentileInterval leaves out NaN.
      values.push(stat(draw) ?? NaN);
    }
    ci = percentileInterval(values, level);
  }
  const disagreements = shared
    .filter((u) => new Set([...u.verdicts.values()].map((v) => code(v.label))).size > 1)
    .map((u) => ({
      question: u.question,
      golds: u.golds,
      candidate: u.candidate,
      verdicts: [...u.verdicts].map(([reviewer, v]) => ({ reviewer, label: v.label })),
    }));
  return {
    statistic,
    reviewers,
    shared: shared.length,
    units: units.length,
    verdicts: units.reduce((s, u) => s + u.verdicts.size, 0),
    value,
    ci,
    level,
    resamples,
    seed,
    disagreements,
  };
}

/** How a merged verdict was reached. */
export type Settled = 'one' | 'agreed' | 'adjudicated' | 'majority';

export interface MergedVerdict extends Verdict {
  settled: Settled;
  /** Every reviewer's verdict on the answer (the adjudicator's too), so merging loses none. */
  reviewers: Record<string, Label>;
}

/**
 * One verdict per answer from several reviewers' files: one reviewer's or theirs all alike (as correct / incorrect:
 * the first such verdict given), else the adjudicator's when they gave one, else — as `unsettled` says — the
 * majority's (a tie is left out) or none. Returns the verdicts and how many answers were left out.
 */
export function mergeVerdicts(
  units: readonly ReviewedUnit[],
  opts: { adjudicator?: string; unsettled: 'majority' | 'omit' },
): { verdicts: MergedVerdict[]; omitted: number } {
  const verdicts: MergedVerdict[] = [];
  let omitted = 0;
  for (const u of units) {
    const all = [...u.verdicts].filter(([who]) => who !== opts.adjudicator);
    const reviewers = Object.fromEntries([...u.verdicts].map(([who, v]) => [who, v.label]));
    const base = { question: u.question, golds: u.golds, candidate: u.candidate, reviewers };
    const judge = opts.adjudicator !== undefined ? u.verdicts.get(opts.adjudicator) : undefined;
    const codes = new Set(all.map(([, v]) => code(v.label)));
    if (all.length && codes.size === 1) verdicts.push({ ...base, label: all[0]![1].label, settled: all.length === 1 ? 'one' : 'agreed' });
    else if (judge) verdicts.push({ ...base, label: judge.label, settled: all.length ? 'adjudicated' : 'one' });
    else if (opts.unsettled === 'majority') {
      const right = all.filter(([, v]) => code(v.label) === 'correct');
      const wrong = all.filter(([, v]) => code(v.label) === 'incorrect');
      if (right.length === wrong.length) omitted++;
      else verdicts.push({ ...base, label: (right.length > wrong.length ? right : wrong)[0]![1].label, settled: 'majority' });
    } else omitted++;
  }
  return { verdicts, omitted };
}
