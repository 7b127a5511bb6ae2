/**
 * A first visit: the Score page's first screen offers the two demo files, and each scores at once with the
 * embedded default — the demo set to its table and report, the comparison demo to its ranked systems (their human
 * accuracy counted from the file by hand here), with the review under it.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { finish, open } from './helpers.ts';

const f3 = (x: number) => x.toFixed(3);

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
  await finish(page, 'first-use-compare.png', watch);
});
