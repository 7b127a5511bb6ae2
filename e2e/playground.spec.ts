/**
 * The Playground: every embedded metric scores each class example live on the main thread (numbers checked
 * against `verity explain`), typing re-scores, and the model-based metrics run after an explicit download from
 * the test mirror (tiny fixture models). No request leaves localhost.
 */
import { execFileSync } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import { CLASSES, LEXICAL, MODEL, finish, open, useTestModels } from './helpers.ts';

const SCORE = /^(\d\.\d{3}|—)$/;

/** What the CLI says about one example, as the page prints it. */
function explain(question: string, golds: string[], candidate: string): Record<string, string> {
  const out = execFileSync(
    'node',
    [
      'bin/verity.mjs',
      'explain',
      '--question',
      question,
      ...golds.flatMap((g) => ['--gold', g]),
      '--candidate',
      candidate,
      '--metrics',
      LEXICAL.join(','),
      '--json',
    ],
    {
      encoding: 'utf8',
    },
  );
  const rec = JSON.parse(out) as { metrics: Record<string, { score: number | null }> };
  return Object.fromEntries(LEXICAL.map((m) => [m, rec.metrics[m]!.score === null ? '—' : rec.metrics[m]!.score!.toFixed(3)]));
}

async function pageScores(page: Page): Promise<Record<string, string>> {
  return Object.fromEntries(
    await Promise.all(LEXICAL.map(async (m) => [m, (await page.getByTestId(`pg-score-${m}`).textContent())!.trim()] as const)),
  );
}

test('each class example shows every embedded metric, with the numbers the CLI gives, and lands in its class', async ({ page }) => {
  const watch = await open(page, '/#/playground', 1280);
  await expect(page.getByRole('heading', { name: 'Playground', level: 1 })).toBeVisible();

  for (const cls of CLASSES) {
    await page.getByTestId(`pg-preset-${cls}`).click();
    await expect(page.getByTestId(`pg-preset-${cls}`)).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('pg-note')).toContainText(`${cls}:`);
    for (const m of LEXICAL) {
      await expect(page.getByTestId(`pg-score-${m}`)).toHaveText(SCORE);
      await expect(page.getByTestId(`pg-decision-${m}`)).toHaveText(/correct|incorrect|n\/a/);
      await expect(page.getByTestId(`pg-explanation-${m}`)).not.toBeEmpty();
    }
    // The embedded taxonomy puts each example in its own class, with no download; a right answer the golds do not
    // list is beyond any text metric (the example's lesson).
    await expect(page.getByTestId('pg-decision-taxonomy_text')).toHaveText(
      new RegExp(` · ${cls === 'alternative-correct' ? 'invalid' : cls}$`),
    );
    // The model-based metrics are listed with what they need, not scored.
    for (const m of MODEL) await expect(page.getByTestId(`pg-result-${m}`)).toContainText('Not scored yet');
    await expect(page.getByTestId('pg-statement-candidate')).not.toBeEmpty();
  }

  // The contradiction: word overlap fools BLEU, exact match is 0.
  await page.getByTestId('pg-preset-contradictory').click();
  await expect(page.getByTestId('pg-note')).toContainText('BLEU scores the contradiction high');
  expect(Number(await page.getByTestId('pg-score-bleu').textContent())).toBeGreaterThan(0.3);
  await expect(page.getByTestId('pg-score-exact_match')).toHaveText('0.000');
  await expect(page.getByTestId('pg-statement-candidate')).toHaveText('The Eiffel Tower is not in Paris.');
  expect(await pageScores(page)).toEqual(
    explain('Where is the Eiffel Tower?', ['The Eiffel Tower is in Paris'], 'The Eiffel Tower is not in Paris'),
  );

  await finish(page, 'playground.png', watch);
});

