/**
 * Downloads in the CLI under hostile conditions, against a local HTTP "mirror" serving the
 * tiny NLI fixture: HTML pages, short bodies, endless bodies, a host that never answers or stalls, redirects
 * elsewhere, ids and revisions that climb out of the cache, special files in a model folder, and a tokenizer.json
 * with a catastrophic pattern. Nothing bad may enter the disk cache, nothing may hang, and each refusal says why.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_OUT_DIR } from '../../scripts/fixtures/generate.ts';
import { env } from '@huggingface/transformers';
import { createNodeHost, nodeAdapter } from './node.ts';
import { parseModelArg } from './model-args.ts';
import { redirectAllowed } from './specs.ts';
import type { ModelSpec } from './messages.ts';

const MODEL = join(DEFAULT_OUT_DIR, 'tiny-nli');
const REV = 'b'.repeat(40);
const ONNX = 'onnx/model.onnx';
const size = (f: string) => readFileSync(join(MODEL, f)).length;

let server: Server;
let base = '';
const requests: string[] = [];
const open = new Set<ServerResponse>();
const tmp = mkdtempSync(join(tmpdir(), 'verity-download-'));

/**
 * /<mode>/tiny-nli/resolve/<rev>/<file>: mode ok | html | short | endless | silent | stall | away | home
 * act on onnx/model.onnx; noweights has no onnx/ file; jsonendless on config.json; chunked sends every file in 1 KB pieces with no length.
 */
beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const m = /^\/(\w+)\/tiny-nli[\w-]*\/resolve\/[^/]+\/(.+)$/.exec(req.url ?? '');
    const path = m ? join(MODEL, decodeURIComponent(m[2]!)) : '';
    if (!m || !existsSync(path) || (m[1] === 'noweights' && m[2]!.endsWith('.onnx'))) return void res.writeHead(404).end('not found');
    const [mode, file] = [m[1]!, m[2]!];
    const bytes = readFileSync(path);
    const target = mode.startsWith('json') ? file === 'config.json' : file === ONNX;
    if (mode === 'chunked' && !req.headers.range) {
      res.writeHead(200);
      for (let i = 0; i < bytes.length; i += 1024) res.write(bytes.subarray(i, i + 1024));
      return void res.end();
    }
    if (req.headers.range || !target || mode === 'ok') return void res.writeHead(200, { 'content-length': bytes.length }).end(bytes);
    open.add(res);
    res.on('close', () => open.delete(res));
    if (mode === 'html')
      return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html><body>Sign in to the Wi-Fi</body></html>');
    if (mode === 'short')
      return void res
        .writeHead(200, { 'content-length': Math.floor(bytes.length * 0.4) })
        .end(bytes.subarray(0, Math.floor(bytes.length * 0.4)));
    if (mode === 'endless' || mode === 'jsonendless') {
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 7);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      return pump();
    }
    if (mode === 'silent') return; // never answers
    if (mode === 'stall') return void res.writeHead(200, { 'content-length': bytes.length }).write(bytes.subarray(0, 1000));
    if (mode === 'away') return void res.writeHead(302, { location: `http://127.0.0.2:1/elsewhere/${file}` }).end();
    if (mode === 'home') return void res.writeHead(302, { location: `/ok/tiny-nli/resolve/${REV}/${file}` }).end();
    res.writeHead(400).end();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  for (const r of open) r.destroy();
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
  rmSync(tmp, { recursive: true, force: true });
});

let n = 0;
const freshCache = () => mkdtempSync(join(tmp, 'cache-'));
/** A spec for the fixture behind one server mode (a fresh id each time: transformers.js memoizes per id). */
const spec = (mode: string, extra: Partial<ModelSpec> = {}): ModelSpec => ({
  role: 'nli',
  id: `tiny-nli-${n++}`,
  revision: REV,
  source: { kind: 'mirror', url: `${base}${mode}/` },
  dtypes: { cpu: ['fp32'] },
  skipCanary: true,
  ...extra,
});
const cachedFiles = (dir: string): string[] => {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out.push(join(d, e.name).slice(dir.length + 1));
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
};
const fast = { connectTimeoutMs: 1500, idleTimeoutMs: 1500, maxFileBytes: 4 * 1024 * 1024 };

