/**
 * A new version while a tab is open (reliability issue item 6): the page looks for one when it comes back into
 * view, announces it, and takes it up on reload — from the banner's button or from a plain reload.
 *
 * A new version is made by changing the built dist/sw.js on disk (the preview server reads files per request),
 * and put back afterwards.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';

const SW = fileURLToPath(new URL('../dist/sw.js', import.meta.url));

/** The page as it would be after a while in the background: back in view, the app checks for a new version. */
const backInView = (page: Page) => page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));

/** The service worker registration's state; null while the page is between two loads (a reload into a new version). */
const registration = (page: Page) =>
  page
    .evaluate(async () => {
      const r = await navigator.serviceWorker.getRegistration();
      return { waiting: !!r?.waiting, installing: !!r?.installing, controlled: navigator.serviceWorker.controller !== null };
    })
    .catch(() => null);

test('a new version is announced while the tab is open and taken up on reload', async ({ page }) => {
  const original = readFileSync(SW, 'utf8');
  try {
    await page.goto('/#/learn');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await expect.poll(async () => (await registration(page))?.controlled).toBe(true);
    await expect(page.getByTestId('update-ready')).toHaveCount(0);

    // Version 2 is deployed; the open tab finds it, announces it, and the button switches to it.
    writeFileSync(SW, `${original}\n// e2e: version 2\n`);
    await backInView(page);
    await expect(page.getByTestId('update-ready')).toContainText('A new version of Verity is ready', { timeout: 20_000 });
    // Still on the old version (and the same page) until the user says so.
    expect((await registration(page))?.waiting).toBe(true);
    expect(new URL(page.url()).hash).toBe('#/learn');
    await Promise.all([page.waitForEvent('load'), page.getByTestId('update-reload').click()]);
    await expect.poll(() => registration(page)).toEqual({ waiting: false, installing: false, controlled: true });
    await expect(page.getByTestId('update-ready')).toHaveCount(0);
    expect(new URL(page.url()).hash).toBe('#/learn');

    // Version 3; this time the user just reloads the page.
    writeFileSync(SW, `${original}\n// e2e: version 3\n`);
    await backInView(page);
    await expect(page.getByTestId('update-ready')).toBeVisible({ timeout: 20_000 });
    await page.reload();
    // The reload loads the page once more, into the new version.
    await expect.poll(() => registration(page), { timeout: 20_000 }).toEqual({ waiting: false, installing: false, controlled: true });
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByTestId('update-ready')).toHaveCount(0);
  } finally {
    writeFileSync(SW, original);
  }
});
