/** WordNet for the tests, read once per test thread, as the CLI and the app's workers read it (no global: passed in). */
import { nodeLexicon } from '../src/runtime/lexicon-node.ts';

export const lexicon = nodeLexicon();
/** What createMetric / createSyncMetric take to build a metric that reads WordNet. */
export const withWordNet = { lexicon } as const;
