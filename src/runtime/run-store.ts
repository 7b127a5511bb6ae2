/**
 * The run in progress, kept in IndexedDB so a reload (or a crashed worker) resumes where it stopped: the input
 * file, the run's settings, and the results in numbered chunks written before the page is told about them.
 * One run is kept at a time. Storage failures (quota, IndexedDB unavailable in a private window) never stop a
 * run: it goes on in memory and the page is told that it cannot be resumed.
 */
import type { RowResults } from '../core/run.ts';
import { idbStore, type KeyValueStore } from './idb-cache.ts';

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
  private kv: KeyValueStore<unknown> | null;
  /** Why the run cannot be saved, once a write failed. */
  failure: string | null = null;

  /** `store` for tests; by default IndexedDB (opened on first use, so a missing IndexedDB is a failure, not a crash). */
  constructor(store?: KeyValueStore<unknown>) {
    this.kv = store ?? null;
  }

  private db(): KeyValueStore<unknown> {
    if (this.kv) return this.kv;
    if (typeof indexedDB === 'undefined') throw new Error('IndexedDB is not available in this browser window');
    return (this.kv = idbStore<unknown>('verity-runs', 'run'));
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
      await this.db().set('file', file);
      await this.db().set('meta', meta);
    });
  }

  /** Saves chunk k and then the run's progress, so a saved `done` always has its results. */
  async append(meta: SavedRun, k: number, results: RowResults[]): Promise<boolean> {
    return this.write('saving results', async () => {
      await this.db().set(`chunk:${k}`, results);
      await this.db().set('meta', meta);
    });
  }

  async update(meta: SavedRun): Promise<boolean> {
    return this.write('saving the run', () => this.db().set('meta', meta));
  }

  /** The saved run, or null (none, or storage unavailable). */
  async meta<C>(): Promise<SavedRun<C> | null> {
    try {
      const m = (await this.db().get('meta')) as SavedRun<C> | undefined;
      return m?.version === 1 ? m : null;
    } catch {
      return null;
    }
  }

  /** The saved file and every saved chunk in order; throws when something is missing (then start over). */
  async load<C>(): Promise<{ meta: SavedRun<C>; file: Blob; results: RowResults[] }> {
    const meta = await this.meta<C>();
    if (!meta) throw new Error('no saved run');
    const file = (await this.db().get('file')) as Blob | undefined;
    if (!file) throw new Error('the saved run has no input file');
    const results: RowResults[] = [];
    for (let k = 0; k < meta.chunks; k++) {
      const c = (await this.db().get(`chunk:${k}`)) as RowResults[] | undefined;
      if (!Array.isArray(c)) throw new Error(`saved results chunk ${k} is missing`);
      for (const r of c) results.push(r);
    }
    if (results.length !== meta.done) throw new Error(`saved results have ${results.length} rows, the run says ${meta.done}`);
    return { meta, file, results };
  }

  async clear(): Promise<void> {
    try {
      await this.db().clear();
    } catch {
      /* nothing saved, or no storage: nothing to clear */
    }
  }
}
