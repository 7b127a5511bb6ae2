/**
 * A scoring pool worker (src/session/pool.ts): scores the chunks of rows the scoring worker hands it with the
 * embedded metrics and sends each back by column, beating after every slice for the watchdog.
 */
import { servePool } from '../src/session/pool.ts';

servePool(self as unknown as Parameters<typeof servePool>[0]);
