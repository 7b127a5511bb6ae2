/** After one visit the app opens and scores with the embedded default with the network off (service worker precache). */
import { expect, test } from '@playwright/test';

test('works offline after the first visit', async ({ page, context }) => {
  await page.goto('/#/score');
  await expect(page.getByRole('heading', { name: 'Score a file' })).toBeVisible();
  // Wait until the service worker has installed its precache and controls the page.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Score a file' })).toBeVisible();
  const rows = [
    { question: 'Who wrote Hamlet?', gold: ['William Shakespeare'], candidate: 'Shakespeare' },
    { question: 'Largest planet?', gold: ['Jupiter'], candidate: 'Jupiter' },
  ];
  await page.getByTestId('file-input').setInputFiles({
    name: 'offline.jsonl',
    mimeType: 'application/json',
    buffer: Buffer.from(rows.map((r) => JSON.stringify(r)).join('\n')),
  });
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-progress')).toContainText('2 / 2 rows');
  await expect(page.getByTestId('result-row')).toHaveCount(2);
  // The Learn page's demo set comes from the precache too.
  await page.goto('/#/learn');
  await expect(page.getByText('208', { exact: false }).first()).toBeVisible({ timeout: 30_000 });
  await context.setOffline(false);
});
