/**
 * The model runtime in the browser: the model Web Worker loads the tiny fixture models (test/models, made by
 * `npm run fixtures`) from the test mirror (e2e/model-mirror.mjs), runs them on WebGPU (project `webgpu`,
 * SwiftShader adapter) or WASM (project `wasm`, no adapter), caches them in IndexedDB and explains failures.
 *
 * Tolerance: outputs are compared with expected.json (float64 reference) within TOLERANCE = 1e-3 on both
 * devices. That is 10× looser than the Node tests (1e-4, onnxruntime-node) because WebGPU on SwiftShader may
 * reorder float32 reductions; the deviations measured on both projects were ~1e-6 (they are attached to each
 * test as a `max deviation` annotation).
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { ModelHostApi } from '../src/runtime/host-api.ts';
import type { HostError, LoadedModel, ModelSpec, Role } from '../src/runtime/messages.ts';
import type { Result } from '../src/core/errors.ts';
import { openModels } from './helpers.ts';

const MIRROR_PORT = Number(process.env.MIRROR_PORT ?? 4180);
const MIRROR = `http://localhost:${MIRROR_PORT}/`;
const CONTROL = `http://127.0.0.1:${MIRROR_PORT}`;
const PREVIEW_PORT = Number(process.env.PREVIEW_PORT ?? 4173);
const MODELS = join(import.meta.dirname, '..', 'test', 'models');
const TOLERANCE = 1e-3;
/** A pinned revision (not `main`): the mirror serves any revision, the cache keys must carry this one. */
const REV = 'e2e0000000000000000000000000000000000001';

const expected = <T>(m: string): T => JSON.parse(readFileSync(join(MODELS, m, 'expected.json'), 'utf8')) as T;
const manifest = JSON.parse(readFileSync(join(MODELS, 'manifest.json'), 'utf8')) as {
  files: { path: string; bytes: number; sha256: string }[];
};
/** Registry-style file sizes of one fixture model (what a registry entry's `files` would list). */
const sizes = (m: string): Record<string, number> =>
  Object.fromEntries(
    manifest.files
      .filter((f) => f.path.startsWith(`${m}/`) && !f.path.endsWith('expected.json'))
      .map((f) => [f.path.slice(m.length + 1), f.bytes]),
  );
const hashes = (m: string): Record<string, string> =>
  Object.fromEntries(
    manifest.files
      .filter((f) => f.path.startsWith(`${m}/`) && !f.path.endsWith('expected.json'))
      .map((f) => [f.path.slice(m.length + 1), f.sha256]),
  );

interface NliCase {
  premise: string;
  hypothesis: string;
  probs_by_label: Record<'entailment' | 'neutral' | 'contradiction', number>;
}
const nliCases = expected<{ cases: NliCase[] }>('tiny-nli').cases;
const nliRow = (c: NliCase) => [c.probs_by_label.entailment, c.probs_by_label.neutral, c.probs_by_label.contradiction];

/** A fixture model from the mirror. Random weights fail every canary, so they go through the user's switch (skipCanary). */
/** A fixture model's spec, on this project's device (forced: these tests check that device's numbers). */
const spec = (role: Role, id: string, extra: Partial<ModelSpec> = {}): ModelSpec => ({
  role,
  id,
  revision: REV,
  source: { kind: 'mirror', url: MIRROR },
  skipCanary: true,
  device: projectDevice(),
  ...extra,
});

// ---------- mirror control ----------

const mirrorReset = async (request: APIRequestContext) => expect((await request.post(`${CONTROL}/__reset`)).ok()).toBe(true);
const mirrorFault = async (
  request: APIRequestContext,
  model: string,
  file: string,
  mode: 'html' | 'truncate' | 'cut' | 'endless' | 'off',
) => expect((await request.post(`${CONTROL}/__fault?model=${model}&file=${encodeURIComponent(file)}&mode=${mode}`)).ok()).toBe(true);
const mirrorLog = async (request: APIRequestContext): Promise<{ method: string; path: string; range: string | null; status: number }[]> =>
  (
    (await (await request.get(`${CONTROL}/__log`)).json()) as {
      requests: { method: string; path: string; range: string | null; status: number }[];
    }
  ).requests;

// ---------- page helpers ----------

/** The worker API as the page sees it through comlink (every method async). */
type Promisified<T> = { [K in keyof T]: T[K] extends (...a: infer A) => infer R ? (...a: A) => Promise<Awaited<R>> : never };
declare global {
  var __verityModels: Promisified<ModelHostApi> | undefined;
}

