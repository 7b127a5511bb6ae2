import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { expect, test, type Page } from '@playwright/test';
import { DEFAULT_METRICS } from '../src/core/metrics/index.ts';
import { LEXICAL, openModels } from './helpers.ts';

const sample = [
  {
    id: 'a',
    question: 'What gas do plants release during photosynthesis?',
    gold: ['oxygen'],
    candidate: 'Plants release oxygen.',
    label: true,
  },
  { id: 'b', question: 'Who wrote Hamlet?', gold: ['William Shakespeare'], candidate: 'Christopher Marlowe', label: false },
  { id: 'c', question: 'How many legs does a spider have?', gold: ['8'], candidate: 'eight', label: true },
  {
    id: 'd',
    question: 'What is the capital of Australia?',
    gold: ['Canberra'],
    candidate: '=HYPERLINK("http://x","Sydney")',
    label: false,
  },
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
  return out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** `verity evaluate` on the same content: its text lines. */
function cliEvaluate(content: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'verity-e2e-'));
  const file = join(dir, 'sample.jsonl');
  writeFileSync(file, content);
  return execFileSync('node', ['bin/verity.mjs', 'evaluate', file], { encoding: 'utf8' }).split('\n');
}

async function upload(page: Page, name: string, content: string | Buffer) {
  await page
    .getByTestId('file-input')
    .setInputFiles({ name, mimeType: 'application/octet-stream', buffer: Buffer.isBuffer(content) ? content : Buffer.from(content) });
}

