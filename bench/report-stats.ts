/**
 * `npm run bench:report` — the agreement report and the comparison at size, in Node (the same core code the app
 * runs in its worker and the CLI runs in `verity evaluate` / `verity compare`):
 *
 * 1. The agreement report (core/report.ts `agreementSummaryOfColumns`, the path `verity evaluate` and the app's
 *    report take) over 1,000,000 labelled rows and the five metrics of the embedded default, 1000 resamples.
 *    Target: under 5 s.
 * 2. `compareReportOf` (leaderboard, paired tests, metric-vs-human ranking) for 10 systems × 100,000 questions
 *    (1,000,000 rows) and the same five metrics, 1000 resamples.
 * 3. For context, not a target: the taxonomy (8-class) report over the same million rows.
 *
 * Data are synthetic but shaped like the default metrics' output on EVOUNA TriviaQA (shared data, read at run
 * time would need a million scored rows): binary exact / lexical matches, token F1 in steps of token fractions,
 * continuous PEDANTS-style probabilities and taxonomy scores on a few levels, all correlated with the label;
 * a few unscored rows. Seeded, so every run times the same work.
 *
 *   npm run bench:report [-- --rows 1000000 --questions 100000 --systems 10 --resamples 1000 --repeats 3]
 *
 * Prints a markdown section for bench/REPORT.md; times are the best of the repeats.
 */
import { performance } from 'node:perf_hooks';
import { agreementSummaryOfColumns } from '../src/core/report.ts';
import type { ScoreColumns } from '../src/core/report.ts';
import { compareReportOf } from '../src/core/compare/report.ts';
import type { CompareTable } from '../src/core/compare/table.ts';
import { mulberry32 } from '../src/core/util/random.ts';
import { CAP_CLASSES, type Label } from '../src/core/types.ts';
import { argNumber } from './args.ts';

const ROWS = argNumber('rows', 1_000_000);
const QUESTIONS = argNumber('questions', 100_000);
const SYSTEMS = argNumber('systems', 10);
const RESAMPLES = argNumber('resamples', 1000);
const REPEATS = argNumber('repeats', 3);
const TARGET_S = 5;

const METRICS = [
  { name: 'exact_match', threshold: 0.5 },
  { name: 'lexical_match', threshold: 0.5 },
  { name: 'token_f1', threshold: 0.5 },
  { name: 'pedants', threshold: 0.5 },
  { name: 'taxonomy_text', threshold: 0.5 },
];

/** One metric's score for a row whose answer is correct with `correct` (and a latent difficulty u in [0, 1)). */
function scoreOf(metric: string, correct: boolean, rng: () => number): number | null {
  if (rng() < 0.002) return null; // a few rows a metric cannot score
  const u = rng();
  switch (metric) {
    case 'exact_match':
      return correct ? (u < 0.55 ? 1 : 0) : u < 0.03 ? 1 : 0;
    case 'lexical_match':
      return correct ? (u < 0.8 ? 1 : 0) : u < 0.12 ? 1 : 0;
    case 'token_f1': {
      const tokens = 1 + Math.floor(rng() * 8);
      const hit = Math.min(tokens, Math.floor((correct ? 0.35 + 0.8 * u : 0.6 * u) * (tokens + 1)));
      return hit / tokens;
    }
    case 'pedants':
      return Math.round(Math.min(1, Math.max(0, (correct ? 0.72 : 0.3) + (u - 0.5) * 0.9)) * 1e6) / 1e6;
    default:
      return [0, 0.2, 0.4, 0.6, 0.8, 1][Math.min(5, Math.floor((correct ? 2.4 : 0.4) + u * 3.6))]!;
  }
}

interface Columns {
  labels: boolean[];
  classes: (typeof CAP_CLASSES)[number][];
  score: Record<string, Float64Array>;
}

function buildRows(n: number): Columns {
  const rng = mulberry32(2026);
  const labels: boolean[] = [];
  const classes: (typeof CAP_CLASSES)[number][] = [];
  const score: Record<string, Float64Array> = {};
  for (const m of METRICS) score[m.name] = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const correct = rng() < 0.66;
    labels.push(correct);
    // A class consistent with the binary label (the first four classes count as correct).
    classes.push(CAP_CLASSES[correct ? Math.floor(rng() * 4) : 4 + Math.floor(rng() * 4)]!);
    for (const m of METRICS) score[m.name]![i] = scoreOf(m.name, correct, rng) ?? NaN;
  }
  return { labels, classes, score };
}

function scoreColumns(c: Columns, taxonomy: boolean): ScoreColumns {
  const thresholds = Object.fromEntries(METRICS.map((m) => [m.name, m.threshold]));
  const labels: Label[] = taxonomy
    ? c.classes.map((cls) => ({ kind: 'taxonomy', cls }))
    : c.labels.map((correct) => ({ kind: 'binary', correct }));
  return {
    labels,
    score: (m, i) => {
      const x = c.score[m]![i]!;
      return Number.isNaN(x) ? null : x;
    },
    decision: (m, i) => {
      const x = c.score[m]![i]!;
      return Number.isNaN(x) ? null : x >= thresholds[m]!;
    },
  };
}

