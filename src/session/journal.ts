/**
 * The journal of saved runs, kept in IndexedDB so a reload (or a crashed worker) resumes where it stopped and a
 * finished run reopens as it was left. It owns the saved form: the versioned schema (and the migration of runs
 * saved by earlier versions), the writes, what a resume or a reopen reads back, listing with what each run and
 * each input costs, and deleting.
 *
 * Schema (version 3): `meta:<run>` the run (its RunConfig, counts, status); `review:<run>` its review (queue and
 * labels, review.ts); `input:<sha-256>` an input file,
 * stored once however many runs scored it; `chunk:<run>:<k>` the results of rows k·chunkSize…, each naming its
 * run and input hash, so a resume never mixes rows of two runs. Version 2 kept a copy of the input per run
 * (`file:<run>`): such a run is moved to the shared form when it is next loaded.
 *
 * Storage failures (quota, IndexedDB unavailable in a private window) never stop a run: it goes on in memory and
 * the page is told that it cannot be resumed. Nothing expires on its own.
 */
import type { RowResults } from '../core/scoring.ts';
import type { ResultChunk } from '../core/result-table.ts';
import { idbStore, type KeyValueStore } from '../runtime/idb-cache.ts';
import { messageOf } from '../core/errors.ts';
import { VerityError } from '../core/types.ts';
import { contentHash } from '../core/io/hash.ts';

export const JOURNAL_VERSION = 3;

export interface SavedRun<Config = unknown> {
  /** 3; 2 for a run saved before inputs were shared (its input under `file:<id>`), moved on its next load. */
  version: 2 | 3;
  id: string;
  fileName: string;
  fileSize: number;
  /** SHA-256 of the input file's bytes (see contentHash): the key its input is stored under. */
  inputHash: string;
  config: Config;
  total: number;
  chunkSize: number;
  /** Chunks written so far (chunk k holds rows k·chunkSize …). */
  chunks: number;
  done: number;
  /** Bytes of saved results so far (an estimate of what they take on disk). */
  resultBytes: number;
  status: 'running' | 'done' | 'cancelled';
  startedAt: number;
  updatedAt: number;
}

/** A saved run as listed: the run, and what its input costs and how many saved runs share it. */
export interface ListedRun<Config = unknown> extends SavedRun<Config> {
  inputRuns: number;
}

/** A chunk's results: by column (this version), or one object per row (runs saved by earlier versions). */
export type SavedResults = ResultChunk | RowResults[];

/** Rows in a chunk's results. */
export const chunkRows = (r: SavedResults): number => (Array.isArray(r) ? r.length : r.rows);

/** What a chunk's results take on disk, roughly: numbers at their size, strings at their length. */
function resultBytes(r: SavedResults): number {
  if (Array.isArray(r)) return JSON.stringify(r).length;
  let n = 0;
  for (const c of r.columns) {
    n += c.score.byteLength + c.decision.byteLength + c.cls.byteLength + c.set.byteLength + c.explanation.byteLength;
    for (const s of c.strings) n += s.length;
    if (c.details) n += JSON.stringify(c.details).length;
  }
  return n;
}

const isResults = (r: unknown): r is SavedResults =>
  Array.isArray(r) || (typeof r === 'object' && r !== null && Array.isArray((r as ResultChunk).columns));

/** What is wrong with a saved run's config, or null (the session's check: core/run-config.ts runConfigProblem). */
export type ConfigCheck = (config: unknown) => string | null;
const noCheck: ConfigCheck = () => null;

const COUNTS = ['fileSize', 'total', 'chunkSize', 'chunks', 'done', 'resultBytes', 'startedAt', 'updatedAt'] as const;

/** What is wrong with a record read back as saved run `id`, or null: storage is written by other versions and tabs. */
export function savedRunProblem(m: unknown, id: string, config: ConfigCheck = noCheck): string | null {
  if (typeof m !== 'object' || m === null) return 'its record is not an object';
  const r = m as Record<string, unknown>;
  if (r.version !== 2 && r.version !== JOURNAL_VERSION) return `it was saved by another version (${String(r.version)})`;
  if (r.id !== id) return 'its record names another run';
  for (const k of ['fileName', 'inputHash'] as const) if (typeof r[k] !== 'string') return `its ${k} is not text`;
  for (const k of COUNTS) {
    const v = r[k];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) return `its ${k} is not a count`;
  }
  if ((r.chunkSize as number) === 0 || (r.done as number) > (r.total as number)) return 'its counts disagree';
  if (r.status !== 'running' && r.status !== 'done' && r.status !== 'cancelled') return 'its status is unknown';
  const c = config(r.config);
  return c && `its settings: ${c}`;
}