/**
 * Opens the app and waits for the model worker's probe. The panel's loads use this project's device (the
 * Device setting forced), except with `measure`, which leaves the choice to the host's measurement.
 */
async function open(page: Page, errors?: string[], measure = false) {
  if (errors) page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await openModels(page);
  await page.getByTestId('device-setting').selectOption(measure ? 'auto' : projectDevice());
}

/** Loads through the worker (the panel's comlink handle). */
const hostLoad = (page: Page, s: ModelSpec): Promise<Result<LoadedModel, HostError>> =>
  page.evaluate((s) => globalThis.__verityModels!.load(s), s);

const projectDevice = () => (test.info().project.name === 'webgpu' ? 'webgpu' : 'wasm');

function maxDeviation(got: number[][], want: number[][], device: string = projectDevice()): number {
  expect(got.length).toBe(want.length);
  let worst = 0;
  got.forEach((row, i) => {
    expect(row.length).toBe(want[i]!.length);
    row.forEach((x, k) => (worst = Math.max(worst, Number.isFinite(x) ? Math.abs(x - want[i]![k]!) : Infinity)));
  });
  test.info().annotations.push({ type: 'max deviation', description: `${worst.toExponential(2)} on ${device}` });
  return worst;
}

/** Loads a fixture model from the panel, with "use models without their check" ticked unless `checked`. */
async function loadFromUi(page: Page, role: Role, id: string, checked = false) {
  await page.getByTestId('skip-canary').setChecked(!checked);
  await page.getByTestId('model-source').selectOption('mirror');
  await page.getByTestId('mirror-url').fill(MIRROR);
  await page.getByTestId('model-role').selectOption(role);
  await page.getByTestId('model-id').fill(id);
  await page.getByTestId('model-revision').fill(REV);
  await page.getByTestId('load-button').click();
}

test.beforeEach(async ({ request }) => {
  await mirrorReset(request);
});

test('the probe reports the device this project must use, and why', async ({ page }) => {
  const errors: string[] = [];
  await open(page, errors);
  const device = page.getByTestId('probe-device');
  if (projectDevice() === 'webgpu') {
    await expect(device).toHaveAttribute('data-device', 'webgpu');
    // SwiftShader: a software adapter.
    await expect(device).toHaveAttribute('data-fallback-adapter', 'true');
    await expect(device).toContainText('WebGPU');
  } else {
    await expect(device).toHaveAttribute('data-device', 'wasm');
    await expect(page.getByTestId('probe-reason')).toContainText('no adapter');
  }
  await expect(page.getByTestId('probe-threads')).toContainText('cross-origin isolated');
  await expect(page.getByTestId('probe-storage')).toContainText('used of');
  expect(errors).toEqual([]);
});

test('NLI from the mirror through the panel: byte progress, device, and the NLI check matches the reference', async ({ page }) => {
  const errors: string[] = [];
  await open(page, errors);
  await loadFromUi(page, 'nli', 'tiny-nli');
  await expect(page.getByTestId('loaded-device')).toHaveText(projectDevice(), { timeout: 30_000 });
  await expect(page.getByTestId('loaded-dtype')).toHaveText('fp32');
  await expect(page.getByTestId('loaded-canary')).toHaveAttribute('data-status', 'skipped');
  // Byte progress: the last report covers the model's files (config.json and the fp32 ONNX file).
  const bytes = page.getByTestId('load-bytes');
  const total = sizes('tiny-nli')['config.json']! + sizes('tiny-nli')['onnx/model.onnx']!;
  await expect(bytes).toHaveAttribute('data-loaded', String(total));
  await expect(bytes).toHaveAttribute('data-total', String(total));

  for (const i of [0, 1]) {
    await page.getByTestId(`nli-premise-${i}`).fill(nliCases[i]!.premise);
    await page.getByTestId(`nli-hypothesis-${i}`).fill(nliCases[i]!.hypothesis);
  }
  await page.getByTestId('nli-check').click();
  const rows = page.getByTestId('nli-row');
  await expect(rows).toHaveCount(2, { timeout: 20_000 });
  const got = await Promise.all([0, 1].map(async (i) => JSON.parse((await rows.nth(i).getAttribute('data-probs'))!) as number[]));
  expect(maxDeviation(got, [nliRow(nliCases[0]!), nliRow(nliCases[1]!)])).toBeLessThanOrEqual(TOLERANCE);
  await expect(rows.nth(0)).toContainText(nliCases[0]!.probs_by_label.entailment.toFixed(2).slice(0, 3));

  const cached = page.getByTestId('cached-row');
  await expect(cached).toHaveCount(1);
  await expect(cached).toHaveAttribute('data-model', 'tiny-nli');
  await page.getByTestId('models-panel').screenshot({ path: test.info().outputPath('models-panel.png') });
  expect(errors).toEqual([]);
});

