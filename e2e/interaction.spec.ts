/**
 * Interaction and accessibility (trust issue items 11, 15–17, 19, 20): what a keyboard user and a narrow or
 * ordinary window meet on the Score, Learn and Models pages.
 */
import { expect, test, type Page } from '@playwright/test';
import { MODEL, finish, open, openModels } from './helpers.ts';
import { DEFAULT_METRICS } from '../src/core/metrics/index.ts';

const binary = [
  {
    id: 'a',
    question: 'What gas do plants release during photosynthesis?',
    gold: ['oxygen'],
    candidate: 'Plants release oxygen.',
    label: true,
  },
  { id: 'b', question: 'Who wrote Hamlet?', gold: ['William Shakespeare'], candidate: 'Christopher Marlowe', label: false },
  { id: 'c', question: 'How many legs does a spider have?', gold: ['8'], candidate: 'eight', label: true },
  { id: 'd', question: 'What is the capital of Australia?', gold: ['Canberra'], candidate: 'Sydney', label: false },
]
  .map((r) => JSON.stringify(r))
  .join('\n');

async function upload(page: Page, name: string, content: string) {
  await page.getByTestId('file-input').setInputFiles({ name, mimeType: 'application/octet-stream', buffer: Buffer.from(content) });
}

/** Scores the binary sample with the default metrics, starting the run from the keyboard. */
async function scoreByKeyboard(page: Page) {
  await upload(page, 'binary.jsonl', binary);
  await expect(page.getByTestId('mapped-summary')).toContainText('4 rows ready');
  await page.getByTestId('run').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('run-progress')).toContainText('done');
  await expect(page.getByTestId('result-row')).toHaveCount(4);
}

const focusedTestId = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? null);

test("binary labels: the Class filter is taxonomy_text's alone; an empty filtered view says why and can be cleared", async ({ page }) => {
  const watch = await open(page, '/#/score', 1280);
  await scoreByKeyboard(page);
  // No human classes: the classes are the ones the default taxonomy_text gives, so no "by" choice.
  await page.getByTestId('filter-class').selectOption('exact');
  await expect(page.getByTestId('filter-class-by')).toHaveCount(0);
  await expect(page.getByTestId('view-count')).toHaveText('0 of 4 rows');
  await page.getByTestId('filter-class').selectOption('');
  await expect(page.getByTestId('view-count')).toHaveText('4 of 4 rows');

  await page.getByTestId('table-search').fill('no such text anywhere');
  await expect(page.getByTestId('view-count')).toHaveText('0 of 4 rows');
  const empty = page.getByTestId('view-empty');
  await expect(empty).toContainText('No row matches');
  await expect(empty).toContainText('search “no such text anywhere”');
  await empty.getByRole('button', { name: 'Clear the filters' }).click();
  await expect(page.getByTestId('view-count')).toHaveText('4 of 4 rows');
  await expect(page.getByTestId('table-search')).toHaveValue('');
  await expect(empty).toHaveCount(0);

  await page.getByTestId('filter-decision-metric').selectOption('exact_match');
  await page.getByTestId('filter-decision-value').selectOption('null');
  await expect(empty).toContainText('exact_match: not scored');
  await finish(page, 'empty-view.png', watch);
});

test('Learn: each model metric checkbox ticks and unticks, and the models listed follow', async ({ page }) => {
  const watch = await open(page, '/#/learn', 1280);
  await expect(page.getByTestId('learn-table')).toBeVisible({ timeout: 30_000 });
  // Every model metric starts ticked, so its models are listed.
  for (const m of MODEL) await expect(page.getByTestId(`learn-use-${m}`)).toBeChecked();
  await expect(page.getByTestId('learn-need-nli')).toBeVisible();
  for (const m of MODEL) {
    const box = page.getByTestId(`learn-use-${m}`);
    await box.click();
    await expect(box).not.toBeChecked();
  }
  await expect(page.getByTestId('learn-models')).toContainText('Choose at least one metric to run.');
  await expect(page.getByTestId('learn-load')).toBeDisabled();
  for (const m of MODEL) {
    const box = page.getByTestId(`learn-use-${m}`);
    await box.click();
    await expect(box).toBeChecked();
  }
  // bertscore alone needs only the embedder.
  for (const m of MODEL.filter((x) => x !== 'bertscore')) await page.getByTestId(`learn-use-${m}`).click();
  await expect(page.getByTestId('learn-need-embedder')).toBeVisible();
  await expect(page.getByTestId('learn-need-nli')).toHaveCount(0);
  await finish(page, 'learn-ticks.png', watch);
});

