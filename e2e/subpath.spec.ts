/**
 * The production build runs from any folder of a static host (a course site's sub-path, a GitHub Pages project
 * page): dist/ served under /some/sub/path/ scores a file, reads the demo set and the lexicon, and works offline
 * after the first visit. Opened as a file, it says how to serve it instead of showing a blank page.
 */
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';

const DIST = resolve('dist');
const SUB = '/some/sub/path/';
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.jsonl': 'application/octet-stream',
};

let server: Server;
let base = '';
/** Every request outside the sub-path, or for a file the build does not have. */
const misses: string[] = [];

test.beforeAll(async () => {
  // A plain static host: no rewrites, no special headers, only the files of dist/ under SUB.
  server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = path.startsWith(SUB) ? join(DIST, path.slice(SUB.length) || 'index.html') : '';
    if (!file || !file.startsWith(DIST) || !existsSync(file) || !statSync(file).isFile()) {
      misses.push(path);
      return void res.writeHead(404).end('not found');
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://localhost:${(server.address() as AddressInfo).port}${SUB}`;
});

test.afterAll(async () => {
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
});

test('dist/ served from a sub-path scores a file, loads the demo set, and works offline after the first visit', async ({
  page,
  context,
}) => {
  misses.length = 0;
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${base}#/score`);
  await expect(page.getByRole('heading', { name: 'Score a file' })).toBeVisible();
  const rows = [
    { question: 'Who wrote Hamlet?', gold: ['William Shakespeare'], candidate: 'the Bard of Avon' },
    { question: 'Largest planet?', gold: ['Jupiter'], candidate: 'Jupiter' },
    { question: 'Capital of Australia?', gold: ['Canberra'], candidate: 'Sydney' },
  ];
  await page.getByTestId('file-input').setInputFiles({
    name: 'sub.jsonl',
    mimeType: 'application/json',
    buffer: Buffer.from(rows.map((r) => JSON.stringify(r)).join('\n')),
  });
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-progress')).toContainText('3 / 3 rows');
  await expect(page.getByTestId('run-progress')).toContainText('done');
  await expect(page.getByTestId('result-row')).toHaveCount(3);

  // The Learn page's demo set (a public file) and the lexicon (an asset of the workers) come from the sub-path.
  await page.goto(`${base}#/learn`);
  await expect(page.getByTestId('learn-table')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('learn-summary')).toContainText('208 labelled rows');
  // The page read WordNet too: pedants names "the Bard of Avon" a synonym of the gold in the Playground.
  await page.goto(`${base}#/playground`);
  await page.getByLabel('Question').fill('Who wrote Hamlet?');
  await page.getByLabel(/Gold answers/).fill('William Shakespeare');
  await page.getByLabel('Candidate answer').fill('the Bard of Avon');
  await expect(page.getByTestId('pg-explanation-pedants')).toContainText('a WordNet synonym of gold "William Shakespeare"');
  // WordNet's licence is served beside its data.
  const licence = await page.getByRole('link', { name: 'its licence' }).getAttribute('href');
  const served = await page.request.get(new URL(licence!, page.url()).href);
  expect(served.ok()).toBe(true);
  expect(await served.text()).toContain('Princeton University');
  expect(misses, 'requests outside the sub-path or for missing files').toEqual([]);
  expect(errors).toEqual([]);

  // Offline after the first visit: the service worker's scope is the sub-path.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null)).toBe(`${base}sw.js`);
  await context.setOffline(true);
  await page.goto(`${base}#/score`);
  await expect(page.getByRole('heading', { name: 'Score a file' })).toBeVisible();
  await page.getByTestId('file-input').setInputFiles({
    name: 'offline.jsonl',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(rows[1]) + '\n'),
  });
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-progress')).toContainText('1 / 1 rows');
  await expect(page.getByTestId('result-row')).toHaveCount(1);
  await context.setOffline(false);
});

test('opened as a file, the build says how to serve it instead of a blank page', async ({ page }) => {
  await page.goto(pathToFileURL(join(DIST, 'index.html')).href);
  await expect(page.getByRole('heading', { name: 'Verity needs to be served, not opened as a file' })).toBeVisible();
  await expect(page.locator('#no-server pre')).toContainText('python3 -m http.server 8000');
});
