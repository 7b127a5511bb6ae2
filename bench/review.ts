/**
 * A review against the share of questions asked: does it turn a few human answers into the right accuracies and
 * ranking of the systems, with intervals that hold wherever the person stops? On EVOUNA TriviaQA's five systems plus
 * two of our making (bench/review-data.ts), as is and with every row's golds cut to the first one, on the 20% of
 * questions held out of pedants' and the priority's fitting and on every question. "verbose" and "missing gold"
 * are systems neither was fitted on.
 *
 * For each seed a review is drawn (core/review/plan.ts) and the person answers its questions in order with the
 * human label (of the row shown; one answer covers every system that gave it); at each share of rows' worth of
 * questions (2–30%) the file answered so far is read back and folded in as `verity compare --labels` does, and each
 * system's reviewed estimate read from compareTable + leaderboard (the compare JSON's `reviewed`). Designs:
 *   - adaptive: the app's review (and `verity review --continue` at each refit): `verity review`'s weights (more
 *     where the judge is likely wrong), the rest drawn again at each of the estimate's refits from a model of the
 *     answers so far (core/review/adapt.ts);
 *   - first draw only: a review file answered in one go, its weights never refitted;
 *   - uniform: every answer group equally likely, the same estimator.
 * Reported: Kendall τ of the estimates against the systems' human accuracies, the largest |estimate − human|, the
 * mean width of the anytime and the fixed-size 95% intervals, the share of systems each covers at that share, and
 * the share of (seed, system) whose anytime / fixed interval held the truth at every stopping point up to it.
 *
 *   npm run bench:review [-- --seeds 30]
 */
import { parseArgs } from 'node:util';
import { reviewBenchRows, BENCH_SYSTEMS, type BenchRow } from './review-data.ts';
import { createSyncMetric, DEFAULT_METRICS } from '../src/core/metrics/index.ts';
import { scoreRows } from '../src/core/scoring.ts';
import { ResultTable } from '../src/core/result-table.ts';
import { designRecord, planReview, reviewLine, type ReviewPlan } from '../src/core/review/plan.ts';
import { adaptAt, entrySequence, firstEntries } from '../src/core/review/adapt.ts';
import { drawDesign, entryProbabilities, groupDraw, type AskedEntry } from '../src/core/review/design.ts';
import { foldLabels, parseReviewLabels, reviewedFields } from '../src/core/review/labels.ts';
import { refitThreshold } from '../src/core/review/refit.ts';
import { compareTable, leaderboard, type CompareRow } from '../src/core/compare/index.ts';
import { kendallTauB } from '../src/core/agreement/stats.ts';
import { nodeLexicon } from '../src/runtime/lexicon-node.ts';

const { values } = parseArgs({ options: { seeds: { type: 'string', default: '30' }, only: { type: 'string' } } });
const SEEDS = Number(values.seeds);
const SHARES = [0.02, 0.05, 0.1, 0.15, 0.2];
const JUDGE = 'pedants';
const DESIGNS = ['adaptive', 'verity', 'uniform-adaptive', 'uniform'] as const;
const DESIGN_NAMES = {
  adaptive: "Verity's design, adapting",
  verity: 'first draw only',
  'uniform-adaptive': 'uniform first draw, adapting',
  uniform: 'uniform, same estimator',
};
const MAX_SHARE = 0.2;

const lexicon = nodeLexicon();
const metrics = DEFAULT_METRICS.map((n) => createSyncMetric(n, {}, { lexicon }));
const judge = metrics.find((m) => m.name === JUDGE)!;
const OTHERS = DEFAULT_METRICS.filter((n) => n !== JUDGE);
const INPUT = 'bench';

interface Run {
  tau: number;
  gap: number;
  width: number | null;
  fixedWidth: number | null;
  cover: number | null;
  fixedCover: number | null;
  gaps: number[];
}
type Estimate = { value: number; ci: [number, number] | null; fixed: [number, number] | null };

/**
 * Each system's estimate and intervals, the way `verity compare --labels` computes them, after a review file of
 * `count` questions of which the first `answered` are answered.
 */
