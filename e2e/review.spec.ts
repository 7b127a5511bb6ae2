/**
 * The review in the app: a run of two systems without labels; questions answered with keys and buttons, an answer
 * two systems gave asked once ("given by 2 systems"), the "when to stop" line; a reload in the middle (the saved
 * run reopened: no answer lost, the review where it was left); undo; the review exported as the label file the CLI
 * reads; the comparison's leaderboard ranked by the review's estimate with rank intervals; two tabs answering the
 * same run without losing an answer; deleting a run that holds answers asks first; a review split by a column; the
 * label memory per project.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Download, type Locator, type Page } from '@playwright/test';
import { reviewAnswers } from '../test/review-answers.ts';

const records = reviewAnswers(30);

async function scoreAnswers(page: Page, rows: readonly object[] = records, name = 'answers.json'): Promise<void> {
  await page.goto('/#/score');
  await page.getByTestId('file-input').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(rows)) });
  await expect(page.getByTestId('map-system')).toHaveValue('wide');
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-progress')).toContainText('done');
}

/** A run of the answers, and a review of every distinct answer started on it: the review panel. */
async function reviewEveryAnswer(page: Page): Promise<Locator> {
  await scoreAnswers(page);
  const review = page.getByTestId('review');
  await review.scrollIntoViewIfNeeded();
  await review.getByTestId('review-budget').fill('100%');
  await review.getByTestId('review-start').click();
  return review;
}

