/**
 * The run in progress, kept in IndexedDB so a reload (or a crashed worker) resumes where it stopped: the input
 * file, the run's settings, and the results in numbered chunks written before the page is told about them.
 * One run is kept at a time. Storage failures (quota, IndexedDB unavailable in a private window) never stop a
 * run: it goes on in memory and the page is told that it cannot be resumed.
 */
import { createStore, del, delMany, get, getMany, keys, set, type UseStore } from 'idb-keyval';
import type { RowResults } from '../core/run.ts';

export interface SavedRun<Config = unknown> {
  version: 1;
  id: string;
  fileName: string;
  fileSize: number;
  config: Config;
  total: number;
  chunkSize: number;
  /** Chunks written so far (chunk k holds rows k·chunkSize …). */
  chunks: number;
  done: number;
  status: 'running' | 'done' | 'cancelled';
  startedAt: number;
  updatedAt: number;
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class RunStore {
  private store: UseStore | null = null;
  /** Why the run cannot be saved, once a write failed. */
  failure: string | null = null;

  constructor(private readonly dbName = 'verity-runs') {}

  private db(): UseStore {
    if (typeof indexedDB === 'undefined') throw new Error('IndexedDB is not available in this browser window');
    return (this.store ??= createStore(this.dbName, 'run'));
  }

  private async write(what: string, op: () => Promise<void>): Promise<boolean> {
    if (this.failure) return false;
    try {
      await op();
      return true;
    } catch (e) {
      const quota = (e as { name?: string } | null)?.name === 'QuotaExceededError' || /quota/i.test(messageOf(e));
      this.failure = quota
        ? `browser storage is full (${what}): the run goes on, but a reload cannot resume it. Free space (Models page: delete cached models) to keep runs resumable.`
        : `browser storage is not available (${what}: ${messageOf(e)}): the run goes on, but a reload cannot resume it.`;
      return false;
    }
  }

  /** Starts a new saved run, replacing any previous one. */
  async begin(meta: SavedRun, file: Blob): Promise<boolean> {
    this.failure = null;
    await this.clear();
    return this.write('saving the input file', async () => {
      await set('file', file, this.db());
      await set('meta', meta, this.db());
    });
  }

  /** Saves chunk k and then the run's progress, so a saved `done` always has its results. */
  async append(meta: SavedRun, k: number, results: RowResults[]): Promise<boolean> {
    return this.write('saving results', async () => {
      await set(`chunk:${k}`, results, this.db());
      await set('meta', meta, this.db());
    });
  }

  async update(meta: SavedRun): Promise<boolean> {
    return this.write('saving the run', () => set('meta', meta, this.db()));
  }

  /** The saved run, or null (none, or storage unavailable). */
  async meta<C>(): Promise<SavedRun<C> | null> {
    try {
      const m = await get<SavedRun<C>>('meta', this.db());
      return m?.version === 1 ? m : null;
    } catch {
      return null;
    }
  }

  /** The saved file and every saved chunk in order; throws when something is missing (then start over). */
  async load<C>(): Promise<{ meta: SavedRun<C>; file: Blob; results: RowResults[] }> {
    const meta = await this.meta<C>();
    if (!meta) throw new Error('no saved run');
    const file = await get<Blob>('file', this.db());
    if (!file) throw new Error('the saved run has no input file');
    const chunkKeys = Array.from({ length: meta.chunks }, (_, k) => `chunk:${k}`);
    const chunks = await getMany<RowResults[]>(chunkKeys, this.db());
    const results: RowResults[] = [];
    chunks.forEach((c, k) => {
      if (!Array.isArray(c)) throw new Error(`saved results chunk ${k} is missing`);
      for (const r of c) results.push(r);
    });
    if (results.length !== meta.done) throw new Error(`saved results have ${results.length} rows, the run says ${meta.done}`);
    return { meta, file, results };
  }

  async clear(): Promise<void> {
    try {
      const all = await keys(this.db());
      await delMany(all, this.db());
      await del('meta', this.db());
    } catch {
      /* nothing saved, or no storage: nothing to clear */
    }
  }
}
