/**
 * Rows/s of the embedded default metric set as the app and CLI run it (every metric on one row before the
 * next, so pedants and taxonomy_text share one text analysis), on the shared EVOUNA TriviaQA answers, each
 * row a fresh object. Also each metric alone. bench:core times each metric alone only.
 *
 *   npm run bench:default-speed [-- --rows 20000]
 */
import { loadEvouna } from '../scripts/evouna.ts';
import { createSyncMetric, DEFAULT_METRICS } from '../src/core/metrics/index.ts';
import { scoreRow } from '../src/core/scoring.ts';
import type { QaItem } from '../src/core/types.ts';
import { nodeLexicon } from '../src/runtime/lexicon-node.ts';
import { argNumber } from './args.ts';

// WordNet, as the app and the CLI score.
const lexicon = nodeLexicon();

const N = argNumber('rows', 20_000);
const base = loadEvouna().map(({ question, golds, candidate }) => ({ question, golds, candidate }));
const fresh = (): QaItem[] =>
  Array.from({ length: N }, (_, k) => ({ ...base[k % base.length]!, golds: [...base[k % base.length]!.golds] }));
const metrics = DEFAULT_METRICS.map((n) => createSyncMetric(n, {}, { lexicon }));
const rate = (f: (rows: QaItem[]) => void): number => {
  const rows = fresh();
  const t = performance.now();
  f(rows);
  return N / ((performance.now() - t) / 1000);
};
rate((rows) => rows.slice(0, 5000).forEach((r) => scoreRow(r, metrics))); // warm-up
console.log(`${N} rows, ${(base.reduce((s, r) => s + r.golds.length, 0) / base.length).toFixed(1)} golds/row`);
for (const m of metrics) console.log(`  ${m.name} alone: ${Math.round(rate((rows) => rows.forEach((r) => m.score(r))))} rows/s`);
// Best of two passes (the machine is shared; the first pass also warms the JIT up).
const both = [0, 1].map(() => rate((rows) => rows.forEach((r) => scoreRow(r, metrics))));
console.log(`default set (${DEFAULT_METRICS.join(', ')}): ${Math.round(Math.max(...both))} rows/s`);
