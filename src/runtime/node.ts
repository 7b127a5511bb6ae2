/**
 * The model host in Node (CLI): transformers.js on onnxruntime-node, device 'cpu', files from the hub, a mirror
 * or a local folder, downloads cached on disk. All runtime settings for Node are made here, once.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, rmSync, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { availableParallelism, homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { env } from '@huggingface/transformers';
import { ModelHost, type RuntimeAdapter } from './host.ts';
import { hostError, type HostError, type ModelSpec, type Role } from './messages.ts';
import { defaultFor, lookup, REGISTRY, ROLE_TABLE } from './registry.ts';
import { messageOf } from '../core/errors.ts';
import { fileUrl, pinnedUrl, specFromEntry } from './specs.ts';

export interface NodeRuntimeOptions {
  /** Where downloaded model files are kept (default ~/.cache/verity/models). */
  cacheDir?: string;
  /** A hub mirror with the hub's URL layout (default https://huggingface.co/). */
  mirror?: string;
}

/** Where transformers.js' FileCache keeps a file: <id>/<revision>/<file> for a pinned revision, <id>/<file> for main. */
function diskPath(cacheDir: string, id: string, revision: string, file: string): string {
  return revision === 'main' ? join(cacheDir, id, file) : join(cacheDir, id, revision, file);
}

/** The hub model being loaded (set by prepare): where it comes from and its pinned revision. */
let current: { host: string; id: string; revision: string } | null = null;

/**
 * fetch for transformers.js in Node. transformers.js 4.x asks whether tokenizer_config.json exists at `main` even
 * when a revision is pinned (get_tokenizer_files), so that question is asked of the pinned revision instead, and
 * a file of the pinned revision already in the disk cache is answered from there: a model downloaded once then
 * loads without a network, and nothing is read from `main`.
 */
async function nodeFetch(input: string | URL, init?: RequestInit): Promise<Response> {
  const c = current;
  const raw = typeof input === 'string' ? input : input.href;
  const url = c ? pinnedUrl(c.host, c.id, c.revision, raw) : raw;
  if (c && c.revision !== 'main') {
    const pinned = fileUrl(c.host, c.id, c.revision, '');
    if (url.startsWith(pinned)) {
      const path = diskPath(env.cacheDir ?? '', c.id, c.revision, decodeURIComponent(url.slice(pinned.length)));
      if (existsSync(path)) return fileResponse(path, new Headers(init?.headers).get('range'));
    }
  }
  return fetch(url, init);
}

/** A disk file as an HTTP response; `bytes=a-b` ranges (transformers.js' size probes) get a 206. */
function fileResponse(path: string, range: string | null): Response {
  const size = statSync(path).size;
  const m = range ? /^bytes=(\d+)-(\d*)$/.exec(range) : null;
  if (m && size > 0) {
    const start = Math.min(Number(m[1]), size - 1);
    const end = Math.min(m[2] ? Number(m[2]) : size - 1, size - 1);
    const body = Readable.toWeb(createReadStream(path, { start, end })) as ReadableStream<Uint8Array>;
    return new Response(body, { status: 206, headers: { 'content-length': String(end - start + 1), 'content-range': `bytes ${start}-${end}/${size}` } });
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
  const hub = opts.mirror ? (opts.mirror.endsWith('/') ? opts.mirror : `${opts.mirror}/`) : 'https://huggingface.co/';
  return {
    platform: 'node',
    probe: async () => ({ platform: 'node', webgpu: null, webgpuReason: 'the CLI runs on the CPU (onnxruntime-node)', threads: availableParallelism(), crossOriginIsolated: false, storage: null }),
    prepare(spec: ModelSpec) {
      current = null;
      if (spec.source.kind === 'local') {
        const dir = resolve(spec.source.path ?? spec.id);
        env.localModelPath = `${dirname(dir)}/`;
        env.allowRemoteModels = false;
        return { id: basename(dir), options: { local_files_only: true } };
      }
      env.allowRemoteModels = true;
      env.remoteHost = spec.source.kind === 'mirror' ? spec.source.url : hub;
      current = { host: env.remoteHost, id: spec.id, revision: spec.revision };
      return { id: spec.id, options: {} };
    },
    explain(spec, error) {
      const msg = messageOf(error);
      if (/fetch failed|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|getaddrinfo/i.test(msg))
        return { code: 'network', message: `cannot download ${spec.id} (${msg}); without network, pass a local model folder (e.g. ${ROLE_TABLE[spec.role].cliFlag} DIR) or --mirror URL` };
      return null;
    },
    verify: (spec) => verifyDownloads(spec, env.cacheDir ?? ''),
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

/**
 * A CLI model argument → spec: an existing folder (local model), a registry key (e.g. nli-small), or a hub
 * id with an optional `@revision` (an id without a pinned revision uses `main`). With `modelDir`, a missing
 * argument picks the role's registry default from `modelDir/<hub id>` when that folder exists, and a relative
 * argument is also looked up inside `modelDir`.
 */
export function parseModelArg(role: Role, arg: string | undefined, modelDir?: string): ModelSpec {
  if (arg === undefined) {
    const entry = defaultFor(role);
    // --model-dir: offline copies of the registry models, one folder per hub id (DIR/Xenova/nli-deberta-v3-xsmall).
    const copy = modelDir ? join(resolve(modelDir), entry.id) : undefined;
    if (copy && existsSync(copy)) return { ...specFromEntry(entry), id: copy, revision: 'local', source: { kind: 'local', path: copy }, dtypes: { cpu: entry.dtypes.cpu } };
    return specFromEntry(entry);
  }
  if (modelDir && !existsSync(arg) && existsSync(join(resolve(modelDir), arg))) return parseModelArg(role, join(resolve(modelDir), arg));
  if (existsSync(arg) && statSync(arg).isDirectory()) {
    const dir = resolve(arg);
    return { role, id: dir, revision: 'local', source: { kind: 'local', path: dir }, dtypes: { cpu: ['fp32'] } };
  }
  const [id, revision] = arg.split('@') as [string, string | undefined];
  const entry = lookup(id, { role });
  if (entry && revision === undefined) return specFromEntry(entry);
  if (!/^[\w.-]+\/[\w.-]+$/.test(id)) throw new Error(`"${arg}" is neither a folder, a registry key (${REGISTRY.filter((e) => e.role === role).map((e) => e.key).join(', ')}) nor a hub id like owner/name@revision`);
  return { ...(entry ? specFromEntry(entry) : { role, source: { kind: 'hub' as const } }), id, revision: revision ?? 'main' };
}