function verityEstimates(rows: BenchRow[], results: ResultTable, plan: ReviewPlan, entries: AskedEntry[], answered: number): Estimate[] {
  const design = designRecord(plan, entries.length);
  const qs = entryProbabilities(entries);
  const lines = entries.map(({ group }, k) => {
    const order = k + 1;
    const q = qs[k]!;
    const members = plan.groups[group]!;
    const first = rows[members[0]!]!;
    const line = reviewLine({
      order,
      rows: members.map((i) => ({ id: rows[i]!.id, system: rows[i]!.system })),
      question: first.question,
      golds: first.golds,
      candidate: first.candidate,
      judge: { metric: JUDGE, score: null, decision: null, explanation: '' },
      priority: 0,
      why: '',
      entry: entries[k]!,
      q,
      design,
      input: INPUT,
    });
    // The person answers the question shown: the first row's answer, for every system that gave it.
    if (order <= answered) line.label = first.correct;
    return JSON.stringify(line);
  });
  const parsed = parseReviewLabels(lines.join('\n'));
  if (!parsed.ok) throw new Error(parsed.error);
  const folded = foldLabels(rows, parsed.value).rows;
  const compareRows: CompareRow[] = folded.map((r) => ({
    system: r.system,
    key: r.key,
    question: r.question,
    golds: r.golds,
    candidate: r.candidate,
    ...(r.label ? { label: r.label } : {}),
    ...reviewedFields(r),
  }));
  const t = compareTable(compareRows, results, [{ name: JUDGE, threshold: judge.threshold }], { reference: JUDGE });
  const lb = leaderboard(t, { resamples: 0 }).metrics[0]!;
  return BENCH_SYSTEMS.map((s) => {
    const e = lb.entries.find((x) => x.system === s)!;
    return { value: e.reviewed?.value ?? e.accuracy.value!, ci: e.reviewed?.ci ?? null, fixed: e.reviewed?.fixed ?? null };
  });
}

/** The person's answer for row i: the label of the row the question shows (its group's first), 1 right, 0 wrong. */
const answerOf = (plan: ReviewPlan, rows: BenchRow[], i: number) => (rows[plan.groups[plan.groupOf[i]!]![0]!]!.correct ? 1 : 0);

const mean = (x: number[]) => x.reduce((a, b) => a + b, 0) / x.length;
const sd = (x: number[]) => Math.sqrt(x.reduce((a, b) => a + (b - mean(x)) ** 2, 0) / Math.max(1, x.length - 1));
const f = (x: number[], d = 3) =>
  x.length === 0 ? '—' : x.length > 1 ? `${mean(x).toFixed(d)} ± ${sd(x).toFixed(d)}` : mean(x).toFixed(d);

