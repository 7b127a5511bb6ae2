/**
 * A first visit: the Score page's first screen offers the two demo files, and each scores at once with the
 * embedded default — the demo set to its table and report, the comparison demo to its ranked systems (their human
 * accuracy counted from the file by hand here), with the review under it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { finish, open } from './helpers.ts';
import { diverRows } from '../test/diver-rows.ts';

const f3 = (x: number) => x.toFixed(3);

/** Opens a file on the Score page (a path, or rows written as JSONL) and scores it with the embedded default. */
async function scoreFile(page: Page, file: string | { name: string; rows: object[] }) {
  await page.getByTestId('file-input').setInputFiles(
    typeof file === 'string'
      ? file
      : {
          name: file.name,
          mimeType: 'application/octet-stream',
          buffer: Buffer.from(file.rows.map((r) => JSON.stringify(r)).join('\n')),
        },
  );
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-progress')).toContainText('done', { timeout: 60_000 });
}

test('the first screen: "Try it with the demo set" scores the 208 rows with the embedded default, table and report', async ({ page }) => {
  const watch = await open(page, '/', 1280);
  await expect(page.getByTestId('demos')).toBeVisible();
  await page.getByTestId('try-demo').click();
  await expect(page.getByTestId('run-progress')).toContainText('done', { timeout: 60_000 });
  await expect(page.getByTestId('run-progress')).toContainText('208');
  await expect(page.getByTestId('result-row').first()).toBeVisible();
  await expect(page.getByTestId('report')).toBeVisible();
  await expect(page.getByTestId('comparison')).toHaveCount(0);
  await finish(page, 'first-use-demo.png', watch);
});