test('scores an uploaded file with the embedded default; table, detail, report and exports match the CLI, and nothing leaves localhost', async ({
  page,
}) => {
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
  // Whether the best MCC's lead is real: the CLI's line, word for word (five rows: within noise).
  const leadLine = cliEvaluate(sample).find((l) => l.startsWith('Lead over the next metric'));
  expect(leadLine).toMatch(/within noise; these 5 rows do not separate them\.$/);
  await expect(report.getByTestId('binary-lead')).toHaveText(leadLine!);
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
  const lines = readFileSync((await jsonl.path())!, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
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
    // The run configuration once, in the first row.
    if (i === 0) expect(JSON.parse(row.verity_run!).metrics).toHaveLength(5);
    else expect(row.verity_run).toBe('');
  });

  const [rep] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-report').click()]);
  // The report's one JSON form (docs/report.schema.json), as verity evaluate --json prints it.
  const repJson = JSON.parse(readFileSync((await rep.path())!, 'utf8')) as {
    schema: string;
    run: { file: string };
    label_kind: string;
    distributions: { rows: number };
  };
  expect(repJson.run.file).toBe('sample.jsonl');
  expect(repJson).toMatchObject({ schema: 'verity-report/1', label_kind: 'binary', distributions: { rows: 5 } });

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
  const latin1 = Buffer.concat([
    Buffer.from(`${content}\n{"question": "q5", "gold": ["caf`),
    Buffer.from([0xe9]),
    Buffer.from('"], "candidate": "x"}\n'),
  ]);
  await upload(page, 'bad.jsonl', latin1);
  const issues = page.getByTestId('file-issues');
  await expect(issues).toContainText('row 2');
  await expect(issues).toContainText('line 3');
  await expect(issues).toContainText(
    `row 5 (line 5) is not valid UTF-8 (byte 0xe9 at offset ${Buffer.byteLength(content) + 1 + Buffer.byteLength('{"question": "q5", "gold": ["caf')})`,
  );
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

test('core errors and mapping notes are worded for the page: no CLI flag, the layout chosen and why, a gold separator offered', async ({
  page,
}) => {
  await page.goto('/#/score');
  // A missing column points at the Columns form, never at --map.
  await upload(page, 'odd.csv', 'q,truth,said\nWho wrote Hamlet?,Shakespeare,Shakespeare\n');
  await expect(page.getByTestId('score-error')).toContainText('column mapping');
  await expect(page.getByTestId('score-error')).not.toContainText('--map');
  // A ragas file: `answer` is the candidate and `ground_truth` the gold, and the page says which layout it read.
  const ragas = [
    'question,answer,ground_truth,contexts',
    'Who wrote Hamlet?,Shakespeare wrote it,William Shakespeare,"[""Hamlet is a play""]"',
  ].join('\n');
  await upload(page, 'ragas.csv', ragas);
  await expect(page.getByTestId('map-candidate')).toHaveValue('answer');
  await expect(page.getByTestId('map-gold')).toHaveValue('ground_truth');
  await expect(page.getByTestId('mapping-notes').locator('[data-code="layout"]')).toContainText(/ragas/i);
  await expect(page.getByTestId('mapping-notes')).not.toContainText('--');
  // Golds joined by " | " in most cells: split on it from the start, with a note; reading cells whole is one click.
  const joined = [
    'question,gold,candidate',
    'Largest planet?,Jupiter | planet Jupiter,Jupiter',
    'Red planet?,Mars | the red planet,Mars',
    'Hamlet author?,Shakespeare | William Shakespeare,Marlowe',
    'Spider legs?,8 | eight,eight',
  ].join('\n');
  await upload(page, 'joined.csv', joined);
  const sepNote = page.getByTestId('mapping-notes').locator('[data-code="gold-separator"]');
  await expect(sepNote).toContainText('each item is read as a gold answer');
  await expect(page.getByTestId('gold-sep')).toHaveValue(/^ ?\| ?$/);
  await page.getByTestId('no-gold-sep').click();
  await expect(page.getByTestId('gold-sep')).toHaveValue('');
  await expect(sepNote).toContainText('read as one gold answer each');
  await page.getByTestId('use-gold-sep').click();
  await expect(page.getByTestId('gold-sep')).toHaveValue(/^ ?\| ?$/);
  await expect(page.getByTestId('use-gold-sep')).toHaveCount(0);
  await expect(page.getByTestId('no-gold-sep')).toBeVisible();
});

test("a small file's one joined gold cell is a question until answered: keep it whole, or split it", async ({ page }) => {
  await page.goto('/#/score');
  const small = [
    'question,gold,candidate',
    'Name a country that borders Spain.,France|Portugal|Andorra,Portugal',
    ...Array.from({ length: 9 }, (_, i) => `Question ${i}?,answer ${i},answer ${i}`),
  ].join('\n');
  await upload(page, 'class.csv', small);
  // Not split unasked; a warning asks, and stays until the user decides.
  const question = page.getByTestId('gold-sep-question');
  await expect(question).toContainText('1 of 10 gold cells (10%) in column "gold" holds short items joined by "|"');
  await expect(question).toHaveAttribute('role', 'alert');
  await expect(page.getByTestId('gold-sep')).toHaveValue('');
  // Keeping each cell whole answers it: the note stays, as a plain note with the split still one click away.
  await page.getByTestId('keep-gold-whole').click();
  await expect(question).toHaveCount(0);
  await expect(page.getByTestId('gold-sep')).toHaveValue('');
  const sepNote = page.getByTestId('mapping-notes').locator('[data-code="gold-separator"]');
  await expect(sepNote).toContainText('read as one gold answer');
  await page.getByTestId('use-gold-sep').click();
  await expect(page.getByTestId('gold-sep')).toHaveValue('|');
  await expect(sepNote).toContainText('each item is read as a gold answer');
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-progress')).toContainText('done');
  // Portugal is now one of three golds: an exact match.
  await page.getByTestId('result-row').first().click();
  await expect(page.getByTestId('row-detail').getByTestId('detail-exact_match')).toContainText('score 1.0000');
});

/** Rows long enough to interrupt mid-run, small enough for CI. */
function bigFile(n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++)
    out.push(
      JSON.stringify({
        id: `r${i}`,
        question: `Question number ${i} about a topic?`,
        gold: [`answer ${i % 97}`, `alias ${i % 13}`],
        candidate: i % 3 ? `the answer ${i % 97} is right` : `something else ${i}`,
      }),
    );
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
  // Size, rows, content hash and start: two runs of files named alike are told apart.
  await expect(banner.getByTestId('resume-file')).toHaveText(/^\([\d.]+ MB, 100,000 rows, content [0-9a-f]{8}, started .+\)$/);
  const stoppedAt = Number((await banner.textContent())!.match(/stopped at ([\d,]+)/)![1]!.replace(/,/g, ''));
  expect(stoppedAt).toBeGreaterThan(0);
  expect(stoppedAt).toBeLessThan(n);
  await page.getByTestId('resume').click();
  await expect(page.getByTestId('run-progress')).toContainText('100,000 / 100,000 rows', { timeout: 150_000 });
  await expect(page.getByTestId('run-progress')).toContainText('done');
  const [jsonl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-jsonl').click()]);
  const lines = readFileSync((await jsonl.path())!, 'utf8')
    .trim()
    .split('\n')
    .slice(1);
  expect(lines).toHaveLength(n);
  const ids = lines.map((l) => (JSON.parse(l) as { id: string }).id);
  expect(ids).toEqual(Array.from({ length: n }, (_, i) => `r${i}`));
});