for (const path of ['learn', 'playground', 'models', 'score'] as const) {
  test(`"Skip to content" on ${path} stays on the page and moves focus to the content`, async ({ page }) => {
    const watch = await open(page, `/#/${path}`, 1280);
    await expect(page.locator('main h1')).toBeVisible();
    const heading = await page.locator('main h1').first().textContent();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.locator('main')).toBeFocused();
    // (The Playground keeps its example in the address: #/playground?q=….)
    expect(new URL(page.url()).hash).toMatch(new RegExp(`^#/${path}(\\?|$)`));
    await expect(page.locator('main h1').first()).toHaveText(heading!);
    // The next Tab lands inside the content, not back in the header.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.querySelector('main')!.contains(document.activeElement))).toBe(true);
    await finish(page, `skip-${path}.png`, watch);
  });
}

test('focus is back on the Score button after a run', async ({ page }) => {
  const watch = await open(page, '/#/score', 1280);
  // Long enough that the page renders while the button is disabled (Chromium then moves the focus to <body>).
  const rows = Array.from({ length: 3000 }, (_, i) => ({
    question: `Question ${i}?`,
    gold: 'Shakespeare',
    candidate: i % 3 ? 'Shakespeare' : 'Marlowe',
  }));
  await upload(page, 'long.jsonl', rows.map((r) => JSON.stringify(r)).join('\n'));
  await expect(page.getByTestId('mapped-summary')).toContainText('3,000 rows ready');
  await page.getByTestId('run').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('run-progress')).toContainText('done');
  await expect.poll(() => focusedTestId(page)).toBe('run');
  await finish(page, 'focus-run.png', watch);
});

