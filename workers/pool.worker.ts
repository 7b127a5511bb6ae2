/**
 * A scoring pool worker (src/session/pool.ts): scores the chunks of rows the scoring worker hands it with the
 * embedded metrics and sends each back by column, beating after every slice for the watchdog.
 */
import { servePool } from '../src/session/pool.ts';
import { loadLexicon } from '../src/runtime/lexicon-browser.ts';
import { askForCollection } from '../src/runtime/collect.ts';

// WordNet for the embedded metrics loaded as the worker starts: each job waits for it.
servePool(self as unknown as Parameters<typeof servePool>[0], loadLexicon(), askForCollection);
