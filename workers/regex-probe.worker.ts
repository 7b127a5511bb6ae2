/**
 * Runs one tokenizer.json pattern on the probe texts, in a worker of its own so the model worker can stop it: a
 * catastrophic regex cannot be interrupted in the thread that runs it, only terminated with its worker.
 */
import { probePattern } from '../src/runtime/specs.ts';

self.onmessage = (e: MessageEvent<{ pattern: string; probes: string[] }>) => {
  probePattern(e.data.pattern, e.data.probes);
  self.postMessage('done');
};
self.postMessage('ready');
