/**
 * In class: a Playground example lives in its link, a projector's first screen (1024×768) shows every metric's
 * score, Learn's table exports as CSV, the homework template ships with the demo set, and the terms the pages use
 * link to one line each in Learn's glossary.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import Papa from 'papaparse';
import { LEXICAL, finish, open } from './helpers.ts';

test('a Playground example lives in its link: reload, a new tab and the copied link open it', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const watch = await open(page, '/#/playground', 1280);
  await page.getByLabel('Question').fill('Who discovered penicillin?');
  await page.getByLabel(/Gold answers/).fill('Alexander Fleming\nFleming');
  await page.getByLabel('Candidate answer').fill('Sir Alexander Fleming & co. (1928) #1?');
  await expect(page).toHaveURL(/#\/playground\?q=Who\+discovered\+penicillin%3F&g=Alexander\+Fleming&g=Fleming&c=/);
  const link = page.url();

  await page.reload();
  await expect(page.getByLabel('Question')).toHaveValue('Who discovered penicillin?');
  await expect(page.getByLabel(/Gold answers/)).toHaveValue('Alexander Fleming\nFleming');
  await expect(page.getByLabel('Candidate answer')).toHaveValue('Sir Alexander Fleming & co. (1928) #1?');
  // No preset is marked: the example is the link's.
  await expect(page.getByRole('group', { name: /Examples/ }).locator('[aria-pressed="true"]')).toHaveCount(0);

  await page.getByTestId('pg-copy-link').click();
  await expect(page.getByTestId('pg-copied')).toHaveText('Link copied: it opens this example.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

  const other = await context.newPage();
  await other.goto(link);
  await expect(other.getByLabel('Candidate answer')).toHaveValue('Sir Alexander Fleming & co. (1928) #1?');
  await expect(other.getByTestId('pg-line-score-lexical_match')).toHaveText('1.000');
  await other.close();

  // A link pasted while the Playground is open replaces the example.
  await page.evaluate(() => (location.hash = '#/playground?q=Largest+planet%3F&g=Jupiter&c=Saturn'));
  await expect(page.getByLabel('Candidate answer')).toHaveValue('Saturn');
  await expect(page.getByTestId('pg-line-score-exact_match')).toHaveText('0.000');
  await finish(page, 'playground-link.png', watch);
});

test('projector, 1024×768: the first screen shows one line per metric — score, ✓/✗, reason — with the cards folded', async ({ page }) => {
  const watch = await open(page, '/#/playground');
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.getByTestId('pg-preset-partial').click();
  for (const m of LEXICAL) {
    const line = page.getByTestId(`pg-line-${m}`);
    await expect(line).toBeInViewport({ ratio: 1 });
    await expect(line).toContainText(/\d\.\d{3}/);
    await expect(line).toContainText(/[✓✗]/);
    expect((await line.locator('.reason').textContent())!.length).toBeGreaterThan(5);
  }
  await expect(page.getByTestId('pg-cards')).not.toHaveAttribute('open');
  await page.screenshot({ path: test.info().outputPath('playground-1024x768.png') });
  // The cards open with one click, and name the terms they use.
  await page.getByTestId('pg-cards').locator('summary').click();
  await expect(page.getByTestId('pg-result-bleu')).toBeVisible();
  await expect(page.getByTestId('pg-result-bleu').locator('[data-term="bp"]')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
  await finish(page, 'playground-projector.png', watch);
});

test('large text: type larger and every reason whole, at 1024×768 and at 150% zoom; remembered and in the link', async ({
  page,
  browser,
}) => {
  const watch = await open(page, '/#/playground');
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.getByTestId('pg-preset-overinclusive-invalid').click();
  const cut = () =>
    page.evaluate(
      () => [...document.querySelectorAll<HTMLElement>('.glance .reason')].filter((e) => e.scrollWidth > e.clientWidth + 1).length,
    );
  // Without it, at a projector's width, some reason is cut with "…".
  expect(await cut()).toBeGreaterThan(0);
  await page.getByTestId('large-text').click();
  await expect(page.getByTestId('large-text')).toHaveAttribute('aria-pressed', 'true');
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe('20px');
  await expect(page).toHaveURL(/\?text=large#\/playground/);
  expect(await cut()).toBe(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
  await page.screenshot({ path: test.info().outputPath('large-text-1024x768.png') });
  await page.locator('.glance').screenshot({ path: test.info().outputPath('large-text-glance-1024x768.png') });
  // Remembered: a reload, and a page opened without the parameter, keep it; the link's ?text=normal turns it off.
  await page.reload();
  await expect(page.getByTestId('large-text')).toHaveAttribute('aria-pressed', 'true');
  await page.goto('/#/learn');
  await expect(page).toHaveURL(/\?text=large#\/learn/);
  await page.goto('/?text=normal#/playground');
  await expect(page.getByTestId('large-text')).toHaveAttribute('aria-pressed', 'false');
  // A link with ?text=large opens it in a browser that never chose it; at 150% zoom (1024×768 seen at 1.5×) nothing
  // is cut and nothing scrolls sideways.
  const zoomed = await browser.newPage({ viewport: { width: 683, height: 512 }, deviceScaleFactor: 1.5 });
  await zoomed.route(/^(?!https?:\/\/localhost[:/]).*/, (r) => r.abort());
  await zoomed.goto(`${new URL(page.url()).origin}/?text=large#/playground`);
  await zoomed.getByTestId('pg-preset-overinclusive-invalid').click();
  await expect(zoomed.getByTestId('large-text')).toHaveAttribute('aria-pressed', 'true');
  expect(
    await zoomed.evaluate(
      () => [...document.querySelectorAll<HTMLElement>('.glance .reason')].filter((e) => e.scrollWidth > e.clientWidth + 1).length,
    ),
  ).toBe(0);
  expect(await zoomed.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(683);
  await zoomed.screenshot({ path: test.info().outputPath('large-text-150pct.png') });
  await zoomed.locator('.glance').screenshot({ path: test.info().outputPath('large-text-glance-150pct.png') });
  await zoomed.close();
  await finish(page, 'large-text.png', watch);
});

