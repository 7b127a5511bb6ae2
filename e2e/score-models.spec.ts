/**
 * Model-based metrics on the Score page, with the tiny fixture NLI model from the test mirror: chosen on the
 * Models page, downloaded with consent, used by the scoring worker through the shared model worker; scores equal
 * the CLI's (onnxruntime-node on the same model folder) within 1e-3, and exports name the model and device.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { openModels } from './helpers.ts';

const MIRROR = `http://localhost:${Number(process.env.MIRROR_PORT ?? 4180)}/`;
const REV = 'e2e0000000000000000000000000000000000002';

const rows = [
  { id: 'a', question: 'Where is the Eiffel Tower?', gold: ['Paris'], candidate: 'It is in Paris.', label: 'exact' },
  {
    id: 'b',
    question: 'Who wrote Hamlet?',
    gold: ['William Shakespeare'],
    candidate: 'Shakespeare wrote it, in 1601.',
    label: 'overinclusive-valid',
  },
  {
    id: 'c',
    question: 'What gas do plants release?',
    gold: ['oxygen'],
    candidate: 'Plants do not release oxygen.',
    label: 'contradictory',
  },
  { id: 'd', question: 'How many legs does a spider have?', gold: ['eight', '8'], candidate: 'six', label: 'invalid' },
];
const content = rows.map((r) => JSON.stringify(r)).join('\n');

test('CAP and the taxonomy run on the fixture NLI model and agree with the CLI', async ({ page }, info) => {
  const device = info.project.name === 'webgpu' ? 'webgpu' : 'wasm';
  await openModels(page);
  await page.getByTestId('source-mirror').check();
  await page.getByTestId('settings-mirror-url').fill(MIRROR);
  await page.getByTestId('save-mirror').click();
  await expect(page.getByTestId('source-in-use')).toContainText(MIRROR);
  await page.getByTestId('choice-select-nli').selectOption('__other__');
  await page.getByTestId('choice-id-nli').fill('tiny-nli');
  await page.getByTestId('choice-revision-nli').fill(REV);
  await page.getByTestId('choice-revision-nli').press('Tab');
  await expect(page.getByTestId('choice-status-nli')).toHaveText('not downloaded');
  // Random weights fail the NLI canary: the fixture goes through the switch a user flips for an unchecked model.
  await page.getByTestId('skip-canary').check();
  await page.getByTestId('device-setting').selectOption(device);
  await page.getByTestId('choice-download-nli').click();
  await expect(page.getByTestId('choice-note-nli')).toContainText(`ready on ${device}`, { timeout: 30_000 });
  await expect(page.getByTestId('choice-status-nli')).toHaveText('cached');
  await page.screenshot({ path: info.outputPath('models.png'), fullPage: true });

  await page.goto('/#/score');
  await page.getByTestId('file-input').setInputFiles({ name: 'cap.jsonl', mimeType: 'application/json', buffer: Buffer.from(content) });
  await expect(page.getByTestId('mapped-summary')).toContainText('4 rows ready, 4 with a taxonomy label');
  for (const m of ['exact_match', 'token_f1', 'lexical_match', 'pedants', 'taxonomy_text']) await page.getByTestId(`metric-${m}`).uncheck();
  await page.getByTestId('metric-cap').check();
  await page.getByTestId('metric-taxonomy').check();
  await expect(page.getByTestId('model-needs')).toContainText('NLI: tiny-nli — cached');
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-progress')).toContainText('4 / 4 rows', { timeout: 60_000 });
  await expect(page.getByTestId('run-progress')).toContainText('done');
  await expect(page.getByTestId('models-used')).toContainText(`nli tiny-nli on ${device}/fp32`);
  await expect(page.getByTestId('report').getByTestId('monotonicity-cap')).toBeVisible();

  const [jsonl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-jsonl').click()]);
  const lines = readFileSync((await jsonl.path())!, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const header = lines.shift() as {
    verity_run: { models: Record<string, { id: string; revision: string; device: string; dtype: string; canary: string }> };
  };
  expect(header.verity_run.models.nli).toEqual({ id: 'tiny-nli', revision: REV, device, dtype: 'fp32', canary: 'skipped' });

  const dir = mkdtempSync(join(tmpdir(), 'verity-e2e-'));
  writeFileSync(join(dir, 'cap.jsonl'), content);
  const cli = execFileSync(
    'node',
    [
      'bin/verity.mjs',
      'score',
      join(dir, 'cap.jsonl'),
      '--metrics',
      'cap,taxonomy',
      '--nli-model',
      'test/models/tiny-nli',
      '--skip-canary',
      '--mirror',
      'http://127.0.0.1:9/',
    ],
    { encoding: 'utf8' },
  )
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { metrics: Record<string, { score: number; class?: string }> });
  expect(lines).toHaveLength(cli.length);
  lines.forEach((rec, i) => {
    const got = (rec as { metrics: Record<string, { score: number; class?: string }> }).metrics;
    expect(got.cap!.score).toBeCloseTo(cli[i]!.metrics.cap!.score, 3);
    expect(got.taxonomy!.class).toBe(cli[i]!.metrics.taxonomy!.class);
    expect(got.cap).toHaveProperty('details');
  });
});

test('a killed model worker mid-run: new workers, WASM, the run resumes with no row lost or repeated', async ({ page }, info) => {
  test.setTimeout(180_000);
  await page.addInitScript(
    ([mirror, rev]) => {
      localStorage.setItem(
        'verity.model-settings',
        JSON.stringify({ source: { kind: 'mirror', url: mirror }, choices: { nli: { id: 'tiny-nli', revision: rev } }, skipCanary: true }),
      );
    },
    [MIRROR, REV],
  );
  const n = 1200;
  const big = Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      id: `m${i}`,
      question: `What is item number ${i} called?`,
      gold: [`name ${i}`],
      candidate: i % 2 ? `It is called name ${i}.` : `Something ${i} else entirely`,
    }),
  ).join('\n');
  await page.goto('/#/score');
  await page.getByTestId('file-input').setInputFiles({ name: 'many.jsonl', mimeType: 'application/json', buffer: Buffer.from(big) });
  for (const m of ['exact_match', 'token_f1', 'lexical_match', 'pedants', 'taxonomy_text']) await page.getByTestId(`metric-${m}`).uncheck();
  await page.getByTestId('metric-cap').check();
  await expect(page.getByTestId('model-needs')).toContainText('NLI: tiny-nli — size unknown');
  await page.getByTestId('model-consent').check();
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-progress')).toContainText(/[1-9][\d,]* \/ 1,200 rows/, { timeout: 60_000 });
  await page.evaluate(() => (globalThis as { __verityModelWorker?: Worker }).__verityModelWorker!.terminate());
  await expect(page.getByText('resumed with new workers')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('run-progress')).toContainText('1,200 / 1,200 rows', { timeout: 150_000 });
  await expect(page.getByTestId('run-progress')).toContainText('done');
  const [jsonl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-jsonl').click()]);
  const lines = readFileSync((await jsonl.path())!, 'utf8')
    .trim()
    .split('\n');
  const header = JSON.parse(lines.shift()!) as { verity_run: { models: Record<string, { device: string }> } };
  expect(header.verity_run.models.nli!.device).toBe('wasm');
  const recs = lines.map((l) => JSON.parse(l) as { id: string; metrics: { cap: { score: number | null } } });
  expect(recs.map((r) => r.id)).toEqual(Array.from({ length: n }, (_, i) => `m${i}`));
  expect(recs.every((r) => typeof r.metrics.cap.score === 'number')).toBe(true);
  await page.screenshot({ path: info.outputPath('model-crash.png'), fullPage: true });
});
