/** The input's hash on a thread of its own: the same value as in this thread, whatever becomes of the worker. */
import { describe, expect, it } from 'vitest';
import { contentHash } from '../core/io/hash.ts';
import { hashOnThread, serveHash, type HashReply, type HashWorker } from './hash-thread.ts';

/** A worker that answers as `answer` does (a real hashing worker's body, or a failure), counting its ends. */
function fakeWorker(answer: (blob: Blob, w: HashWorker) => void): HashWorker & { ended: number } {
  const w: HashWorker & { ended: number } = {
    ended: 0,
    onmessage: null,
    onerror: null,
    postMessage: (blob) => answer(blob, w),
    terminate: () => void w.ended++,
  };
  return w;
}

/** A worker running serveHash, its messages passed as a worker's would be. */
const serving = () =>
  fakeWorker((blob, w) => {
    const scope = {
      onmessage: null as ((e: MessageEvent<Blob>) => void) | null,
      postMessage: (r: HashReply) => setTimeout(() => w.onmessage?.({ data: r } as MessageEvent<HashReply>)),
    };
    serveHash(scope);
    scope.onmessage!({ data: blob } as MessageEvent<Blob>);
  });

const blob = new Blob(['{"question":"q","gold":"a","candidate":"b"}\n'.repeat(1000)]);

describe('hashOnThread', () => {
  it("gives the worker's hash, the same as this thread's, and ends the worker", async () => {
    const w = serving();
    expect(await hashOnThread(blob, () => w, 0)).toBe(await contentHash(blob));
    expect(w.ended).toBe(1);
  });

  it('hashes in this thread when the worker fails, says it cannot, or cannot start', async () => {
    const want = await contentHash(blob);
    const failing = fakeWorker((_, w) => setTimeout(() => w.onerror?.(new Event('error'))));
    expect(await hashOnThread(blob, () => failing, 0)).toBe(want);
    expect(failing.ended).toBe(1);
    const refusing = fakeWorker((_, w) => setTimeout(() => w.onmessage?.({ data: { error: 'no' } } as MessageEvent<HashReply>)));
    expect(await hashOnThread(blob, () => refusing, 0)).toBe(want);
    expect(refusing.ended).toBe(1);
    expect(
      await hashOnThread(
        blob,
        () => {
          throw new Error('no nested workers here');
        },
        0,
      ),
    ).toBe(want);
  });

  it('hashes a file of one piece in this thread, starting no worker', async () => {
    let spawned = 0;
    const spawn = () => (spawned++, serving());
    expect(await hashOnThread(blob, spawn)).toBe(await contentHash(blob));
    expect(await hashOnThread(blob, spawn, blob.size)).toBe(await contentHash(blob));
    expect(spawned).toBe(0);
    await hashOnThread(blob, spawn, blob.size - 1);
    expect(spawned).toBe(1);
  });

  it("tells a worker's reader why a file could not be hashed", async () => {
    const replies: HashReply[] = [];
    const scope = { onmessage: null as ((e: MessageEvent<Blob>) => void) | null, postMessage: (r: HashReply) => void replies.push(r) };
    serveHash(scope);
    const unreadable = { size: 1, arrayBuffer: () => Promise.reject(new Error('the file changed on disk')) };
    scope.onmessage!({ data: unreadable as unknown as Blob } as MessageEvent<Blob>);
    await expect.poll(() => replies.length).toBe(1);
    expect(replies).toEqual([{ error: 'the file changed on disk' }]);
  });
});