async function bench(variant: 'as-is' | 'one-gold', subset: 'held-out questions' | 'every question'): Promise<void> {
  const { rows: all, heldOut } = reviewBenchRows(variant);
  const rows = subset === 'every question' ? all : all.filter((r) => heldOut.has(r.qid));
  rows.forEach((r, i) => (r.row = i + 1));
  const results = ResultTable.of(await scoreRows(rows, metrics), [...DEFAULT_METRICS]);
  const view = {
    judge: { metric: JUDGE, threshold: judge.threshold },
    score: (i: number) => results.score(JUDGE, i),
    decision: (i: number) => results.decision(JUDGE, i),
    others: (i: number) => OTHERS.map((o) => results.decision(o, i)),
  };
  const plan0 = planReview(rows, view, 1, INPUT);
  const human = BENCH_SYSTEMS.map((s) => {
    const k = rows.filter((r) => r.system === s);
    return k.filter((r) => r.correct).length / k.length;
  });
  const judged = BENCH_SYSTEMS.map((s) => {
    const k = rows.map((r, i) => [r, i] as const).filter(([r]) => r.system === s);
    return k.filter(([, i]) => results.decision(JUDGE, i) === true).length / k.length;
  });
  const judgeTau = kendallTauB(judged, human)!;
  const judgeGap = Math.max(...judged.map((j, k) => Math.abs(j - human[k]!)));
  console.log(
    `\n### EVOUNA-TQ ${variant === 'one-gold' ? 'with one gold per row' : 'as is'}, ${subset}: ${rows.length} rows, ${plan0.groups.length} distinct answers, ${BENCH_SYSTEMS.length} systems, judge ${JUDGE}, ${SEEDS} seeds\n`,
  );
  console.log(
    `judge alone vs human accuracy: ${BENCH_SYSTEMS.map((s, k) => `${s} ${judged[k]!.toFixed(3)} vs ${human[k]!.toFixed(3)}`).join('; ')}\n`,
  );
  console.log(
    '| questions asked (share of rows) | design | Kendall τ | max \\|estimate − human\\| | width: anytime | width: fixed | covering here: anytime | fixed | held at every stop so far: anytime | fixed |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  console.log(`| 0% | judge alone | ${judgeTau.toFixed(3)} | ${judgeGap.toFixed(3)} | — | — | — | — | — | — |`);
  const at15: Record<string, number[][]> = {};
  const inside = (ci: [number, number] | null, h: number) => !!ci && ci[0] <= h + 1e-12 && h <= ci[1] + 1e-12;
  for (const design of DESIGNS) {
    const count = Math.min(plan0.groups.length, Math.max(1, Math.round(MAX_SHARE * rows.length)));
    const byShare = SHARES.map(() => [] as Run[]);
    const heldAny = SHARES.map(() => 0);
    const heldFixed = SHARES.map(() => 0);
    for (let seed = 1; seed <= SEEDS; seed++) {
      const weights = design.startsWith('uniform') ? new Float64Array(plan0.groups.length).fill(1) : plan0.design.weights;
      const draws = Float64Array.from(plan0.groups, (g) => groupDraw(seed, INPUT, rows[g[0]!]!.system, rows[g[0]!]!.id));
      // A uniform first draw stands for a priority that knows nothing of this file: every row at 0.5.
      const priority = design.startsWith('uniform') ? new Float64Array(rows.length).fill(0.5) : plan0.priority;
      const plan = { ...plan0, priority, design: drawDesign(weights, draws, seed) };
      const last = Math.min(plan0.groups.length, Math.max(count, Math.round(SHARES.at(-1)! * rows.length)));
      let entries = firstEntries(plan, last);
      // The person answers in order; at each refit the rest is drawn again from the answers so far.
      if (design.endsWith('adaptive'))
        for (let m = 1; m < last; m++) entries = adaptAt(plan, entries, m, (i) => answerOf(plan, rows, i)) ?? entries;
      const everAny = BENCH_SYSTEMS.map(() => true);
      const everFixed = BENCH_SYSTEMS.map(() => true);
      SHARES.forEach((share, k) => {
        const answered = Math.min(plan0.groups.length, Math.max(1, Math.round(share * rows.length)));
        // Past the review's planned size the file is longer: a review planned for 20% and extended.
        const est = verityEstimates(rows, results, plan, entries.slice(0, Math.max(count, answered)), answered);
        est.forEach((e, s) => {
          if (!inside(e.ci, human[s]!)) everAny[s] = false;
          if (!inside(e.fixed, human[s]!)) everFixed[s] = false;
        });
        heldAny[k]! += everAny.filter(Boolean).length;
        heldFixed[k]! += everFixed.filter(Boolean).length;
        const widths = est.flatMap((e) => (e.ci ? [e.ci[1] - e.ci[0]] : []));
        const fixedWidths = est.flatMap((e) => (e.fixed ? [e.fixed[1] - e.fixed[0]] : []));
        byShare[k]!.push({
          tau: kendallTauB(
            est.map((e) => e.value),
            human,
          )!,
          gap: Math.max(...est.map((e, s) => Math.abs(e.value - human[s]!))),
          width: widths.length ? mean(widths) : null,
          fixedWidth: fixedWidths.length ? mean(fixedWidths) : null,
          cover: est.filter((e, s) => inside(e.ci, human[s]!)).length / est.length,
          fixedCover: est.filter((e, s) => inside(e.fixed, human[s]!)).length / est.length,
          gaps: est.map((e, s) => e.value - human[s]!),
        });
      });
    }
    SHARES.forEach((share, k) => {
      const r = byShare[k]!;
      const n = Math.min(plan0.groups.length, Math.max(1, Math.round(share * rows.length)));
      const num = (x: (number | null)[]) => x.flatMap((v) => (v === null ? [] : [v]));
      const runs = SEEDS * BENCH_SYSTEMS.length;
      console.log(
        `| ${share * 100}% (${n}) | ${DESIGN_NAMES[design]} | ${f(r.map((x) => x.tau))} | ${f(r.map((x) => x.gap))} | ${f(num(r.map((x) => x.width)))} | ${f(num(r.map((x) => x.fixedWidth)))} | ${f(num(r.map((x) => x.cover)), 2)} | ${f(num(r.map((x) => x.fixedCover)), 2)} | ${(heldAny[k]! / runs).toFixed(2)} | ${(heldFixed[k]! / runs).toFixed(2)} |`,
      );
      if (share === 0.15) at15[design] = r.map((x) => x.gaps);
    });
  }
  console.log(
    `\nAt 15%, each system's mean estimate − human (sd over seeds): ${DESIGNS.map(
      (d) =>
        `${d}: ${BENCH_SYSTEMS.map((s, k) => {
          const g = at15[d]!.map((x) => x[k]!);
          return `${s} ${mean(g) >= 0 ? '+' : ''}${mean(g).toFixed(3)} (${sd(g).toFixed(3)})`;
        }).join(', ')}`,
    ).join('; ')}`,
  );
  // The threshold refit after a 15% review: agreement with the humans on the rows nobody was asked about.
  const fits: { applied: boolean; before: number; after: number }[] = [];
  for (let seed = 1; seed <= SEEDS; seed++) {
    const draws = Float64Array.from(plan0.groups, (g) => groupDraw(seed, INPUT, rows[g[0]!]!.system, rows[g[0]!]!.id));
    const plan = { ...plan0, design: drawDesign(plan0.design.weights, draws, seed) };
    const count = Math.round(0.15 * rows.length);
    let entries = firstEntries(plan, count);
    for (let m = 1; m < count; m++) entries = adaptAt(plan, entries, m, (i) => answerOf(plan, rows, i)) ?? entries;
    // Each asked group weighed by about its inclusion probability at the end (design.ts readSequence).
    const seq = entrySequence(plan, entries, count);
    const pi = new Float64Array(rows.length).fill(NaN);
    entries.forEach((e, t) => {
      for (const i of plan.groups[e.group]!) pi[i] = seq.pi[t]!;
    });
    const cells = rows.map((r, i) => ({
      s: results.score(JUDGE, i),
      h: Number.isNaN(pi[i]!) ? -1 : rows[plan.groups[plan.groupOf[i]!]![0]!]!.correct ? 1 : 0,
      pi: pi[i]!,
    }));
    const fit = refitThreshold(JUDGE, cells, judge.threshold);
    let before = 0;
    let after = 0;
    let n = 0;
    rows.forEach((r, i) => {
      const s = results.score(JUDGE, i);
      if (!Number.isNaN(pi[i]!) || s === null) return;
      n++;
      before += s >= fit.before === r.correct ? 1 : 0;
      after += s >= fit.after === r.correct ? 1 : 0;
    });
    fits.push({ applied: fit.applied, before: before / n, after: after / n });
  }
  console.log(
    `\nThreshold refit after a 15% review: applied in ${fits.filter((x) => x.applied).length} of ${SEEDS} seeds; agreement with the humans on the rows not asked about ${f(fits.map((x) => x.before))} → ${f(fits.map((x) => x.after))}`,
  );
}

for (const variant of ['as-is', 'one-gold'] as const)
  for (const subset of ['held-out questions', 'every question'] as const) {
    if (values.only && !`${variant} ${subset}`.includes(values.only)) continue;
    await bench(variant, subset);
  }