test('focus: arrows move between rows, closing the detail returns to the row', async ({ page }) => {
  const watch = await open(page, '/#/score', 1280);
  await scoreByKeyboard(page);

  const rows = page.getByTestId('result-row');
  await rows.first().focus();
  await page.keyboard.press('ArrowDown');
  await expect(rows.nth(1)).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(rows.nth(2)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(rows.nth(1)).toBeFocused();
  await page.keyboard.press('End');
  await expect(rows.nth(3)).toBeFocused();
  await page.keyboard.press('Home');
  await expect(rows.nth(0)).toBeFocused();
  await page.keyboard.press('ArrowDown');

  // Enter opens the detail of the focused row; Escape closes it and focus is back on that row.
  await page.keyboard.press('Enter');
  const detail = page.getByTestId('row-detail');
  await expect(detail).toBeFocused();
  await expect(detail.getByRole('heading', { level: 3 })).toContainText('Row 2');
  // The heading is on screen, not scrolled off the top.
  await expect(detail.getByRole('heading', { level: 3 })).toBeInViewport({ ratio: 1 });
  await page.keyboard.press('Escape');
  await expect(detail).toHaveCount(0);
  await expect(rows.nth(1)).toBeFocused();

  // The Close button does the same.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(detail).toBeFocused();
  await detail.getByRole('button', { name: 'Close the row detail' }).click();
  await expect(detail).toHaveCount(0);
  await expect(rows.nth(2)).toBeFocused();
  await finish(page, 'focus.png', watch);
});

test('the row-detail heading stays in view when the detail opens below the fold and is taller than the window', async ({ page }) => {
  const watch = await open(page, '/#/score', 1280);
  await page.setViewportSize({ width: 1280, height: 600 });
  const many = Array.from({ length: 40 }, (_, i) => ({
    id: `r${i}`,
    question: `Question ${i}?`,
    gold: ['William Shakespeare'],
    candidate: i % 2 ? 'Shakespeare' : 'Marlowe',
    label: i % 2 === 1,
  }));
  await upload(page, 'many.jsonl', many.map((r) => JSON.stringify(r)).join('\n'));
  for (const m of ['bleu', 'rouge_l', 'meteor']) await page.getByTestId(`metric-${m}`).check();
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-progress')).toContainText('done');
  await page.getByTestId('result-row').nth(1).click();
  const detail = page.getByTestId('row-detail');
  await expect(detail).toBeFocused();
  expect(await detail.evaluate((d) => d.getBoundingClientRect().height)).toBeGreaterThan(600);
  await expect(detail.getByRole('heading', { level: 3 })).toBeInViewport({ ratio: 1 });
  await finish(page, 'detail-heading.png', watch);
});

/** Whether an element is fully inside its scroll box's visible part and the window, as it is now. */
const inView = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((el) => {
    const box = el.closest('[data-testid=results-table]')!.getBoundingClientRect();
    const r = el.getBoundingClientRect();
    return r.left >= box.left - 1 && r.right <= box.right + 1 && r.right <= window.innerWidth;
  });

test('1024 px (a projector): the default metrics’ columns are in view without scrolling; 420 px: each one scrolls into view in the table', async ({
  page,
}) => {
  const watch = await open(page, '/#/score', 1024);
  await scoreByKeyboard(page);
  const metrics = [...DEFAULT_METRICS];
  const last = metrics[metrics.length - 1]!;
  for (const m of metrics) expect(await inView(page, `sort-${m}`), `${m} at 1024 px`).toBe(true);

  await page.setViewportSize({ width: 420, height: 900 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(420);
  // The table scrolls sideways on its own, from the keyboard too: a focused row's ArrowRight scrolls it.
  const table = page.getByTestId('results-table');
  await page.getByTestId('result-row').first().focus();
  for (let i = 0; i < 40 && !(await inView(page, `sort-${last}`)); i++) await page.keyboard.press('ArrowRight');
  expect(await inView(page, `sort-${last}`)).toBe(true);
  expect(await table.evaluate((t) => t.scrollLeft)).toBeGreaterThan(0);
  for (const m of metrics) {
    await page.getByTestId(`sort-${m}`).scrollIntoViewIfNeeded();
    expect(await inView(page, `sort-${m}`), `${m} at 420 px`).toBe(true);
  }
  await finish(page, 'columns.png', watch);
});

test('420 px: the report tables and the Models page fit without sideways scrolling', async ({ page }) => {
  const watch = await open(page, '/#/score', 420);
  await scoreByKeyboard(page);
  const report = page.getByTestId('report');
  await expect(report).toBeVisible();
  for (const t of await report.locator('table:not(.confusion)').all()) {
    const [client, scroll] = await t.evaluate((el) => [el.parentElement!.clientWidth, el.scrollWidth]);
    expect(scroll, (await t.getAttribute('data-testid')) ?? 'report table').toBeLessThanOrEqual(client);
  }
  await openModels(page);
  for (const role of ['nli', 'reranker', 'embedder', 'statements']) {
    const button = page.getByTestId(`choice-download-${role}`);
    await expect(button).toBeVisible();
    const box = (await button.boundingBox())!;
    expect(box.x + box.width, `${role} download button`).toBeLessThanOrEqual(420);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(420);
  await finish(page, 'narrow.png', watch);
});

test('texts: no words run together, no double spaces', async ({ page }) => {
  const watch = await open(page, '/#/score', 1280);
  // No column the app can take for the candidate: the mapping is incomplete until one is chosen.
  const odd = [
    { question: 'Who wrote Hamlet?', gold: 'Shakespeare', zzz: 'Marlowe' },
    { question: 'Largest planet?', gold: 'Jupiter', zzz: 'Jupiter' },
  ];
  await upload(page, 'odd.jsonl', odd.map((r) => JSON.stringify(r)).join('\n'));
  await expect(page.getByTestId('score-error')).toBeVisible();
  // Exactly one space (toHaveText would collapse two).
  await expect.poll(() => page.getByTestId('run').evaluate((b) => b.textContent)).toBe('Score rows');
  await page.getByTestId('map-candidate').selectOption('zzz');
  await expect(page.getByTestId('run')).toHaveText('Score 2 rows');
  // The device line, e.g. "Runs on WASM, 2 threads (why not WebGPU)." with a space before the parenthesis.
  await page.getByTestId('metric-cap').check();
  await expect(page.getByTestId('model-needs')).toContainText('Runs on ');
  const needs = await page.getByTestId('model-needs').textContent();
  expect(needs).not.toMatch(/\w\(/);
  if (test.info().project.name === 'wasm') expect(needs).toMatch(/Runs on WASM, \d+ threads? \(/);

  await page.goto('/#/playground');
  await page.getByTestId('pg-candidate').fill(`${await page.getByTestId('pg-candidate').inputValue()} x`);
  await expect(page.getByTestId('pg-note')).toContainText('(You have edited the example since.)');
  expect(await page.getByTestId('pg-note').textContent()).toMatch(/\S \(You have edited/);
  await finish(page, 'texts.png', watch);
});
