/**
 * The review queue in the app (issue 36): a run of two systems without labels, a review of a few rows answered
 * with keys and buttons, a reload in the middle (the saved run reopened: no answer lost, the queue where it was
 * left), undo, the labels exported as JSONL, and the comparison's leaderboard using the reviewed accuracy.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { reviewAnswers } from '../test/review-answers.ts';

const records = reviewAnswers(30);

test('a review of a few rows survives a reload; labels export and fold into the comparison', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/#/score');
  await page
    .getByTestId('file-input')
    .setInputFiles({ name: 'answers.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(records)) });
  await expect(page.getByTestId('map-system')).toHaveValue('wide');
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-progress')).toContainText('done');

  const review = page.getByTestId('review');
  await review.scrollIntoViewIfNeeded();
  await review.getByTestId('review-budget').fill('6');
  await review.getByTestId('review-start').click();
  const item = review.getByTestId('review-item');
  await expect(item).toBeVisible();
  await expect(review.getByTestId('review-answered')).toHaveText('0');
  const asked = Number((await review.getByTestId('review-progress').textContent())!.match(/of (\d+) rows answered/)![1]);
  expect(asked).toBeGreaterThanOrEqual(5);
  expect(asked).toBeLessThanOrEqual(6);

  // Keys: c correct, w wrong; a button: skip.
  const first = await review.getByTestId('review-question').textContent();
  await page.keyboard.press('c');
  await expect(review.getByTestId('review-answered')).toHaveText('1');
  await expect(review.getByTestId('review-question')).not.toHaveText(first!);
  await page.keyboard.press('w');
  await expect(review.getByTestId('review-answered')).toHaveText('2');
  await review.getByTestId('review-skip').click();
  await expect(review.getByTestId('review-answered')).toHaveText('3');
  await expect(review.getByTestId('review-progress')).toContainText('(2 labelled, 1 skipped)');
  const fourth = await review.getByTestId('review-question').textContent();

  // A reload: the saved run reopened, the review where it was left.
  await page.reload();
  await page.getByTestId('saved-runs').locator('summary').click();
  await page.getByTestId('saved-run').filter({ hasText: 'answers.json' }).getByTestId('open-run').click();
  await expect(page.getByTestId('run-progress')).toContainText('done');
  await review.scrollIntoViewIfNeeded();
  await expect(review.getByTestId('review-answered')).toHaveText('3');
  await expect(review.getByTestId('review-progress')).toContainText('(2 labelled, 1 skipped)');
  await expect(review.getByTestId('review-question')).toHaveText(fourth!);

  // Undo takes the last answer back; the run has a class metric (taxonomy_text), so keys 1–8 give a class.
  await page.keyboard.press('u');
  await expect(review.getByTestId('review-answered')).toHaveText('2');
  await expect(review.locator('[data-testid^="review-class-"]')).toHaveCount(8);
  await page.keyboard.press('2');
  await expect(review.getByTestId('review-answered')).toHaveText('3');
  await expect(review.getByTestId('review-progress')).toContainText('(3 labelled, 0 skipped)');

  // The labels as JSONL: id, system, label, how picked, time, input.
  const [download] = await Promise.all([page.waitForEvent('download'), review.getByTestId('review-export').click()]);
  expect(download.suggestedFilename()).toBe('answers.review.jsonl');
  const lines = readFileSync((await download.path())!, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(lines).toHaveLength(3);
  expect(lines.map((l) => l.label)).toContain('equivalent');
  for (const l of lines) {
    expect(Object.keys(l)).toEqual(['id', 'system', 'label', 'picked', 'time', 'input']);
    expect(['a', 'b']).toContain(l.system);
    expect([true, false, 'equivalent']).toContain(l.label);
    expect(l.input).toMatch(/^[0-9a-f]{64}$/);
  }

  // The comparison counts the labels: reviewed accuracy per system, and says so.
  const cmp = page.getByTestId('comparison');
  await expect(cmp.getByTestId('reviewed-note')).toContainText('3 of 60 rows have a label');
  await expect(cmp.getByTestId('lb-a-reviewed')).toHaveText(/^\d\.\d{3}$/);
  await expect(review.getByTestId('review-estimate-a')).toBeVisible();

  // The refit says what the labels favour and what it did with it.
  await review.getByTestId('review-refit').click();
  await expect(review.getByTestId('review-note')).toContainText(
    /pedants: your labels favour threshold \d\.\d{3} \(fitted on 3 reviewed rows\)/,
  );
  await expect(review.getByTestId('review-note')).toContainText(/(Threshold [\d.]+ → [\d.]+|the threshold stays [\d.]+)/);
});