/** A comparison table built directly: system skill shifts the chance of a correct answer; 2% of cells missing. */
function buildTable(S: number, Q: number): CompareTable {
  const rng = mulberry32(77);
  const rowOf = new Int32Array(S * Q).fill(-1);
  const human = new Int8Array(S * Q).fill(-1);
  const score: Record<string, Float64Array> = {};
  const decision: Record<string, Int8Array> = {};
  for (const m of METRICS) {
    score[m.name] = new Float64Array(S * Q).fill(NaN);
    decision[m.name] = new Int8Array(S * Q).fill(-1);
  }
  let row = 0;
  for (let s = 0; s < S; s++) {
    const skill = 0.5 + (0.3 * s) / Math.max(1, S - 1);
    for (let q = 0; q < Q; q++) {
      if (rng() < 0.02) continue;
      const c = s * Q + q;
      rowOf[c] = row++;
      const correct = rng() < skill;
      human[c] = correct ? 1 : 0;
      for (const m of METRICS) {
        const x = scoreOf(m.name, correct, rng);
        if (x === null) continue;
        score[m.name]![c] = x;
        decision[m.name]![c] = x >= m.threshold ? 1 : 0;
      }
    }
  }
  return {
    systems: Array.from({ length: S }, (_, s) => `system-${s + 1}`),
    keys: Array.from({ length: Q }, (_, q) => `q${q}`),
    metrics: METRICS.map((m) => ({ ...m })),
    rowOf,
    score,
    decision,
    human,
    labelled: true,
    partial: false,
    sample: null,
    review: null,
    duplicates: 0,
  };
}

/** Best wall time of the repeats, and the CPU time of this process in that run (a check on a busy machine). */
function best(label: string, f: () => unknown): { wall: number; cpu: number } {
  let top = { wall: Infinity, cpu: Infinity };
  for (let r = 0; r < REPEATS; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    f();
    const wall = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(c0);
    const cpu = (c.user + c.system) / 1e6;
    if (wall < top.wall) top = { wall, cpu };
    console.error(`  ${label}: run ${r + 1}/${REPEATS} ${wall.toFixed(2)} s (CPU ${cpu.toFixed(2)} s)`);
  }
  return top;
}

const fmt = (n: number) => n.toLocaleString('en-US');
const verdict = (t: { wall: number }) => (t.wall < TARGET_S ? 'met' : 'not met');
const time = (t: { wall: number; cpu: number }) => `${t.wall.toFixed(2)} s (CPU ${t.cpu.toFixed(2)} s)`;

console.error(`building ${fmt(ROWS)} rows and a ${SYSTEMS} × ${fmt(QUESTIONS)} comparison table…`);
const rows = buildRows(ROWS);
const table = buildTable(SYSTEMS, QUESTIONS);
const opts = { resamples: RESAMPLES, seed: 42 };

const binary = best('agreement report, binary labels', () => agreementSummaryOfColumns(scoreColumns(rows, false), METRICS, opts));
const compare = best('compareReportOf', () => compareReportOf(table, opts));
const taxonomy = best('agreement report, class labels', () => agreementSummaryOfColumns(scoreColumns(rows, true), METRICS, opts));

const today = new Date().toISOString().slice(0, 10);
console.log(`## The report at scale (\`npm run bench:report\`)

Measured ${today} in Node ${process.version}: the core code the app and the CLI share, on synthetic rows shaped like the embedded default's output (${METRICS.map((m) => m.name).join(', ')}), ${fmt(RESAMPLES)} resamples, best of ${REPEATS} by wall time (CPU: this process's user + system time in that run; well below the wall time means the machine was busy).

| report | size | time | target | |
|---|---|---:|---:|---|
| agreement report (binary labels; \`agreementSummaryOfColumns\`) | ${fmt(ROWS)} rows × ${METRICS.length} metrics | ${time(binary)} | < ${TARGET_S} s | **${verdict(binary)}** |
| comparison (\`compareReportOf\`: leaderboard, paired tests, ranking) | ${SYSTEMS} systems × ${fmt(QUESTIONS)} questions × ${METRICS.length} metrics | ${time(compare)} | < ${TARGET_S} s | **${verdict(compare)}** |
| agreement report (8-class labels; context) | ${fmt(ROWS)} rows × ${METRICS.length} metrics | ${time(taxonomy)} | — | |

Intervals: the count statistics (accuracy … κ; leaderboard, human and paired accuracies, gaps) from multinomial draws of their counts; AUC above 20,000 rows from multinomial draws of score-cell counts when a class has at most 1,000 distinct scores, else DeLong's interval; score means and paired score differences from at most 20,000 system × question cells per resample (at least 2,000 questions), rescaled. Before (row resampling), the report took 33.9 s of the app's million-row run.
`);
