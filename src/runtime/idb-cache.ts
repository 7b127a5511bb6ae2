/**
 * The browser's model file cache: the `customCache` transformers.js reads and writes (`match` / `put` /
 * `delete`, keyed by the file's URL `${host}${id}/resolve/${revision}/${file}`), kept in IndexedDB through
 * idb-keyval. It is the only cache owner in the browser (transformers.js' Cache API use is switched off).
 *
 * - Two dedicated stores: file metadata (url, model id, revision, size, dates, content type) and the bytes,
 *   so listing never reads model bytes.
 * - `put` never throws into transformers.js. Responses that are HTML, truncated (shorter than their
 *   content-length, or more than 2% off the registry size when the registry lists the file) or `.json` files
 *   that do not parse are not stored; the rejection is recorded so the adapter can explain the failure.
 *   A full disk (QuotaExceededError) keeps the file in memory for this session and records a warning.
 * - Each stored file carries the SHA-256 of its bytes. When the registry lists a file's SHA-256, a download
 *   that does not match it is refused. `match` checks the stored size and hash (and the registry's, if listed)
 *   against the stored bytes: a corrupted entry is deleted and reported as a miss, so transformers.js fetches
 *   the file again.
 */
import { createStore, clear, del, get, keys, set, update, values } from 'idb-keyval';
import { fileUrl, pinnedUrl, SIZE_TOLERANCE } from './specs.ts';
import { messageOf } from '../core/errors.ts';

/** Metadata of one cached file (the bytes live in a separate store under the same key). */
export interface CachedFileRecord {
  url: string;
  modelId: string;
  revision: string;
  /** Path inside the model repo, e.g. `onnx/model.onnx`. */
  file: string;
  size: number;
  /** SHA-256 (hex) of the bytes when they were stored; absent in records written before hashes were kept. */
  sha256?: string;
  contentType: string;
  /** When the file was stored (ms since epoch). */
  date: number;
  /** When the file was last read from the cache (ms since epoch). */
  lastUsed: number;
}

export interface CachedModelFile extends Omit<CachedFileRecord, 'modelId'> {
  /** Kept in memory only (the disk was full): gone after a reload. */
  inMemory: boolean;
}

export interface CachedModel {
  id: string;
  revisions: string[];
  files: CachedModelFile[];
  bytes: number;
  lastUsed: number;
}

export type RejectionReason =
  'html' | 'truncated' | 'size-mismatch' | 'too-large' | 'redirect' | 'hash-mismatch' | 'invalid-json' | 'fetch-failed' | 'missing';

/** Why a downloaded file was not stored (or could not be downloaded): what explain() tells the user. */
export interface Rejection {
  url: string;
  modelId: string;
  file: string;
  reason: RejectionReason;
  message: string;
}

/** The few key-value operations the cache needs (idb-keyval in the browser, a Map in unit tests). */
export interface KeyValueStore<V> {
  get(key: string): Promise<V | undefined>;
  set(key: string, value: V): Promise<void>;
  del(key: string): Promise<void>;
  /** Reads and writes one key in one transaction: two pages updating it never lose each other's change. */
  update(key: string, f: (old: V | undefined) => V): Promise<void>;
  keys(): Promise<string[]>;
  values(): Promise<V[]>;
  clear(): Promise<void>;
}

export function idbStore<V>(dbName: string, storeName: string): KeyValueStore<V> {
  const store = createStore(dbName, storeName);
  return {
    get: (k) => get<V>(k, store),
    set: (k, v) => set(k, v, store),
    del: (k) => del(k, store),
    update: (k, f) => update<V>(k, f, store),
    keys: async () => (await keys(store)).map(String),
    values: () => values<V>(store),
    clear: () => clear(store),
  };
}

export function memoryStore<V>(): KeyValueStore<V> & { map: Map<string, V> } {
  const map = new Map<string, V>();
  return {
    map,
    get: async (k) => map.get(k),
    set: async (k, v) => void map.set(k, v),
    del: async (k) => void map.delete(k),
    update: async (k, f) => void map.set(k, f(map.get(k))),
    keys: async () => [...map.keys()],
    values: async () => [...map.values()],
    clear: async () => map.clear(),
  };
}

/** Header the adapter's fetch wrapper adds with the server's original content-length. */
export const ORIGINAL_LENGTH_HEADER = 'x-verity-content-length';

const RESOLVE = '/resolve/';
const isQuotaError = (e: unknown): boolean =>
  !!e &&
  typeof e === 'object' &&
  (('name' in e && (e as { name: string }).name === 'QuotaExceededError') ||
    /quota/i.test(String((e as { message?: unknown }).message ?? '')));
const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

/** SHA-256 of bytes as lowercase hex (Web Crypto: browsers, workers and Node). */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  let hex = '';
  for (const b of digest) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/** True when the first bytes look like an HTML page (a login wall, an error page, a proxy's portal). */
