/**
 * The CLI's scoring thread (a worker_threads Worker): scores rows with the embedded metrics, so the main thread
 * stays free for signals — Ctrl-C and SIGTERM stop the CLI within a second, whatever row is being scored — and for
 * reading and writing. Its metrics are built from the run's plan, as the main thread's are (core/run-config.ts).
 */
import { parentPort } from 'node:worker_threads';
import { messageOf } from '../core/errors.ts';
import { scoreRow, type RowResults } from '../core/scoring.ts';
import { metricsOf } from '../core/run-config.ts';
import { isBatchMetric, type Metric } from '../core/types.ts';
import type { ThreadReply, ThreadRequest } from './thread.ts';
import { nodeLexicon } from '../runtime/lexicon-node.ts';

const withoutDetails = (r: RowResults): RowResults => {
  for (const m of Object.values(r)) delete m.details;
  return r;
};

let built: { key: string; metrics: Metric[] } | null = null;

parentPort!.on('message', ({ id, plan, rows }: ThreadRequest) => {
  let reply: ThreadReply;
  try {
    const key = JSON.stringify(plan);
    if (built?.key !== key)
      built = { key, metrics: metricsOf(plan, { lexicon: nodeLexicon() }).filter((m): m is Metric => !isBatchMetric(m)) };
    const metrics = built.metrics;
    // Without details: the CLI writes those of the model metrics only (outputRecord's `detailed`), and they are
    // most of what would be copied back.
    reply = { id, results: rows.map((r) => withoutDetails(scoreRow(r, metrics))) };
  } catch (e) {
    reply = { id, error: messageOf(e) };
  }
  parentPort!.postMessage(reply);
});