test('typing re-scores live; controls are labelled; narrow layout', async ({ page }) => {
  const watch = await open(page, '/#/playground', 420);
  await page.getByTestId('pg-preset-exact').click();
  await expect(page.getByTestId('pg-score-exact_match')).toHaveText('1.000');

  // Every input is reachable by its label.
  const candidate = page.getByLabel('Candidate answer');
  await expect(page.getByLabel('Question')).toHaveValue('What is the capital of France?');
  await expect(page.getByLabel(/Gold answers/)).toHaveValue('Paris');
  await expect(page.getByLabel(/Choices/)).not.toHaveValue('');

  await candidate.click();
  await candidate.press('End');
  await candidate.pressSequentially(', France');
  await expect(page.getByTestId('pg-score-exact_match')).toHaveText('0.000');
  await expect(page.getByTestId('pg-score-lexical_match')).toHaveText('1.000');
  await expect(page.getByTestId('pg-note')).toContainText('edited');
  await expect(page.getByTestId('pg-preset-exact')).toHaveAttribute('aria-pressed', 'false');

  await page.getByLabel(/Gold answers/).fill('Paris\nParis, France');
  await expect(page.getByTestId('pg-score-exact_match')).toHaveText('1.000');
  await expect(page.getByTestId('pg-explanation-exact_match')).toContainText('Paris, France');
  await expect(page.getByTestId('pg-statements')).toContainText('Gold 2');
  expect(await pageScores(page)).toEqual(explain('What is the capital of France?', ['Paris', 'Paris, France'], 'Paris, France'));

  await page.getByLabel(/Gold answers/).fill('');
  await expect(page.getByText('Add at least one gold answer')).toBeVisible();

  // Presets work from the keyboard.
  await page.getByTestId('pg-preset-partial').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Candidate answer')).toHaveValue('1912');
  await expect(page.getByTestId('pg-score-token_f1')).toHaveText('0.500');

  // Nothing overflows sideways at 420 px.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(420);
  await finish(page, 'playground-narrow.png', watch);
});

test('model-based metrics: sized list, ask before downloading, then scored and re-scored after typing', async ({ page }) => {
  await useTestModels(page);
  const watch = await open(page, '/#/playground', 1280);

  for (const role of ['nli', 'reranker', 'embedder']) await expect(page.getByTestId(`pg-need-${role}`)).toContainText(`tiny-`);
  await expect(page.getByTestId('pg-need-statements')).toHaveCount(0);

  await page.getByTestId('pg-load').click();
  const ask = page.getByTestId('pg-ask');
  await expect(ask).toContainText('from your mirror');
  // The confirm button takes the focus, so Enter downloads.
  await expect(page.getByTestId('pg-confirm')).toBeFocused();
  await page.keyboard.press('Enter');

  for (const m of MODEL) await expect(page.getByTestId(`pg-explanation-${m}`)).not.toBeEmpty({ timeout: 60_000 });
  for (const m of ['cap', 'hierarchy', 'nli_lex', 'avert', 'taxonomy'])
    await expect(page.getByTestId(`pg-score-${m}`)).toHaveText(/^\d\.\d{3}$/);
  await expect(page.getByTestId('pg-load')).toHaveCount(0);
  await expect(page.getByTestId('pg-model-error')).toHaveCount(0);

  const before = await page.getByTestId('pg-explanation-cap').textContent();
  await page.getByLabel('Candidate answer').fill('The Eiffel Tower is in Rome');
  await expect(page.getByTestId('pg-explanation-cap')).not.toHaveText(before!, { timeout: 30_000 });
  await expect(page.getByTestId('pg-result-cap')).toContainText('The Eiffel Tower is in Rome');

  await finish(page, 'playground-models.png', watch);
});

test('one size per model and device: the sizes listed add up to the download asked for', async ({ page }) => {
  // The registry's pinned models (no download happens: the question is cancelled).
  const watch = await open(page, '/#/playground', 1280);
  const sizes: number[] = [];
  for (const role of ['nli', 'reranker', 'embedder']) {
    const need = page.getByTestId(`pg-need-${role}`);
    await expect(need).toContainText(/— [\d.]+ MB/);
    sizes.push(Number(/— ([\d.]+) MB/.exec((await need.textContent())!)![1]));
  }
  await page.getByTestId('pg-load').click();
  const ask = page.getByTestId('pg-ask');
  await expect(ask).toContainText(/Download about [\d.]+ MB/);
  const asked = Number(/Download about ([\d.]+) MB/.exec((await ask.textContent())!)![1]);
  // Each listed size is rounded to a megabyte: the total agrees within that rounding.
  expect(Math.abs(asked - sizes.reduce((a, b) => a + b, 0))).toBeLessThanOrEqual(sizes.length);
  // And the list did not change when the device was found.
  for (const [i, role] of ['nli', 'reranker', 'embedder'].entries())
    await expect(page.getByTestId(`pg-need-${role}`)).toContainText(`— ${sizes[i]} MB`);
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await finish(page, 'playground-sizes.png', watch);
});

test('a gold line that lists several answers is said to be one gold, and split on request', async ({ page }) => {
  const watch = await open(page, '/#/playground', 1024);
  await page.getByTestId('pg-preset-exact').click();
  const golds = page.getByLabel(/Gold answers/);
  await golds.fill('Paris | City of Light');
  await expect(page.getByTestId('pg-joined')).toContainText('“Paris | City of Light” is read as one gold answer');
  await page.getByTestId('pg-split').click();
  await expect(golds).toHaveValue('Paris\nCity of Light');
  await expect(page.getByTestId('pg-joined')).toHaveCount(0);
  expect(watch.errors).toEqual([]);
});
