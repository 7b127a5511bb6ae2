import { expect, test } from '@playwright/test';

const sample = [
  { id: 'a', question: 'What gas do plants release during photosynthesis?', gold: ['oxygen'], candidate: 'Plants release oxygen.', label: true },
  { id: 'b', question: 'Who wrote Hamlet?', gold: ['William Shakespeare'], candidate: 'Christopher Marlowe', label: false },
  { id: 'c', question: 'How many legs does a spider have?', gold: ['8'], candidate: 'eight', label: true },
]
  .map((r) => JSON.stringify(r))
  .join('\n');

test('scores an uploaded file with the embedded default, with no request leaving localhost', async ({ page }) => {
  const outside: string[] = [];
  await page.route(/^(?!https?:\/\/localhost[:/]).*/, (route) => {
    outside.push(route.request().url());
    return route.abort();
  });
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Score a file' })).toBeVisible();
  await page.getByTestId('file-input').setInputFiles({ name: 'sample.jsonl', mimeType: 'application/json', buffer: Buffer.from(sample) });
  const summary = page.getByTestId('summary');
  await expect(summary.getByRole('heading', { name: '3 rows scored (JSONL)' })).toBeVisible();
  const rows = page.getByTestId('preview').locator('tbody tr');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText('Christopher Marlowe');
  // lexical_match catches "eight" = "8" through number-aware normalization.
  await expect(summary.locator('tbody tr', { hasText: 'lexical_match' }).first()).toContainText('1.000');
  await page.screenshot({ path: test.info().outputPath('score.png'), fullPage: true });
  expect(outside.filter((u) => !u.startsWith('data:'))).toEqual([]);
  expect(errors).toEqual([]);
});

test('a file that is not a table gets one clear error', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('file-input').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('just some prose\nwith no columns') });
  await expect(page.getByRole('alert')).toContainText('not a table');
});