test('a random-weight model is refused by its role canary unless "use models without their check" is ticked', async ({ page }) => {
  const errors: string[] = [];
  await open(page, errors);
  await loadFromUi(page, 'nli', 'tiny-nli', true);
  const error = page.getByTestId('load-error');
  await expect(error).toHaveAttribute('data-code', 'canary-failed', { timeout: 30_000 });
  await expect(error).toContainText(/gives wrong outputs on .*expected (entailment|contradiction)/);
  await expect(page.getByTestId('loaded')).toHaveCount(0);
  // Nothing was loaded: the NLI check has no model to run.
  await page.getByTestId('nli-check').click();
  await expect(page.getByTestId('nli-error')).toContainText('no nli model is loaded');

  // The setting is saved, so every page uses it; the load then says the check was skipped.
  await loadFromUi(page, 'nli', 'tiny-nli');
  await expect(page.getByTestId('loaded-canary')).toHaveAttribute('data-status', 'skipped', { timeout: 30_000 });
  await expect(page.getByTestId('loaded-warnings')).toContainText('without its canary check');
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('verity.model-settings') ?? '{}').skipCanary)).toBe(true);
  expect(errors).toEqual([]);
});

test('dev server: the Models page opens with no page error (the comlink Remote is kept out of reactive state)', async ({ page }) => {
  test.skip(projectDevice() !== 'wasm', 'the page, not the device: one project is enough');
  test.setTimeout(120_000);
  // only Svelte's dev build tags reactive values, which called into the worker's comlink proxy.
  const port = PREVIEW_PORT + 2;
  const dev = spawn(
    process.execPath,
    [join(import.meta.dirname, '..', 'node_modules', 'vite', 'bin', 'vite.js'), '--port', String(port), '--strictPort'],
    { cwd: join(import.meta.dirname, '..'), stdio: 'ignore' },
  );
  try {
    await expect(async () => expect((await fetch(`http://localhost:${port}/`)).ok).toBe(true)).toPass({ timeout: 30_000 });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`http://localhost:${port}/#/models`);
    await expect(page.getByTestId('probe-device')).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId('choice-download-nli')).toBeEnabled();
    expect(errors).toEqual([]);
  } finally {
    dev.kill();
  }
});

test('reranker: scores match the reference on this project’s device', async ({ page }) => {
  await open(page);
  const loaded = await hostLoad(page, spec('reranker', 'tiny-reranker', { files: sizes('tiny-reranker') }));
  expect(loaded.ok, JSON.stringify(loaded)).toBe(true);
  if (!loaded.ok) return;
  expect(loaded.value.device).toBe(projectDevice());
  const cases = expected<{ cases: { query: string; passage: string; logit: number }[] }>('tiny-reranker').cases;
  const got: number[][] = [];
  for (const c of cases) {
    const r = await page.evaluate(([q, d]) => globalThis.__verityModels!.rerank(q, [d]), [c.query, c.passage] as const);
    expect(r.ok, JSON.stringify(r)).toBe(true);
    if (r.ok) got.push(r.value);
  }
  expect(
    maxDeviation(
      got,
      cases.map((c) => [1 / (1 + Math.exp(-c.logit))]),
    ),
  ).toBeLessThanOrEqual(TOLERANCE);
});

test('embedder: pooled embeddings match the reference on this project’s device', async ({ page }) => {
  await open(page);
  const loaded = await hostLoad(page, spec('embedder', 'tiny-embedder', { files: sizes('tiny-embedder') }));
  expect(loaded.ok, JSON.stringify(loaded)).toBe(true);
  if (!loaded.ok) return;
  expect(loaded.value.device).toBe(projectDevice());
  const cases = expected<{ cases: { text: string; embedding: number[] }[] }>('tiny-embedder').cases;
  const r = await page.evaluate(
    async (texts) => {
      const e = await globalThis.__verityModels!.embed(texts);
      return e.ok ? { ok: true as const, value: e.value.map((v) => Array.from(v)) } : e;
    },
    cases.map((c) => c.text),
  );
  expect(r.ok, JSON.stringify(r)).toBe(true);
  if (r.ok)
    expect(
      maxDeviation(
        r.value,
        cases.map((c) => c.embedding),
      ),
    ).toBeLessThanOrEqual(TOLERANCE);
});

