/**
 * The Learn page: its monotonicity table equals `verity evaluate --json` on the same demo set (same rounding),
 * the eight classes have an example each, every metric has its card and per-class chart, the demo set
 * downloads, and nothing leaves localhost.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';

const DEMO = 'public/demo/demo-set.jsonl';
const LEXICAL = ['exact_match', 'token_f1', 'lexical_match', 'bleu', 'rouge_l', 'meteor', 'pedants'];
const CLASSES = ['exact', 'equivalent', 'alternative-correct', 'overinclusive-valid', 'partial', 'overinclusive-invalid', 'invalid', 'contradictory'];
const HARD = { 'eq-part': 'Eq>Part', 'ov-part': 'OV>Part', 'ov-oi': 'OV>OI', 'alt-inv': 'Alt>Inv' } as const;

interface CliMetric {
  spearman: number | null;
  kendall: number | null;
  pairwise_accuracy: number | null;
  violations: { count: number; of: number };
  hard_pairs: Record<string, number | null>;
}

/** The CLI's report for the demo set (its JSON numbers are already rounded to 4 decimals). */
function cliReport(): { n: number; label_kind: string; metrics: Record<string, CliMetric> } {
  const out = execFileSync('node', ['bin/verity.mjs', 'evaluate', DEMO, '--metrics', LEXICAL.join(','), '--json', '--resamples', '0'], { encoding: 'utf8' });
  return JSON.parse(out) as ReturnType<typeof cliReport>;
}
/** As the CLI's text report prints a number. */
const fmt = (x: number | null) => (x === null ? '—' : x.toFixed(3));

async function guard(page: Page): Promise<string[]> {
  const outside: string[] = [];
  await page.route(/^(?!https?:\/\/localhost[:/]).*/, (route) => {
    outside.push(route.request().url());
    return route.abort();
  });
  return outside;
}

test('the monotonicity table matches `verity evaluate` on the demo set', async ({ page }) => {
  const outside = await guard(page);
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const cli = cliReport();
  expect(cli.label_kind).toBe('taxonomy');

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/#/learn');
  await expect(page.getByTestId('learn-table')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('learn-summary')).toContainText(`${cli.n} labelled rows`);

  for (const m of LEXICAL) {
    const want = cli.metrics[m]!;
    await expect(page.getByTestId(`learn-rho-${m}`)).toHaveText(fmt(want.spearman));
    await expect(page.getByTestId(`learn-tau-${m}`)).toHaveText(fmt(want.kendall));
    await expect(page.getByTestId(`learn-pa-${m}`)).toHaveText(fmt(want.pairwise_accuracy));
    await expect(page.getByTestId(`learn-violations-${m}`)).toHaveText(`${want.violations.count}/${want.violations.of}`);
    for (const [id, key] of Object.entries(HARD)) await expect(page.getByTestId(`learn-${id}-${m}`)).toHaveText(fmt(want.hard_pairs[key]!));
  }
  const leader = LEXICAL.reduce((a, b) => ((cli.metrics[b]!.spearman ?? -Infinity) > (cli.metrics[a]!.spearman ?? -Infinity) ? b : a));
  await expect(page.getByTestId('learn-best')).toHaveText(leader);
  await expect(page.getByTestId(`learn-row-${leader}`).locator('td.best').first()).toBeVisible();

  // One example per class, each metric's card and chart.
  for (const c of CLASSES) await expect(page.getByTestId(`learn-class-${c}`).locator('dd').first()).not.toBeEmpty();
  for (const m of LEXICAL) {
    await expect(page.getByTestId(`learn-card-${m}`)).toContainText('Citation');
    const chart = page.getByTestId(`class-bands-${m}`);
    await expect(chart.locator('svg')).toBeVisible();
    await expect(chart.getByRole('img')).toHaveAttribute('aria-label', new RegExp(`^${m} scores per class; means: exact \\d`));
  }

  // The download link serves the same file.
  const href = await page.getByTestId('learn-download').getAttribute('href');
  const served = await page.request.get(href!);
  expect(served.ok()).toBe(true);
  expect(await served.text()).toBe(readFileSync(DEMO, 'utf8'));

  await page.screenshot({ path: test.info().outputPath('learn.png'), fullPage: true });
  expect(outside).toEqual([]);
  expect(errors).toEqual([]);
});

test('narrow window: no sideways overflow, the table scrolls in its own region', async ({ page }) => {
  const outside = await guard(page);
  await page.setViewportSize({ width: 420, height: 900 });
  await page.goto('/#/learn');
  await expect(page.getByTestId('learn-table')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('class-bands-pedants').locator('svg')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(420);
  await page.screenshot({ path: test.info().outputPath('learn-narrow.png'), fullPage: true });
  expect(outside).toEqual([]);
});

test('model-based metrics join the table and the charts after an asked-for download', async ({ page }) => {
  test.setTimeout(180_000);
  const outside = await guard(page);
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  // The tiny fixture models from the test mirror, chosen as the Models page stores choices.
  const choice = (id: string) => ({ id, revision: 'e2e0000000000000000000000000000000000001' });
  const settings = {
    source: { kind: 'mirror', url: `http://localhost:${Number(process.env.MIRROR_PORT ?? 4180)}/` },
    choices: { nli: choice('tiny-nli'), reranker: choice('tiny-reranker'), embedder: choice('tiny-embedder'), statements: choice('tiny-t5') },
  };
  await page.addInitScript((s) => localStorage.setItem('verity.model-settings', s), JSON.stringify(settings));
  await page.goto('/#/learn');
  await expect(page.getByTestId('learn-table')).toBeVisible({ timeout: 30_000 });

  await page.getByTestId('learn-load').click();
  await page.getByRole('button', { name: 'Download and score' }).click();
  for (const m of ['cap', 'hierarchy', 'nli_lex', 'avert', 'bertscore', 'taxonomy']) {
    await expect(page.getByTestId(`learn-rho-${m}`)).toHaveText(/^-?\d\.\d{3}$/, { timeout: 150_000 });
    await expect(page.getByTestId(`learn-violations-${m}`)).toHaveText(/^\d+\/27$/);
    await expect(page.getByTestId(`class-bands-${m}`).locator('svg')).toBeVisible();
    await expect(page.getByTestId(`learn-card-${m}`)).toContainText('Citation');
  }
  // The embedded metrics' rows are still there, unchanged in number.
  await expect(page.getByTestId('learn-table').locator('tbody tr')).toHaveCount(13);
  await page.screenshot({ path: test.info().outputPath('learn-models.png'), fullPage: true });
  expect(outside).toEqual([]);
  expect(errors).toEqual([]);
});
