/**
 * The model host in Node (CLI): transformers.js on onnxruntime-node, device 'cpu', files from the hub, a mirror
 * or a local folder, downloads cached on disk. All runtime settings for Node are made here, once.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { runInNewContext } from 'node:vm';
import { Readable } from 'node:stream';
import { availableParallelism, homedir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { env } from '@huggingface/transformers';
import { ModelHost, type RuntimeAdapter } from './host.ts';
import { hostError, type HostError, type ModelSpec } from './messages.ts';
import { ROLE_TABLE } from './registry.ts';
import { messageOf } from '../core/errors.ts';
import { VerityError } from '../core/types.ts';
import {
  downloadCap,
  fileUrl,
  pinnedUrl,
  probePattern,
  redirectAllowed,
  slowPattern,
  TOKENIZER_PROBES,
  tokenizerPatterns,
  SIZE_TOLERANCE,
  type DownloadLimits,
} from './specs.ts';
export type { DownloadLimits };
import { looksLikeHtml } from './idb-cache.ts';
import { LIMITS } from '../core/limits.ts';

export interface NodeRuntimeOptions {
  /** Where downloaded model files are kept (default ~/.cache/verity/models). */
  cacheDir?: string;
  /** A hub mirror with the hub's URL layout (default https://huggingface.co/). */
  mirror?: string;
  /** Download bounds (DEFAULT_LIMITS otherwise). */
  limits?: Partial<DownloadLimits>;
  /** Longest a tokenizer.json pattern may take on the probe inputs (default 2 s). */
  tokenizerProbeMs?: number;
}

/** Where transformers.js' FileCache keeps a file: <id>/<revision>/<file> for a pinned revision, <id>/<file> for main. */
function diskPath(cacheDir: string, id: string, revision: string, file: string): string {
  return revision === 'main' ? join(cacheDir, id, file) : join(cacheDir, id, revision, file);
}

/** Bounds on every model download in Node (NodeRuntimeOptions overrides them). */
export const DEFAULT_LIMITS: Readonly<DownloadLimits> = {
  connectTimeoutMs: LIMITS.downloadConnectMs,
  idleTimeoutMs: LIMITS.downloadIdleMs,
  maxFileBytes: LIMITS.modelFileBytes.cli,
};
/** Redirects followed per request (the hub sends model files to its CDN once). */
const MAX_REDIRECTS = 5;

/** A download refused or failed, with the code the host reports ('network' or 'bad-response'); thrown through transformers.js unchanged. */
const downloadError = (code: 'network' | 'bad-response', message: string): VerityError => new VerityError(message, 'input', code);
const isDownloadError = (e: unknown): e is VerityError => e instanceof VerityError && (e.code === 'network' || e.code === 'bad-response');

/** The hub model being loaded (set by prepare): where it comes from, its pinned revision and registry sizes. */
let current: { host: string; id: string; revision: string; files: Record<string, number> } | null = null;
let limits: DownloadLimits = { ...DEFAULT_LIMITS };
/**
 * The last download refused during the current load: transformers.js treats some files as optional (it reads
 * config.json for the tokenizer too, without failing) and then fails later with an unrelated message.
 */
let refused: VerityError | null = null;
/** Model files the host answered 404 for during this load: transformers.js goes on without them and fails later, unrelated. */
let notFound: { file: string; url: string }[] = [];

/**
 * fetch for transformers.js in Node. transformers.js 4.x asks whether tokenizer_config.json exists at `main` even
 * when a revision is pinned (get_tokenizer_files), so that question is asked of the pinned revision instead, and
 * a file of the pinned revision already in the disk cache is answered from there: a model downloaded once then
 * loads without a network, and nothing is read from `main`.
 *
 * Every download is bounded and checked before transformers.js' disk cache keeps it (the cache writes a
 * temporary file and renames it only when the body ends without an error): a connect and an idle timeout, a size
 * cap (the registry's size, else DEFAULT_LIMITS.maxFileBytes, or maxJsonBytes for JSON), redirects only as redirectAllowed() says, and the
 * body is refused — so never cached — when it is an HTML page, shorter than its Content-Length, off the registry's
 * size, or (for .json files) not JSON.
 */