test('statements: the seq2seq model generates the reference text on this project’s device', async ({ page }) => {
  await open(page);
  const loaded = await hostLoad(page, spec('statements', 'tiny-t5', { prompt: '{question}{answer}', files: sizes('tiny-t5') }));
  expect(loaded.ok, JSON.stringify(loaded)).toBe(true);
  if (!loaded.ok) return;
  expect(loaded.value.device).toBe(projectDevice());
  const cases = expected<{ cases: { input: string; text: string }[] }>('tiny-t5').cases;
  const r = await page.evaluate(
    (items) => globalThis.__verityModels!.writeStatements(items),
    cases.map((c) => ({ question: '', answer: c.input })),
  );
  expect(r.ok, JSON.stringify(r)).toBe(true);
  // The reference decoded 8 tokens; the writer allows more, so its text starts with the reference text.
  if (r.ok) cases.forEach((c, i) => expect(r.value[i]!.startsWith(c.text), `${r.value[i]} vs ${c.text}`).toBe(true));
});

test('after a reload the model loads from IndexedDB with zero requests to the mirror', async ({ page, request }) => {
  await open(page);
  const c = nliCases[1]!;
  const canary = {
    kind: 'values' as const,
    inputs: [{ premise: c.premise, hypothesis: c.hypothesis }],
    expected: [nliRow(c)],
    tolerance: TOLERANCE,
  };
  const s = spec('nli', 'tiny-nli', { files: sizes('tiny-nli'), sha256: hashes('tiny-nli'), canary, skipCanary: false });
  const first = await hostLoad(page, s);
  expect(first.ok && first.value.canary?.passed, JSON.stringify(first)).toBe(true);
  expect((await mirrorLog(request)).filter((r) => r.path.includes('/resolve/')).length).toBeGreaterThan(0);

  await page.reload();
  await expect(page.getByTestId('cached-row')).toHaveCount(1);
  await mirrorReset(request);
  const again = await hostLoad(page, s);
  expect(again.ok && again.value.canary?.passed, JSON.stringify(again)).toBe(true);
  expect(again.ok && again.value.device).toBe(projectDevice());
  expect(await mirrorLog(request)).toEqual([]);
});

test('with every non-localhost request blocked the whole flow passes; the hub is reported unreachable', async ({ page, request }) => {
  const blocked: string[] = [];
  await page.route(/^(?!https?:\/\/localhost[:/]).*/, (route) => {
    blocked.push(route.request().url());
    return route.abort('internetdisconnected');
  });
  const ort: string[] = [];
  page.on('request', (r) => /ort-wasm/.test(r.url()) && ort.push(r.url()));
  const errors: string[] = [];
  await open(page, errors);
  await loadFromUi(page, 'nli', 'tiny-nli');
  await expect(page.getByTestId('loaded-device')).toHaveText(projectDevice(), { timeout: 30_000 });
  await page.getByTestId('nli-check').click();
  await expect(page.getByTestId('nli-row')).toHaveCount(2, { timeout: 20_000 });
  // ONNX Runtime comes from the app itself: the asyncify build (one build for the WebGPU and WASM providers).
  expect(ort.length).toBeGreaterThan(0);
  for (const u of ort)
    expect(u).toMatch(new RegExp(`^http://localhost:${PREVIEW_PORT}/assets/ort-wasm-simd-threaded\\.asyncify-[\\w-]+\\.(mjs|wasm)$`));
  expect(ort.some((u) => u.endsWith('.wasm'))).toBe(true);
  test.info().annotations.push({ type: 'onnxruntime files', description: [...new Set(ort.map((u) => u.split('/').pop()))].join(', ') });
  await page.reload();
  // The worker's handle is set once the page is up again: load through it only then.
  await expect(page.getByTestId('probe-device')).toBeVisible({ timeout: 15_000 });
  await mirrorReset(request);
  const again = await hostLoad(page, spec('nli', 'tiny-nli'));
  expect(again.ok, JSON.stringify(again)).toBe(true);
  expect(await mirrorLog(request)).toEqual([]);
  expect(blocked.filter((u) => !u.startsWith('data:'))).toEqual([]);
  expect(errors).toEqual([]);

  // The same route does catch the worker's requests: a hub model is blocked and explained.
  const hub = await hostLoad(page, {
    role: 'nli',
    id: 'Xenova/nli-deberta-v3-xsmall',
    revision: '4ce66096a56eb536b4b9e437f27ef42c24aeae51',
    source: { kind: 'hub' },
  });
  expect(hub.ok).toBe(false);
  if (hub.ok) return;
  expect(hub.error.code).toBe('network');
  expect(hub.error.message).toContain('https://huggingface.co/');
  expect(
    blocked.some((u) =>
      u.startsWith('https://huggingface.co/Xenova/nli-deberta-v3-xsmall/resolve/4ce66096a56eb536b4b9e437f27ef42c24aeae51/'),
    ),
  ).toBe(true);
});

