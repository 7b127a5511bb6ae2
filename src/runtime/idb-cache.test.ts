/**
 * The browser's model cache and fetch wrapper, in Node with in-memory stores (the e2e tests run the same code
 * on IndexedDB in Chromium): what is stored, what is refused and why, quota and damage handling, and how
 * failures are explained.
 */
import { describe, expect, it } from 'vitest';
import { explainFailure, LOCAL_HOST, localFileUrl, modelFetch } from './browser.ts';
import { looksLikeHtml, memoryStore, ModelCache, type CachedFileRecord } from './idb-cache.ts';
import { fileUrl } from './specs.ts';
import type { ModelSpec } from './messages.ts';

const HOST = 'https://mirror.test/';
const REV = 'abc123';
const url = (file: string, id = 'owner/model', rev = REV) => fileUrl(HOST, id, rev, file);
const bytes = (n: number, fill = 7) => new Uint8Array(n).fill(fill);
const json = (o: unknown) => new TextEncoder().encode(JSON.stringify(o));
const SHA_1000_SEVENS = 'df1329c8b6c7cf3740bbe2f8bab34d253a8d9534a79dceea18177081fdf9f0e9';
const res = (body: BodyInit, headers: Record<string, string> = {}) => new Response(body, { headers });

function setup(opts: { failWrites?: () => Error } = {}) {
  const meta = memoryStore<CachedFileRecord>();
  const data = memoryStore<ArrayBuffer>();
  if (opts.failWrites) {
    const make = opts.failWrites;
    data.set = async () => {
      throw make();
    };
  }
  let t = 1_000;
  const cache = new ModelCache({ meta, bytes: data, now: () => (t += 5_000) });
  cache.use(HOST, 'owner/model', REV, { 'onnx/model.onnx': 1000, 'config.json': 13 });
  return { cache, meta, data };
}

const spec = (extra: Partial<ModelSpec> = {}): ModelSpec => ({
  role: 'nli',
  id: 'owner/model',
  revision: REV,
  source: { kind: 'mirror', url: HOST },
  ...extra,
});

