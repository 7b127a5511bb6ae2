/**
 * An input file's content hash (core/io/hash.ts) on a thread of its own. The scoring worker parses the file
 * meanwhile; hashed there too, the hash got few turns during the parse and most of it was left for the run's start,
 * which waits for it (a million-row file: ~1.4 s before the first chunk). On its own thread it runs on the core the
 * parse leaves idle.
 */
import { messageOf } from '../core/errors.ts';
import { contentHash, HASH_PIECE } from '../core/io/hash.ts';

export type HashReply = { hash: string } | { error: string };

/** What hashing needs of a worker (a DOM Worker; a fake in tests). */
export interface HashWorker {
  postMessage(blob: Blob): void;
  onmessage: ((e: MessageEvent<HashReply>) => void) | null;
  onerror: ((e: Event) => void) | null;
  terminate(): void;
}

/**
 * The hash, from a worker made by `spawn` (ended once it answers); in this thread when none starts or it fails, and
 * for a file of up to `inThreadUpTo` bytes: one digest call (a 16 MiB file: tens of ms) costs about what starting a
 * worker does, and a run started at once (the demo's) would wait for that start.
 */
export function hashOnThread(blob: Blob, spawn: () => HashWorker, inThreadUpTo = HASH_PIECE): Promise<string> {
  if (blob.size <= inThreadUpTo) return contentHash(blob);
  let worker: HashWorker;
  try {
    worker = spawn();
  } catch {
    return contentHash(blob);
  }
  return new Promise<string>((resolve, reject) => {
    worker.onmessage = (e) => {
      worker.terminate();
      if ('hash' in e.data) resolve(e.data.hash);
      else reject(new Error(e.data.error));
    };
    worker.onerror = () => {
      worker.terminate();
      reject(new Error('the hashing worker failed'));
    };
    worker.postMessage(blob);
  }).catch(() => contentHash(blob));
}

/** The body of a hashing worker: answers each file with its hash, or why it could not be hashed. */
export function serveHash(scope: { onmessage: ((e: MessageEvent<Blob>) => void) | null; postMessage(r: HashReply): void }): void {
  scope.onmessage = (e) =>
    void contentHash(e.data).then(
      (hash) => scope.postMessage({ hash }),
      (err: unknown) => scope.postMessage({ error: messageOf(err) }),
    );
}
