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

const LOSE_FIRST_REQUEST = `let lost = false;
self.addEventListener('message', (e) => {
  if (!lost && e.data?.type === 'SKIP_WAITING') { lost = true; e.stopImmediatePropagation(); }
});`;

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

/**
 * The browser's own account of the service worker versions (DevTools protocol), so a failure says which version
 * was stuck where: a lost SKIP_WAITING leaves the new one "installed", an old one still busy keeps it "activating".
 */
async function versionTrail(page: Page): Promise<string[]> {
  const trail: string[] = [];
  const t0 = Date.now();
  const cdp = await page.context().newCDPSession(page);
  cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
    for (const v of versions)
      trail.push(
        `${Date.now() - t0} ms: version ${v.versionId} ${v.status} ${v.runningStatus}, clients ${v.controlledClients?.length ?? 0}`,
      );
  });
  page.on('console', (m) => trail.push(`${Date.now() - t0} ms: console.${m.type()}: ${m.text()}`));
  await cdp.send('ServiceWorker.enable');
  return trail;
}

test('a new version is announced while the tab is open and taken up on reload', async ({ page }) => {
  const original = readFileSync(SW, 'utf8');
  const trail = await versionTrail(page);
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

    // Version 3; this time the user just reloads the page. Its first request to take over is lost (a listener ahead
    // of Workbox's swallows it), and the page asks again while the version waits.
    writeFileSync(SW, `${LOSE_FIRST_REQUEST}\n${original}\n// e2e: version 3\n`);
    await backInView(page);
    await expect(page.getByTestId('update-ready')).toBeVisible({ timeout: 20_000 });
    await page.reload();
    // The reload loads the page once more, into the new version.
    await expect.poll(() => registration(page), { timeout: 20_000 }).toEqual({ waiting: false, installing: false, controlled: true });
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByTestId('update-ready')).toHaveCount(0);
  } catch (e) {
    if (e instanceof Error) e.message += `\n\nService worker versions and console, from the start of the test:\n${trail.join('\n')}`;
    throw e;
  } finally {
    writeFileSync(SW, original);
  }
});