async function nodeFetch(input: string | URL, init?: RequestInit): Promise<Response> {
  const c = current;
  const raw = typeof input === 'string' ? input : input.href;
  const url = c ? pinnedUrl(c.host, c.id, c.revision, raw) : raw;
  let file: string | null = null;
  if (c) {
    const base = fileUrl(c.host, c.id, c.revision, '');
    if (url.startsWith(base)) file = decodeURIComponent(url.slice(base.length));
  }
  if (c && file !== null && c.revision !== 'main') {
    const path = diskPath(env.cacheDir ?? '', c.id, c.revision, file);
    if (existsSync(path) && statSync(path).isFile()) return fileResponse(path, new Headers(init?.headers).get('range'));
  }
  const what = file ?? url;
  const ctl = new AbortController();
  const connect = setTimeout(
    () =>
      ctl.abort(
        downloadError('network', `no answer from ${new URL(url).host} within ${limits.connectTimeoutMs / 1000} s for ${what} (${url})`),
      ),
    limits.connectTimeoutMs,
  );
  let res: Response;
  try {
    let at = url;
    for (let hop = 0; ; hop++) {
      try {
        res = await fetch(at, { ...init, redirect: 'manual', signal: ctl.signal });
      } catch (e) {
        if (isDownloadError(ctl.signal.reason)) throw ctl.signal.reason;
        const cause = (e as { cause?: unknown }).cause;
        throw downloadError('network', `could not download ${what} from ${at} (${messageOf(cause ?? e)})`);
      }
      const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
      if (!location) break;
      const next = new URL(location, at);
      if (!c || !redirectAllowed(c.host, next) || hop >= MAX_REDIRECTS)
        throw downloadError(
          'bad-response',
          `${what}: ${at} redirected to ${next.origin}, which is not ${c ? c.host : 'the chosen host'}${hop >= MAX_REDIRECTS ? ` (more than ${MAX_REDIRECTS} redirects)` : ''}; model files come only from the chosen host (and, for the hub, its own file hosts *.huggingface.co and *.hf.co)`,
        );
      at = next.href;
    }
  } finally {
    clearTimeout(connect);
  }
  const ranged = new Headers(init?.headers).has('range');
  if (file !== null && res.status === 404) notFound.push({ file, url });
  if (!c || file === null || ranged || res.status !== 200 || !res.body) return res;
  return checkedBody(res, url, file, c.files[file]);
}

