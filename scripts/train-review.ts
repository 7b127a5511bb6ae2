/**
 * Fits the review priority (src/core/review/priority.ts): the probability that the judge's decision differs from
 * the human's, from the review signals (signals.ts). Data: EVOUNA TriviaQA's five systems, as is and with each
 * row's golds cut to the first one (correct answers outside the golds become common, as on Natural Questions), for
 * the judges pedants and taxonomy_text with the rest of the default set as the other metrics. Questions are split
 * (seeded; the same 20% held out as pedants' training). Reported, for the model as fitted: on the held-out
 * questions, the share of the judge's errors in the top 5 / 10 / 20% of rows and the AUC, per variant; and
 * leaving one system out (fitted on the other four systems' training questions, measured on the held-out
 * questions of the one left out), the AUC per system. Deterministic; writes src/core/review/priority-model.json.
 *
 *   npx tsx scripts/train-review.ts [--check]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadEvouna, repoRoot, SYSTEMS } from './evouna.ts';
import { createSyncMetric, DEFAULT_METRICS } from '../src/core/metrics/index.ts';
import { scoreRows } from '../src/core/scoring.ts';
import { ResultTable } from '../src/core/result-table.ts';
import { reviewPriorities, type PriorityModel } from '../src/core/review/priority.ts';
import { reviewSignals, SIGNALS } from '../src/core/review/signals.ts';
import { trainLogistic } from '../src/core/agreement/index.ts';
import { rocAuc } from '../src/core/agreement/stats.ts';
import { mulberry32 } from '../src/core/util/random.ts';
import { nodeLexicon } from '../src/runtime/lexicon-node.ts';

const lexicon = nodeLexicon();
const MODEL = resolve(repoRoot, 'src/core/review/priority-model.json');
const SEED = 20261122;
const JUDGES = ['pedants', 'taxonomy_text'];
const L2 = 1e-3;
const items = loadEvouna();
const qids = [...new Set(items.map((x) => x.qid))];
const rnd = mulberry32(SEED);
const order = qids.map((q) => [q, rnd()] as const).sort((a, b) => a[1] - b[1]);
const heldOut = new Set(order.slice(0, Math.round(qids.length * 0.2)).map(([q]) => q));
const metrics = DEFAULT_METRICS.map((n) => createSyncMetric(n, {}, { lexicon }));

interface Example {
  x: Float64Array;
  wrong: boolean;
  held: boolean;
  system: string;
  variant: string;
}
const data: Example[] = [];
for (const variant of ['as-is', 'one-gold']) {
  const rows = items.map((x, i) => ({
    row: i + 1,
    id: String(x.qid),
    key: String(x.qid),
    system: x.system,
    question: x.question,
    golds: variant === 'one-gold' ? x.golds.slice(0, 1) : x.golds,
    candidate: x.candidate,
  }));
  const table = ResultTable.of(await scoreRows(rows, metrics), [...DEFAULT_METRICS]);
  for (const judge of JUDGES) {
    const m = metrics.find((x) => x.name === judge)!;
    const others = DEFAULT_METRICS.filter((n) => n !== judge);
    const signals = reviewSignals(rows, {
      judge: { metric: judge, threshold: m.threshold },
      score: (i) => table.score(judge, i),
      decision: (i) => table.decision(judge, i),
      others: (i) => others.map((o) => table.decision(o, i)),
    });
    signals.forEach((x, i) =>
      data.push({
        x,
        wrong: table.decision(judge, i) !== items[i]!.correct,
        held: heldOut.has(items[i]!.qid),
        system: items[i]!.system,
        variant,
      }),
    );
  }
}
const fit = (ex: Example[]) => {
  const lr = trainLogistic(
    ex.map((e) => e.x),
    ex.map((e) => e.wrong),
    { l2: L2 },
  );
  return { features: [...SIGNALS], weights: lr.weights, bias: lr.bias };
};
const round = (v: number) => Math.round(v * 1e6) / 1e6;
const fitted = fit(data.filter((e) => !e.held));
const model: PriorityModel = { features: fitted.features, weights: fitted.weights.map(round), bias: round(fitted.bias) };

function measure(ex: Example[], m: PriorityModel) {
  const p = reviewPriorities(
    ex.map((e) => e.x),
    m,
  );
  const wrong = ex.map((e) => e.wrong);
  const byPriority = ex.map((_, k) => k).sort((a, b) => p[b]! - p[a]! || a - b);
  const errors = wrong.filter(Boolean).length;
  const top = (share: number) => byPriority.slice(0, Math.round(ex.length * share)).filter((k) => wrong[k]).length / errors;
  return {
    rows: ex.length,
    judge_errors: errors,
    errors_in_top: { '5%': round(top(0.05)), '10%': round(top(0.1)), '20%': round(top(0.2)) },
    auc: round(rocAuc(p, wrong)!),
  };
}
const report = {
  held_out_questions: Object.fromEntries(
    ['as-is', 'one-gold'].map((v) => [
      v,
      measure(
        data.filter((e) => e.held && e.variant === v),
        model,
      ),
    ]),
  ),
  // Each system left out of the fit, measured on its held-out questions.
  held_out_system_auc: Object.fromEntries(
    SYSTEMS.map((s) => {
      const m = fit(data.filter((e) => !e.held && e.system !== s));
      return [
        s,
        Object.fromEntries(
          ['as-is', 'one-gold'].map((v) => [
            v,
            measure(
              data.filter((e) => e.held && e.system === s && e.variant === v),
              m,
            ).auc,
          ]),
        ),
      ];
    }),
  ),
};
console.log(JSON.stringify({ model, report }, null, 2));
const text = `${JSON.stringify({ ...model, training: report }, null, 2)}\n`;
if (process.argv.includes('--check')) {
  // Compared as data: the committed file is formatted by prettier.
  const same = JSON.stringify(JSON.parse(readFileSync(MODEL, 'utf8'))) === JSON.stringify(JSON.parse(text));
  console.log(same ? 'the committed model is identical' : 'the committed model DIFFERS from a fresh fit');
  process.exitCode = same ? 0 : 1;
} else writeFileSync(MODEL, text);