test('the first screen: "Try a comparison" ranks the three demo systems, with their human accuracy and a review', async ({ page }) => {
  const rows = readFileSync(new URL('../public/demo/compare-demo.jsonl', import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { system: string; label: string });
  const correct = new Set(['exact', 'equivalent', 'alternative-correct', 'overinclusive-valid']);
  const watch = await open(page, '/', 1280);
  await page.getByTestId('try-compare').click();
  await expect(page.getByTestId('run-progress')).toContainText('done', { timeout: 60_000 });
  const cmp = page.getByTestId('comparison');
  await expect(cmp).toBeVisible();
  for (const s of ['careful', 'verbose', 'hasty']) {
    const mine = rows.filter((r) => r.system === s);
    expect(mine).toHaveLength(26);
    await expect(cmp.getByTestId(`lb-${s}-human`)).toHaveText(f3(mine.filter((r) => correct.has(r.label)).length / 26));
    await expect(cmp.getByTestId(`lb-${s}-accuracy`)).toHaveText(/^\d\.\d{3}$/);
  }
  // The paired verdicts as a matrix: every ordered pair worded in its cell, each system's record beside it.
  const matrix = cmp.getByTestId('pair-matrix');
  await matrix.scrollIntoViewIfNeeded();
  await expect(matrix.locator('tbody tr')).toHaveCount(3);
  await expect(matrix.getByTestId('matrix-careful-verbose')).toHaveAttribute('title', /^careful (>|<|vs) verbose/);
  for (const s of ['careful', 'verbose', 'hasty']) await expect(matrix.getByTestId(`matrix-${s}-record`)).toHaveText(/^\d \/ \d$/);
  await expect(page.getByTestId('review')).toBeVisible();
  // The answer first: the chosen metric's leaderboard above the overview; the reading notes folded at the end.
  const top = async (id: string) => (await cmp.getByTestId(id).boundingBox())!.y;
  expect(await top('leaderboard')).toBeLessThan(await top('compare-overview'));
  await expect(cmp.getByTestId('compare-notes')).not.toHaveAttribute('open');
  const [dl] = await Promise.all([page.waitForEvent('download'), cmp.getByTestId('export-report-html').click()]);
  const html = readFileSync((await dl.path())!, 'utf8');
  expect(html.indexOf('data-testid="html-headline"')).toBeGreaterThan(0);
  expect(html.indexOf('data-testid="html-headline"')).toBeLessThan(html.indexOf('Accuracy of each system, by metric'));
  expect(html.indexOf('data-testid="html-notes"')).toBeGreaterThan(html.indexOf('data-testid="html-matrix-exact_match"'));
  await finish(page, 'first-use-compare.png', watch);
});

test('a dataset column is offered as "Split by": each system per split and its macro average, as verity compare --split-by', async ({
  page,
}) => {
  const topic = new Map(
    readFileSync(new URL('../public/demo/demo-set.jsonl', import.meta.url), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { question: string; topic: string })
      .map((r) => [r.question, r.topic] as const),
  );
  const rows = readFileSync(new URL('../public/demo/compare-demo.jsonl', import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { question: string; system: string; label: string })
    .map((r) => ({ ...r, dataset: topic.get(r.question)! }));
  const dir = mkdtempSync(join(tmpdir(), 'verity-split-'));
  const file = join(dir, 'datasets.jsonl');
  writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n'));
  const cli = JSON.parse(
    execFileSync('node', ['bin/verity.mjs', 'compare', file, '--split-by', 'dataset', '--json'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  ) as { summary: { metric: string; systems: { system: string; macro: number; ci: [number, number] }[] }[] };

  const watch = await open(page, '/', 1280);
  await scoreFile(page, file);
  const splits = page.getByTestId('splits');
  await splits.scrollIntoViewIfNeeded();
  await expect(splits.getByTestId('split-by').locator('option')).toHaveText(['— no split —', 'dataset']);
  await splits.getByTestId('split-by').selectOption('dataset');
  await expect(splits.getByTestId('split-sizes')).toHaveText('science: 13 questions · general: 13 questions');
  const correct = new Set(['exact', 'equivalent', 'alternative-correct', 'overinclusive-valid']);
  for (const s of ['careful', 'verbose', 'hasty']) {
    const acc = (d: string) => {
      const mine = rows.filter((r) => r.system === s && r.dataset === d);
      return mine.filter((r) => correct.has(r.label)).length / mine.length;
    };
    await expect(splits.getByTestId(`split-macro-human-${s}`)).toContainText(((acc('science') + acc('general')) / 2).toFixed(3));
    // The chosen metric's macro average and interval: the CLI's, to the digit shown.
    const metric = await page.getByTestId('compare-metric').inputValue();
    const c = cli.summary.find((x) => x.metric === metric)!.systems.find((x) => x.system === s)!;
    await expect(splits.getByTestId(`split-macro-${metric}-${s}`)).toHaveText(
      `${c.macro.toFixed(3)} [${c.ci[0].toFixed(3)}, ${c.ci[1].toFixed(3)}]`,
    );
  }
  await finish(page, 'split-by.png', watch);
  rmSync(dir, { recursive: true, force: true });
});

test('six systems on one spot of the scatter: each label that moved away is tied to its dot by a line, in the app and the HTML report', async ({
  page,
}) => {
  // Five systems with the same answers and labels share one dot, whose labels cannot all sit beside it; the sixth
  // differs on one answer and one label, so neither ranking is all ties and the HTML report draws its scatter too.
  const qs = ['Paris', 'Rome', 'Oslo', 'Lima', 'Bern', 'Kyiv'];
  const rows = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'].flatMap((system) =>
    qs.map((g, k) => ({
      id: `q${k}`,
      system,
      question: `Capital number ${k}?`,
      gold: g,
      candidate: k < (system === 'foxtrot' ? 3 : 4) ? g : 'Madrid',
      label: k < (system === 'foxtrot' ? 4 : 5),
    })),
  );
  const watch = await open(page, '/', 1280);
  await scoreFile(page, { name: 'six.jsonl', rows });
  const scatter = page.getByTestId('chart-scatter');
  await scatter.scrollIntoViewIfNeeded();
  await expect(scatter.locator('svg text').filter({ hasText: 'foxtrot' })).toHaveCount(1);
  await expect(scatter.locator('g[aria-label="link"] path').first()).toBeAttached();
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-report-html').click()]);
  const html = readFileSync((await dl.path())!, 'utf8');
  expect(html.match(/<line [^>]*stroke="#888"\/>/g)?.length ?? 0).toBeGreaterThan(0);
  await finish(page, 'leader-lines.png', watch);
});

test('system names that hold the dataset (diver/<dataset>/<model>) are offered as a split: the models compared per dataset', async ({
  page,
}) => {
  const rows = diverRows();
  const watch = await open(page, '/', 1280);
  await scoreFile(page, { name: 'diver.jsonl', rows });
  const splits = page.getByTestId('splits');
  await splits.scrollIntoViewIfNeeded();
  await splits.getByTestId('split-by').selectOption('system/');
  await expect(splits.getByTestId('split-sizes')).toHaveText('diver/nq: 4 questions · diver/tq: 4 questions');
  // llama: 1 of 4 right on nq, 2 of 4 on tq → (0.25 + 0.5) / 2.
  await expect(splits.getByTestId('split-macro-human-llama')).toContainText('0.375');
  await expect(splits.getByTestId('split-macro-human-gpt4')).toContainText('1.000');
  await finish(page, 'split-by-system-names.png', watch);
});

test('a link whose address after # cannot be read opens the Score page with a one-line note', async ({ page }) => {
  for (const hash of ['#%', '#%E0%A4%A']) {
    const watch = await open(page, `/${hash}`, 1024);
    await expect(page.getByTestId('bad-link')).toContainText('could not be read');
    await expect(page.getByTestId('demos')).toBeVisible();
    expect(watch.errors).toEqual([]);
  }
});
