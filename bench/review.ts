/**
 * A review against the share of questions asked: does it turn a few human answers into the right accuracies and
 * ranking of the systems? On EVOUNA TriviaQA's five systems plus two of our making (bench/review-data.ts), as is
 * and with every row's golds cut to the first one, on the 20% of questions held out of pedants' and the
 * priority's fitting and on every question. "verbose" and "missing gold" are systems neither was fitted on.
 *
 * For each share of rows' worth of questions (2–30%) and each design, over seeds, a person answers the questions
 * asked with the human label (of the row shown; one answer covers every system that gave the answer):
 *   - verity: `verity review`'s plan (core/review/plan.ts), its lines written as the label file, read back and
 *     folded in as `verity compare --labels` does, and each system's reviewed estimate from compareTable +
 *     leaderboard (the compare JSON's `reviewed`);
 *   - uniform: the same with every answer group equally likely (a simple random sample of distinct answers);
 *   - today: the queue and estimate before answer groups (bench/review-today.ts).
 * Reported: Kendall τ of the estimates against the systems' human accuracies, the largest |estimate − human|, the
 * mean width of the 95% intervals and the share of systems they cover (mean ± sd over seeds).
 *
 *   npm run bench:review [-- --seeds 30]
 */
import { parseArgs } from 'node:util';
import { reviewBenchRows, BENCH_SYSTEMS, type BenchRow } from './review-data.ts';
import { todayFeatures, todayPicks, todayPriorities, reviewedByGroup, PICK_QUEUE, PICK_RANDOM } from './review-today.ts';
import { createSyncMetric, DEFAULT_METRICS } from '../src/core/metrics/index.ts';
import { scoreRows } from '../src/core/scoring.ts';
import { ResultTable } from '../src/core/result-table.ts';
import { askedGroups, designRecord, planReview, reviewLine, type ReviewPlan } from '../src/core/review/plan.ts';
import { drawDesign } from '../src/core/review/design.ts';
import { foldLabels, parseReviewLabels } from '../src/core/review/labels.ts';
import { refitThreshold } from '../src/core/review/refit.ts';
import { compareTable, leaderboard, type CompareRow } from '../src/core/compare/index.ts';
import { kendallTauB } from '../src/core/agreement/stats.ts';
import { nodeLexicon } from '../src/runtime/lexicon-node.ts';

const { values } = parseArgs({ options: { seeds: { type: 'string', default: '30' }, only: { type: 'string' } } });
const SEEDS = Number(values.seeds);
const SHARES = [0.02, 0.05, 0.1, 0.15, 0.2, 0.3];
const JUDGE = 'pedants';
const DESIGNS = ['today', 'verity', 'uniform'] as const;

const lexicon = nodeLexicon();
const metrics = DEFAULT_METRICS.map((n) => createSyncMetric(n, {}, { lexicon }));
const judge = metrics.find((m) => m.name === JUDGE)!;
const OTHERS = DEFAULT_METRICS.filter((n) => n !== JUDGE);
const INPUT = 'bench';

interface Run {
  tau: number;
  gap: number;
  width: number | null;
  cover: number | null;
  gaps: number[];
}
interface Curve {
  runs: Run[];
}

/** Each system's estimate and interval, the way `verity compare --labels` computes it, after a review of `count` questions. */
function verityEstimates(
  rows: BenchRow[],
  results: ResultTable,
  plan: ReviewPlan,
  count: number,
): { value: number; ci: [number, number] | null }[] {
  const design = designRecord(plan, count);
  const lines = askedGroups(plan, count).map(({ group, order, pi }) => {
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
      weight: plan.design.weights[group]!,
      draw: plan.design.draws[group]!,
      pi,
      design,
      input: INPUT,
    });
    // The person answers the question shown: the first row's answer, for every system that gave it.
    line.label = first.correct;
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
    ...(r.pi !== undefined ? { pi: r.pi, unit: r.unit! } : {}),
  }));
  const t = compareTable(compareRows, results, [{ name: JUDGE, threshold: judge.threshold }], { reference: JUDGE });
  const lb = leaderboard(t, { resamples: 0 }).metrics[0]!;
  return BENCH_SYSTEMS.map((s) => {
    const e = lb.entries.find((x) => x.system === s)!;
    return { value: e.reviewed?.value ?? e.accuracy.value!, ci: e.reviewed?.ci ?? null };
  });
}