test('offline, a download failure names the host and the file and says what to do, with no storage advice', async ({ page }) => {
  await page.route(/^(?!https?:\/\/localhost[:/]).*/, (route) => route.abort('internetdisconnected'));
  await open(page);
  // The default NLI model from the hub (the default settings), through the "Models in use" table.
  await page.getByTestId('choice-download-nli').click();
  const note = page.getByTestId('choice-note-nli');
  await expect(note).toContainText(
    'The NLI model did not load: cannot download Xenova/nli-deberta-v3-xsmall from the hub https://huggingface.co/: could not download',
    { timeout: 30_000 },
  );
  await expect(note).toContainText(
    /could not download [\w./]+ from https:\/\/huggingface\.co\/Xenova\/nli-deberta-v3-xsmall\/resolve\/4ce66096a56eb536b4b9e437f27ef42c24aeae51\//,
  );
  await expect(note).toContainText('Check that this computer is online and can reach https://huggingface.co/');
  await expect(note).not.toContainText('private window');
  await expect(note).not.toContainText('storage');
});

test('HTML instead of a model file gives a clear error, is not cached, and is fetched again once fixed', async ({ page, request }) => {
  await open(page);
  await mirrorFault(request, 'tiny-nli', 'onnx/model.onnx', 'html');
  await loadFromUi(page, 'nli', 'tiny-nli');
  const error = page.getByTestId('load-error');
  await expect(error).toHaveAttribute('data-code', 'bad-response', { timeout: 30_000 });
  await expect(error).toContainText(`received HTML instead of onnx/model.onnx from ${MIRROR}tiny-nli/resolve/${REV}/onnx/model.onnx`);
  const listed = await page.evaluate(() => globalThis.__verityModels!.listCache());
  expect(listed.ok && listed.value.flatMap((m) => m.files.map((f) => f.file))).not.toContain('onnx/model.onnx');

  // A JSON file: the load fails in JSON.parse, and the message still names the file and the page.
  await mirrorFault(request, 'tiny-embedder', 'config.json', 'html');
  const cfg = await hostLoad(page, spec('embedder', 'tiny-embedder'));
  expect(!cfg.ok && cfg.error).toMatchObject({
    code: 'bad-response',
    message: expect.stringContaining(`received HTML instead of config.json from ${MIRROR}tiny-embedder/resolve/${REV}/config.json`),
  });

  await mirrorReset(request);
  const fixed = await hostLoad(page, spec('nli', 'tiny-nli'));
  expect(fixed.ok, JSON.stringify(fixed)).toBe(true);
  expect((await mirrorLog(request)).filter((r) => !r.range).map((r) => r.path)).toEqual([`/tiny-nli/resolve/${REV}/onnx/model.onnx`]);
  const embedder = await hostLoad(page, spec('embedder', 'tiny-embedder'));
  expect(embedder.ok, JSON.stringify(embedder)).toBe(true);
  expect((await mirrorLog(request)).filter((r) => !r.range).map((r) => r.path)).toContain(`/tiny-embedder/resolve/${REV}/config.json`);
});

test('a truncated file (short body, or a connection cut mid-file) gives a clear error and is not cached', async ({ page, request }) => {
  await open(page);
  const file = 'onnx/model.onnx';
  const full = sizes('tiny-reranker')[file]!;
  // Short body with a matching Content-Length: only the registry size tells.
  await mirrorFault(request, 'tiny-reranker', file, 'truncate');
  const short = await hostLoad(page, spec('reranker', 'tiny-reranker', { files: sizes('tiny-reranker') }));
  expect(short.ok).toBe(false);
  if (!short.ok) {
    expect(short.error.code).toBe('bad-response');
    expect(short.error.message).toContain(
      `${file} from ${MIRROR}tiny-reranker/resolve/${REV}/${file} has ${Math.floor(full * 0.4)} bytes but the registry lists ${full}`,
    );
  }
  // Full Content-Length, then the connection closes.
  await mirrorFault(request, 'tiny-reranker', file, 'cut');
  const cut = await hostLoad(page, spec('reranker', 'tiny-reranker'));
  expect(cut.ok).toBe(false);
  if (!cut.ok) {
    expect(cut.error.code).toBe('bad-response');
    expect(cut.error.message).toMatch(
      new RegExp(`${file} from .*tiny-reranker/resolve/${REV}/${file} is truncated: received \\d+ of ${full} bytes`),
    );
  }
  const listed = await page.evaluate(() => globalThis.__verityModels!.listCache());
  expect(listed.ok && listed.value.flatMap((m) => m.files.map((f) => f.file))).not.toContain(file);

  // The same worker loads the model once the mirror is fixed: an earlier failed session does not poison later
  // ones (see transformersChainFix in vite.config.ts).
  await mirrorReset(request);
  const fixed = await hostLoad(page, spec('reranker', 'tiny-reranker', { files: sizes('tiny-reranker') }));
  expect(fixed.ok, JSON.stringify(fixed)).toBe(true);
});