export function looksLikeHtml(bytes: Uint8Array, contentType = ''): boolean {
  if (/\btext\/html\b/i.test(contentType)) return true;
  let head = '';
  for (let i = 0; i < Math.min(bytes.length, 256); i++) head += String.fromCharCode(bytes[i]!);
  head = head
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, '')
    .trimStart()
    .toLowerCase();
  return head.startsWith('<!doctype') || head.startsWith('<html');
}

interface Context {
  host: string;
  id: string;
  revision: string;
  prefix: string;
}

export interface ModelCacheOptions {
  meta?: KeyValueStore<CachedFileRecord>;
  bytes?: KeyValueStore<ArrayBuffer>;
  now?: () => number;
}

export class ModelCache {
  private readonly meta: KeyValueStore<CachedFileRecord>;
  private readonly bytes: KeyValueStore<ArrayBuffer>;
  private readonly now: () => number;
  /** Files kept for this session only, because the disk was full. */
  private readonly memory = new Map<string, { record: CachedFileRecord; bytes: ArrayBuffer }>();
  /** Registry sizes by URL. */
  private readonly expected = new Map<string, number>();
  /** Registry SHA-256 by URL, for the files whose hash the registry lists. */
  private readonly expectedHash = new Map<string, string>();
  /** `${host}${id}/resolve/` → model id, for every model the adapter prepared or imported. */
  private readonly prefixes = new Map<string, string>();
  private readonly rejections = new Map<string, Rejection>();
  private warnings: string[] = [];
  private current: Context | null = null;

  constructor(opts: ModelCacheOptions = {}) {
    this.meta = opts.meta ?? idbStore<CachedFileRecord>('verity-model-meta', 'files');
    this.bytes = opts.bytes ?? idbStore<ArrayBuffer>('verity-model-bytes', 'files');
    this.now = opts.now ?? Date.now;
  }

  // ---------- context (set by the adapter before each load) ----------

  /**
   * The model being loaded: its URL prefix (to name cached files by model id), its registry sizes and hashes
   * (to catch truncated or wrong downloads) and its pinned revision (transformers.js asks a few questions about `main` even
   * when a revision is pinned; those are answered from the pinned revision's files).
   */
  use(host: string, id: string, revision: string, files?: Record<string, number>, hashes?: Record<string, string>): void {
    const prefix = this.register(host, id);
    this.current = { host, id, revision, prefix };
    for (const [file, size] of Object.entries(files ?? {})) this.expected.set(fileUrl(host, id, revision, file), size);
    for (const [file, hash] of Object.entries(hashes ?? {})) this.expectedHash.set(fileUrl(host, id, revision, file), hash.toLowerCase());
    for (const [url, r] of this.rejections) if (r.modelId === id) this.rejections.delete(url);
  }

  /** The host the current model's files come from (set by use()), or null before any load. */
  host(): string | null {
    return this.current?.host ?? null;
  }

  /** The registry size of a file of the current model, if listed. */
  listedSize(url: string): number | undefined {
    return this.expected.get(url);
  }

  /** Names files under `${host}${id}/resolve/` as files of `id` (listing, deleting). Returns that prefix. */
  register(host: string, id: string): string {
    const prefix = fileUrl(host, id, 'x', '').slice(0, -'x/'.length);
    this.prefixes.set(prefix, id);
    return prefix;
  }

  /** A `main` URL of the current model → the same file at the pinned revision. */
  resolve(url: string): string {
    const c = this.current;
    return c ? pinnedUrl(c.host, c.id, c.revision, url) : url;
  }

  /** Model id, revision and file of a hub-layout URL; null for anything else (wasm files, pages…). */
  describe(url: string): { modelId: string; revision: string; file: string } | null {
    const at = url.indexOf(RESOLVE);
    if (at < 0) return null;
    const [rev, ...rest] = url.slice(at + RESOLVE.length).split('/');
    if (!rev || !rest.length) return null;
    const file = rest.join('/');
    const revision = decodeURIComponent(rev);
    let best = '';
    for (const prefix of this.prefixes.keys()) if (url.startsWith(prefix) && prefix.length > best.length) best = prefix;
    if (best) return { modelId: this.prefixes.get(best)!, revision, file };
    // Unknown host: the id is the last one or two path segments before /resolve/.
    let path = url.slice(0, at);
    try {
      path = new URL(path).pathname;
    } catch {
      /* keep the raw prefix */
    }
    const segs = path.split('/').filter(Boolean);
    return { modelId: segs.slice(-2).join('/'), revision, file };
  }

  // ---------- rejections and warnings ----------

  reject(url: string, reason: RejectionReason, message: string): void {
    const d = this.describe(url);
    this.rejections.set(url, { url, modelId: d?.modelId ?? '', file: d?.file ?? url, reason, message });
  }

