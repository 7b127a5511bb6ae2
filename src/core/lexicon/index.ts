/**
 * The WordNet lexicon some embedded metrics consult (METEOR's synonym stage, the WordNet signals of pedants and
 * the taxonomies). No global: the runtime loads it (runtime/lexicon-*.ts) and hands it to the metrics when they are
 * built (metrics/index.ts: createMetric's `lexicon`); a metric that needs it and is built without it is refused.
 */
export { WordNet, type LexiconData, type WnPos } from './wordnet.ts';