// A host that never stops sending held 4.4 GB in the page and was still
// loading 18 minutes later. Each body now stops at its cap (JSON 256 MiB; a listed file its registry size + 2%).
test('a host that never stops sending is stopped at the cap with a message, and nothing is cached', async ({ page, request }) => {
  test.setTimeout(120_000);
  await open(page);
  await mirrorFault(request, 'tiny-embedder', 'config.json', 'endless');
  const cfg = await hostLoad(page, spec('embedder', 'tiny-embedder'));
  expect(!cfg.ok && cfg.error).toMatchObject({
    code: 'bad-response',
    message: expect.stringMatching(
      /config\.json from .*tiny-embedder\/resolve\/.*\/config\.json is larger than the 268435456 bytes allowed/,
    ),
  });
  await mirrorFault(request, 'tiny-reranker', 'onnx/model.onnx', 'endless');
  const onnx = await hostLoad(page, spec('reranker', 'tiny-reranker', { files: sizes('tiny-reranker') }));
  expect(!onnx.ok && onnx.error).toMatchObject({
    code: 'bad-response',
    message: expect.stringMatching(/onnx\/model\.onnx from .* is larger than the \d+ bytes allowed \(the registry size\)/),
  });
  const listed = await page.evaluate(() => globalThis.__verityModels!.listCache());
  expect(listed.ok && listed.value.flatMap((m) => m.files.map((f) => f.file))).not.toContain('onnx/model.onnx');
  expect(listed.ok && listed.value.filter((m) => m.id === 'tiny-embedder').flatMap((m) => m.files.map((f) => f.file))).not.toContain(
    'config.json',
  );
  // The page is still responsive and the fixed mirror serves the model.
  await mirrorReset(request);
  const fixed = await hostLoad(page, spec('reranker', 'tiny-reranker', { files: sizes('tiny-reranker') }));
  expect(fixed.ok, JSON.stringify(fixed)).toBe(true);
});

test('with the device left open, the faster of WebGPU and WASM is measured, kept, said, and remembered', async ({ page }) => {
  test.skip(projectDevice() !== 'webgpu', 'needs a WebGPU adapter');
  await open(page, undefined, true);
  await loadFromUi(page, 'nli', 'tiny-nli');
  const choice = page.getByTestId('loaded-choice');
  await expect(choice).toHaveAttribute('data-chosen', 'measured', { timeout: 60_000 });
  await expect(choice).toContainText(
    /chosen by measuring \(canary batch, best of 3: (webgpu|wasm)\/fp32 [\d.]+ ms, (webgpu|wasm)\/fp32 [\d.]+ ms\)/,
  );
  const text = (await choice.textContent())!;
  const fastest = (await choice.getAttribute('data-fastest'))!;
  test.info().annotations.push({ type: 'device choice on SwiftShader', description: text.trim() });
  // SwiftShader emulates the GPU on the CPU: WASM wins for the tiny model, and the kept device is the faster one.
  expect(fastest).toBe('wasm');
  await expect(page.getByTestId('loaded-device')).toHaveText(fastest);
  // Loaded again (a fresh worker after a reload): the remembered device alone, no second measurement.
  await page.reload();
  await open(page, undefined, true);
  const again = await hostLoad(page, { ...spec('nli', 'tiny-nli'), device: undefined });
  expect(again.ok && again.value.device).toBe(fastest);
  expect(again.ok && again.value.choice?.chosen).toBe('remembered');
});

