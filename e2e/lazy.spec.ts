/**
 * The Score page's first load: no other page, nor the comparison, the report or the charts, is
 * fetched until it is shown; each comes when first needed. (Sizes: npm run bench:bundle, bench/REPORT.md.)
 */
import { expect, test } from '@playwright/test';

const LAZY = /^(Learn|Models|Playground|Comparison|Report|ClassBands)-[\w-]+\.js$/;

test('the Score page fetches no other page or chart code; Learn and the report come when shown', async ({ page }) => {
  // Scripts the page itself asks for (the service worker's precache requests are the context's, not the page's).
  const fetched: string[] = [];
  page.on('request', (r) => {
    const name = new URL(r.url()).pathname.split('/').pop() ?? '';
    if (name.endsWith('.js')) fetched.push(name);
  });
  await page.goto('/#/score');
  await expect(page.getByRole('heading', { name: 'Score a file' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(fetched.filter((n) => LAZY.test(n))).toEqual([]);
  expect(fetched.some((n) => /^index-/.test(n))).toBe(true);

  // A run shows the report: its chunk comes then (fetched ahead once the file is mapped).
  await page.getByTestId('file-input').setInputFiles({
    name: 'small.jsonl',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(`${JSON.stringify({ question: 'Q?', gold: 'a', candidate: 'a', label: true })}\n`),
  });
  await page.getByTestId('run').click();
  await expect(page.getByTestId('report')).toBeAttached({ timeout: 30_000 });
  expect(fetched.some((n) => /^Report-/.test(n))).toBe(true);
  expect(fetched.some((n) => /^Learn-/.test(n))).toBe(false);

  await page.goto('/#/learn');
  await expect(page.getByTestId('learn-classes')).toBeVisible();
  expect(fetched.some((n) => /^Learn-/.test(n))).toBe(true);
});