  rejectionsFor(modelId: string): Rejection[] {
    return [...this.rejections.values()].filter((r) => r.modelId === modelId);
  }

  rejectionFor(url: string): Rejection | undefined {
    return this.rejections.get(url);
  }

  /** Warnings since the last call (quota, corrupted entries, files not stored): reported with the load. */
  takeWarnings(): string[] {
    const w = this.warnings;
    this.warnings = [];
    return w;
  }

  private warn(message: string): void {
    if (!this.warnings.includes(message)) this.warnings.push(message);
  }

  /** Why these bytes must not be cached, or null. */
  async check(url: string, bytes: Uint8Array, headers: Headers): Promise<Omit<Rejection, 'modelId'> | null> {
    const file = this.describe(url)?.file ?? url;
    const contentType = headers.get('content-type') ?? '';
    if (looksLikeHtml(bytes, contentType))
      return {
        url,
        file,
        reason: 'html',
        message: `received HTML instead of ${file} from ${url}${contentType ? ` (content-type ${contentType})` : ''}: the server answered with a web page (a login or error page, or a wrong mirror URL?)`,
      };
    const declared = Number(headers.get(ORIGINAL_LENGTH_HEADER) ?? headers.get('content-length') ?? NaN);
    if (Number.isFinite(declared) && declared > 0 && bytes.length < declared)
      return { url, file, reason: 'truncated', message: `${file} from ${url} is truncated: received ${bytes.length} of ${declared} bytes` };
    const listed = this.expected.get(url);
    if (listed !== undefined && Math.abs(bytes.length - listed) > SIZE_TOLERANCE * listed)
      return {
        url,
        file,
        reason: bytes.length < listed ? 'truncated' : 'size-mismatch',
        message: `${file} from ${url} has ${bytes.length} bytes but the registry lists ${listed} (more than ${SIZE_TOLERANCE * 100}% off): ${bytes.length < listed ? 'the download is truncated' : 'the file is not the one the registry pins'}`,
      };
    const want = this.expectedHash.get(url);
    if (want !== undefined) {
      const got = await sha256Hex(bytes);
      if (got !== want)
        return {
          url,
          file,
          reason: 'hash-mismatch',
          message: `${file} from ${url} does not match the SHA-256 the registry lists (${got.slice(0, 12)}… instead of ${want.slice(0, 12)}…): the file is not the one the registry pins, or it was damaged on the way`,
        };
    }
    if (/\.json$/i.test(file)) {
      try {
        JSON.parse(new TextDecoder().decode(bytes));
      } catch (e) {
        return {
          url,
          file,
          reason: 'invalid-json',
          message: `${file} from ${url} is not valid JSON (${messageOf(e)}); the download is damaged or the server sent something else`,
        };
      }
    }
    return null;
  }

  // ---------- the transformers.js cache interface ----------

  async match(key: string): Promise<Response | undefined> {
    try {
      const url = this.resolve(key);
      if (!this.describe(url)) return undefined;
      const mem = this.memory.get(url);
      if (mem) return this.response(mem.record, mem.bytes);
      const record = await this.meta.get(url);
      if (!record) return undefined;
      const bytes = await this.bytes.get(url);
      if (!bytes || bytes.byteLength !== record.size) {
        await this.remove(url);
        this.warn(
          `the cached ${record.file} of ${record.modelId} was damaged (${bytes?.byteLength ?? 0} of ${record.size} bytes); it was deleted and downloaded again`,
        );
        return undefined;
      }
      const want = this.expectedHash.get(url) ?? record.sha256;
      if (want !== undefined && (await sha256Hex(new Uint8Array(bytes))) !== want) {
        await this.remove(url);
        this.warn(
          `the cached ${record.file} of ${record.modelId} was damaged (its SHA-256 no longer matches ${this.expectedHash.has(url) ? "the registry's" : 'the one recorded when it was stored'}); it was deleted and downloaded again`,
        );
        return undefined;
      }
      const now = this.now();
      if (now - record.lastUsed > 1000) this.meta.set(url, { ...record, lastUsed: now }).catch(() => undefined);
      return this.response(record, bytes);
    } catch (e) {
      this.warn(`the model cache could not be read (${messageOf(e)}); files are downloaded again`);
      return undefined;
    }
  }

  private response(record: CachedFileRecord, bytes: ArrayBuffer): Response {
    return new Response(bytes, {
      status: 200,
      headers: { 'content-type': record.contentType || 'application/octet-stream', 'content-length': String(record.size) },
    });
  }