test('a dtype the WebGPU adapter cannot run is not tried: the load goes to WASM and says why', async ({ page }) => {
  test.skip(projectDevice() !== 'webgpu', 'needs a WebGPU adapter');
  await open(page);
  // SwiftShader has no shader-f16 (nor has Dawn on NVIDIA's Linux Vulkan driver), so an fp16 graph on WebGPU is
  // not even downloaded: the load goes to WASM and says why.
  const r = await hostLoad(page, spec('nli', 'tiny-nli', { dtypes: { webgpu: ['fp16'], wasm: ['fp32'] } }));
  expect(r.ok, JSON.stringify(r)).toBe(true);
  if (!r.ok) return;
  expect(r.value).toMatchObject({ device: 'wasm', dtype: 'fp32' });
  expect(r.value.fallbacks.join(' ')).toMatch(/webgpu\/fp16: not tried, this WebGPU adapter has no shader-f16/);
  const d = await page.evaluate((c) => globalThis.__verityModels!.nli([c]), {
    premise: nliCases[0]!.premise,
    hypothesis: nliCases[0]!.hypothesis,
  });
  expect(
    d.ok && maxDeviation([[d.value[0]!.entailment, d.value[0]!.neutral, d.value[0]!.contradiction]], [nliRow(nliCases[0]!)], 'wasm'),
  ).toBeLessThanOrEqual(TOLERANCE);
});

test('a damaged cache entry (same size, one byte changed) is caught by its hash, deleted and downloaded again', async ({
  page,
  request,
}) => {
  await open(page);
  expect((await hostLoad(page, spec('nli', 'tiny-nli'))).ok).toBe(true);
  const url = `${MIRROR}tiny-nli/resolve/${REV}/onnx/model.onnx`;
  // Flip one stored byte behind the cache's back (a short entry is caught by its size; see the unit tests).
  await page.evaluate(
    (url) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('verity-model-bytes');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('files', 'readwrite');
          const store = tx.objectStore('files');
          const get = store.get(url);
          get.onsuccess = () => {
            const bytes = new Uint8Array((get.result as ArrayBuffer).slice(0));
            bytes[bytes.length >> 1]! ^= 0xff;
            store.put(bytes.buffer, url);
          };
          tx.oncomplete = () => (open.result.close(), resolve());
          tx.onerror = () => reject(tx.error);
        };
      }),
    url,
  );
  await page.reload();
  await expect(page.getByTestId('probe-device')).toBeVisible();
  await mirrorReset(request);
  const again = await hostLoad(page, spec('nli', 'tiny-nli'));
  expect(again.ok, JSON.stringify(again)).toBe(true);
  if (again.ok) expect(again.value.warnings.join(' ')).toContain('damaged (its SHA-256 no longer matches');
  expect((await mirrorLog(request)).filter((r) => !r.range).map((r) => r.path)).toEqual([`/tiny-nli/resolve/${REV}/onnx/model.onnx`]);
});

test("a model file that does not match the registry's SHA-256 is refused with the model, and not cached", async ({ page }) => {
  await open(page);
  const wrong = { ...hashes('tiny-reranker'), 'onnx/model.onnx': '0'.repeat(64) };
  const r = await hostLoad(page, spec('reranker', 'tiny-reranker', { files: sizes('tiny-reranker'), sha256: wrong }));
  expect(r.ok, JSON.stringify(r)).toBe(false);
  if (!r.ok) {
    expect(r.error.code).toBe('bad-response');
    expect(r.error.message).toContain('onnx/model.onnx');
    expect(r.error.message).toContain('does not match the SHA-256 the registry lists');
  }
  await page.reload();
  await expect(page.getByTestId('probe-device')).toBeVisible();
  const files = await page.evaluate(async () => {
    const list = await globalThis.__verityModels!.listCache();
    return list.ok ? list.value.flatMap((m) => m.files.map((f) => f.file)) : [];
  });
  expect(files).not.toContain('onnx/model.onnx');
});

