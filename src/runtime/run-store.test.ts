/** Saved runs: what a resume gets back, and how storage failures are reported without stopping the run. */
import { describe, expect, it } from 'vitest';
import { RunStore, type SavedRun } from './run-store.ts';
import { memoryStore } from './idb-cache.ts';
import type { RowResults } from '../core/run.ts';

const meta = (over: Partial<SavedRun> = {}): SavedRun => ({
  version: 1, id: '1', fileName: 'f.jsonl', fileSize: 3, config: { metrics: ['exact_match'] }, total: 5, chunkSize: 2,
  chunks: 0, done: 0, status: 'running', startedAt: 1, updatedAt: 1, ...over,
});
const res = (i: number): RowResults => ({ exact_match: { score: i % 2, decision: i % 2 === 1, explanation: `row ${i}` } });

describe('RunStore', () => {
  it('gives back the file and every saved row, in order', async () => {
    const store = new RunStore(memoryStore());
    const m = meta();
    expect(await store.begin(m, new Blob(['abc']))).toBe(true);
    await store.append({ ...m, chunks: 1, done: 2 }, 0, [res(0), res(1)]);
    await store.append({ ...m, chunks: 2, done: 4 }, 1, [res(2), res(3)]);
    const back = await store.load();
    expect(back.meta.done).toBe(4);
    expect(await back.file.text()).toBe('abc');
    expect(back.results.map((r) => r.exact_match!.explanation)).toEqual(['row 0', 'row 1', 'row 2', 'row 3']);
  });

  it('a new run replaces the old one', async () => {
    const kv = memoryStore<unknown>();
    const store = new RunStore(kv);
    await store.begin(meta(), new Blob(['a']));
    await store.append(meta({ chunks: 1, done: 2 }), 0, [res(0), res(1)]);
    await store.begin(meta({ id: '2' }), new Blob(['b']));
    expect([...kv.map.keys()].sort()).toEqual(['file', 'meta']);
    expect((await store.meta())?.id).toBe('2');
  });

  it('refuses to resume when a chunk is missing or the count disagrees', async () => {
    const kv = memoryStore<unknown>();
    const store = new RunStore(kv);
    await store.begin(meta(), new Blob(['a']));
    await store.append(meta({ chunks: 2, done: 4 }), 1, [res(2), res(3)]);
    await expect(store.load()).rejects.toThrow('saved results chunk 0 is missing');
    await store.append(meta({ chunks: 2, done: 5 }), 0, [res(0), res(1)]);
    await expect(store.load()).rejects.toThrow('saved results have 4 rows, the run says 5');
  });

  it('a full disk is reported once, and the run goes on', async () => {
    const kv = memoryStore<unknown>();
    const store = new RunStore(kv);
    await store.begin(meta(), new Blob(['a']));
    kv.set = async () => {
      throw Object.assign(new Error('The quota has been exceeded.'), { name: 'QuotaExceededError' });
    };
    expect(await store.append(meta({ chunks: 1, done: 2 }), 0, [res(0), res(1)])).toBe(false);
    expect(store.failure).toMatch(/^browser storage is full \(saving results\): the run goes on, but a reload cannot resume it/);
    expect(await store.append(meta({ chunks: 2, done: 4 }), 1, [res(2), res(3)])).toBe(false);
  });

  it('without IndexedDB (some private windows) nothing is saved and the reason is given', async () => {
    const store = new RunStore();
    expect(await store.begin(meta(), new Blob(['a']))).toBe(false);
    expect(store.failure).toContain('IndexedDB is not available');
    expect(await store.meta()).toBeNull();
  });
});
