/**
 * The review queue against the share of rows reviewed (issue 36), on EVOUNA TriviaQA's five systems plus two of
 * our making where text cannot decide: "verbose" (FiD's answers inside a long sentence) and "missing gold"
 * (FiD's correct answers with the gold they match taken out of the golds, when another gold remains).
 * For each share of rows reviewed (0–30%) and each queue — Verity's (most uncertain + a random slice,
 * core/review/priority.ts) and a purely random one — over seeds: the human label is given on the picked rows,
 * the comparison's reviewed accuracy (core/review/estimate.ts, through compareTable + leaderboard as `verity
 * compare --labels` computes it) is set against each system's human accuracy on all its rows: Kendall τ of the
 * system ranking, the largest |reviewed − human|, and the share of systems whose interval covers the human figure.
 * Reported for every question and for the 20% of questions held out of pedants' and the priority's training.
 *
 *   npm run bench:review [-- --seeds 30 --random-share 0.2]
 */
import { parseArgs } from 'node:util';
import { loadEvouna, SYSTEMS } from '../scripts/evouna.ts';
import { createSyncMetric, DEFAULT_METRICS } from '../src/core/metrics/index.ts';
import { scoreRows } from '../src/core/run.ts';
import { ResultTable } from '../src/core/result-table.ts';
import { pickForReview, priorityFeatures, reviewPriorities } from '../src/core/review/priority.ts';
import { compareTable, leaderboard, type CompareRow } from '../src/core/compare/index.ts';
import { kendallTauB } from '../src/core/agreement/stats.ts';
import { pickBits } from '../src/core/review/labels.ts';
import { refitThreshold } from '../src/core/review/refit.ts';
import { mulberry32 } from '../src/core/util/random.ts';
import { useNodeLexicon } from '../src/runtime/lexicon-node.ts';
import { normalize } from '../src/core/text/normalize.ts';
import type { QaRow } from '../src/core/types.ts';

const { values } = parseArgs({ options: { seeds: { type: 'string', default: '30' }, 'random-share': { type: 'string', default: '0.2' } } });
const SEEDS = Number(values.seeds);
const RANDOM_SHARE = Number(values['random-share']);
const SHARES = [0, 0.05, 0.1, 0.15, 0.2, 0.3];
const JUDGE = 'pedants';
// The split of scripts/train-review.ts and pedants' training: the same seeded 20% of questions.
const SPLIT_SEED = 20261122;

useNodeLexicon();
const items = loadEvouna();
const qids = [...new Set(items.map((x) => x.qid))];
const rnd = mulberry32(SPLIT_SEED);
const heldOut = new Set(
  qids
    .map((q) => [q, rnd()] as const)
    .sort((a, b) => a[1] - b[1])
    .slice(0, Math.round(qids.length * 0.2))
    .map(([q]) => q),
);

interface Row extends QaRow {
  system: string;
  key: string;
  correct: boolean;
  qid: number;
}
const rows: Row[] = items.map((x, i) => ({
  row: i + 1,
  id: String(x.qid),
  key: String(x.qid),
  question: x.question,
  golds: x.golds,
  candidate: x.candidate,
  system: x.system,
  correct: x.correct,
  qid: x.qid,
}));
// Systems of our making, from FiD's rows.
for (const x of items.filter((y) => y.system === 'fid')) {
  rows.push({
    ...rows[0]!,
    id: String(x.qid),
    key: String(x.qid),
    question: x.question,
    golds: x.golds,
    system: 'verbose',
    candidate: `After thinking it over, I would say the answer is most likely ${x.candidate.trim()}, though I could be wrong about that.`,
    correct: x.correct,
    qid: x.qid,
  });
  const said = normalize(x.candidate);
  const others = x.golds.filter((g) => normalize(g) !== said && !said.includes(normalize(g)));
  rows.push({
    ...rows[0]!,
    id: String(x.qid),
    key: String(x.qid),
    question: x.question,
    golds: x.correct && others.length > 0 ? others : x.golds,
    system: 'missing gold',
    candidate: x.candidate,
    correct: x.correct,
    qid: x.qid,
  });
}
rows.forEach((r, i) => (r.row = i + 1));
const systems = [...SYSTEMS, 'verbose', 'missing gold'];

