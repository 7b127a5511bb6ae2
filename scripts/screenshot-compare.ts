/**
 * The screenshot in docs/compare.md of the app's comparison view: the five EVOUNA systems (../shared/data/evouna-tq/TQ.json,
 * read where it is), mapped as the app maps them, golds split on "/" (as the page chooses by itself), scored with the default metrics; the
 * overview, the leaderboard and the charts of one metric saved to docs/compare.png.
 *
 *   npx vite build && npx tsx scripts/screenshot-compare.ts [--metric lexical_match] [--port 4299]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '@playwright/test';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const metric = arg('metric', 'lexical_match');
const port = Number(arg('port', '4299'));
const ROOT = process.cwd();
const TQ = join(ROOT, '..', 'shared', 'data', 'evouna-tq', 'TQ.json');
const OUT = join(ROOT, 'docs', 'compare.png');

async function waitFor(url: string, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer in ${ms / 1000} s`);
}

async function main(): Promise<void> {
  if (!existsSync(TQ)) throw new Error(`${TQ} not found: the EVOUNA data is expected beside the repository`);
  if (!existsSync(join(ROOT, 'dist', 'index.html'))) throw new Error('no dist/: run npx vite build first');
  // vite's own entry, not npx: killing the child then ends the server.
  const server = spawn(
    process.execPath,
    [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'preview', '--port', String(port), '--strictPort'],
    {
      stdio: 'ignore',
    },
  );
  try {
    await waitFor(`http://localhost:${port}/`, 30_000);
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    await page.goto(`http://localhost:${port}/#/score`);
    await page.getByTestId('file-input').setInputFiles(TQ);
    await page.getByTestId('map-system').locator('option[value="wide"]').waitFor({ state: 'attached' });
    await page.getByTestId('mapped-summary').waitFor();
    // The page splits EVOUNA's golds on "/" by itself; the screenshot shows the default, so it must have.
    const sep = await page.getByTestId('gold-sep').inputValue();
    if (sep !== '/') throw new Error(`the page chose gold separator "${sep}", not "/"`);
    await page.getByTestId('run').click();
    const cmp = page.getByTestId('comparison');
    await cmp.getByTestId('leaderboard').waitFor({ timeout: 300_000 });
    await cmp.getByTestId('compare-metric').selectOption(metric);
    await cmp.getByTestId('chart-scatter').waitFor();
    await page.waitForTimeout(500);
    // From the section's title to the end of its charts, in page coordinates (the clip of a full-page shot).
    // (No named helper inside evaluate: tsx's keepNames would reference __name, which the page lacks.)
    const top = await page.locator('#compare-title').evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
    const ends = await Promise.all(
      ['chart-bars', 'chart-scatter'].map((id) =>
        page.getByTestId(id).evaluate((el) => el.getBoundingClientRect().bottom + window.scrollY),
      ),
    );
    const box = { top, bottom: Math.max(...ends) };
    mkdirSync(join(ROOT, 'docs'), { recursive: true });
    await page.screenshot({ path: OUT, fullPage: true, clip: { x: 0, y: box.top - 8, width: 1100, height: box.bottom - box.top + 16 } });
    await browser.close();
    process.stdout.write(`${OUT}: ${Math.round(statSync(OUT).size / 1024)} KB\n`);
  } finally {
    server.kill();
  }
}

await main();