/** The same with today's queue and estimate, `count` rows asked. */
function todayEstimates(rows: BenchRow[], results: ResultTable, priorities: Float64Array, count: number, seed: number) {
  const picks = todayPicks(priorities, count, seed, (k) => rows[k]!.system);
  const h = new Int8Array(rows.length).fill(-1);
  const pick = new Int8Array(rows.length);
  for (const p of picks) {
    h[p.index] = rows[p.index]!.correct ? 1 : 0;
    pick[p.index] = p.picked === 'random' ? PICK_RANDOM : p.picked === 'both' ? PICK_RANDOM | PICK_QUEUE : PICK_QUEUE;
  }
  const d = Int8Array.from(rows, (_, i) => {
    const x = results.decision(JUDGE, i);
    return x === null ? -1 : x ? 1 : 0;
  });
  const groups = BENCH_SYSTEMS.map((s) => rows.flatMap((r, i) => (r.system === s ? [i] : [])));
  return reviewedByGroup(d, h, pick, groups).map((r) => ({ value: r!.value, ci: r!.ci }));
}

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
  const plan0 = planReview(rows, view, 1);
  const todayP = todayPriorities(todayFeatures(rows, results, { metric: JUDGE, threshold: judge.threshold }, (i) => rows[i]!.system));
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
    '| questions asked (share of rows) | design | Kendall τ | max \\|estimate − human\\| | mean 95% interval width | intervals covering |',
  );
  console.log('|---|---|---|---|---|---|');
  console.log(`| 0% | judge alone | ${judgeTau.toFixed(3)} | ${judgeGap.toFixed(3)} | — | — |`);
  const at15: Record<string, number[][]> = {};
  for (const share of SHARES)
    for (const design of DESIGNS) {
      const curve: Curve = { runs: [] };
      const count = Math.min(plan0.groups.length, Math.max(1, Math.round(share * rows.length)));
      for (let seed = 1; seed <= SEEDS; seed++) {
        let est: { value: number; ci: [number, number] | null }[];
        if (design === 'today') est = todayEstimates(rows, results, todayP, count, seed);
        else {
          const weights = design === 'verity' ? plan0.design.weights : new Float64Array(plan0.groups.length).fill(1);
          est = verityEstimates(rows, results, { ...plan0, design: drawDesign(weights, seed) }, count);
        }
        const widths = est.flatMap((e) => (e.ci ? [e.ci[1] - e.ci[0]] : []));
        const withCi = est.map((e, k) => [e, human[k]!] as const).filter(([e]) => e.ci);
        curve.runs.push({
          tau: kendallTauB(
            est.map((e) => e.value),
            human,
          )!,
          gap: Math.max(...est.map((e, k) => Math.abs(e.value - human[k]!))),
          width: widths.length ? mean(widths) : null,
          cover: withCi.length ? withCi.filter(([e, h]) => e.ci![0] <= h + 1e-12 && h <= e.ci![1] + 1e-12).length / withCi.length : null,
          gaps: est.map((e, k) => e.value - human[k]!),
        });
      }
      const r = curve.runs;
      console.log(
        `| ${share * 100}% (${count}) | ${design === 'verity' ? "Verity's design" : design === 'uniform' ? 'uniform, same estimator' : "today's queue"} | ${f(r.map((x) => x.tau))} | ${f(r.map((x) => x.gap))} | ${f(r.flatMap((x) => (x.width === null ? [] : [x.width])))} | ${f(
          r.flatMap((x) => (x.cover === null ? [] : [x.cover])),
          2,
        )} |`,
      );
      if (share === 0.15) at15[design] = r.map((x) => x.gaps);
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
    const plan = { ...plan0, design: drawDesign(plan0.design.weights, seed) };
    const count = Math.round(0.15 * rows.length);
    const asked = askedGroups(plan, count);
    const pi = new Float64Array(rows.length).fill(NaN);
    for (const a of asked) for (const i of plan.groups[a.group]!) pi[i] = a.pi;
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