  /** Stores a downloaded file unless it is unusable. Never throws. */
  async put(key: string, response: Response, progress?: (p: { progress: number; loaded: number; total: number }) => void): Promise<void> {
    try {
      const url = key;
      if (!this.describe(url)) return;
      // The fetch wrapper already saw this download fail (e.g. the connection closed early).
      if (this.rejections.get(url)?.reason === 'truncated') return;
      const bytes = new Uint8Array(await response.arrayBuffer());
      const bad = await this.check(url, bytes, response.headers);
      if (bad) {
        this.reject(url, bad.reason, bad.message);
        this.warn(`${bad.message} — not cached`);
        return;
      }
      await this.store(url, bytes, response.headers.get('content-type') ?? '');
      progress?.({ progress: 100, loaded: bytes.length, total: bytes.length });
    } catch (e) {
      this.warn(`${key} was not cached (${messageOf(e)})`);
    }
  }

  async delete(key: string): Promise<boolean> {
    const url = this.resolve(key);
    const had = this.memory.has(url) || (await this.meta.get(url).catch(() => undefined)) !== undefined;
    await this.remove(url);
    return had;
  }

  // ---------- storing, listing, deleting ----------

  /** Validates and stores one file (also used for imported local folders). Returns the rejection, if any. */
  async storeFile(url: string, bytes: Uint8Array, contentType = ''): Promise<Rejection | null> {
    const bad = await this.check(url, bytes, new Headers(contentType ? { 'content-type': contentType } : {}));
    if (bad) {
      this.reject(url, bad.reason, bad.message);
      return this.rejections.get(url)!;
    }
    await this.store(url, bytes, contentType);
    return null;
  }

  private async store(url: string, bytes: Uint8Array, contentType: string): Promise<void> {
    const d = this.describe(url)!;
    const now = this.now();
    const record: CachedFileRecord = {
      url,
      modelId: d.modelId,
      revision: d.revision,
      file: d.file,
      size: bytes.length,
      sha256: await sha256Hex(bytes),
      contentType,
      date: now,
      lastUsed: now,
    };
    const buffer =
      bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer
        ? bytes.buffer
        : bytes.slice().buffer;
    try {
      // Bytes first: a record without bytes reads as damaged and is dropped; bytes without a record are cleaned below.
      await this.bytes.set(url, buffer);
      await this.meta.set(url, record);
      this.memory.delete(url);
    } catch (e) {
      await this.bytes.del(url).catch(() => undefined);
      this.memory.set(url, { record, bytes: buffer });
      if (isQuotaError(e))
        this.warn(
          `storage is full: ${d.file} of ${d.modelId} (${mb(bytes.length)}) is kept in memory for this session only and will be downloaded again after a reload; delete cached models to make room`,
        );
      else this.warn(`${d.file} of ${d.modelId} could not be stored (${messageOf(e)}); it is kept in memory for this session only`);
    }
  }

  private async remove(url: string): Promise<void> {
    this.memory.delete(url);
    await Promise.all([this.meta.del(url).catch(() => undefined), this.bytes.del(url).catch(() => undefined)]);
  }

  /** Cached models, most recently used first. */
  async list(): Promise<CachedModel[]> {
    const records = [
      ...(await this.meta.values()).map((r) => ({ r, inMemory: false })),
      ...[...this.memory.values()].map((m) => ({ r: m.record, inMemory: true })),
    ];
    const byId = new Map<string, CachedModel>();
    for (const { r, inMemory } of records) {
      let m = byId.get(r.modelId);
      if (!m) byId.set(r.modelId, (m = { id: r.modelId, revisions: [], files: [], bytes: 0, lastUsed: 0 }));
      const { modelId: _id, ...file } = r;
      m.files.push({ ...file, inMemory });
      m.bytes += r.size;
      m.lastUsed = Math.max(m.lastUsed, r.lastUsed);
      if (!m.revisions.includes(r.revision)) m.revisions.push(r.revision);
    }
    for (const m of byId.values()) m.files.sort((a, b) => a.file.localeCompare(b.file));
    return [...byId.values()].sort((a, b) => b.lastUsed - a.lastUsed || a.id.localeCompare(b.id));
  }

  /** Deletes every file of one model (all revisions and hosts); returns how many files were deleted. */
  async deleteModel(id: string): Promise<number> {
    const urls = new Set<string>();
    for (const r of await this.meta.values()) if (r.modelId === id) urls.add(r.url);
    for (const [url, m] of this.memory) if (m.record.modelId === id) urls.add(url);
    for (const url of urls) await this.remove(url);
    return urls.size;
  }

  async clear(): Promise<void> {
    this.memory.clear();
    await Promise.all([this.meta.clear(), this.bytes.clear()]);
  }

  /** URLs with bytes but no metadata (an interrupted write): removed so they do not use space unseen. */
  async sweep(): Promise<number> {
    const known = new Set(await this.meta.keys());
    const orphans = (await this.bytes.keys()).filter((k) => !known.has(k));
    for (const k of orphans) await this.bytes.del(k).catch(() => undefined);
    return orphans.length;
  }
}