describe('ModelCache (the transformers.js custom cache)', () => {
  it('stores a download and serves it back with its size and type; lists it per model', async () => {
    const { cache } = setup();
    await cache.put(url('onnx/model.onnx'), res(bytes(1000), { 'content-type': 'application/octet-stream' }));
    await cache.put(url('config.json'), res(json({ a: 1, b: 2 }), { 'content-type': 'application/json' }));
    const hit = await cache.match(url('onnx/model.onnx'));
    expect(hit?.headers.get('content-length')).toBe('1000');
    expect(new Uint8Array(await hit!.arrayBuffer())).toEqual(bytes(1000));
    const [m, ...rest] = await cache.list();
    expect(rest).toEqual([]);
    expect(m).toMatchObject({ id: 'owner/model', revisions: [REV], bytes: 1013 });
    expect(m!.files.map((f) => [f.file, f.size, f.inMemory])).toEqual([
      ['config.json', 13, false],
      ['onnx/model.onnx', 1000, false],
    ]);
    expect(m!.lastUsed).toBeGreaterThan(m!.files[0]!.date);
    expect(cache.takeWarnings()).toEqual([]);
  });

  it('answers transformers.js questions about `main` from the pinned revision, and ignores non-model keys', async () => {
    const { cache } = setup();
    await cache.put(url('config.json'), res(json({ a: 1, b: 2 })));
    expect(await cache.match(url('config.json', 'owner/model', 'main'))).toBeInstanceOf(Response);
    expect(await cache.match(url('config.json', 'other/model', 'main'))).toBeUndefined();
    expect(await cache.match('/models/owner/model/config.json')).toBeUndefined();
    await cache.put('http://localhost/assets/ort.wasm', res(bytes(10)));
    expect(await cache.list()).toHaveLength(1);
  });

  it('refuses HTML (by content-type or by its first bytes), says so, and does not store it', async () => {
    const { cache } = setup();
    await cache.put(url('onnx/model.onnx'), res('<!DOCTYPE html><html>Sign in</html>', { 'content-type': 'text/html; charset=utf-8' }));
    await cache.put(url('config.json'), res('\n  <html><body>portal</body></html>'));
    expect(await cache.list()).toEqual([]);
    const r = cache.rejectionsFor('owner/model');
    expect(r.map((x) => x.reason)).toEqual(['html', 'html']);
    expect(r[0]!.message).toContain(`received HTML instead of onnx/model.onnx from ${url('onnx/model.onnx')}`);
    expect(cache.takeWarnings()).toHaveLength(2);
    expect(looksLikeHtml(new Uint8Array([0x08, 0x07, 0x12]))).toBe(false);
    expect(looksLikeHtml(new TextEncoder().encode('\uFEFF<!doctype html>'))).toBe(true);
  });

  it('refuses truncated files: shorter than the server said, or more than 2% off the registry size', async () => {
    const { cache } = setup();
    await cache.put(url('onnx/model.onnx'), res(bytes(400), { 'x-verity-content-length': '1000' }));
    expect(cache.rejectionFor(url('onnx/model.onnx'))?.message).toContain('is truncated: received 400 of 1000 bytes');
    cache.use(HOST, 'owner/model', REV, { 'onnx/model.onnx': 1000 });
    await cache.put(url('onnx/model.onnx'), res(bytes(970)));
    expect(cache.rejectionFor(url('onnx/model.onnx'))?.message).toContain('has 970 bytes but the registry lists 1000 (more than 2% off)');
    expect(await cache.list()).toEqual([]);
    // Within 2% (registry sizes are rounded): stored.
    cache.use(HOST, 'owner/model', REV, { 'onnx/model.onnx': 1000 });
    await cache.put(url('onnx/model.onnx'), res(bytes(985)));
    expect((await cache.list())[0]?.bytes).toBe(985);
  });

  it('refuses a .json file that does not parse', async () => {
    const { cache } = setup({});
    await cache.put(url('tokenizer.json'), res('{"model": {"vocab": [1, 2'));
    expect(cache.rejectionFor(url('tokenizer.json'))).toMatchObject({ reason: 'invalid-json', file: 'tokenizer.json' });
    expect(await cache.list()).toEqual([]);
  });

  it('a full disk keeps the file in memory for the session and warns; put never throws', async () => {
    const quota = () => Object.assign(new Error('The quota has been exceeded.'), { name: 'QuotaExceededError' });
    const { cache } = setup({ failWrites: quota });
    await expect(cache.put(url('onnx/model.onnx'), res(bytes(1000)))).resolves.toBeUndefined();
    expect(await cache.match(url('onnx/model.onnx'))).toBeInstanceOf(Response);
    expect((await cache.list())[0]!.files[0]).toMatchObject({ file: 'onnx/model.onnx', inMemory: true });
    expect(cache.takeWarnings().join(' ')).toMatch(/storage is full: onnx\/model.onnx of owner\/model .*kept in memory/);
    // A body that cannot be read is a warning too, not an exception.
    const broken = new Response(new ReadableStream({ pull: (c) => c.error(new Error('boom')) }));
    await expect(cache.put(url('config.json'), broken)).resolves.toBeUndefined();
    expect(cache.takeWarnings().join(' ')).toContain('boom');
  });

  it('a damaged entry (bytes shorter than recorded) is deleted on read and reported as a miss', async () => {
    const { cache, data } = setup();
    await cache.put(url('onnx/model.onnx'), res(bytes(1000)));
    data.map.set(url('onnx/model.onnx'), new ArrayBuffer(10));
    expect(await cache.match(url('onnx/model.onnx'))).toBeUndefined();
    expect(cache.takeWarnings().join(' ')).toContain('damaged (10 of 1000 bytes)');
    expect(await cache.list()).toEqual([]);
    expect(data.map.size).toBe(0);
  });

  it('a same-size corruption is caught by the SHA-256 recorded at store time', async () => {
    const { cache, data, meta } = setup();
    await cache.put(url('onnx/model.onnx'), res(bytes(1000)));
    // sha256 of 1000 bytes of 0x07, computed with `python3 -c "import hashlib; print(hashlib.sha256(bytes([7]*1000)).hexdigest())"`.
    expect(meta.map.get(url('onnx/model.onnx'))!.sha256).toBe(SHA_1000_SEVENS);
    expect(await cache.match(url('onnx/model.onnx'))).toBeInstanceOf(Response);
    const flipped = bytes(1000);
    flipped[500] = 8;
    data.map.set(url('onnx/model.onnx'), flipped.buffer);
    expect(await cache.match(url('onnx/model.onnx'))).toBeUndefined();
    expect(cache.takeWarnings().join(' ')).toContain('damaged (its SHA-256 no longer matches the one recorded when it was stored)');
    expect(await cache.list()).toEqual([]);
  });

  it("refuses a download whose SHA-256 differs from the registry's, and accepts the right one", async () => {
    const { cache } = setup();
    cache.use(HOST, 'owner/model', REV, { 'onnx/model.onnx': 1000 }, { 'onnx/model.onnx': SHA_1000_SEVENS.toUpperCase() });
    await cache.put(url('onnx/model.onnx'), res(bytes(1000, 9)));
    expect(cache.rejectionFor(url('onnx/model.onnx'))).toMatchObject({ reason: 'hash-mismatch', file: 'onnx/model.onnx' });
    expect(cache.takeWarnings().join(' ')).toMatch(
      /does not match the SHA-256 the registry lists \([0-9a-f]{12}… instead of df1329c8b6c7…\)/,
    );
    expect(await cache.list()).toEqual([]);
    await cache.put(url('onnx/model.onnx'), res(bytes(1000)));
    expect(await cache.match(url('onnx/model.onnx'))).toBeInstanceOf(Response);
    expect(cache.takeWarnings()).toEqual([]);
  });

  it('deletes one model or everything; sweeps bytes left without metadata', async () => {
    const { cache, data } = setup();
    await cache.put(url('config.json'), res(json({ a: 1, b: 2 })));
    cache.use(HOST, 'other', 'main');
    await cache.put(fileUrl(HOST, 'other', 'main', 'config.json'), res(json({ x: 1 })));
    expect((await cache.list()).map((m) => m.id).sort()).toEqual(['other', 'owner/model']);
    expect(await cache.deleteModel('owner/model')).toBe(1);
    expect((await cache.list()).map((m) => m.id)).toEqual(['other']);
    data.map.set('orphan', new ArrayBuffer(1));
    expect(await cache.sweep()).toBe(1);
    await cache.clear();
    expect(await cache.list()).toEqual([]);
    expect(data.map.size).toBe(0);
  });

  it('stores imported files under the keys a local load looks up', async () => {
    const { cache } = setup();
    cache.register(LOCAL_HOST, 'my-model');
    expect(await cache.storeFile(localFileUrl('my-model', 'local', 'config.json'), json({ model_type: 'bert' }))).toBeNull();
    expect((await cache.storeFile(localFileUrl('my-model', 'local', 'tokenizer.json'), new TextEncoder().encode('not json')))?.reason).toBe(
      'invalid-json',
    );
    cache.use(LOCAL_HOST, 'my-model', 'local');
    expect(await cache.match(localFileUrl('my-model', 'main', 'config.json'))).toBeInstanceOf(Response);
    expect((await cache.list()).find((m) => m.id === 'my-model')?.files.map((f) => f.file)).toEqual(['config.json']);
  });
});

