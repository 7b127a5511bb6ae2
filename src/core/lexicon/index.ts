/**
 * The lexicon the embedded metrics consult, installed by the runtime once it is loaded (runtime/lexicon.ts:
 * the scoring worker, each pool worker, the CLI's scoring thread). Nothing is loaded at import; without a lexicon
 * the WordNet signals are silent and METEOR has no synonym stage (as before issue 37).
 */
import type { WordNet } from './wordnet.ts';

let installed: WordNet | null = null;

export function installLexicon(l: WordNet | null): void {
  installed = l;
}

export function lexicon(): WordNet | null {
  return installed;
}

export { WordNet, type LexiconData, type WnPos } from './wordnet.ts';
