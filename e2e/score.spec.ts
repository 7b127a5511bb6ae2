import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { expect, test, type Page } from '@playwright/test';

const sample = [
  { id: 'a', question: 'What gas do plants release during photosynthesis?', gold: ['oxygen'], candidate: 'Plants release oxygen.', label: true },
  { id: 'b', question: 'Who wrote Hamlet?', gold: ['William Shakespeare'], candidate: 'Christopher Marlowe', label: false },
  { id: 'c', question: 'How many legs does a spider have?', gold: ['8'], candidate: 'eight', label: true },
  { id: 'd', question: 'What is the capital of Australia?', gold: ['Canberra'], candidate: '=HYPERLINK("http://x","Sydney")', label: false },
  { id: 'e', question: 'Which planet is the largest?', gold: ['Jupiter', 'planet Jupiter'], candidate: 'Jupiter', label: true },
]
  .map((r) => JSON.stringify(r))
  .join('\n');

/** Blocks and records every request that leaves localhost. */
async function blockOutside(page: Page): Promise<string[]> {
  const outside: string[] = [];
  await page.route(/^(?!https?:\/\/localhost[:/]).*/, (route) => {
    const url = route.request().url();
    if (!url.startsWith('data:') && !url.startsWith('blob:')) outside.push(url);
    return route.abort();
  });
  return outside;
}

/** What the CLI writes for the same file: the app's per-row records must equal these. */
function cliRecords(content: string): Record<string, unknown>[] {
  const dir = mkdtempSync(join(tmpdir(), 'verity-e2e-'));
  const file = join(dir, 'sample.jsonl');
  writeFileSync(file, content);
  const out = execFileSync('node', ['bin/verity.mjs', 'score', file], { encoding: 'utf8' });
  return out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
}

async function upload(page: Page, name: string, content: string | Buffer) {
  await page.getByTestId('file-input').setInputFiles({ name, mimeType: 'application/octet-stream', buffer: Buffer.isBuffer(content) ? content : Buffer.from(content) });
}