test('an imported model folder loads with no network at all', async ({ page, request }) => {
  const blocked: string[] = [];
  await page.route(new RegExp(`^(?!https?://localhost:${PREVIEW_PORT}/).*`), (route) => {
    blocked.push(route.request().url());
    return route.abort();
  });
  await open(page);
  await page.getByTestId('model-id').fill('my/tiny-embedder');
  await page.getByTestId('model-role').selectOption('embedder');
  await page.getByTestId('import-folder').setInputFiles(join(MODELS, 'tiny-embedder'));
  await expect(page.getByTestId('import-note')).toContainText('as my/tiny-embedder@local');
  await expect(page.getByTestId('model-source')).toHaveValue('local');
  await page.getByTestId('skip-canary').check();
  await page.getByTestId('load-button').click();
  await expect(page.getByTestId('loaded-device')).toHaveText(projectDevice(), { timeout: 30_000 });
  const cases = expected<{ cases: { text: string; embedding: number[] }[] }>('tiny-embedder').cases;
  const r = await page.evaluate(
    async (texts) => {
      const e = await globalThis.__verityModels!.embed(texts);
      return e.ok ? { ok: true as const, value: e.value.map((v) => Array.from(v)) } : e;
    },
    cases.map((c) => c.text),
  );
  expect(
    r.ok &&
      maxDeviation(
        r.value,
        cases.map((c) => c.embedding),
      ),
  ).toBeLessThanOrEqual(TOLERANCE);
  expect(blocked).toEqual([]);
  expect(await mirrorLog(request)).toEqual([]);

  // A model that was never imported is a clear not-found, not a download.
  const missing = await hostLoad(page, { role: 'embedder', id: 'never/imported', revision: 'local', source: { kind: 'local' } });
  expect(!missing.ok && missing.error.code).toBe('not-found');
  expect(!missing.ok && missing.error.message).toContain('was not imported');
});

test('a tokenizer.json with a catastrophic pattern is refused, not left to hang scoring', async ({ page }) => {
  // A copy of the fixture embedder whose pre-tokenizer adds a pattern with exponential backtracking.
  const dir = join(mkdtempSync(join(tmpdir(), 'verity-evil-')), 'evil-embedder');
  cpSync(join(MODELS, 'tiny-embedder'), dir, { recursive: true });
  const tok = JSON.parse(readFileSync(join(dir, 'tokenizer.json'), 'utf8'));
  tok.pre_tokenizer = {
    type: 'Sequence',
    pretokenizers: [tok.pre_tokenizer, { type: 'Split', pattern: { Regex: '(a+)+$' }, behavior: 'Isolated', invert: false }].filter(
      Boolean,
    ),
  };
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(tok));
  await open(page);
  await page.getByTestId('model-id').fill('my/evil-embedder');
  await page.getByTestId('model-role').selectOption('embedder');
  await page.getByTestId('import-folder').setInputFiles(dir);
  await expect(page.getByTestId('import-note')).toContainText('as my/evil-embedder@local');
  await page.getByTestId('skip-canary').check();
  await page.getByTestId('load-button').click();
  const error = page.getByTestId('load-error');
  await expect(error).toHaveAttribute('data-code', 'bad-response', { timeout: 30_000 });
  await expect(error).toContainText('a pattern in tokenizer.json ("(a+)+$") needs more than 2 s on a short probe text');
  // The worker is not stuck: the unmodified model loads right after.
  const ok = await hostLoad(page, spec('embedder', 'tiny-embedder'));
  expect(ok.ok, JSON.stringify(ok)).toBe(true);
});

test('delete one cached model, then clear all', async ({ page, request }) => {
  await open(page);
  await loadFromUi(page, 'nli', 'tiny-nli');
  await expect(page.getByTestId('loaded-device')).toHaveText(projectDevice(), { timeout: 30_000 });
  await loadFromUi(page, 'embedder', 'tiny-embedder');
  await expect(page.getByTestId('loaded-id')).toContainText('tiny-embedder', { timeout: 30_000 });
  const rows = page.getByTestId('cached-row');
  await expect(rows).toHaveCount(2);
  const nli = rows.and(page.locator('[data-model="tiny-nli"]'));
  expect(Number(await nli.getAttribute('data-bytes'))).toBeGreaterThan(130_000);

  await nli.getByTestId('delete-model').click();
  await expect(rows).toHaveCount(1);
  await expect(rows).toHaveAttribute('data-model', 'tiny-embedder');
  // Deleted means downloaded again by the next load (in a fresh worker: the loaded session stays usable).
  await page.reload();
  await expect(rows).toHaveCount(1);
  await mirrorReset(request);
  await loadFromUi(page, 'nli', 'tiny-nli');
  await expect(page.getByTestId('loaded-id')).toContainText('tiny-nli', { timeout: 30_000 });
  expect((await mirrorLog(request)).filter((r) => !r.range).map((r) => r.path)).toContain(`/tiny-nli/resolve/${REV}/onnx/model.onnx`);
  await expect(rows).toHaveCount(2);

  await page.getByTestId('clear-cache').click();
  await expect(page.getByTestId('cache-empty')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('cache-empty')).toBeVisible();
  const listed = await page.evaluate(() => globalThis.__verityModels!.listCache());
  expect(listed).toEqual({ ok: true, value: [] });
});