/** A downloaded JSONL file's lines. */
async function jsonLines(download: Download): Promise<Record<string, unknown>[]> {
  return readFileSync((await download.path())!, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

async function openSaved(page: Page): Promise<void> {
  await page.getByTestId('saved-runs').locator('summary').click();
  await page.getByTestId('saved-run').filter({ hasText: 'answers.json' }).getByTestId('open-run').click();
  await expect(page.getByTestId('run-progress')).toContainText('done');
}

test('a review survives a reload; the export is a label file; the comparison ranks by the estimate', async ({ page }) => {
  test.setTimeout(120_000);
  const review = await reviewEveryAnswer(page);
  const item = review.getByTestId('review-item');
  await expect(item).toBeVisible();
  await expect(review.getByTestId('review-answered')).toHaveText('0');
  // 60 rows; on 5 questions (q0, q6, …) both systems gave the gold: 55 distinct answers, each asked once.
  await expect(review.getByTestId('review-progress')).toContainText('of 55 questions answered');
  await expect(review.getByTestId('review-stop')).toContainText('When to stop:');
  // Before the first answer, what to expect: each accuracy's half-width and the pairs likely to be ordered.
  await expect(review.getByTestId('review-stop')).toContainText(
    /Expected before any answer, from the judge's priority .*each accuracy known to about ±0\.\d{3} at the widest after all 55 answers/,
  );

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
  await openSaved(page);
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

  // Answer on until a question two systems gave comes up: it says so, and is answered once for both.
  for (let k = 0; k < 52 && !(await review.getByTestId('review-given-by').textContent())!.includes('2 systems'); k++) {
    await page.keyboard.press('c');
    await expect(review.getByTestId('review-answered')).toHaveText(String(4 + k));
  }
  await expect(review.getByTestId('review-given-by')).toHaveText('Given by 2 systems: a, b');

  // What the answers say about the judge: each system's row and every system's, opened on request and kept up.
  const aboutJudge = review.getByTestId('review-judge');
  await aboutJudge.locator('summary').click();
  await expect(aboutJudge.getByTestId('judge-errors')).toBeVisible();
  await expect(aboutJudge.getByTestId('judge-a')).toBeVisible();
  await expect(aboutJudge.getByTestId('judge-b')).toBeVisible();
  const all = await aboutJudge.getByTestId('judge-all').textContent();
  await page.keyboard.press('w');
  await expect(aboutJudge.getByTestId('judge-all')).not.toHaveText(all!);

  // The review as a label file: one line per question, the answered ones labelled, with the design.
  const [download] = await Promise.all([page.waitForEvent('download'), review.getByTestId('review-export').click()]);
  expect(download.suggestedFilename()).toBe('answers.review.jsonl');
  const lines = await jsonLines(download);
  expect(lines).toHaveLength(55);
  expect(lines.map((l) => l.label)).toContain('equivalent');
  for (const l of lines) {
    expect(l).toMatchObject({ design: { groups: 55, asked: 55 }, input: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(['a', 'b']).toContain(l.system);
  }

  // The same as a spreadsheet: a line a question, the label column, the line itself last; imported back, it adds nothing.
  const [sheet] = await Promise.all([page.waitForEvent('download'), review.getByTestId('review-export-csv').click()]);
  expect(sheet.suggestedFilename()).toBe('answers.review.csv');
  const csv = readFileSync((await sheet.path())!, 'utf8');
  expect(csv.split('\n')[0]).toBe(
    'order,id,system,question,golds,candidate,label,judge,judge_score,judge_decision,judge_explanation,why,verity',
  );
  expect(csv).toContain(',equivalent,');
  await review
    .getByTestId('review-import-file')
    .setInputFiles({ name: 'answers.review.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(review.getByTestId('review-note')).toContainText(
    /answers\.review\.csv: nothing new: all \d+ answers were already in this review/,
  );

  // The comparison ranks by the review's estimate, with the ranks each system can hold.
  const cmp = page.getByTestId('comparison');
  await expect(cmp.getByTestId('reviewed-note')).toContainText(/reviewed: \d+ of 60 rows labelled/);
  await expect(cmp.getByTestId('lb-a-reviewed')).toHaveText(/^\d\.\d{3}$/);
  await expect(cmp.getByTestId('lb-a-ranks')).toHaveText(/^[12](–2)?$/);
  await expect(review.getByTestId('review-estimate-a')).toBeVisible();
  // What the review says about the judge: a row per system and one for both, rates as shares with their intervals.
  const judge = cmp.getByTestId('judge-errors');
  await judge.scrollIntoViewIfNeeded();
  const cellsOf = (id: string) => judge.getByTestId(id).locator('td');
  await expect(cellsOf('judge-a')).toHaveCount(9);
  await expect(cellsOf('judge-a').nth(1)).toHaveText('30');
  await expect(cellsOf('judge-a').nth(3)).toHaveText(/^[+−]\d+\.\d$/);
  await expect(cellsOf('judge-all').nth(0)).toHaveText('all systems');
  await expect(cellsOf('judge-all').nth(1)).toHaveText('60');
  // No rate claims certainty from a handful of answers: every interval given has width.
  for (const id of ['judge-a', 'judge-b', 'judge-all'])
    for (const k of [4, 6, 8]) {
      const text = (await cellsOf(id).nth(k).textContent())!;
      const ends = text.match(/[−+]?\d+\.\d/g)?.map((x) => Number(x.replace('−', '-')));
      if (ends) expect(ends[1]! - ends[0]!, `${id} ${text}`).toBeGreaterThan(0);
    }

  // The refit says what the labels favour and what it did with it.
  await review.getByTestId('review-refit').click();
  await expect(review.getByTestId('review-note')).toContainText(
    /pedants: your labels favour threshold \d\.\d{3} \(fitted on \d+ reviewed rows/,
  );
  await expect(review.getByTestId('review-note')).toContainText(/(Threshold [\d.]+ → [\d.]+|the threshold stays [\d.]+)/);

  // A bad file's error does not stand beside the last note.
  await review
    .getByTestId('review-import-file')
    .setInputFiles({ name: 'bad.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from('not json\n') });
  await expect(review.getByTestId('review-error')).toContainText('bad.jsonl, line 1 is not JSON');
  await expect(review.getByTestId('review-note')).toHaveCount(0);

  // Deleting the run asks first: it holds answers.
  await page.getByTestId('saved-runs').locator('summary').click();
  const saved = page.getByTestId('saved-run').filter({ hasText: 'answers.json' });
  await expect(saved.getByTestId('saved-answers')).toHaveText(/^\d+ answers$/);
  await saved.getByTestId('delete-run').click();
  await expect(saved.getByTestId('delete-run-confirm')).toContainText(/review answers\? They cannot be brought back/);
  await saved.getByTestId('delete-run-no').click();
  await expect(page.getByTestId('saved-run').filter({ hasText: 'answers.json' })).toHaveCount(1);
});

test('two tabs answering the same saved run keep every answer', async ({ page, context }) => {
  test.setTimeout(120_000);
  await scoreAnswers(page);
  const review = page.getByTestId('review');
  await review.scrollIntoViewIfNeeded();
  await review.getByTestId('review-budget').fill('20');
  await review.getByTestId('review-start').click();
  await expect(review.getByTestId('review-item')).toBeVisible();

  const other = await context.newPage();
  await other.goto('/#/score');
  await openSaved(other);
  const review2 = other.getByTestId('review');
  await review2.scrollIntoViewIfNeeded();
  await expect(review2.getByTestId('review-item')).toBeVisible();

  // Each tab answers its own questions in turn, neither reloading: the first tab questions 1–3, the other 11 and 12.
  const goTo = async (r: typeof review, n: number) => {
    const at = async () => Number((await r.getByTestId('review-item').getAttribute('aria-label'))!.match(/^Question (\d+)/)![1]);
    for (let m = await at(); m !== n; m = await at()) {
      await r.getByRole('button', { name: m < n ? 'Next question' : 'Previous question' }).click();
      await expect(r.getByTestId('review-item')).toHaveAttribute('aria-label', `Question ${m < n ? m + 1 : m - 1} of 20`);
    }
  };
  await review.getByTestId('review-correct').click();
  await expect(review.getByTestId('review-answered')).toHaveText('1');
  await goTo(review2, 11);
  await review2.getByTestId('review-wrong').click();
  await expect(review2.getByTestId('review-answered')).toHaveText('2');
  await review.getByTestId('review-correct').click();
  await expect(review.getByTestId('review-answered')).toHaveText('3');
  await goTo(review2, 12);
  await review2.getByTestId('review-correct').click();
  await expect(review2.getByTestId('review-answered')).toHaveText('4');
  await review.getByTestId('review-wrong').click();
  await expect(review.getByTestId('review-answered')).toHaveText('5');

  await other.close();
  await page.reload();
  await openSaved(page);
  await review.scrollIntoViewIfNeeded();
  await expect(review.getByTestId('review-answered')).toHaveText('5');
});

test('a review split by a column: offered, drawn for the mean over its values, said, exported', async ({ page }) => {
  test.setTimeout(120_000);
  await scoreAnswers(
    page,
    records.map((r, i) => ({ ...r, part: i < 10 ? 'small' : 'big' })),
    'parted.json',
  );
  const review = page.getByTestId('review');
  await review.scrollIntoViewIfNeeded();
  await expect(review.getByTestId('review-split')).toBeVisible();
  await review.getByTestId('review-split').selectOption('part');
  await review.getByTestId('review-budget').fill('10');
  await review.getByTestId('review-start').click();
  await expect(review.getByTestId('review-progress')).toContainText('drawn split by part');
  for (let k = 1; k <= 4; k++) {
    await page.keyboard.press(k === 2 ? 'w' : 'c');
    await expect(review.getByTestId('review-answered')).toHaveText(String(k));
  }
  // Each system's estimate per value of the column and their mean, with its interval, in the panel.
  const splits = review.getByTestId('review-splits');
  await splits.locator('summary').click();
  const table = splits.getByTestId('split-table-reviewed');
  await expect(table).toBeVisible();
  await expect(table.locator('thead th')).toHaveText(['system', 'small', 'big', 'macro average [95% CI]']);
  await expect(table.locator('tbody th')).toHaveText(['a', 'b']);
  await expect(splits.getByTestId('split-macro-reviewed estimate-a')).toContainText(/\d\.\d{3}/);
  const download = page.waitForEvent('download');
  await review.getByTestId('review-export').click();
  const first = JSON.parse(readFileSync(await (await download).path(), 'utf8').split('\n')[0]!) as { design: { split?: string } };
  expect(first.design.split).toBe('part');
});

test('verdicts are remembered across runs, per project: the next review in it leaves them out; listed, exported and forgotten on request', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await scoreAnswers(page);
  const review = page.getByTestId('review');
  await review.scrollIntoViewIfNeeded();
  await expect(review.getByTestId('review-project')).toHaveValue('default');
  await review.getByTestId('review-project').fill('week-1');
  await review.getByTestId('review-budget').fill('100%');
  await review.getByTestId('review-start').click();
  await expect(review.getByTestId('review-progress')).toContainText('of 55 questions answered');
  await expect(review.getByTestId('review-in-project')).toHaveText('week-1');
  for (let k = 1; k <= 5; k++) {
    await page.keyboard.press(k % 2 ? 'c' : 'w');
    await expect(review.getByTestId('review-answered')).toHaveText(String(k));
  }

  // A new run of the same file: the project answered last is picked, and its five verdicts offered.
  await scoreAnswers(page);
  await review.scrollIntoViewIfNeeded();
  await expect(review.getByTestId('review-project')).toHaveValue('week-1');
  await expect(review.getByTestId('review-memory')).toContainText(
    '5 verdicts remembered in this browser from your reviews in project week-1',
  );
  await expect(review.getByTestId('review-known')).toContainText('Leave out the 5 distinct answers');
  // Another project knows none of them: nothing offered there.
  await review.getByTestId('review-project').fill('another benchmark');
  await review.getByTestId('review-project').press('Tab');
  await expect(review.getByTestId('review-memory')).toHaveCount(0);
  await expect(review.getByTestId('review-known')).toHaveCount(0);
  await review.getByTestId('review-project').fill('week-1');
  await review.getByTestId('review-project').press('Tab');
  await expect(review.getByTestId('review-known')).toContainText('Leave out the 5 distinct answers');
  await expect(review.getByTestId('review-known-check')).toBeChecked();
  const [download] = await Promise.all([page.waitForEvent('download'), review.getByTestId('review-memory-export').click()]);
  expect(download.suggestedFilename()).toBe('verity.week-1.verdicts.jsonl');
  const verdicts = await jsonLines(download);
  expect(verdicts).toHaveLength(5);
  expect(verdicts.every((v) => v.question !== undefined && v.candidate !== undefined && v.project === 'week-1')).toBe(true);
  // Listed: each with its question, answer, verdict and when (three correct, two wrong, as given).
  await review.getByTestId('review-memory-list').click();
  const table = review.getByTestId('review-memory-table');
  await expect(table.locator('tbody tr')).toHaveCount(5);
  await expect(table.locator('tbody tr').filter({ hasText: 'correct' })).toHaveCount(3);
  await expect(table.locator('tbody tr').filter({ hasText: 'wrong' })).toHaveCount(2);
  await review.getByTestId('review-budget').fill('100%');
  await review.getByTestId('review-start').click();
  await expect(review.getByTestId('review-progress')).toContainText('of 50 questions answered');
  await expect(review.getByTestId('review-known-rows')).toContainText('judged in an earlier review');

  // Forgotten on request (after the review is discarded): nothing is offered any more.
  await review.getByTestId('review-discard').click();
  await review.getByTestId('review-discard-yes').click();
  await review.getByTestId('review-memory-forget').click();
  await review.getByTestId('review-memory-forget-yes').click();
  await expect(review.getByTestId('review-memory')).toHaveCount(0);
  await expect(review.getByTestId('review-known')).toHaveCount(0);
});

test('several reviewers: a share of the questions for a second person, κ and the answers judged otherwise, merged', async ({ page }) => {
  test.setTimeout(120_000);
  await scoreAnswers(page);
  const review = page.getByTestId('review');
  await review.scrollIntoViewIfNeeded();
  await review.getByTestId('review-reviewer').fill('ana');
  await review.getByTestId('review-budget').fill('100%');
  await review.getByTestId('review-start').click();
  await expect(review.getByTestId('review-progress')).toContainText("as ana's");
  await expect(review.getByTestId('review-item')).toBeVisible();
  for (let k = 1; k <= 6; k++) {
    await page.keyboard.press(k === 6 ? 'w' : 'c');
    await expect(review.getByTestId('review-answered')).toHaveText(String(k));
  }
  // Every question, for the test's sake: drawn in the review's order, blind to the judge.
  await review.getByTestId('review-second-share').fill('100%');
  const [second] = await Promise.all([page.waitForEvent('download'), review.getByTestId('review-second').click()]);
  expect(second.suggestedFilename()).toBe('answers.second.jsonl');
  const asked = await jsonLines(second);
  expect(asked).toHaveLength(55);
  expect(asked.every((l) => l.label === null && l.second === true && !('judge' in l) && !('id' in l))).toBe(true);
  const [mine] = await Promise.all([page.waitForEvent('download'), review.getByTestId('review-export').click()]);

  // The second person credits every answer: they differ on the one the first called wrong.
  const theirs = asked.map((l) => JSON.stringify({ ...l, label: true })).join('\n');
  const reviewers = review.getByTestId('reviewers');
  await reviewers.locator('summary').click();
  await reviewers.getByTestId('reviewers-files').setInputFiles([
    // The first file's lines name their reviewer (ana), whatever the file is called.
    { name: 'answers.review.jsonl', mimeType: 'application/x-ndjson', buffer: readFileSync((await mine.path())!) },
    { name: 'ben.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(theirs) },
  ]);
  const said = reviewers.getByTestId('reviewers-line');
  await expect(said.first()).toHaveText('2 reviewers (ana, ben): 6 of 55 answers judged by two or more, compared as correct / incorrect.');
  await expect(said.nth(1)).toContainText("Cohen's κ = 0.000 (95% CI");
  await expect(reviewers.getByTestId('reviewers-disagreements').locator('tbody tr')).toHaveCount(1);
  await expect(reviewers.getByTestId('reviewers-disagreements')).toContainText('ana wrong, ben correct');
  await expect(said.last()).toContainText('54 answers have one verdict (of the disagreements: 1 left out');
  // Two people who differ make no majority: the tie is said to be left out.
  await reviewers.getByTestId('reviewers-unsettled').selectOption('majority');
  await expect(said.last()).toContainText('0 by the majority, 1 left out (tied)');
  const [merged] = await Promise.all([page.waitForEvent('download'), reviewers.getByTestId('reviewers-merged').click()]);
  const one = await jsonLines(merged);
  expect(one).toHaveLength(54);
  expect(one.every((l) => 'settled' in l && 'reviewers' in l)).toBe(true);
  // A file with one person's verdicts only: said why there is nothing to measure.
  await reviewers
    .getByTestId('reviewers-files')
    .setInputFiles([{ name: 'ben.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(theirs) }]);
  await expect(reviewers.getByTestId('reviewers-error')).toContainText('agreement needs two reviewers');
});
