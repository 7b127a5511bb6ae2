/**
 * The CLI's scoring thread (a worker_threads Worker): scores rows with the embedded metrics, so the main thread
 * stays free for signals — Ctrl-C and SIGTERM stop the CLI within a second, whatever row is being scored — and for
 * reading and writing. Its metrics are built from the same recipe as the main thread's (recipe.ts).
 */
import { parentPort } from 'node:worker_threads';
import { messageOf } from '../core/errors.ts';
import { scoreRow, type RowResults } from '../core/run.ts';
import { isBatchMetric, type Metric } from '../core/types.ts';
import { metricsFrom } from './recipe.ts';
import type { ThreadReply, ThreadRequest } from './thread.ts';
import { useNodeLexicon } from '../runtime/lexicon-node.ts';

// WordNet for the embedded metrics (issue 37), as the main thread has it.
useNodeLexicon();

const withoutDetails = (r: RowResults): RowResults => {
  for (const m of Object.values(r)) delete m.details;
  return r;
};

let built: { key: string; metrics: Metric[] } | null = null;

parentPort!.on('message', ({ id, recipe, rows }: ThreadRequest) => {
  let reply: ThreadReply;
  try {
    const key = JSON.stringify(recipe);
    if (built?.key !== key) built = { key, metrics: metricsFrom(recipe).filter((m): m is Metric => !isBatchMetric(m)) };
    const metrics = built.metrics;
    // Without details: the CLI writes those of the model metrics only (outputRecord's `detailed`), and they are
    // most of what would be copied back.
    reply = { id, results: rows.map((r) => withoutDetails(scoreRow(r, metrics))) };
  } catch (e) {
    reply = { id, error: messageOf(e) };
  }
  parentPort!.postMessage(reply);
});