const metrics = DEFAULT_METRICS.map((n) => createSyncMetric(n));
const judge = metrics.find((m) => m.name === JUDGE)!;

interface Curve {
  tau: number[];
  maxGap: number[];
  maxGapCorrected: number[];
  coverage: number[];
  width: number[];
}

const perSystem: string[] = [];
/** The share at which the refit is measured. */
const REFIT_SHARE = 0.15;
interface RefitRun {
  before: number;
  fitted: number;
  applied: boolean;
  after: number;
  slice: { before: number | null; after: number | null };
  unreviewed: { before: number; after: number };
}
const refits: RefitRun[] = [];

/** The judge's threshold refitted on one review; agreement with the humans on the rows nobody reviewed, before and after. */
function refitOnce(sub: Row[], results: ResultTable, labelled: Map<number, 'uncertain' | 'random' | 'both'>): RefitRun {
  const cells = sub.map((r, i) => {
    const p = labelled.get(i);
    return { s: results.score(JUDGE, i), h: p === undefined ? -1 : r.correct ? 1 : 0, pick: pickBits(p) };
  });
  const r = refitThreshold(JUDGE, cells, judge.threshold, true);
  let before = 0;
  let after = 0;
  let n = 0;
  sub.forEach((row, i) => {
    const s = results.score(JUDGE, i);
    if (labelled.has(i) || s === null) return;
    n++;
    before += s >= r.before === row.correct ? 1 : 0;
    after += s >= r.after === row.correct ? 1 : 0;
  });
  return {
    before: r.before,
    fitted: r.fitted,
    applied: r.applied,
    after: r.after,
    slice: r.slice,
    unreviewed: { before: before / n, after: after / n },
  };
}

async function evaluate(sub: Row[]): Promise<Record<string, Record<string, Curve>>> {
  const results = ResultTable.of(await scoreRows(sub, metrics), [...DEFAULT_METRICS]);
  const feats = priorityFeatures(sub, results, { metric: JUDGE, threshold: judge.threshold }, (k) => sub[k]!.system);
  const priorities = reviewPriorities(feats);
  const human = new Map<string, number>();
  for (const s of systems) {
    const k = sub.map((_, i) => i).filter((i) => sub[i]!.system === s);
    const judged = k.filter((i) => results.decision(JUDGE, i) === true).length / k.length;
    human.set(s, k.filter((i) => sub[i]!.correct).length / k.length);
    perSystem.push(`${s} ${judged.toFixed(3)} vs ${human.get(s)!.toFixed(3)}`);
  }
  const out: Record<string, Record<string, Curve>> = { verity: {}, random: {} };
  for (const queue of ['verity', 'random'] as const)
    for (const share of SHARES) {
      const c: Curve = { tau: [], maxGap: [], maxGapCorrected: [], coverage: [], width: [] };
      for (let seed = 1; seed <= (share === 0 ? 1 : SEEDS); seed++) {
        const budget = Math.round(share * sub.length);
        const picks =
          budget === 0
            ? []
            : pickForReview(
                queue === 'verity' ? priorities : new Float64Array(sub.length),
                budget,
                seed,
                (k) => sub[k]!.system,
                queue === 'verity' ? RANDOM_SHARE : 1,
              );
        const labelled = new Map(picks.map((p) => [p.index, p.picked] as const));
        if (queue === 'verity' && share === REFIT_SHARE) refits.push(refitOnce(sub, results, labelled));
        const compareRows: CompareRow[] = sub.map((r, k) => {
          const p = labelled.get(k);
          return p === undefined
            ? { system: r.system, key: r.key }
            : { system: r.system, key: r.key, label: { kind: 'binary', correct: r.correct }, pick: pickBits(p) };
        });
        const t = compareTable(compareRows, results, [{ name: JUDGE, threshold: judge.threshold }]);
        const lb = leaderboard(t, { resamples: 0 }).metrics[0]!;
        const est = systems.map((s) => {
          const e = lb.entries.find((x) => x.system === s)!;
          return {
            value: e.reviewed?.value ?? e.accuracy.value!,
            corrected: e.reviewed?.corrected ?? e.accuracy.value!,
            ci: e.reviewed?.ci ?? null,
          };
        });
        const h = systems.map((s) => human.get(s)!);
        c.tau.push(
          kendallTauB(
            est.map((e) => e.value),
            h,
          ) ?? NaN,
        );
        c.maxGap.push(Math.max(...est.map((e, k) => Math.abs(e.value - h[k]!))));
        const widths = est.filter((e) => e.ci).map((e) => e.ci![1] - e.ci![0]);
        if (widths.length) c.width.push(widths.reduce((a, b) => a + b, 0) / widths.length);
        c.maxGapCorrected.push(Math.max(...est.map((e, k) => Math.abs(e.corrected - h[k]!))));
        c.coverage.push(
          est.filter((e, k) => e.ci !== null && e.ci[0] <= h[k]! + 1e-12 && h[k]! <= e.ci[1] + 1e-12).length / systems.length,
        );
      }
      out[queue]![String(share)] = c;
    }
  return out;
}

