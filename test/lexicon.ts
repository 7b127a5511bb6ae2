/** Vitest setup: the WordNet lexicon installed in every test thread, as the app's workers and the CLI install it. */
import { useNodeLexicon } from '../src/runtime/lexicon-node.ts';

useNodeLexicon();