describe('the disk cache keeps only good downloads', () => {
  it('an HTML page instead of a model file is refused and not cached; the fixed mirror then serves it', async () => {
    const cacheDir = freshCache();
    const r = await createNodeHost({ cacheDir, limits: fast }).load(spec('html'));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('bad-response');
    expect(r.error.message).toMatch(
      /onnx\/model\.onnx from http:\/\/127\.0\.0\.1:\d+\/html\/tiny-nli-\d+\/resolve\/b{40}\/onnx\/model\.onnx is an HTML page/,
    );
    expect(cachedFiles(cacheDir).filter((f) => f.endsWith('.onnx'))).toEqual([]);
    expect(cachedFiles(cacheDir).filter((f) => f.includes('.tmp.'))).toEqual([]);
  });

  it('a body shorter than the registry size is refused and not cached', async () => {
    const cacheDir = freshCache();
    const r = await createNodeHost({ cacheDir, limits: fast }).load(spec('short', { files: { [ONNX]: size(ONNX) } }));
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.error.message).toMatch(new RegExp(`has ${Math.floor(size(ONNX) * 0.4)} bytes but the registry lists ${size(ONNX)}`));
    expect(cachedFiles(cacheDir).filter((f) => f.endsWith('.onnx'))).toEqual([]);
  });

  it('a good download is cached and loads', async () => {
    const cacheDir = freshCache();
    const r = await createNodeHost({ cacheDir, limits: fast }).load(spec('ok', { files: { [ONNX]: size(ONNX) } }));
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(cachedFiles(cacheDir).filter((f) => f.endsWith(join(REV, ONNX)))).toHaveLength(1);
  });
});

describe('timeouts and size caps', () => {
  it('an endless body stops at the size cap and nothing is cached', async () => {
    const cacheDir = freshCache();
    const t = Date.now();
    const r = await createNodeHost({ cacheDir, limits: { ...fast, maxFileBytes: 2 * 1024 * 1024 } }).load(spec('endless'));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toContain(`is larger than the ${2 * 1024 * 1024} bytes allowed`);
    expect(Date.now() - t).toBeLessThan(20_000);
    expect(cachedFiles(cacheDir).filter((f) => f.endsWith('.onnx') || f.includes('.tmp.'))).toEqual([]);
  });

  // transformers.js copied its whole buffer for each chunk of a body without a length, so an
  // endless config.json crawled for many minutes towards its cap; such a body is now read to a file first.
  it('an endless JSON file stops at the JSON cap, and nothing is left behind', async () => {
    const cacheDir = freshCache();
    const limits = { ...fast, maxFileBytes: 1024 ** 3, maxJsonBytes: 1024 * 1024 };
    const r = await createNodeHost({ cacheDir, limits }).load(spec('jsonendless'));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/config\.json from .* is larger than the 1048576 bytes allowed; it was not cached/);
    expect(cachedFiles(cacheDir).filter((f) => f.includes('.tmp.') || f.endsWith(`${REV}/config.json`))).toEqual([]);
  });

  it('a body without a length reaches transformers.js whole and with its length; the model loads', async () => {
    const cacheDir = freshCache();
    const adapter = nodeAdapter({ cacheDir, limits: fast });
    const s = spec('chunked');
    adapter.prepare(s);
    for (const file of ['config.json', ONNX]) {
      const r = await env.fetch(`${base}chunked/${s.id}/resolve/${REV}/${file}`);
      expect(r.headers.get('content-length'), file).toBe(String(size(file)));
      expect(Buffer.from(await r.arrayBuffer()).equals(readFileSync(join(MODEL, file))), file).toBe(true);
    }
    const loaded = await createNodeHost({ cacheDir: freshCache(), limits: fast }).load(spec('chunked'));
    expect(loaded.ok, JSON.stringify(loaded)).toBe(true);
    expect(cachedFiles(cacheDir).filter((f) => f.includes('.tmp.'))).toEqual([]);
  });

  it('the registry size caps a listed file', async () => {
    const r = await createNodeHost({ cacheDir: freshCache(), limits: fast }).load(spec('endless', { files: { [ONNX]: 100_000 } }));
    expect(!r.ok && r.error.message).toContain('is larger than the 102000 bytes allowed (the registry size)');
  });

  it('a host that never answers, and one that stalls mid-body, time out with a network error', async () => {
    for (const [mode, why] of [
      ['silent', /no answer from 127\.0\.0\.1:\d+ within 1\.5 s for onnx\/model\.onnx/],
      ['stall', /no data for 1\.5 s after 1000 bytes/],
    ] as const) {
      const cacheDir = freshCache();
      const t = Date.now();
      const r = await createNodeHost({ cacheDir, limits: fast }).load(spec(mode));
      expect(r.ok, mode).toBe(false);
      if (!r.ok) {
        expect(r.error.code, mode).toBe('network');
        expect(r.error.message, mode).toMatch(why);
      }
      expect(Date.now() - t, mode).toBeLessThan(15_000);
      expect(cachedFiles(cacheDir).filter((f) => f.endsWith('.onnx') || f.includes('.tmp.'))).toEqual([]);
    }
  });

  it('a tokenizer.json with a catastrophic pattern is refused before any text is tokenized', async () => {
    const dir = join(tmp, 'evil-tokenizer');
    cpSync(MODEL, dir, { recursive: true });
    const tok = JSON.parse(readFileSync(join(dir, 'tokenizer.json'), 'utf8'));
    tok.pre_tokenizer = {
      type: 'Sequence',
      pretokenizers: [tok.pre_tokenizer, { type: 'Split', pattern: { Regex: '(a+)+$' }, behavior: 'Isolated', invert: false }].filter(
        Boolean,
      ),
    };
    writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(tok));
    const t = Date.now();
    const r = await createNodeHost({ tokenizerProbeMs: 500 }).load({ ...parseModelArg('nli', dir), skipCanary: true });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/a pattern in tokenizer\.json \("\(a\+\)\+\$"\) needs more than 0\.5 s/);
    expect(Date.now() - t).toBeLessThan(15_000);
    // The fixture's own tokenizer passes the same probe.
    expect((await createNodeHost({ tokenizerProbeMs: 500 }).load({ ...parseModelArg('nli', MODEL), skipCanary: true })).ok).toBe(true);
  });
});

