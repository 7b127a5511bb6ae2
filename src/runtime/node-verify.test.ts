/**
 * Downloads in the CLI: a tiny fixture model is served by a local HTTP "mirror" (pinned revision only) and loaded
 * through transformers.js' real download path into a temporary disk cache. A file whose SHA-256 differs from the
 * registry's is refused; a model downloaded once loads again without a network.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_OUT_DIR } from '../../scripts/fixtures/generate.ts';
import { createNodeHost } from './node.ts';
import type { ModelSpec } from './messages.ts';

const MODEL = join(DEFAULT_OUT_DIR, 'tiny-nli');
const ID = 'verity-test/tiny-nli';
const REV = 'a'.repeat(40);
const ONNX = 'onnx/model.onnx';
const realHash = () =>
  createHash('sha256')
    .update(readFileSync(join(MODEL, ONNX)))
    .digest('hex');

let server: Server;
let mirror = '';
let requests: string[] = [];
const caches: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    // The hub's layout: /<id>/resolve/<revision>/<file>; only the pinned revision is served.
    const m = /^\/verity-test\/tiny-nli\/resolve\/a{40}\/(.+)$/.exec(req.url ?? '');
    const path = m ? join(MODEL, decodeURIComponent(m[1]!)) : '';
    if (!m || !existsSync(path)) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(readFileSync(path));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  mirror = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await new Promise((ok) => server.close(ok));
  for (const d of caches) rmSync(d, { recursive: true, force: true });
});

// A random-weight fixture: through the same switch a user flips to use a model unchecked.
const spec = (sha256: Record<string, string>): ModelSpec => ({
  role: 'nli',
  id: ID,
  revision: REV,
  source: { kind: 'mirror', url: mirror },
  dtypes: { cpu: ['fp32'] },
  sha256,
  skipCanary: true,
});
const freshCache = () => {
  const d = mkdtempSync(join(tmpdir(), 'verity-cache-'));
  caches.push(d);
  return d;
};

describe('registry SHA-256 in the CLI (disk cache)', () => {
  it('a download with the registry hash loads, and the next load is served from the disk cache', async () => {
    const cacheDir = freshCache();
    requests = [];
    const r = await createNodeHost({ cacheDir }).load(spec({ [ONNX]: realHash().toUpperCase() }));
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(existsSync(join(cacheDir, ID, REV, ONNX))).toBe(true);
    expect(requests.some((u) => u.endsWith(ONNX))).toBe(true);
    expect(
      requests.filter((u) => u.includes('/main/')),
      'nothing is read from main',
    ).toEqual([]);
    requests = [];
    const again = await createNodeHost({ cacheDir }).load(spec({ [ONNX]: realHash() }));
    expect(again.ok).toBe(true);
    expect(requests.filter((u) => u.endsWith(ONNX))).toEqual([]);
  });

  it('a download that does not match is refused with a bad-response error and deleted from the cache', async () => {
    const cacheDir = freshCache();
    const wrong = '0'.repeat(64);
    const r = await createNodeHost({ cacheDir }).load(spec({ [ONNX]: wrong }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('bad-response');
    expect(r.error.message).toContain(
      `${ONNX} of ${ID}@${REV} does not match the SHA-256 the registry lists (${realHash().slice(0, 12)}… instead of 000000000000…)`,
    );
    expect(existsSync(join(cacheDir, ID, REV, ONNX))).toBe(false);
  });

  it('a hash for a file this load did not fetch (another dtype) is not required', async () => {
    const r = await createNodeHost({ cacheDir: freshCache() }).load(spec({ 'onnx/model_quantized.onnx': '0'.repeat(64) }));
    expect(r.ok, JSON.stringify(r)).toBe(true);
  });

  it('a pinned model already in the disk cache loads with no network at all', async () => {
    // A model id this process has not loaded (transformers.js memoizes some lookups per id), copied into the cache
    // as a download would have left it, and a mirror on a closed port.
    const cacheDir = freshCache();
    const id = 'verity-test/tiny-nli-offline';
    cpSync(MODEL, join(cacheDir, id, REV), { recursive: true });
    const r = await createNodeHost({ cacheDir }).load({
      ...spec({ [ONNX]: realHash() }),
      id,
      source: { kind: 'mirror', url: 'http://127.0.0.1:9/' },
    });
    expect(r.ok, JSON.stringify(r)).toBe(true);
  });
});