/** reader.read(), or a download error after `ms` without data. */
async function readWithin(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number, stalled: (s: string) => string) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const idle = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(downloadError('network', stalled(`no data for ${ms / 1000} s`))), ms)),
  );
  try {
    return await Promise.race([reader.read(), idle]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The response with its body checked (see nodeFetch). transformers.js grows its buffer by every chunk of a body
 * whose length it does not know, copying all it holds each time: an endless body crawled for many minutes before
 * reaching the cap. So a body without a usable length (none announced, or a compressed one) is first written to
 * a file beside the cache with a running count — never held in memory — and handed on with its length (or, when
 * refused, as a body that fails at once, which transformers.js reports as it does any failed download); a body
 * with a length is checked as it streams.
 */
async function checkedBody(res: Response, url: string, file: string, listed: number | undefined): Promise<Response> {
  const encoded = (res.headers.get('content-encoding') ?? 'identity').toLowerCase() !== 'identity';
  const declared = encoded ? NaN : Number(res.headers.get('content-length') ?? NaN);
  const cap = downloadCap(file, listed, limits);
  const fail = (message: string) =>
    downloadError('bad-response', `${file} from ${url} ${message}; it was not cached and the model was not used`);
  if (Number.isFinite(declared) && declared > cap.bytes)
    throw fail(`announces ${declared} bytes, more than the ${cap.bytes} allowed${cap.source}`);
  const reader = res.body!.getReader();
  let received = 0;
  const what = (why: string) => `${file} from ${url}: ${why} after ${received} bytes; the download was abandoned`;
  /** Counts a chunk and checks what can be checked as it arrives. */
  const take = (value: Uint8Array) => {
    if (received === 0 && looksLikeHtml(value, res.headers.get('content-type') ?? ''))
      throw fail('is an HTML page, not a model file (a login or captive-portal page, or a wrong mirror URL?)');
    received += value.byteLength;
    if (received > cap.bytes) throw fail(`is larger than the ${cap.bytes} bytes allowed${cap.source}`);
  };
  /** Checks a complete body of `received` bytes; `text` reads it for the JSON check. */
  const complete = (text: () => string) => {
    if (Number.isFinite(declared) && received < declared) throw fail(`is truncated: received ${received} of ${declared} bytes`);
    if (listed !== undefined && Math.abs(received - listed) > SIZE_TOLERANCE * listed)
      throw fail(`has ${received} bytes but the registry lists ${listed}`);
    if (/\.json$/i.test(file)) {
      try {
        JSON.parse(text());
      } catch (e) {
        throw fail(`is not valid JSON (${messageOf(e)})`);
      }
    }
  };
  const wrap = (e: unknown) =>
    (refused = isDownloadError(e)
      ? e
      : downloadError('network', `${file} from ${url}: the download failed after ${received} bytes (${messageOf(e)})`));

  if (!Number.isFinite(declared)) {
    const c = current!;
    const spool = `${diskPath(env.cacheDir ?? '', c.id, c.revision, file)}.spool.tmp.${process.pid}.${randomBytes(4).toString('hex')}`;
    mkdirSync(dirname(spool), { recursive: true });
    const out = createWriteStream(spool);
    try {
      for (;;) {
        const { done, value } = await readWithin(reader, limits.idleTimeoutMs, what);
        if (done) break;
        take(value);
        if (!out.write(value)) await once(out, 'drain');
      }
      await new Promise<void>((ok, bad) => out.end((e?: Error | null) => (e ? bad(e) : ok())));
      complete(() => readFileSync(spool, 'utf8'));
    } catch (e) {
      void reader.cancel().catch(() => undefined);
      out.destroy();
      rmSync(spool, { force: true });
      const error = wrap(e);
      return new Response(new ReadableStream({ start: (ctl) => ctl.error(error) }), { status: res.status, headers: res.headers });
    }
    const stream = createReadStream(spool);
    // The open descriptor keeps the bytes readable; the name goes at once (nothing to sweep if the process dies).
    stream.once('open', () => rmSync(spool, { force: true }));
    stream.once('error', () => rmSync(spool, { force: true }));
    const headers = new Headers(res.headers);
    headers.delete('content-encoding');
    headers.set('content-length', String(received));
    return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, { status: res.status, statusText: res.statusText, headers });
  }

  const json = /\.json$/i.test(file) ? ([] as Uint8Array[]) : null;
  const body = new ReadableStream<Uint8Array>({
    async pull(ctl) {
      try {
        const { done, value } = await readWithin(reader, limits.idleTimeoutMs, what);
        if (done) {
          complete(() => Buffer.concat(json ?? []).toString('utf8'));
          ctl.close();
          return;
        }
        take(value);
        json?.push(value);
        ctl.enqueue(value);
      } catch (e) {
        void reader.cancel().catch(() => undefined);
        ctl.error(wrap(e));
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

/** A disk file as an HTTP response; `bytes=a-b` ranges (transformers.js' size probes) get a 206. */
function fileResponse(path: string, range: string | null): Response {
  const size = statSync(path).size;
  const m = range ? /^bytes=(\d+)-(\d*)$/.exec(range) : null;
  if (m && size > 0) {
    const start = Math.min(Number(m[1]), size - 1);
    const end = Math.min(m[2] ? Number(m[2]) : size - 1, size - 1);
    const body = Readable.toWeb(createReadStream(path, { start, end })) as ReadableStream<Uint8Array>;
    return new Response(body, {
      status: 206,
      headers: { 'content-length': String(end - start + 1), 'content-range': `bytes ${start}-${end}/${size}` },
    });
  }
  const body = Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>;
  return new Response(body, { status: 200, headers: { 'content-length': String(size) } });
}

export function nodeAdapter(opts: NodeRuntimeOptions = {}): RuntimeAdapter {
  env.allowLocalModels = true;
  env.useBrowserCache = false;
  env.useFSCache = true;
  env.cacheDir = opts.cacheDir ?? join(homedir(), '.cache', 'verity', 'models');
  env.fetch = nodeFetch;
  limits = { ...DEFAULT_LIMITS, ...opts.limits };
  const probeMs = opts.tokenizerProbeMs ?? 2000;
  const hub = opts.mirror ? (opts.mirror.endsWith('/') ? opts.mirror : `${opts.mirror}/`) : 'https://huggingface.co/';
  return {
    platform: 'node',
    probe: async () => ({
      platform: 'node',
      webgpu: null,
      webgpuReason: 'the CLI runs on the CPU (onnxruntime-node)',
      threads: availableParallelism(),
      crossOriginIsolated: false,
      storage: null,
    }),
    prepare(spec: ModelSpec) {
      current = null;
      refused = null;
      notFound = [];
      if (spec.source.kind === 'local') {
        const dir = resolve(spec.source.path ?? spec.id);
        checkLocalFolder(dir);
        env.localModelPath = `${dirname(dir)}/`;
        env.allowRemoteModels = false;
        return { id: basename(dir), options: { local_files_only: true } };
      }
      env.allowRemoteModels = true;
      env.remoteHost = spec.source.kind === 'mirror' ? spec.source.url : hub;
      current = { host: env.remoteHost, id: spec.id, revision: spec.revision, files: spec.files ?? {} };
      return { id: spec.id, options: {} };
    },
    explain(spec, error) {
      if (spec.source.kind !== 'local') {
        const dir = diskPath(env.cacheDir ?? '', spec.id, spec.revision, '');
        removeOwnTempFiles(dir);
        // The empty file is created by a write stream that opens after the failure: sweep once more after it.
        setTimeout(() => removeOwnTempFiles(dir), 250);
      }
      const absent = notFound.filter((f) => ESSENTIAL.test(f.file));
      if (spec.source.kind !== 'local' && absent.length)
        return {
          code: 'not-found',
          message: `${spec.id}@${spec.revision}: ${absent.map((f) => `${f.file} was not found at ${f.url} (404)`).join('; ')}: is the model on ${env.remoteHost}? Check its name and revision`,
          ...(absent.every((f) => f.file.endsWith('.onnx')) ? { missingWeights: true } : {}),
        };
      const download = isDownloadError(error) ? error : refused;
      if (download?.code === 'bad-response') return { code: 'bad-response', message: download.message };
      const msg = messageOf(download ?? error);
      if (download?.code === 'network' || /fetch failed|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|getaddrinfo/i.test(msg))
        return {
          code: 'network',
          message: `cannot download ${spec.id} (${msg}); without network, pass a local model folder (e.g. ${ROLE_TABLE[spec.role].cliFlag} DIR) or --mirror URL`,
        };
      return null;
    },
    verify: async (spec) => (await verifyDownloads(spec, env.cacheDir ?? '')) ?? checkTokenizer(spec, env.cacheDir ?? '', probeMs),
  };
}

/**
 * Downloaded files the registry pins a SHA-256 for are hashed after the load: a mismatch (a mirror serving another
 * export, a damaged file) is deleted from the disk cache, so the next run downloads it again, and the model is
 * refused. A local folder is the user's own choice and is not checked.
 */
export async function verifyDownloads(spec: ModelSpec, cacheDir: string): Promise<HostError | null> {
  if (spec.source.kind === 'local' || !spec.sha256) return null;
  for (const [file, want] of Object.entries(spec.sha256)) {
    const path = diskPath(cacheDir, spec.id, spec.revision, file);
    if (!existsSync(path)) continue; // another dtype's weights, not fetched by this load
    const got = await fileSha256(path);
    if (got !== want.toLowerCase()) {
      rmSync(path, { force: true });
      return hostError(
        'bad-response',
        `${file} of ${spec.id}@${spec.revision} does not match the SHA-256 the registry lists (${got.slice(0, 12)}… instead of ${want.slice(0, 12)}…): it is not the file the registry pins, or it was damaged; it was deleted from ${cacheDir} and the model was not used`,
      );
    }
  }
  return null;
}

/**
 * transformers.js' disk cache writes a download to `<file>.tmp.<pid>.<random>` and renames it when the body ends;
 * when the body fails at once (a refused download), it unlinks the temporary file before its write stream has
 * created it, and an empty one stays behind. After a failed load, this process's own leftovers are removed.
 */
function removeOwnTempFiles(dir: string, depth = 0): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory() && depth < 3) removeOwnTempFiles(path, depth + 1);
    else if (e.isFile() && e.name.includes(`.tmp.${process.pid}.`)) rmSync(path, { force: true });
  }
}

/**
 * A local model folder must exist, and every file in it (symlinks followed) must be a regular file: a FIFO would
 * block the load forever and a device such as /dev/zero would fill memory.
 */
/** The files a model cannot load without: its config, a tokenizer file, its weights. */
const ESSENTIAL = /^(config|tokenizer|tokenizer_config)\.json$|\.onnx$/;

export function checkLocalFolder(dir: string): void {
  const refuse = (why: string) => {
    throw new VerityError(`${dir}: ${why}; the model was not loaded`, 'input', 'invalid-spec');
  };
  let top;
  try {
    top = statSync(dir);
  } catch {
    throw new VerityError(`${dir}: no such model folder`, 'input', 'not-found');
  }
  if (!top.isDirectory()) refuse('not a folder');
  const walk = (d: string, depth: number) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      let st;
      try {
        st = statSync(path);
      } catch {
        continue; // a dangling symlink: transformers.js reports the file missing if it needs it
      }
      if (st.isDirectory()) {
        if (depth < 3) walk(path, depth + 1);
      } else if (!st.isFile())
        refuse(
          `${relative(dir, path)} is not a regular file (${st.isFIFO() ? 'a FIFO' : st.isCharacterDevice() || st.isBlockDevice() ? 'a device' : st.isSocket() ? 'a socket' : 'a special file'})`,
        );
    }
  };
  walk(dir, 0);
  // transformers.js would go on without these and fail later with an unrelated message.
  const missing = ['config.json', 'tokenizer.json'].filter((f) => !existsSync(join(dir, f)));
  if (missing.length && !(missing[0] !== 'config.json' && existsSync(join(dir, 'tokenizer_config.json'))))
    throw new VerityError(
      `${dir}: no ${missing.join(' and no ')} in the folder; a model folder holds config.json, tokenizer.json (or tokenizer_config.json) and onnx/model*.onnx`,
      'input',
      'not-found',
    );
}

/**
 * A bound on the tokenizer's pre-processing time: each regex pattern of tokenizer.json is run on probe inputs in a
 * separate V8 context with a time limit, before any data is tokenized. A pattern that needs longer than `ms` (a
 * catastrophic regex) would hang scoring, so the model is refused. Returns the refusal, or null.
 */
export function checkTokenizer(spec: ModelSpec, cacheDir: string, ms: number): HostError | null {
  const path =
    spec.source.kind === 'local'
      ? join(resolve(spec.source.path ?? spec.id), 'tokenizer.json')
      : diskPath(cacheDir, spec.id, spec.revision, 'tokenizer.json');
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null; // no tokenizer.json of our own to read (transformers.js already parsed what it used)
  }
  for (const pattern of tokenizerPatterns(json)) {
    try {
      runInNewContext(`(${probePattern.toString()})(p, probes)`, { p: pattern, probes: TOKENIZER_PROBES }, { timeout: ms });
    } catch (e) {
      if ((e as { code?: string }).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') continue;
      return slowPattern(spec, pattern, ms);
    }
  }
  return null;
}

function fileSha256(path: string): Promise<string> {
  return new Promise((ok, fail) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', fail)
      .on('end', () => ok(hash.digest('hex')));
  });
}

export function createNodeHost(opts: NodeRuntimeOptions & { batchSize?: number } = {}): ModelHost {
  return new ModelHost(nodeAdapter(opts), opts.batchSize === undefined ? {} : { batchSize: opts.batchSize });
}
