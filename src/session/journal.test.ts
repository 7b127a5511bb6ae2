/** Saved runs: what a resume gets back, runs kept apart, foreign chunks refused, and storage failures reported. */
import { describe, expect, it } from 'vitest';
import { Journal, JOURNAL_VERSION, type SavedRun } from './journal.ts';
import { contentHash } from '../core/io/hash.ts';
import { memoryStore } from '../runtime/idb-cache.ts';
import type { RowResults } from '../core/scoring.ts';

const meta = async (over: Partial<SavedRun> = {}, file = 'abc'): Promise<SavedRun> => ({
  version: JOURNAL_VERSION,
  id: '1',
  fileName: 'f.jsonl',
  fileSize: 3,
  inputHash: await contentHash(new Blob([file])),
  config: { metrics: ['exact_match'] },
  total: 5,
  chunkSize: 2,
  chunks: 0,
  done: 0,
  resultBytes: 0,
  status: 'running',
  startedAt: 1,
  updatedAt: 1,
  ...over,
});
const res = (i: number): RowResults => ({ exact_match: { score: i % 2, decision: i % 2 === 1, explanation: `row ${i}` } });

describe('Journal', () => {
  it('gives back the file and every saved row, in order', async () => {
    const store = new Journal(memoryStore());
    const m = await meta();
    expect(await store.begin(m, new Blob(['abc']))).toBe(true);
    await store.append({ ...m, chunks: 1, done: 2 }, 0, [res(0), res(1)]);
    await store.append({ ...m, chunks: 2, done: 4 }, 1, [res(2), res(3)]);
    const back = await store.load('1');
    expect(back.meta.done).toBe(4);
    expect(await back.file.text()).toBe('abc');
    expect((back.chunks.flat() as RowResults[]).map((r) => r.exact_match!.explanation)).toEqual(['row 0', 'row 1', 'row 2', 'row 3']);
  });

  it('two runs (two tabs) keep their own files and results; deleting one leaves the other', async () => {
    const kv = memoryStore<unknown>();
    const a = new Journal(kv);
    const b = new Journal(kv);
    const ma = await meta({ id: 'A', fileName: 'a.jsonl' }, 'aaa');
    const mb = await meta({ id: 'B', fileName: 'b.jsonl', updatedAt: 2 }, 'bbb');
    await a.begin(ma, new Blob(['aaa']));
    await b.begin(mb, new Blob(['bbb']));
    await a.append({ ...ma, chunks: 1, done: 2 }, 0, [res(0), res(1)]);
    await b.append({ ...mb, chunks: 1, done: 2 }, 0, [res(7), res(8)]);
    expect((await a.list()).map((r) => r.id)).toEqual(['B', 'A']);
    const backA = await a.load('A');
    expect(await backA.file.text()).toBe('aaa');
    expect((backA.chunks.flat() as RowResults[]).map((r) => r.exact_match!.explanation)).toEqual(['row 0', 'row 1']);
    await a.delete('B');
    expect((await a.list()).map((r) => r.id)).toEqual(['A']);
    expect([...kv.map.keys()].some((k) => k.includes('B'))).toBe(false);
    await expect(b.load('B')).rejects.toThrow(
      "the saved run was removed from this browser's storage (its settings are gone), so it cannot be resumed",
    );
  });

  it('refuses a chunk of another run or of another input, and never gives its rows back', async () => {
    const kv = memoryStore<unknown>();
    const store = new Journal(kv);
    const ma = await meta({ id: 'A' }, 'aaa');
    await store.begin(ma, new Blob(['aaa']));
    await store.append({ ...ma, chunks: 1, done: 2 }, 0, [res(0), res(1)]);
    // Another tab's chunk written under A's key (what one shared slot did).
    kv.map.set('chunk:A:0', { run: 'B', input: ma.inputHash, k: 0, results: [res(7), res(8)] });
    await expect(store.load('A')).rejects.toThrow('belongs to another run or another file');
    kv.map.set('chunk:A:0', { run: 'A', input: await contentHash(new Blob(['bbb'])), k: 0, results: [res(7), res(8)] });
    await expect(store.load('A')).rejects.toThrow('belongs to another run or another file');
    // The saved input replaced by another file.
    kv.map.set('chunk:A:0', { run: 'A', input: ma.inputHash, k: 0, results: [res(0), res(1)] });
    kv.map.set(`input:${ma.inputHash}`, new Blob(['bbb']));
    await expect(store.load('A')).rejects.toThrow('is not the file this run scored');
  });

  it('refuses to resume when a chunk is missing or the count disagrees, in the words used for removed data', async () => {
    const kv = memoryStore<unknown>();
    const store = new Journal(kv);
    const m = await meta();
    await store.begin(m, new Blob(['abc']));
    await store.append({ ...m, chunks: 2, done: 4 }, 1, [res(2), res(3)]);
    await expect(store.load('1')).rejects.toThrow(
      "the saved run of f.jsonl was removed from this browser's storage (results chunk 0 is gone), so it cannot be resumed",
    );
    await store.append({ ...m, chunks: 2, done: 5 }, 0, [res(0), res(1)]);
    await expect(store.load('1')).rejects.toThrow('saved results have 4 rows, the run says 5');
  });

  it('lists each run with its size (input plus saved results); clear removes every run', async () => {
    const store = new Journal(memoryStore());
    const m = await meta();
    await store.begin(m, new Blob(['abc']));
    await store.append(m, 0, [res(0), res(1)]);
    const [listed] = await store.list();
    expect(listed!.resultBytes).toBe(JSON.stringify([res(0), res(1)]).length);
    await store.clear();
    expect(await store.list()).toEqual([]);
  });

  it('a content hash over pieces equals for equal bytes and differs for others', async () => {
    const big = new Uint8Array(17 * 1024 * 1024).fill(7);
    const h1 = await contentHash(new Blob([big]));
    expect(h1).toBe(await contentHash(new Blob([big.slice()])));
    big[big.length - 1] = 8;
    expect(await contentHash(new Blob([big]))).not.toBe(h1);
    expect(await contentHash(new Blob(['abc']))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('a full disk is reported once, and the run goes on', async () => {
    const kv = memoryStore<unknown>();
    const store = new Journal(kv);
    const m = await meta();
    await store.begin(m, new Blob(['a']));
    kv.set = async () => {
      throw Object.assign(new Error('The quota has been exceeded.'), { name: 'QuotaExceededError' });
    };
    expect(await store.append({ ...m, chunks: 1, done: 2 }, 0, [res(0), res(1)])).toBe(false);
    expect(store.failure).toMatch(/^browser storage is full \(saving results\): the run goes on, but a reload cannot resume it/);
    expect(await store.append({ ...m, chunks: 2, done: 4 }, 1, [res(2), res(3)])).toBe(false);
  });

  it('without IndexedDB (some private windows) nothing is saved and the reason is given', async () => {
    const store = new Journal();
    expect(await store.begin(await meta(), new Blob(['a']))).toBe(false);
    expect(store.failure).toContain('IndexedDB is not available');
    expect(await store.list()).toEqual([]);
  });

  it('stores an input once however many runs scored it, and drops it with the last run that uses it', async () => {
    const kv = memoryStore<unknown>();
    const store = new Journal(kv);
    const a = await meta({ id: 'A' }, 'same');
    const b = await meta({ id: 'B', updatedAt: 2 }, 'same');
    const c = await meta({ id: 'C', updatedAt: 3 }, 'other');
    for (const [m, text] of [
      [a, 'same'],
      [b, 'same'],
      [c, 'other'],
    ] as const)
      await store.begin(m, new Blob([text]));
    const inputs = () => [...kv.map.keys()].filter((k) => k.startsWith('input:')).length;
    expect(inputs()).toBe(2);
    expect((await store.list()).map((r) => [r.id, r.inputRuns])).toEqual([
      ['C', 1],
      ['B', 2],
      ['A', 2],
    ]);
    await store.delete('A');
    expect(inputs()).toBe(2);
    expect(await (await store.load('B')).file.text()).toBe('same');
    await store.delete('B');
    expect(inputs()).toBe(1);
    expect(kv.map.has(`input:${a.inputHash}`)).toBe(false);
  });

  it('moves a run saved by version 2 (its own copy of the input) to the shared form when it is loaded', async () => {
    const kv = memoryStore<unknown>();
    const store = new Journal(kv);
    const old = { ...(await meta({ id: 'old' }, 'abc')), version: 2 as const };
    kv.map.set('meta:old', old);
    kv.map.set('file:old', new Blob(['abc']));
    kv.map.set('chunk:old:0', { run: 'old', input: old.inputHash, k: 0, results: [res(0), res(1)] });
    kv.map.set('meta:old', { ...old, chunks: 1, done: 2 });
    expect((await store.list()).map((r) => r.version)).toEqual([2]);
    const back = await store.load('old');
    expect(await back.file.text()).toBe('abc');
    expect(kv.map.has('file:old')).toBe(false);
    expect(kv.map.has(`input:${old.inputHash}`)).toBe(true);
    expect((kv.map.get('meta:old') as SavedRun).version).toBe(JOURNAL_VERSION);
    expect((await store.load('old')).chunks.flat()).toHaveLength(2);
    await store.delete('old');
    expect([...kv.map.keys()]).toEqual([]);
  });

  it('validates what it reads back: a damaged record or config is left out of the list and refused by name on load', async () => {
    const kv = memoryStore<unknown>();
    const store = new Journal(kv);
    const m = await meta({ id: 'ok' });
    await store.begin(m, new Blob(['abc']));
    const hasMetrics = (c: unknown) => (Array.isArray((c as { metrics?: unknown } | null)?.metrics) ? null : 'its metrics are not a list');
    for (const [id, bad, why] of [
      ['n', 'not a run', 'its record is not an object'],
      ['v', { ...m, id: 'v', version: 9 }, 'saved by another version (9)'],
      ['i', { ...m, id: 'other' }, 'names another run'],
      ['c', { ...m, id: 'c', done: -1 }, 'its done is not a count'],
      ['t', { ...m, id: 't', done: 9 }, 'its counts disagree'],
      ['s', { ...m, id: 's', status: 'paused' }, 'its status is unknown'],
      ['m', { ...m, id: 'm', config: { metrics: 'exact_match' } }, 'its settings: its metrics are not a list'],
    ] as const) {
      kv.map.set(`meta:${id}`, bad);
      await expect(store.load(id, hasMetrics), id).rejects.toThrow(`the saved run ${id} cannot be read back: `);
      await expect(store.load(id, hasMetrics), id).rejects.toThrow(why);
    }
    expect((await store.list(hasMetrics)).map((r) => r.id)).toEqual(['ok']);
    expect((await store.load('ok', hasMetrics)).meta.id).toBe('ok');
  });
});