describe('modelFetch (transformers.js env.fetch in the browser)', () => {
  const served =
    (body: Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}) =>
    async () =>
      new Response(body, { headers: { 'content-length': String(body.length), ...headers } });

  it('asks for the pinned revision where transformers.js asks for main, and passes size probes through', async () => {
    const { cache } = setup();
    const seen: string[] = [];
    const f = modelFetch(
      cache,
      (async (u: string) => (seen.push(u), new Response('{}', { headers: { 'content-length': '2' } }))) as typeof fetch,
    );
    await f(url('tokenizer_config.json', 'owner/model', 'main'), { headers: { Range: 'bytes=0-0' } });
    expect(seen).toEqual([url('tokenizer_config.json')]);
  });

  it('answers local-import misses with 404 without any network, and records them', async () => {
    const { cache } = setup();
    cache.use(LOCAL_HOST, 'mine', 'local');
    const f = modelFetch(cache, (() => {
      throw new Error('no network in this test');
    }) as typeof fetch);
    const r = await f(localFileUrl('mine', 'local', 'onnx/model.onnx'));
    expect(r.status).toBe(404);
    const e = explainFailure(
      { ...spec(), id: 'mine', revision: 'local', source: { kind: 'local' } },
      new Error('Could not locate file: "x"'),
      cache,
    );
    expect(e).toMatchObject({ code: 'not-found', message: expect.stringContaining('onnx/model.onnx was not imported') });
  });

  it('a model file the mirror does not have (404) is named, with where it was looked for', async () => {
    const { cache } = setup();
    const f = modelFetch(cache, (async () => new Response('Not Found', { status: 404 })) as typeof fetch);
    expect((await f(url('tokenizer_config.json'))).status).toBe(404);
    const e = explainFailure(spec(), new TypeError("Cannot read properties of undefined (reading 'tokenizer_class')"), cache);
    expect(e).toMatchObject({
      code: 'not-found',
      message: `owner/model@${REV}: tokenizer_config.json was not found at ${url('tokenizer_config.json')} (404): is the model on ${HOST}? Check its name and revision, or import the model folder`,
    });
  });

  it("only one dtype's weights missing (404) is marked so the load tries the next dtype; a missing config is not", async () => {
    const { cache } = setup();
    const f = modelFetch(cache, (async () => new Response('Not Found', { status: 404 })) as typeof fetch);
    await f(url('onnx/model_fp16.onnx'));
    expect(explainFailure(spec(), new Error('Could not locate file'), cache)).toMatchObject({ code: 'not-found', missingWeights: true });
    await f(url('config.json'));
    expect(explainFailure(spec(), new Error('Could not locate file'), cache)).not.toHaveProperty('missingWeights');
  });

  it('records a failed download and explains it as a network failure naming the host and the file', async () => {
    const { cache } = setup();
    const f = modelFetch(cache, (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch);
    await expect(f(url('config.json'))).rejects.toThrow('Failed to fetch');
    const e = explainFailure(spec(), new TypeError('Failed to fetch'), cache);
    expect(e).toMatchObject({
      code: 'network',
      message: expect.stringMatching(
        /cannot download owner\/model from the mirror https:\/\/mirror.test\/: could not download config.json from https:\/\/mirror.test\/owner\/model\/resolve\/.*config.json \(Failed to fetch\)\. Check that this computer is online and can reach https:\/\/mirror.test\//,
      ),
    });
    expect(e!.message).not.toMatch(/private window|storage/);
  });

  it('counts the bytes of a model file: a body that ends early is a truncated download and is not cached', async () => {
    const { cache } = setup();
    let pulls = 0;
    const short = new ReadableStream<Uint8Array>({
      pull(c) {
        if (pulls++ === 0) c.enqueue(bytes(300));
        else c.error(new TypeError('network error'));
      },
    });
    const f = modelFetch(cache, (async () => new Response(short, { headers: { 'content-length': '1000' } })) as typeof fetch);
    const r = await f(url('onnx/model.onnx'));
    await expect(r.arrayBuffer()).rejects.toThrow();
    await cache.put(url('onnx/model.onnx'), res(bytes(1000)));
    expect(await cache.list()).toEqual([]);
    expect(explainFailure(spec(), new TypeError('network error'), cache)).toMatchObject({
      code: 'bad-response',
      message: expect.stringContaining(
        'onnx/model.onnx from https://mirror.test/owner/model/resolve/abc123/onnx/model.onnx is truncated: received 300 of 1000 bytes',
      ),
    });
  });

  // In the browser: no download may be endless or hang, and no redirect may lead elsewhere.
  it('stops an endless body at the cap, without a Content-Length too, and refuses it with the reason', async () => {
    const { cache } = setup();
    const endless = () => new ReadableStream<Uint8Array>({ pull: (c) => c.enqueue(bytes(400)) });
    const limits = { connectTimeoutMs: 1000, idleTimeoutMs: 1000, maxFileBytes: 5000 };
    const f = modelFetch(cache, (async () => new Response(endless())) as typeof fetch, limits);
    // Without a Content-Length the body is read before the response is handed on (see modelFetch).
    await expect(f(url('onnx/other.onnx'))).rejects.toThrow(/larger than the 5000 bytes allowed/);
    // A listed file is capped at its registry size (+2%).
    await expect(f(url('onnx/model.onnx'))).rejects.toThrow(/larger than the 1020 bytes allowed \(the registry size\)/);
    expect(explainFailure(spec(), new Error('x'), cache)).toMatchObject({
      code: 'bad-response',
      message: expect.stringContaining('is larger than the'),
    });
  });

  // transformers.js copies its whole buffer for each chunk of a body whose
  // length it does not know, so an endless body crawled towards the cap for many minutes and gigabytes.
  it('hands a body sent without a length on whole and with its length; an endless JSON file stops at the JSON cap', async () => {
    const { cache } = setup();
    const limits = { connectTimeoutMs: 1000, idleTimeoutMs: 1000, maxFileBytes: 1e9, maxJsonBytes: 5000 };
    let sent = 0;
    const pieces = () =>
      new ReadableStream<Uint8Array>({
        pull(c) {
          if (sent >= 3000) return c.close();
          c.enqueue(bytes(100));
          sent += 100;
        },
      });
    const r = await modelFetch(cache, (async () => new Response(pieces())) as typeof fetch, limits)(url('onnx/other.onnx'));
    expect(r.headers.get('content-length')).toBe('3000');
    expect((await r.arrayBuffer()).byteLength).toBe(3000);
    const endless = () => new ReadableStream<Uint8Array>({ pull: (c) => c.enqueue(bytes(400)) });
    await expect(modelFetch(cache, (async () => new Response(endless())) as typeof fetch, limits)(url('extra.json'))).rejects.toThrow(
      /extra\.json from .* is larger than the 5000 bytes allowed \(5200 bytes received\)/,
    );
  });

  it('passes bytes beyond the announced length (a compressed body) on in pieces that double', async () => {
    const { cache } = setup();
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent >= 100_000) return c.close();
        c.enqueue(bytes(100));
        sent += 100;
      },
    });
    const limits = { connectTimeoutMs: 1000, idleTimeoutMs: 1000, maxFileBytes: 1e9 };
    const r = await modelFetch(
      cache,
      (async () => new Response(body, { headers: { 'content-length': '1000' } })) as typeof fetch,
      limits,
    )(url('onnx/other.onnx'));
    const sizes: number[] = [];
    const reader = r.body!.getReader();
    for (let x = await reader.read(); !x.done; x = await reader.read()) sizes.push(x.value.byteLength);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(100_000);
    // 10 pieces of 100 up to the announced 1,000 bytes, then a handful of growing ones (not 990 more of 100).
    expect(sizes.length).toBeLessThan(25);
  });

  it('abandons a host that sends no headers, or no bytes, within the timeouts', async () => {
    const { cache } = setup();
    const limits = { connectTimeoutMs: 200, idleTimeoutMs: 200, maxFileBytes: 1e6 };
    const silent = modelFetch(
      cache,
      ((_u: string, init?: RequestInit) =>
        new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)))) as typeof fetch,
      limits,
    );
    await expect(silent(url('config.json'))).rejects.toThrow(/no answer within 0.2 s/);
    expect(explainFailure(spec(), new Error('x'), cache)).toMatchObject({
      code: 'network',
      message: expect.stringContaining(
        'could not download config.json from https://mirror.test/owner/model/resolve/abc123/config.json (no answer within 0.2 s)',
      ),
    });
    const stall = modelFetch(
      cache,
      (async () =>
        new Response(new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(bytes(10)) }), {
          headers: { 'content-length': '1000' },
        })) as typeof fetch,
      limits,
    );
    await expect((await stall(url('onnx/model.onnx'))).arrayBuffer()).rejects.toThrow(/no data for 0.2 s/);
    expect(cache.rejectionFor(url('onnx/model.onnx'))?.message).toContain('is truncated: received 10 of 1000 bytes (no data for 0.2 s)');
  });

  it('refuses a redirect to another host, and accepts the hub sending files to its own CDN', async () => {
    const { cache } = setup();
    const redirected = (to: string) =>
      (async () =>
        Object.defineProperties(new Response(bytes(1000), { headers: { 'content-length': '1000' } }), {
          redirected: { value: true },
          url: { value: to },
        })) as unknown as typeof fetch;
    await expect(modelFetch(cache, redirected('https://elsewhere.example/f'))(url('onnx/model.onnx'))).rejects.toThrow(
      /redirected to https:\/\/elsewhere.example, which is not https:\/\/mirror.test\//,
    );
    expect(explainFailure(spec(), new Error('x'), cache)?.code).toBe('bad-response');
    const hub = new ModelCache({ meta: memoryStore(), bytes: memoryStore() });
    hub.use('https://huggingface.co/', 'owner/model', REV);
    const ok = await modelFetch(
      hub,
      redirected('https://cas-bridge.xethub.hf.co/x'),
    )(fileUrl('https://huggingface.co/', 'owner/model', REV, 'onnx/model.onnx'));
    expect((await ok.arrayBuffer()).byteLength).toBe(1000);
  });

  it('passes complete files through unchanged, with the server length for the cache', async () => {
    const { cache } = setup();
    const f = modelFetch(cache, served(bytes(1000)) as unknown as typeof fetch);
    const r = await f(url('onnx/model.onnx'));
    expect(r.headers.get('x-verity-content-length')).toBe('1000');
    expect((await r.arrayBuffer()).byteLength).toBe(1000);
    expect(cache.rejectionsFor('owner/model')).toEqual([]);
  });

  it('names the file when several were refused, and leaves unknown errors to the host', () => {
    const { cache } = setup();
    cache.reject(url('config.json'), 'html', 'received HTML instead of config.json from …');
    cache.reject(url('onnx/model.onnx'), 'truncated', 'onnx/model.onnx from … is truncated');
    expect(explainFailure(spec(), new Error('failed to load onnx/model.onnx'), cache)?.message).toContain('onnx/model.onnx from');
    const { cache: clean } = setup();
    expect(explainFailure(spec(), new Error('Unsupported model type: foo'), clean)).toBeNull();
    expect(explainFailure(spec(), Object.assign(new Error('quota exceeded'), { name: 'QuotaExceededError' }), clean)?.code).toBe('quota');
    expect(
      explainFailure(spec({ source: { kind: 'hub' } }), new Error('Unauthorized access to file: "https://huggingface.co/x"'), clean)
        ?.message,
    ).toMatch(/gated or private on https:\/\/huggingface.co\//);
  });
});