test('scores an uploaded file with the embedded default; table, detail, report and exports match the CLI, and nothing leaves localhost', async ({ page }) => {
  const outside = await blockOutside(page);
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto('/#/score');
  await expect(page.getByRole('heading', { name: 'Score a file' })).toBeVisible();
  await upload(page, 'sample.jsonl', sample);

  // Preview and detected mapping, before any scoring.
  await expect(page.getByTestId('file-preview').locator('tbody tr')).toHaveCount(5);
  await expect(page.getByTestId('map-candidate')).toHaveValue('candidate');
  await expect(page.getByTestId('map-gold')).toHaveValue('gold');
  await expect(page.getByTestId('map-label')).toHaveValue('label');
  await expect(page.getByTestId('mapped-summary')).toContainText('5 rows ready, 5 with a binary label');
  await expect(page.getByTestId('metric-pedants')).toBeChecked();
  await expect(page.getByTestId('metric-cap')).not.toBeChecked();

  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-progress')).toContainText('5 / 5 rows');
  await expect(page.getByTestId('run-progress')).toContainText('done');
  const rows = page.getByTestId('result-row');
  await expect(rows).toHaveCount(5);
  await expect(rows.nth(1)).toContainText('Christopher Marlowe');
  // The formula-looking answer is shown as text.
  await expect(rows.nth(3)).toContainText('=HYPERLINK("http://x","Sydney")');

  // Filters run in the worker.
  await page.getByTestId('filter-decision-metric').selectOption('lexical_match');
  await page.getByTestId('filter-decision-value').selectOption('false');
  await expect(page.getByTestId('view-count')).toHaveText('2 of 5 rows');
  // The worker keeps the view; the rows on screen are fetched by position, so they must follow each change.
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('Christopher Marlowe');
  await expect(rows.nth(1)).toContainText('Canberra');
  await page.getByTestId('filter-decision-metric').selectOption('');
  await page.getByTestId('table-search').fill('spider');
  await expect(page.getByTestId('view-count')).toHaveText('1 of 5 rows');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('How many legs does a spider have?');
  await page.getByTestId('table-search').fill('');
  await expect(page.getByTestId('view-count')).toHaveText('5 of 5 rows');
  await page.getByRole('button', { name: /^row( [▲▼])?$/ }).click();
  await expect(rows.first()).toContainText('Which planet is the largest?');
  await expect(rows.last()).toContainText('What gas do plants release');
  await page.getByRole('button', { name: /^row( [▲▼])?$/ }).click();
  await expect(rows.first()).toContainText('What gas do plants release');

  // Row detail: lexical_match sees "eight" = "8" through number-aware normalization.
  await rows.nth(2).click();
  const detail = page.getByTestId('row-detail');
  await expect(detail.getByTestId('detail-lexical_match')).toContainText('score 1.0000');
  await expect(detail.getByTestId('detail-exact_match')).toContainText('incorrect');

  // Report: agreement with the labels.
  const report = page.getByTestId('report');
  await expect(report.getByTestId('agreement-lexical_match-accuracy')).toContainText('1.000');
  await page.screenshot({ path: test.info().outputPath('score.png'), fullPage: true });
  await page.setViewportSize({ width: 420, height: 900 });
  await page.screenshot({ path: test.info().outputPath('score-narrow.png'), fullPage: true });
  // Nothing but the tables' own scroll boxes is wider than a narrow window.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(420);
  await page.setViewportSize({ width: 1280, height: 720 });

  // Exports, row by row against the CLI on the same file.
  const expected = cliRecords(sample);
  const [jsonl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-jsonl').click()]);
  expect(jsonl.suggestedFilename()).toBe('sample.verity.jsonl');
  const lines = readFileSync((await jsonl.path())!, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  const header = lines.shift() as { verity_run: { verity: string; metrics: { name: string }[]; file: string } };
  expect(header.verity_run.file).toBe('sample.jsonl');
  expect(header.verity_run.metrics.map((m) => m.name)).toEqual(['exact_match', 'token_f1', 'lexical_match', 'pedants', 'taxonomy_text']);
  expect(header.verity_run.verity).toMatch(/^\d+\.\d+\.\d+/);
  expect(lines).toHaveLength(expected.length);
  lines.forEach((rec, i) => expect(rec).toEqual(expected[i]));

  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  const parsed = Papa.parse<Record<string, string>>(readFileSync((await csv.path())!, 'utf8'), { header: true, skipEmptyLines: true });
  expect(parsed.data).toHaveLength(expected.length);
  parsed.data.forEach((row, i) => {
    const want = expected[i] as { id: string; gold: string[]; metrics: Record<string, { score: number; decision: boolean }> };
    expect(row.id).toBe(want.id);
    expect(JSON.parse(row.gold!)).toEqual(want.gold);
    for (const [m, r] of Object.entries(want.metrics)) {
      expect(Number(row[`${m}.score`])).toBeCloseTo(r.score, 12);
      expect(row[`${m}.decision`]).toBe(String(r.decision));
    }
    expect(JSON.parse(row.verity_run!).metrics).toHaveLength(5);
  });

  const [rep] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-report').click()]);
  const repJson = JSON.parse(readFileSync((await rep.path())!, 'utf8')) as { run: { file: string }; report: { rows: number; labelKind: string } };
  expect(repJson.run.file).toBe('sample.jsonl');
  expect(repJson.report).toMatchObject({ rows: 5, labelKind: 'binary' });

  expect(outside).toEqual([]);
  expect(errors).toEqual([]);
});

test('a file that is not a table gets one clear error', async ({ page }) => {
  await page.goto('/#/score');
  await upload(page, 'notes.txt', 'just some prose\nwith no columns');
  await expect(page.getByTestId('score-error')).toContainText('not a table');
});

test('bad rows are listed with their row numbers before the run, and the good rows are scored', async ({ page }) => {
  await page.goto('/#/score');
  const content = [
    JSON.stringify({ question: 'q1', gold: ['a'], candidate: 'a' }),
    JSON.stringify({ question: 'q2', gold: [], candidate: 'b' }),
    '{"question": "q3", "gold": ["c"], "candidate": ',
    JSON.stringify({ question: 'q4', gold: ['d'], candidate: 'd' }),
  ].join('\n');
  // Row 5 was saved as Latin-1: "café" with é as the single byte 0xE9.
  const latin1 = Buffer.concat([Buffer.from(`${content}\n{"question": "q5", "gold": ["caf`), Buffer.from([0xe9]), Buffer.from('"], "candidate": "x"}\n')]);
  await upload(page, 'bad.jsonl', latin1);
  const issues = page.getByTestId('file-issues');
  await expect(issues).toContainText('row 2');
  await expect(issues).toContainText('line 3');
  await expect(issues).toContainText(`row 5 (line 5) is not valid UTF-8 (byte 0xe9 at offset ${Buffer.byteLength(content) + 1 + Buffer.byteLength('{"question": "q5", "gold": ["caf')})`);
  await expect(page.getByTestId('mapped-summary')).toContainText('2 rows ready');
  await page.getByTestId('run').click();
  await expect(page.getByTestId('result-row')).toHaveCount(2);
});

test('a missing column is explained, and choosing it in the mapping fixes it', async ({ page }) => {
  await page.goto('/#/score');
  await upload(page, 'odd.csv', 'q,truth,said\nWho wrote Hamlet?,Shakespeare,Shakespeare\n');
  await expect(page.getByTestId('score-error')).toContainText('no candidate-answer column');
  await page.getByTestId('map-candidate').selectOption('said');
  await expect(page.getByTestId('score-error')).toContainText('no gold-answer column');
  await page.getByTestId('map-gold').selectOption('truth');
  await expect(page.getByTestId('mapped-summary')).toContainText('1 rows ready');
  await expect(page.getByTestId('score-error')).toHaveCount(0);
});

/** Rows long enough to interrupt mid-run, small enough for CI. */
function bigFile(n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(JSON.stringify({ id: `r${i}`, question: `Question number ${i} about a topic?`, gold: [`answer ${i % 97}`, `alias ${i % 13}`], candidate: i % 3 ? `the answer ${i % 97} is right` : `something else ${i}` }));
  return out.join('\n');
}

test('a reload mid-run at 100,000 rows offers to resume; the resumed run loses no row and scores none twice', async ({ page }) => {
  test.setTimeout(240_000);
  const n = 100_000;
  await page.goto('/#/score');
  await upload(page, 'big.jsonl', bigFile(n));
  await expect(page.getByTestId('mapped-summary')).toContainText(`${n.toLocaleString('en')} rows ready`);
  await page.getByTestId('metric-meteor').check();
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-progress')).toContainText(/[1-9][\d,]* \/ 100,000 rows/);
  await page.reload();
  const banner = page.getByTestId('resume-banner');
  await expect(banner).toContainText('big.jsonl');
  const stoppedAt = Number((await banner.textContent())!.match(/stopped at ([\d,]+)/)![1]!.replace(/,/g, ''));
  expect(stoppedAt).toBeGreaterThan(0);
  expect(stoppedAt).toBeLessThan(n);
  await page.getByTestId('resume').click();
  await expect(page.getByTestId('run-progress')).toContainText('100,000 / 100,000 rows', { timeout: 150_000 });
  await expect(page.getByTestId('run-progress')).toContainText('done');
  const [jsonl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-jsonl').click()]);
  const lines = readFileSync((await jsonl.path())!, 'utf8').trim().split('\n').slice(1);
  expect(lines).toHaveLength(n);
  const ids = lines.map((l) => (JSON.parse(l) as { id: string }).id);
  expect(ids).toEqual(Array.from({ length: n }, (_, i) => `r${i}`));
});

test('a killed scoring worker is replaced and the run resumes without losing or repeating rows', async ({ page }) => {
  const n = 60_000;
  await page.goto('/#/score');
  await upload(page, 'big.jsonl', bigFile(n));
  await page.getByTestId('metric-meteor').check();
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-progress')).toContainText(/[1-9][\d,]* \/ 60,000 rows/);
  await page.evaluate(() => (globalThis as { __verityScoreWorker?: Worker }).__verityScoreWorker!.terminate());
  await expect(page.getByText('a new worker resumed the run')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('run-progress')).toContainText('60,000 / 60,000 rows', { timeout: 120_000 });
  await expect(page.getByTestId('run-progress')).toContainText('done');
  const [jsonl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-jsonl').click()]);
  const lines = readFileSync((await jsonl.path())!, 'utf8').trim().split('\n').slice(1);
  const ids = lines.map((l) => (JSON.parse(l) as { id: string }).id);
  expect(ids).toEqual(Array.from({ length: n }, (_, i) => `r${i}`));
});