test('Learn: the table exports as CSV, the homework template is served, the CAP paper is cited, terms link to the glossary', async ({
  page,
}) => {
  const watch = await open(page, '/#/learn', 1024);
  await expect(page.getByTestId('learn-table')).toBeVisible({ timeout: 30_000 });
  const best = (await page.getByTestId('learn-best').textContent())!;

  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('learn-export').click()]);
  expect(csv.suggestedFilename()).toBe('verity-learn-monotonicity.csv');
  const table = Papa.parse<Record<string, string>>(readFileSync((await csv.path())!, 'utf8'), { header: true, skipEmptyLines: true }).data;
  expect(table.map((r) => r.metric)).toEqual([...LEXICAL]);
  for (const r of table) {
    await expect(page.getByTestId(`learn-pa-${r.metric}`)).toHaveText(Number(r.pairwise_accuracy).toFixed(4));
    await expect(page.getByTestId(`learn-violations-${r.metric}`)).toHaveText(
      `${r.violations}/${r.of}${r.tied !== '0' ? `, ${r.tied} tied` : ''}`,
    );
  }
  // Every metric the headline names is flagged most monotone in the CSV, and no other (a tie names them all).
  const crowned = table.filter((r) => r.most_monotone === 'yes').map((r) => r.metric);
  expect(crowned.length).toBeGreaterThan(0);
  expect(best).toBe(crowned.length > 1 ? `${crowned.slice(0, -1).join(', ')} and ${crowned.at(-1)}, tied` : crowned[0]);

  const template = await page.request.get(new URL((await page.getByTestId('learn-template').getAttribute('href'))!, page.url()).href);
  expect(template.ok()).toBe(true);
  expect(await template.text()).toBe(readFileSync('public/demo/homework-template.csv', 'utf8'));

  await expect(page.locator('#learn-cap-citation')).toContainText('OpenReview QaUpgKM18R');
  // The footnote link, followed and then reloaded, opens the Learn page at the reference (not the Score page).
  await page.locator('a[href="#learn-cap-citation"]').click();
  await page.reload();
  await expect(page.locator('#learn-cap-citation')).toBeInViewport();
  await expect(page.getByTestId('learn-table')).toBeVisible();

  // ρ in the table's explanation is a link to its line in the glossary.
  await page.locator('.explain [data-term="spearman"]').click();
  await expect(page).toHaveURL(/#\/learn\?term=spearman$/);
  await expect(page.locator('#term-spearman')).toBeInViewport();
  await expect(page.locator('#term-spearman')).toHaveClass(/shown/);
  await expect(page.getByTestId('learn-glossary')).toContainText('bootstrap interval');
  await finish(page, 'learn-1024.png', watch);
});

test('a term link opened before the demo set has loaded keeps its line in view as the charts arrive above it', async ({ page }) => {
  // The demo set is held back until the line has been scrolled to: the metric sections then mount above the glossary.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/demo/demo-set.jsonl', async (route) => {
    await held;
    await route.continue();
  });
  const watch = await open(page, '/#/learn?term=mcc', 1024);
  const line = page.locator('#term-mcc');
  await expect(line).toBeInViewport();
  release();
  await expect(page.getByTestId('learn-card-exact_match')).toBeAttached();
  await expect(line).toBeInViewport();
  await expect(line).toHaveClass(/shown/);
  await finish(page, 'learn-term-late.png', watch);
});

test("the Score page's report links MCC, κ, AUC and the bootstrap interval to the glossary", async ({ page }) => {
  const watch = await open(page, '/#/score', 1024);
  const rows = [
    { question: 'Who wrote Hamlet?', gold: ['William Shakespeare'], candidate: 'Shakespeare', label: true },
    { question: 'Largest planet?', gold: ['Jupiter'], candidate: 'Saturn', label: false },
    { question: 'Spider legs?', gold: ['8'], candidate: 'eight', label: true },
  ];
  await page.getByTestId('file-input').setInputFiles({
    name: 'terms.jsonl',
    mimeType: 'application/json',
    buffer: Buffer.from(rows.map((r) => JSON.stringify(r)).join('\n')),
  });
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-progress')).toContainText('done');
  const report = page.getByTestId('report');
  for (const k of ['mcc', 'kappa', 'auc', 'bootstrap']) await expect(report.locator(`[data-term="${k}"]`).first()).toBeAttached();
  await expect(report.locator('[data-term="mcc"]').first()).toHaveAttribute('title', /Matthews|confusion matrix/);
  await report.locator('[data-term="mcc"]').first().click();
  await expect(page.getByRole('heading', { name: /^Learn/ })).toBeVisible();
  await expect(page.locator('#term-mcc')).toBeInViewport();
  await finish(page, 'score-terms.png', watch);
});