/** Opens the Score page, uploads n rows (bigFile's unless given) and starts scoring them with METEOR added; returns once rows are saved. */
async function startBigRun(page: Page, n: number, content = bigFile(n), name = 'big.jsonl') {
  await page.goto('/#/score');
  await upload(page, name, content);
  // The metric boxes are set once the file is mapped: a click before that is undone.
  await expect(page.getByTestId('mapped-summary')).toContainText('rows ready');
  await page.getByTestId('metric-meteor').check();
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-progress')).toContainText(new RegExp(`[1-9][\\d,]* / ${n.toLocaleString('en')} rows`));
}

/** The ids of the JSONL export, in order. */
async function exportedIds(page: Page): Promise<string[]> {
  const [jsonl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-jsonl').click()]);
  return readFileSync((await jsonl.path())!, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => (JSON.parse(l) as { id: string }).id);
}

test('a killed scoring worker is replaced and the run resumes without losing or repeating rows', async ({ page }) => {
  const n = 60_000;
  await startBigRun(page, n);
  await page.evaluate(() => (globalThis as { __verityScoreWorker?: Worker }).__verityScoreWorker!.terminate());
  await expect(page.getByText('a new worker resumed the run')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('run-progress')).toContainText('60,000 / 60,000 rows', { timeout: 120_000 });
  await expect(page.getByTestId('run-progress')).toContainText('done');
  expect(await exportedIds(page)).toEqual(Array.from({ length: n }, (_, i) => `r${i}`));
});

/** Records every page error, console error and unhandled rejection in any worker, for the whole test. */
function guardErrors(page: Page): () => Promise<string[]> {
  const errors: string[] = [];
  const workers: import('@playwright/test').Worker[] = [];
  page.on('pageerror', (e) => errors.push(`page: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  page.on('worker', (w) => {
    workers.push(w);
    w.on('console', (m) => m.type() === 'error' && errors.push(`worker console: ${m.text()}`));
    void w
      .evaluate(() => {
        const g = globalThis as { __errors?: string[] };
        g.__errors = [];
        addEventListener('unhandledrejection', (e) =>
          g.__errors!.push(`unhandled rejection: ${String((e as PromiseRejectionEvent).reason)}`),
        );
        addEventListener('error', (e) => g.__errors!.push(`error: ${(e as ErrorEvent).message}`));
      })
      .catch(() => {});
  });
  return async () => {
    for (const w of workers)
      errors.push(...((await w.evaluate(() => (globalThis as { __errors?: string[] }).__errors ?? []).catch(() => [])) as string[]));
    return errors;
  };
}

/** Rows with varied words and lengths (seeded), so scores take many different values. */
function variedFile(n: number): string {
  const words = [
    'the',
    'river',
    'Paris',
    'king',
    'of',
    'France',
    '1905',
    'blue',
    'whale',
    'is',
    'largest',
    'mammal',
    'a',
    'in',
    'nineteen',
    'Einstein',
    'year',
    'capital',
    'city',
    'not',
  ];
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const phrase = (max: number) =>
    Array.from({ length: 1 + Math.floor(rnd() * max) }, () => words[Math.floor(rnd() * words.length)]).join(' ');
  return Array.from({ length: n }, (_, i) =>
    JSON.stringify({ id: `v${i}`, question: `${phrase(8)}?`, gold: [phrase(3), phrase(4)], candidate: phrase(12) }),
  ).join('\n');
}

test('a JSONL over 64 KiB: no page or worker error in the whole flow, and every embedded metric byte-identical to the CLI', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const errorsSeen = guardErrors(page);
  const n = 3000;
  const content = variedFile(n);
  expect(Buffer.byteLength(content)).toBeGreaterThan(64 * 1024);
  await page.goto('/#/score');
  await upload(page, 'wide.jsonl', content);
  await expect(page.getByTestId('mapped-summary')).toContainText('3,000 rows ready');
  // Every embedded metric (the table's lexical family), in the app and in the CLI.
  for (const m of LEXICAL) await page.getByTestId(`metric-${m}`).check();
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-progress')).toContainText('done', { timeout: 90_000 });
  await page.getByTestId('result-row').first().click();
  await expect(page.getByTestId('row-detail')).toBeVisible();
  const [jsonl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-jsonl').click()]);
  const app = readFileSync((await jsonl.path())!, 'utf8')
    .split('\n')
    .slice(1)
    .join('\n');
  const dir = mkdtempSync(join(tmpdir(), 'verity-e2e-'));
  writeFileSync(join(dir, 'wide.jsonl'), content);
  const cli = execFileSync('node', ['bin/verity.mjs', 'score', join(dir, 'wide.jsonl'), '--metrics', LEXICAL.join(',')], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const [a, c] = [app.trim().split('\n'), cli.trim().split('\n')];
  expect(a).toHaveLength(n);
  // Where the first differing line differs, and how many lines differ (a compact failure message).
  const differing = a.map((line, i) => i).filter((i) => a[i] !== c[i]);
  const at = differing[0];
  const from = at === undefined ? 0 : [...a[at]!].findIndex((ch, k) => ch !== c[at]![k]);
  const errors = await errorsSeen();
  expect({
    errors,
    differing: differing.length,
    first: at === undefined ? null : { row: at, app: a[at]!.slice(from - 60, from + 40), cli: c[at]!.slice(from - 60, from + 40) },
  }).toEqual({ errors: [], differing: 0, first: null });
});

test('a mapping change after a run clears its results, report and exports; the new mapping scores afresh', async ({ page }) => {
  await page.goto('/#/score');
  await upload(page, 'sample.jsonl', sample);
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-progress')).toContainText('done');
  await expect(page.getByTestId('result-row')).toHaveCount(5);
  await expect(page.getByTestId('report')).toBeVisible();
  await page.getByTestId('map-candidate').selectOption('question');
  await expect(page.getByTestId('mapped-summary')).toContainText('5 rows ready');
  await expect(page.getByRole('heading', { name: 'Results' })).toHaveCount(0);
  await expect(page.getByTestId('report')).toHaveCount(0);
  await expect(page.getByTestId('export-jsonl')).toHaveCount(0);
  await expect(page.getByTestId('run-progress')).toHaveCount(0);
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-progress')).toContainText('done');
  await expect(page.getByTestId('result-row').first()).toContainText('What gas do plants release');
  const [jsonl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-jsonl').click()]);
  const lines = readFileSync((await jsonl.path())!, 'utf8')
    .trim()
    .split('\n');
  expect(
    (JSON.parse(lines[0]!) as { verity_run: { mapping: { map: { candidate: string } }; rows: { scored: number } } }).verity_run,
  ).toMatchObject({ mapping: { map: { candidate: 'question' } }, rows: { scored: 5 } });
  expect((JSON.parse(lines[1]!) as { candidate: string }).candidate).toBe('What gas do plants release during photosynthesis?');
});

test('Cancel offers Continue; Score asks before discarding the rows scored; continuing loses and repeats none', async ({ page }) => {
  test.setTimeout(180_000);
  const n = 60_000;
  await startBigRun(page, n);
  await page.getByTestId('cancel').click();
  await expect(page.getByTestId('run-progress')).toContainText('cancelled');
  const cont = page.getByTestId('continue');
  await expect(cont).toBeVisible();
  // The counts agree — the progress, the Continue button and the saved rows.
  const kept = Number((await page.getByTestId('run-progress').innerText()).match(/([\d,]+) \/ 60,000 rows/)![1]!.replaceAll(',', ''));
  expect(kept % 2000).toBe(0);
  await expect(cont).toHaveText(`Continue from row ${(kept + 1).toLocaleString('en')}`);
  await page.getByTestId('run').click();
  await expect(page.getByTestId('restart-question')).toContainText('rows are scored. Start over from the first row');
  await page.getByTestId('keep').click();
  await expect(page.getByTestId('restart-question')).toHaveCount(0);
  await expect(page.getByTestId('run-progress')).toContainText('cancelled');
  await cont.click();
  await expect(page.getByTestId('run-progress')).toContainText('60,000 / 60,000 rows', { timeout: 150_000 });
  await expect(page.getByTestId('run-progress')).toContainText('done');
  await expect(page.getByTestId('continue')).toHaveCount(0);
  const [jsonl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-jsonl').click()]);
  const ids = readFileSync((await jsonl.path())!, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => (JSON.parse(l) as { id: string }).id);
  expect(ids).toEqual(Array.from({ length: n }, (_, i) => `r${i}`));
});

test('two tabs keep their own saved runs; each run is listed with its size and can be deleted', async ({ page, context }) => {
  test.setTimeout(180_000);
  const n = 60_000;
  await page.goto('/#/score');
  await upload(page, 'tab-a.jsonl', bigFile(n));
  // The metric boxes are set once the file is mapped: a click before that is undone.
  await expect(page.getByTestId('mapped-summary')).toContainText('rows ready');
  await page.getByTestId('metric-meteor').check();
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-progress')).toContainText(/[1-9][\d,]* \/ 60,000 rows/);
  await page.getByTestId('cancel').click();
  await expect(page.getByTestId('run-progress')).toContainText('cancelled');
  // Tab B scores another file to the end.
  const b = await context.newPage();
  await b.goto('/#/score');
  await upload(b, 'tab-b.jsonl', sample);
  await b.getByTestId('run').click();
  await expect(b.getByTestId('run-progress')).toContainText('done');
  await b.close();
  // Tab A, reloaded: its run is offered for resuming and comes back whole, with its own rows.
  await page.reload();
  const banner = page.getByTestId('resume-banner');
  await expect(banner).toHaveCount(1);
  await expect(banner).toContainText('tab-a.jsonl');
  await page.getByTestId('saved-runs').locator('summary').click();
  await expect(page.getByTestId('saved-run')).toHaveCount(2);
  await expect(page.getByTestId('saved-run').filter({ hasText: 'tab-b.jsonl' })).toContainText(/^tab-b\.jsonl5.*\d\.\d MB/);
  await page.getByTestId('resume').click();
  await expect(page.getByTestId('run-progress')).toContainText('60,000 / 60,000 rows', { timeout: 150_000 });
  await expect(page.getByTestId('run-progress')).toContainText('done');
  const [jsonl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-jsonl').click()]);
  const lines = readFileSync((await jsonl.path())!, 'utf8')
    .trim()
    .split('\n');
  expect((JSON.parse(lines[0]!) as { verity_run: { file: string } }).verity_run.file).toBe('tab-a.jsonl');
  expect(lines.slice(1).map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(Array.from({ length: n }, (_, i) => `r${i}`));
  // Delete one, then all: nothing of either file stays in storage.
  await page.getByTestId('saved-runs').locator('summary').click();
  await page.getByTestId('saved-run').filter({ hasText: 'tab-b.jsonl' }).getByTestId('delete-run').click();
  await expect(page.getByTestId('saved-run')).toHaveCount(1);
  // it asks first, naming what goes and its size; "Keep" keeps it.
  await page.getByTestId('delete-all-runs').click();
  await expect(page.getByTestId('delete-all-runs-confirm')).toContainText(
    /^Delete the saved run, with its input files and results \([\d.]+ MB\), from this browser\?/,
  );
  await page.getByTestId('delete-all-runs-no').click();
  await expect(page.getByTestId('saved-run')).toHaveCount(1);
  await page.getByTestId('delete-all-runs').click();
  await page.getByTestId('delete-all-runs-yes').click();
  await expect(page.getByTestId('saved-runs')).toHaveCount(0);
  const keys = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const req = indexedDB.open('verity-runs');
        req.onsuccess = () => {
          const tx = req.result.transaction('run', 'readonly');
          const c = tx.objectStore('run').count();
          c.onsuccess = () => resolve(c.result);
        };
      }),
  );
  expect(keys).toBe(0);
});

test('"Clear everything" on the Models page deletes the saved runs with their input files, and the settings', async ({ page }) => {
  await page.goto('/#/score');
  await upload(page, 'kept.jsonl', sample);
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-progress')).toContainText('done');
  await openModels(page);
  await page.evaluate(() => localStorage.setItem('verity.model-settings', '{}'));
  await page.getByTestId('clear-everything').click();
  // nothing goes before the question, which names each part and its size, is answered.
  await expect(page.getByTestId('clear-everything-confirm')).toContainText(
    /^Delete 0 cached models \(0\.00 MB\), 1 saved run with their input files and results \([\d.]+ MB\), the verdicts remembered from your reviews, and the settings, from this browser\?/,
    { timeout: 15_000 },
  );
  await expect(page.getByTestId('cleared-note')).toHaveCount(0);
  await page.getByTestId('clear-everything-yes').click();
  await expect(page.getByTestId('cleared-note')).toContainText('saved runs');
  const left = await page.evaluate(
    () =>
      new Promise<{ runs: number; settings: string[] }>((resolve) => {
        const req = indexedDB.open('verity-runs');
        req.onsuccess = () => {
          const c = req.result.transaction('run', 'readonly').objectStore('run').count();
          c.onsuccess = () => resolve({ runs: c.result, settings: Object.keys(localStorage).filter((k) => k.startsWith('verity.')) });
        };
      }),
  );
  expect(left).toEqual({ runs: 0, settings: [] });
  await page.goto('/#/score');
  await expect(page.getByRole('heading', { name: 'Score a file' })).toBeVisible();
  await expect(page.getByTestId('saved-runs')).toHaveCount(0);
});

test('A-VERT on a file without wrong answers is said to be unscorable before the run, and no download is offered for it', async ({
  page,
}) => {
  await page.goto('/#/score');
  await upload(page, 'sample.jsonl', sample);
  await page.getByTestId('metric-avert').check();
  await expect(page.getByTestId('unscorable-avert')).toContainText('avert cannot score this file: it needs wrong answers');
  await expect(page.getByTestId('model-needs')).toHaveCount(0);
  await expect(page.getByTestId('model-consent')).toHaveCount(0);
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-progress')).toContainText('done');
  const [jsonl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-jsonl').click()]);
  const head = JSON.parse(readFileSync((await jsonl.path())!, 'utf8').split('\n')[0]!) as { verity_run: { metrics: { name: string }[] } };
  // The default set only: A-VERT was left out of the run.
  expect(head.verity_run.metrics.map((m) => m.name)).toEqual([...DEFAULT_METRICS]);
});

test('a worker that keeps dying on the same rows is recovered three times, then stopped with a message naming the rows', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const long = (i: number) => Array.from({ length: 120 }, (_, k) => `word${(i * 7 + k * 13) % 500}`).join(' ');
  // Six chunks: the scoring pool scores two or three at once, so the run is still going when the kills begin.
  const content = Array.from({ length: 12_000 }, (_, i) =>
    JSON.stringify({ id: `l${i}`, question: `q${i}?`, gold: [long(i)], candidate: long(i + 1) }),
  ).join('\n');
  await page.goto('/#/score');
  await upload(page, 'long.jsonl', content);
  await page.getByTestId('metric-meteor').check();
  await page.getByTestId('run').click();
  await expect(page.getByTestId('cancel')).toBeVisible();
  // Rows are being scored, so the run is saved (its id is known) and can be resumed after each kill.
  await expect(page.getByTestId('run-progress')).toContainText(/[1-9][\d,]* \/ 12,000 rows/, { timeout: 60_000 });
  const kill = () => page.evaluate(() => (globalThis as { __verityScoreWorker?: Worker }).__verityScoreWorker!.terminate());
  const notes = page.getByText('a new worker resumed the run from the last saved rows');
  await kill();
  for (let k = 1; k <= 3; k++) {
    await expect(notes).toHaveCount(k, { timeout: 30_000 });
    await kill();
  }
  // The chunk after the last one saved when the kills began.
  await expect(page.getByTestId('score-error')).toContainText(
    /stopped answering 4 times while scoring rows [\d,]+1–[\d,]+000 of 12,000; the run is stopped there/,
    { timeout: 30_000 },
  );
  await expect(page.getByTestId('cancel')).toHaveCount(0);
  await expect(page.getByTestId('run')).toBeEnabled();
});

test('right after a run the table shows its rows: no "None of the N scored rows can be shown"', async ({ page }) => {
  await page.goto('/#/score');
  const rows = Array.from({ length: 6000 }, (_, i) =>
    JSON.stringify({ id: `q${i}`, question: `What is item ${i}?`, gold: `item ${i}`, candidate: i % 3 ? `item ${i}` : 'no idea' }),
  ).join('\n');
  await upload(page, 'many.jsonl', rows);
  await expect(page.getByTestId('mapped-summary')).toContainText('6,000 rows ready');
  // Every text the empty-view message ever shows, from before the run to after it.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __emptySeen: string[] }).__emptySeen = seen;
    new MutationObserver(() => {
      const el = document.querySelector('[data-testid="view-empty"]');
      if (el?.textContent) seen.push(el.textContent.trim());
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-progress')).toContainText('done', { timeout: 60_000 });
  await expect(page.getByTestId('view-count')).toHaveText('6,000 of 6,000 rows');
  const seen = await page.evaluate(() => (window as unknown as { __emptySeen: string[] }).__emptySeen);
  expect(seen.filter((t) => t.startsWith('None of the'))).toEqual([]);
});

// after another tab took an update, this tab's worker scripts were gone; each new scoring worker
// died at once and started the next recovery before the budget counted it (4,257 workers in 60 s).
test.describe('a page whose worker code was replaced by a newer version', () => {
  test.use({ serviceWorkers: 'block' });

  test('asks for a reload instead of re-creating workers, and the run goes on after the reload', async ({ page }) => {
    test.setTimeout(180_000);
    await page.addInitScript(() => {
      const Base = globalThis.Worker;
      const g = globalThis as unknown as { __workersMade: number; Worker: typeof Worker };
      g.__workersMade = 0;
      g.Worker = class extends Base {
        constructor(url: string | URL, options?: WorkerOptions) {
          super(url, options);
          g.__workersMade++;
        }
      };
    });
    const n = 60_000;
    await startBigRun(page, n);
    // The new version's deploy removed this page's files (hashed names under /assets/); then the scoring worker dies.
    await page.route(/\/assets\//, (r) => r.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' }));
    const made = () => page.evaluate(() => (globalThis as unknown as { __workersMade: number }).__workersMade);
    const before = await made();
    await page.evaluate(() =>
      (globalThis as { __verityScoreWorker?: Worker }).__verityScoreWorker!.dispatchEvent(
        new ErrorEvent('error', { message: 'the scoring worker stopped' }),
      ),
    );
    await expect(page.getByTestId('score-error')).toContainText('This page is out of date', { timeout: 30_000 });
    await expect(page.getByTestId('score-error')).toContainText('the run goes on from its last saved rows after the reload');
    await page.waitForTimeout(2000);
    // One replacement was tried; it could not load its script, and no other followed.
    expect((await made()) - before).toBeLessThanOrEqual(2);
    await expect(page.getByTestId('cancel')).toHaveCount(0);

    await page.unroute(/\/assets\//);
    await page.getByTestId('reload-page').click();
    await expect(page.getByTestId('run-progress')).toContainText('60,000 / 60,000 rows', { timeout: 150_000 });
    await expect(page.getByTestId('run-progress')).toContainText('done');
    expect(await exportedIds(page)).toEqual(Array.from({ length: n }, (_, i) => `r${i}`));
  });
});

// a finished run could not be reopened (its saved run had only Delete).
test('a finished run is opened again from the saved runs after a reload: table and exports, nothing scored again', async ({ page }) => {
  await page.goto('/#/score');
  await upload(page, 'kept.jsonl', sample);
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-progress')).toContainText('done');
  const before = await exportedIds(page);
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  const csvBefore = readFileSync((await csv.path())!, 'utf8');
  await page.reload();
  await expect(page.getByTestId('run-progress')).toHaveCount(0);
  await page.getByTestId('saved-runs').locator('summary').click();
  await page.getByTestId('saved-run').filter({ hasText: 'kept.jsonl' }).getByTestId('open-run').click();
  await expect(page.getByTestId('run-progress')).toContainText(/(\d[\d,]*) \/ \1 rows\s+· done\s\(a saved run\)/);
  expect(await exportedIds(page)).toEqual(before);
  const [again] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  expect(readFileSync((await again.path())!, 'utf8')).toBe(csvBefore);
  // Still listed, with no second copy.
  await expect(page.getByTestId('saved-run')).toHaveCount(1);
});

/** bigFile with human labels that the default thresholds do not fit (calibrating moves them). */
function labelledFile(n: number): string {
  return bigFile(n)
    .split('\n')
    .map((l, i) => JSON.stringify({ ...(JSON.parse(l) as object), label: (i % 3 !== 0) !== (i % 11 === 0) }))
    .join('\n');
}

// Calibration is part of the run, and an input is stored once however many runs use it.
test('a calibrated run keeps its thresholds through continue, reload and resume, as verity score --calibration decides', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const n = 60_000;
  const content = labelledFile(n);
  await startBigRun(page, n, content, 'cal.jsonl');
  await page.getByTestId('cancel').click();
  await expect(page.getByTestId('run-progress')).toContainText('cancelled');
  await page.getByTestId('calibrate').click();
  await expect(page.getByTestId('calibrate-note')).toContainText('Saved with the run');
  // Continued, then reloaded mid-run: the resumed run comes back with its calibration and finishes.
  const doneOf = async () => Number((await page.getByTestId('run-progress').textContent())!.match(/([\d,]+) \//)![1]!.replace(/,/g, ''));
  const stopped = await doneOf();
  await page.getByTestId('continue').click();
  await expect.poll(doneOf, { timeout: 60_000 }).toBeGreaterThan(stopped);
  await page.reload();
  await page.getByTestId('resume').click();
  await expect(page.getByTestId('run-progress')).toContainText('60,000 / 60,000 rows', { timeout: 150_000 });
  await expect(page.getByTestId('run-progress')).toContainText('done');
  await expect(page.getByTestId('decided-token_f1')).toContainText('calibrated');
  const [jsonl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-jsonl').click()]);
  const lines = readFileSync((await jsonl.path())!, 'utf8')
    .trim()
    .split('\n');
  const run = (
    JSON.parse(lines[0]!) as { verity_run: { metrics: { name: string }[]; calibration: { thresholds: Record<string, number> } } }
  ).verity_run;
  const app = lines.slice(1).map((l) => JSON.parse(l) as { metrics: Record<string, { decision: boolean | null }> });

  const dir = mkdtempSync(join(tmpdir(), 'verity-e2e-cal-'));
  const file = join(dir, 'cal.jsonl');
  writeFileSync(file, content);
  const cals = Object.entries(run.calibration.thresholds).flatMap(([metric, threshold]) => {
    const p = join(dir, `${metric}.json`);
    writeFileSync(p, JSON.stringify({ version: 1, metric, threshold }));
    return ['--calibration', p];
  });
  expect(cals.length).toBeGreaterThanOrEqual(2 * 3);
  const names = run.metrics.map((m) => m.name);
  const cli = execFileSync('node', ['bin/verity.mjs', 'score', file, '--metrics', names.join(','), ...cals], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  })
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { metrics: Record<string, { decision: boolean | null }> });
  expect(app).toHaveLength(n);
  const differ = app.flatMap((r, i) =>
    names.filter((m) => r.metrics[m]!.decision !== cli[i]!.metrics[m]!.decision).map((m) => `${i}:${m}`),
  );
  expect(differ).toEqual([]);

  // The same file scored again: its input is stored once, and the list says so.
  await upload(page, 'cal.jsonl', content);
  await expect(page.getByTestId('mapped-summary')).toContainText('rows ready');
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-progress')).toContainText(/[1-9][\d,]* \/ 60,000 rows/);
  await page.getByTestId('cancel').click();
  await expect(page.getByTestId('run-progress')).toContainText('cancelled');
  await page.getByTestId('saved-runs').locator('summary').click();
  await expect(page.getByTestId('saved-run')).toHaveCount(2);
  await expect(page.getByTestId('saved-input').first()).toContainText('shared by 2 runs');
  await expect(page.getByTestId('saved-size')).toContainText('1 input');
  const inputs = await page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('verity-runs');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const keys = open.result.transaction('run').objectStore('run').getAllKeys();
          keys.onsuccess = () => resolve(keys.result.filter((k) => String(k).startsWith('input:')).length);
        };
      }),
  );
  expect(inputs).toBe(1);
});
