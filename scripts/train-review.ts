/**
 * Fits the review priority (src/core/review/priority.ts) on EVOUNA TriviaQA: for judges taxonomy_text and pedants
 * over the default metric set, the label is "the judge's decision differs from the human's". Questions are split
 * (seeded; the same 20% held out as pedants' training) so the held-out figures show how well the priority ranks
 * the judge's errors on questions it never saw: the share of errors in the top 5 / 10 / 20% and the AUC.
 * Deterministic; writes src/core/review/priority-model.json.
 *
 *   npx tsx scripts/train-review.ts [--check]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadEvouna, repoRoot } from './evouna.ts';
import { createSyncMetric, DEFAULT_METRICS } from '../src/core/metrics/index.ts';
import { scoreRows } from '../src/core/run.ts';
import { ResultTable } from '../src/core/result-table.ts';
import { PRIORITY_FEATURES, priorityFeatures, reviewPriorities, type PriorityModel } from '../src/core/review/priority.ts';
import { trainLogistic } from '../src/core/agreement/index.ts';
import { rocAuc } from '../src/core/agreement/stats.ts';
import { mulberry32 } from '../src/core/util/random.ts';
import { useNodeLexicon } from '../src/runtime/lexicon-node.ts';
import type { QaRow } from '../src/core/types.ts';

useNodeLexicon();
const MODEL = resolve(repoRoot, 'src/core/review/priority-model.json');
const SEED = 20261122;
const items = loadEvouna();
const qids = [...new Set(items.map((x) => x.qid))];
const rnd = mulberry32(SEED);
const order = qids.map((q) => [q, rnd()] as const).sort((a, b) => a[1] - b[1]);
const heldOut = new Set(order.slice(0, Math.round(qids.length * 0.2)).map(([q]) => q));

const rows: QaRow[] = items.map((x, i) => ({ row: i + 1, id: String(i), question: x.question, golds: x.golds, candidate: x.candidate }));
const metrics = DEFAULT_METRICS.map((n) => createSyncMetric(n));
const table = ResultTable.of(await scoreRows(rows, metrics), [...DEFAULT_METRICS]);

interface Set_ {
  x: number[][];
  wrong: boolean[];
  held: boolean[];
}
const data: Set_ = { x: [], wrong: [], held: [] };
for (const judge of ['taxonomy_text', 'pedants']) {
  const m = metrics.find((x) => x.name === judge)!;
  const f = priorityFeatures(rows, table, { metric: judge, threshold: m.threshold }, (i) => items[i]!.system);
  f.forEach((x, i) => {
    data.x.push(x);
    data.wrong.push(table.decision(judge, i) !== items[i]!.correct);
    data.held.push(heldOut.has(items[i]!.qid));
  });
}
const train = data.x.map((_, i) => i).filter((i) => !data.held[i]);
const lr = trainLogistic(
  train.map((i) => data.x[i]!),
  train.map((i) => data.wrong[i]!),
  { l2: 1e-3 },
);
const round = (v: number) => Math.round(v * 1e6) / 1e6;
const model: PriorityModel = { features: [...PRIORITY_FEATURES], weights: lr.weights.map(round), bias: round(lr.bias) };

const held = data.x.map((_, i) => i).filter((i) => data.held[i]);
const p = reviewPriorities(
  held.map((i) => data.x[i]!),
  model,
);
const wrong = held.map((i) => data.wrong[i]!);
const byPriority = held.map((_, k) => k).sort((a, b) => p[b]! - p[a]! || a - b);
const errors = wrong.filter(Boolean).length;
const top = (share: number) => byPriority.slice(0, Math.round(held.length * share)).filter((k) => wrong[k]).length / errors;
const report = {
  held_out_rows: held.length,
  judge_errors: errors,
  errors_in_top: { '5%': round(top(0.05)), '10%': round(top(0.1)), '20%': round(top(0.2)) },
  auc: round(rocAuc(p, wrong)!),
};
console.log(JSON.stringify({ model, report }, null, 2));
const text = `${JSON.stringify({ ...model, training: report }, null, 2)}\n`;
if (process.argv.includes('--check')) {
  // Compared as data: the committed file is formatted by prettier.
  const same = JSON.stringify(JSON.parse(readFileSync(MODEL, 'utf8'))) === JSON.stringify(JSON.parse(text));
  console.log(same ? 'the committed model is identical' : 'the committed model DIFFERS from a fresh fit');
  process.exitCode = same ? 0 : 1;
} else writeFileSync(MODEL, text);