/** What a chunk holds besides its rows: whose rows they are. */
interface SavedChunk {
  run: string;
  input: string;
  k: number;
  results: SavedResults;
}

const metaKey = (id: string) => `meta:${id}`;
const inputKey = (hash: string) => `input:${hash}`;
/** Version 2's copy of the input, one per run. */
const legacyFileKey = (id: string) => `file:${id}`;
const chunkKey = (id: string, k: number) => `chunk:${id}:${k}`;
/** A run's review (its queue and the labels given, review.ts): saved whole at each label. */
const reviewKey = (id: string) => `review:${id}`;

/** The one wording for a saved run whose data is gone, wherever the app meets it. */
export const removedRun = (fileName: string | null, what: string): string =>
  `the saved run${fileName ? ` of ${fileName}` : ''} was removed from this browser's storage (${what}), so it cannot be resumed; open the file again to score it`;

export class Journal {
  private kv: KeyValueStore<unknown> | null;
  /** Why the run cannot be saved, once a write failed. */
  failure: string | null = null;

  /** `store` for tests; by default IndexedDB (opened on first use, so a missing IndexedDB is a failure, not a crash). */
  constructor(store?: KeyValueStore<unknown>) {
    this.kv = store ?? null;
  }

  private db(): KeyValueStore<unknown> {
    if (this.kv) return this.kv;
    if (typeof indexedDB === 'undefined')
      throw new VerityError('IndexedDB is not available in this browser window', 'output', 'unavailable');
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
        ? `browser storage is full (${what}): the run goes on, but a reload cannot resume it. Free space (delete saved runs below, or cached models on the Models page) to keep runs resumable.`
        : `browser storage is not available (${what}: ${messageOf(e)}): the run goes on, but a reload cannot resume it.`;
      return false;
    }
  }

  /** Starts a new saved run under its own id; its input is stored unless a saved run already holds the same bytes. */
  async begin(meta: SavedRun, file: Blob): Promise<boolean> {
    this.failure = null;
    return this.write('saving the input file', async () => {
      const db = this.db();
      if ((await db.get(inputKey(meta.inputHash))) === undefined) await db.set(inputKey(meta.inputHash), file);
      await db.set(metaKey(meta.id), { ...meta, version: JOURNAL_VERSION });
    });
  }

  /** Saves chunk k (tagged with its run and input) and then the run's progress, so a saved `done` always has its results. */
  async append(meta: SavedRun, k: number, results: SavedResults): Promise<boolean> {
    return this.write('saving results', async () => {
      const chunk: SavedChunk = { run: meta.id, input: meta.inputHash, k, results };
      await this.db().set(chunkKey(meta.id, k), chunk);
      meta.resultBytes += resultBytes(results);
      await this.db().set(metaKey(meta.id), meta);
    });
  }

  async update(meta: SavedRun): Promise<boolean> {
    return this.write('saving the run', () => this.db().set(metaKey(meta.id), meta));
  }

  /**
   * Saves a run's review through `merge` (given what is stored, it returns what to store) in one transaction, so
   * two pages answering the same run never lose each other's answers.
   */
  async updateReview(id: string, merge: (stored: unknown) => unknown): Promise<boolean> {
    try {
      await this.db().update(reviewKey(id), merge);
      return true;
    } catch (e) {
      this.failure = `the review's labels could not be saved (${messageOf(e)}): they hold until this page is reloaded`;
      return false;
    }
  }

  /** Removes a run's review. */
  async dropReview(id: string): Promise<void> {
    await this.db().del(reviewKey(id));
  }

  /** A run's saved review, or null. */
  async loadReview<T>(id: string): Promise<T | null> {
    try {
      return ((await this.db().get(reviewKey(id))) as T | undefined) ?? null;
    } catch {
      return null;
    }
  }

  /**
   * One saved run as read back and checked: null when there is none (removed, or storage unavailable), the
   * problem when its record is not a saved run of a version this one reads, or its config not a run (`config`).
   */
  private async read<C>(id: string, config: ConfigCheck): Promise<SavedRun<C> | string | null> {
    let m: unknown;
    try {
      m = await this.db().get(metaKey(id));
    } catch {
      return null;
    }
    if (m === undefined) return null;
    return savedRunProblem(m, id, config) ?? (m as SavedRun<C>);
  }

  /** One saved run, or null (none, removed, damaged, of an unknown version, or storage unavailable). */
  async meta<C>(id: string, config: ConfigCheck = noCheck): Promise<SavedRun<C> | null> {
    const m = await this.read<C>(id, config);
    return typeof m === 'string' ? null : m;
  }

  /**
   * Every saved run that reads back as one (`config` checks its config), newest first, with how many saved runs
   * share its input (none when storage is unavailable).
   */
  async list<C>(config: ConfigCheck = noCheck): Promise<ListedRun<C>[]> {
    try {
      const ids = (await this.db().keys()).filter((k) => k.startsWith('meta:')).map((k) => k.slice(5));
      const metas = (await Promise.all(ids.map((id) => this.meta<C>(id, config)))).filter((m): m is SavedRun<C> => m !== null);
      const sharing = new Map<string, number>();
      // A version-2 run holds its own copy: it shares with nobody until it is moved.
      for (const m of metas) if (m.version === JOURNAL_VERSION) sharing.set(m.inputHash, (sharing.get(m.inputHash) ?? 0) + 1);
      return metas
        .map((m) => ({ ...m, inputRuns: m.version === JOURNAL_VERSION ? sharing.get(m.inputHash)! : 1 }))
        .sort((a, b) => b.updatedAt - a.updatedAt);
    } catch {
      return [];
    }
  }

  /**
   * The saved input and every saved chunk's results in order. Refuses (throws) when anything is missing or when a
   * chunk belongs to another run or another input: such rows are never given back. A version-2 run's own copy of
   * its input is moved to the shared form here.
   */
  async load<C>(id: string, config: ConfigCheck = noCheck): Promise<{ meta: SavedRun<C>; file: Blob; chunks: SavedResults[] }> {
    const meta = await this.read<C>(id, config);
    if (!meta) throw new VerityError(removedRun(null, 'its settings are gone'), 'input', 'saved-run');
    if (typeof meta === 'string')
      throw new VerityError(`the saved run ${id} cannot be read back: ${meta}; it is refused (delete it)`, 'input', 'saved-run');
    const db = this.db();
    const key = meta.version === 2 ? legacyFileKey(id) : inputKey(meta.inputHash);
    const file = (await db.get(key)) as Blob | undefined;
    if (!file) throw new VerityError(removedRun(meta.fileName, 'its input file is gone'), 'input', 'saved-run');
    if ((await contentHash(file)) !== meta.inputHash)
      throw new VerityError(`the saved input of ${meta.fileName} is not the file this run scored; it is refused`, 'input', 'saved-run');
    const chunks: SavedResults[] = [];
    let rows = 0;
    for (let k = 0; k < meta.chunks; k++) {
      const c = (await db.get(chunkKey(id, k))) as SavedChunk | undefined;
      if (!c || !isResults(c.results)) throw new VerityError(removedRun(meta.fileName, `results chunk ${k} is gone`), 'input', 'saved-run');
      if (c.run !== id || c.input !== meta.inputHash || c.k !== k)
        throw new VerityError(
          `saved results chunk ${k} of ${meta.fileName} belongs to another run or another file; it is refused`,
          'input',
          'saved-run',
        );
      chunks.push(c.results);
      rows += chunkRows(c.results);
    }
    if (rows !== meta.done) throw new VerityError(`saved results have ${rows} rows, the run says ${meta.done}`, 'input', 'saved-run');
    if (meta.version === 2) await this.migrate(meta, file);
    return { meta, file, chunks };
  }

  /** Moves a version-2 run's input to the shared form (best effort: a failure leaves it as it was, still loadable). */
  private async migrate(meta: SavedRun, file: Blob): Promise<void> {
    try {
      const db = this.db();
      if ((await db.get(inputKey(meta.inputHash))) === undefined) await db.set(inputKey(meta.inputHash), file);
      meta.version = JOURNAL_VERSION;
      await db.set(metaKey(meta.id), meta);
      await db.del(legacyFileKey(meta.id));
    } catch {
      meta.version = 2;
    }
  }

  /** Removes one run: its results and settings, and its input when no other saved run uses it. */
  async delete(id: string): Promise<void> {
    try {
      const db = this.db();
      const meta = await this.meta(id);
      for (const k of await db.keys())
        if (k === metaKey(id) || k === legacyFileKey(id) || k === reviewKey(id) || k.startsWith(`chunk:${id}:`)) await db.del(k);
      if (meta && !(await this.list()).some((m) => m.inputHash === meta.inputHash && m.version === JOURNAL_VERSION))
        await db.del(inputKey(meta.inputHash));
    } catch {
      /* nothing saved, or no storage: nothing to delete */
    }
  }

  /** Removes every saved run and input (and anything an older version left). */
  async clear(): Promise<void> {
    try {
      await this.db().clear();
    } catch {
      /* nothing saved, or no storage: nothing to clear */
    }
  }
}
