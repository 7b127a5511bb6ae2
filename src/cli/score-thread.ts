/**
 * The CLI's scoring thread (a worker_threads Worker): a worker of the session's scoring pool (session/pool.ts), so
 * the main thread stays free for signals — Ctrl-C and SIGTERM stop the CLI within a second, whatever row is being
 * scored — and for reading and writing.
 */
import { parentPort } from 'node:worker_threads';
import { servePool, type PoolReply, type PoolRequest } from '../session/pool.ts';
import { nodeLexicon } from '../runtime/lexicon-node.ts';

const port = parentPort!;
const scope: Parameters<typeof servePool>[0] = {
  onmessage: null,
  postMessage: (m: PoolReply, transfer?: Transferable[]) => port.postMessage(m, transfer as never),
};
port.on('message', (data: PoolRequest) => scope.onmessage?.({ data } as MessageEvent<PoolRequest>));
// Read as the thread starts; a job waits for it (and fails with its error when the file is missing).
const lexicon = Promise.resolve().then(nodeLexicon);
lexicon.catch(() => {});
servePool(scope, lexicon);