describe('ids, revisions, paths and redirects', () => {
  it('a revision or id that climbs out of the cache is refused before any request', async () => {
    const cacheDir = freshCache();
    requests.length = 0;
    for (const bad of [
      { revision: '../../../etc' },
      { revision: 'a/../../b' },
      { id: '../tiny-nli' },
      { id: 'x/../../y' },
      { id: 'a/b/c' },
    ]) {
      const r = await createNodeHost({ cacheDir, limits: fast }).load(spec('ok', bad));
      expect(r.ok, JSON.stringify(bad)).toBe(false);
      if (!r.ok) expect(r.error.code, JSON.stringify(bad)).toBe('invalid-spec');
    }
    expect(requests).toEqual([]);
    expect(() => parseModelArg('nli', 'owner/name@../../x')).toThrow(/revision "..\/..\/x" is not a commit/);
    expect(parseModelArg('nli', 'nli-small@' + 'c'.repeat(40))).toMatchObject({
      id: 'Xenova/nli-deberta-v3-small',
      revision: 'c'.repeat(40),
    });
    // Another role's registry key is not a model for this role.
    expect(() => parseModelArg('nli', 'rerank-minilm-l6')).toThrow(/neither a folder, a registry key/);
  });

  it('a FIFO or a device in a model folder is refused instead of hanging', async () => {
    for (const kind of ['fifo', 'device'] as const) {
      const dir = join(tmp, `special-${kind}`);
      cpSync(MODEL, dir, { recursive: true });
      rmSync(join(dir, ONNX));
      if (kind === 'fifo') execFileSync('mkfifo', [join(dir, ONNX)]);
      else symlinkSync('/dev/zero', join(dir, ONNX));
      const r = await createNodeHost().load({ ...parseModelArg('nli', dir), skipCanary: true });
      expect(r.ok, kind).toBe(false);
      if (!r.ok)
        expect(r.error.message, kind).toContain(`onnx/model.onnx is not a regular file (${kind === 'fifo' ? 'a FIFO' : 'a device'})`);
    }
  });

  it('a model a mirror does not have, and a folder without a model, say which file was not found where', async () => {
    const r = await createNodeHost({ cacheDir: freshCache(), limits: fast }).load({ ...spec('ok'), id: 'nobody/missing-model' });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('not-found');
      expect(r.error.message).toMatch(
        /^nobody\/missing-model@b{40}: (config|tokenizer_config|tokenizer)\.json was not found at http:\/\/127\.0\.0\.1:\d+\/ok\/nobody\/missing-model\/resolve\/b{40}\/\S+ \(404\)/,
      );
      expect(r.error.message).not.toMatch(/Cannot read properties/);
    }
    const folder = join(tmp, 'not-a-model');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'README.md'), 'nothing here');
    const local = await createNodeHost({ cacheDir: freshCache(), limits: fast }).load({
      ...spec('ok'),
      id: folder,
      revision: 'local',
      source: { kind: 'local', path: folder },
    });
    expect(local.ok).toBe(false);
    if (!local.ok)
      expect(local.error.message).toBe(
        `${folder}: no config.json and no tokenizer.json in the folder; a model folder holds config.json, tokenizer.json (or tokenizer_config.json) and onnx/model*.onnx`,
      );
  });

  it("one dtype's weights missing on the mirror: the load goes on to the next dtype, and says why", async () => {
    const host = createNodeHost({ cacheDir: freshCache(), limits: fast });
    const r = await host.load(spec('ok', { dtypes: { cpu: ['fp16', 'fp32'] } }));
    expect(r.ok, JSON.stringify(r)).toBe(true);
    if (r.ok) {
      expect(r.value.dtype).toBe('fp32');
      expect(r.value.fallbacks.join(' ')).toMatch(/^cpu\/fp16: .*onnx\/model_fp16\.onnx was not found at .* \(404\)/);
    }
    // When no dtype's weights are there it is the model's not-found error, naming the last file looked for.
    const only = await createNodeHost({ cacheDir: freshCache(), limits: fast }).load(spec('noweights', { dtypes: { cpu: ['fp16'] } }));
    expect(only.ok).toBe(false);
    if (!only.ok) {
      expect(only.error.code).toBe('not-found');
      expect(only.error.message).toMatch(/onnx\/model\.onnx was not found at .*\(tried: cpu\/fp16: .*model_fp16\.onnx was not found/);
    }
  });

  it('--model-dir that does not exist, or lacks the model, is refused instead of downloading', () => {
    expect(() => parseModelArg('nli', undefined, join(tmp, 'no-such-dir'))).toThrow(/--model-dir .*no-such-dir is not a folder/);
    const empty = join(tmp, 'empty-model-dir');
    mkdirSync(empty, { recursive: true });
    expect(() => parseModelArg('nli', undefined, empty)).toThrow(
      /has no Xenova\/nli-deberta-v3-xsmall folder for the NLI model .*--nli-model/,
    );
  });

  it('redirects: to the same host yes; from the hub to its own file hosts yes; anywhere else no', async () => {
    const home = await createNodeHost({ cacheDir: freshCache(), limits: fast }).load(spec('home'));
    expect(home.ok, JSON.stringify(home)).toBe(true);
    const away = await createNodeHost({ cacheDir: freshCache(), limits: fast }).load(spec('away'));
    expect(away.ok).toBe(false);
    if (!away.ok)
      expect(away.error.message).toMatch(
        /redirected to http:\/\/127\.0\.0\.2:1, which is not http:\/\/127\.0\.0\.1:\d+\/away\/; model files come only from the chosen host/,
      );
    const hub = 'https://huggingface.co/';
    expect(redirectAllowed(hub, new URL('https://cdn-lfs.huggingface.co/x'))).toBe(true);
    expect(redirectAllowed(hub, new URL('https://cas-bridge.xethub.hf.co/x'))).toBe(true);
    expect(redirectAllowed(hub, new URL('http://cdn-lfs.huggingface.co/x'))).toBe(false);
    expect(redirectAllowed(hub, new URL('https://evil.example/huggingface.co'))).toBe(false);
    expect(redirectAllowed(hub, new URL('https://huggingface.co.evil.example/x'))).toBe(false);
    expect(redirectAllowed('https://mirror.example/', new URL('https://cdn-lfs.huggingface.co/x'))).toBe(false);
  });
});