const mean = (x: number[]) => x.reduce((a, b) => a + b, 0) / x.length;
const sd = (x: number[]) => Math.sqrt(x.reduce((a, b) => a + (b - mean(x)) ** 2, 0) / Math.max(1, x.length - 1));
const f = (x: number[], d = 3) => (x.length > 1 ? `${mean(x).toFixed(d)} ± ${sd(x).toFixed(d)}` : mean(x).toFixed(d));

for (const [name, subset] of [
  ['every question', rows.map((_, i) => i)],
  ['held-out questions', rows.map((_, i) => i).filter((i) => heldOut.has(rows[i]!.qid))],
] as const) {
  const res = await evaluate(subset.map((i) => rows[i]!));
  const n = subset.length;
  console.log(`\njudge vs human accuracy: ${perSystem.splice(0).join('; ')}`);
  console.log(
    `\n### ${name}: ${n} rows, ${systems.length} systems, judge ${JUDGE}, ${SEEDS} seeds, random slice ${RANDOM_SHARE * 100}% of Verity's queue\n`,
  );
  console.log(
    '| reviewed | queue | Kendall τ | max \\|reviewed − human\\| | max \\|corrected − human\\| | intervals covering | interval width |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const share of SHARES)
    for (const queue of ['verity', 'random'] as const) {
      if (share === 0 && queue === 'random') continue;
      const c = res[queue]![String(share)]!;
      console.log(
        `| ${share * 100}% | ${share === 0 ? 'none (judge alone)' : queue === 'verity' ? 'uncertain + random slice' : 'random'} | ${f(c.tau)} | ${f(c.maxGap)} | ${f(c.maxGapCorrected)} | ${share === 0 ? '—' : f(c.coverage, 2)} | ${share === 0 ? '—' : f(c.width)} |`,
      );
    }
  const rs = refits.splice(0);
  const col = (g: (r: RefitRun) => number | null) => f(rs.map(g).filter((x): x is number => x !== null));
  console.log(
    `\nRefit after a ${REFIT_SHARE * 100}% review (Verity's queue, ${rs.length} seeds): ${JUDGE} threshold ${rs[0]?.before.toFixed(3)}, fitted ${col((r) => r.fitted)}, applied in ${rs.filter((r) => r.applied).length} (→ ${col((r) => r.after)}); ` +
      `agreement with the humans on the rows nobody reviewed ${col((r) => r.unreviewed.before)} → ${col((r) => r.unreviewed.after)}; ` +
      `on the random slice as the product reports it (cross-fitted) ${col((r) => r.slice.before)} → ${col((r) => r.slice.after)}`,
  );
}
