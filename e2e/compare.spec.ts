/**
 * Comparing systems in the app: the EVOUNA file (a subset written at run time; the shared data is never copied
 * into the repo) mapped in one step as the wide layout, scored with the default metrics, and the leaderboard,
 * Kendall τ, paired verdicts and leaderboard CSV equal to `verity compare` on the same input; the human accuracy
 * per system equal to a plain count of the labels. Then two files dropped together, one lacking a row.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { expect, test } from '@playwright/test';
import { finish, open } from './helpers.ts';
import { evounaPath, EVOUNA_NEEDED } from '../scripts/evouna.ts';

const TQ = evounaPath();
const SYSTEMS = ['fid', 'gpt35', 'chatgpt', 'gpt4', 'newbing'];
/** Enough questions for every statistic to have something to say, few enough for a quick run. */
const SUBSET = 150;

const f3 = (x: number | null | undefined) => (x === null || x === undefined ? '—' : x.toFixed(3));
const signed = (x: number | null | undefined) => (x === null || x === undefined ? '—' : `${x >= 0 ? '+' : ''}${x.toFixed(3)}`);

interface CliEntry {
  system: string;
  accuracy: { value: number | null };
  mean: { value: number | null };
  human: { accuracy: number | null; correct: number; labelled: number } | null;
}
interface CliReport {
  leaderboard: { metrics: { metric: string; entries: CliEntry[] }[] };
  ranking: { metrics: { metric: string; kendallTau: number | null; gaps: { system: string; gap: number | null }[] }[] };
  paired: { metrics: { metric: string; pairs: { a: string; b: string; accuracy: { better: string | null; n: number } }[] }[] };
}

test('EVOUNA: the wide layout maps in one step, and the comparison equals verity compare', async ({ page }) => {
  test.skip(!existsSync(TQ), EVOUNA_NEEDED);
  test.setTimeout(180_000);
  const records = (JSON.parse(readFileSync(TQ, 'utf8')) as Record<string, unknown>[]).slice(0, SUBSET);
  const dir = mkdtempSync(join(tmpdir(), 'verity-compare-'));
  const file = join(dir, 'evouna-tq.json');
  writeFileSync(file, JSON.stringify(records));
  const csvOut = join(dir, 'cli-leaderboard.csv');
  const cli = JSON.parse(
    execFileSync('node', ['bin/verity.mjs', 'compare', file, '--json', '--out', csvOut], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  ) as CliReport;

  const watch = await open(page, '/#/score', 1280);
  await page.getByTestId('file-input').setInputFiles(file);
  // One step: the wide layout is detected; candidate and label are per system.
  await expect(page.getByTestId('map-system')).toHaveValue('wide');
  await expect(page.getByTestId('map-candidate')).toBeDisabled();
  await expect(page.getByTestId('map-question')).toHaveValue('question');
  await expect(page.getByTestId('map-gold')).toHaveValue('golden_answer');
  const summary = page.getByTestId('systems-summary');
  await expect(summary).toContainText('5 systems');
  for (const s of SYSTEMS) await expect(summary).toContainText(s);
  await expect(summary).toContainText('Rows are paired by record');
  // EVOUNA joins golds with "/": the page and the CLI both split on it without being told.
  await expect(page.getByTestId('gold-sep')).toHaveValue('/');
  await expect(page.getByTestId('mapping-notes').locator('[data-code="gold-separator"]')).toContainText('joined by "/"');
  await expect(page.getByTestId('mapped-summary')).toContainText('rows ready');

  await page.getByTestId('run').click();
  const cmp = page.getByTestId('comparison');
  await expect(cmp.getByTestId('leaderboard')).toBeVisible({ timeout: 120_000 });
  await expect(page.getByTestId('run-progress')).toContainText('done');

  // Human accuracy per system = a plain count of the labels (improper records and "nan" judgments left out).
  const kept = records.filter((r) => r.improper !== true);
  for (const s of SYSTEMS) {
    const labelled = kept.filter((r) => r[`judge_${s}`] === true || r[`judge_${s}`] === false);
    const correct = labelled.filter((r) => r[`judge_${s}`] === true).length;
    await expect(cmp.getByTestId(`overview-human-${s}`)).toHaveText(f3(correct / labelled.length));
    await expect(cmp.getByTestId(`lb-${s}-human`)).toHaveText(f3(correct / labelled.length));
    await expect(cmp.getByTestId(`lb-${s}`)).toContainText(`${correct} of ${labelled.length} labelled correct`);
  }

  // Every metric's leaderboard, τ and paired verdicts as the CLI has them.
  for (const lb of cli.leaderboard.metrics) {
    await cmp.getByTestId('compare-metric').selectOption(lb.metric);
    const ranking = cli.ranking.metrics.find((m) => m.metric === lb.metric)!;
    await expect(cmp.getByTestId('kendall-tau')).toHaveText(f3(ranking.kendallTau));
    await expect(cmp.getByTestId(`overview-tau-${lb.metric}`)).toHaveText(signed(ranking.kendallTau));
    const rows = cmp.getByTestId('leaderboard').locator('tbody tr');
    await expect(rows).toHaveCount(SYSTEMS.length);
    for (const [i, e] of lb.entries.entries()) {
      await expect(rows.nth(i).locator('th')).toHaveText(e.system);
      await expect(cmp.getByTestId(`lb-${e.system}-accuracy`)).toHaveText(f3(e.accuracy.value));
      await expect(cmp.getByTestId(`lb-${e.system}-mean`)).toHaveText(f3(e.mean.value));
      await expect(cmp.getByTestId(`lb-${e.system}-human`)).toHaveText(f3(e.human?.accuracy));
      const gap = ranking.gaps.find((g) => g.system === e.system)!;
      await expect(cmp.getByTestId(`lb-${e.system}-gap`)).toContainText(signed(gap.gap));
    }
    const pairs = cli.paired.metrics.find((m) => m.metric === lb.metric)!.pairs;
    for (const p of pairs) {
      const verdict = p.accuracy.better ? `${p.accuracy.better} > ${p.accuracy.better === p.a ? p.b : p.a}` : 'n.s.';
      await expect(cmp.getByTestId(`pair-${p.a}-${p.b}`).getByTestId('verdict-accuracy')).toHaveText(verdict);
    }
  }

  // Where systems differ: a split filter, and one question's answers side by side.
  await cmp.getByTestId('compare-metric').selectOption('exact_match');
  await expect(cmp.getByTestId('differ-row').first()).toBeVisible();
  const split = cmp.getByTestId('differ-split');
  const option = await split.locator('option').nth(1).getAttribute('value');
  await split.selectOption(option!);
  await expect(cmp.getByTestId('differ-count')).toHaveText(/^\d+ questions?/);
  await expect(cmp.getByTestId('differ-row').first().locator('td').nth(2)).toHaveText(option!);
  await cmp.getByTestId('differ-row').first().click();
  const detail = cmp.getByTestId('differ-detail');
  for (const s of SYSTEMS) await expect(detail.getByTestId(`differ-answer-${s}`)).toBeVisible();

  // Sections below the fold skip their style, layout and paint until scrolled to (content-visibility), and show then.
  for (const id of ['pair-matrix', 'differ-table', 'report']) {
    const section = page.getByTestId(id).first();
    const box = await section.evaluate((el) => {
      const offscreen = el.closest('.offscreen');
      return offscreen && getComputedStyle(offscreen).contentVisibility;
    });
    expect(box).toBe('auto');
    await section.scrollIntoViewIfNeeded();
    await expect(section).toBeVisible();
  }
  // Five systems give ten pairs: the full table is folded under the matrix, and opens.
  await expect(cmp.getByTestId('paired')).toBeHidden();
  await cmp.getByTestId('paired-details').locator('summary').click();
  await expect(cmp.getByTestId('paired')).toBeVisible();

  // The leaderboard CSV is the CLI's, byte for byte.
  const [download] = await Promise.all([page.waitForEvent('download'), cmp.getByTestId('export-leaderboard-csv').click()]);
  const got = readFileSync((await download.path())!, 'utf8');
  expect(got).toBe(readFileSync(csvOut, 'utf8'));
  // The per-row JSONL carries the system and the input's other columns.
  const [rowsDl] = await Promise.all([page.waitForEvent('download'), cmp.getByTestId('export-rows-jsonl').click()]);
  const lines = readFileSync((await rowsDl.path())!, 'utf8')
    .trim()
    .split('\n')
    .slice(1);
  const first = JSON.parse(lines[0]!) as Record<string, unknown>;
  expect(first.system).toBe('fid');
  expect(first).toHaveProperty('improper', false);
  expect(new Set(lines.map((l) => (JSON.parse(l) as { system: string }).system))).toEqual(new Set(SYSTEMS));

  await finish(page, 'compare-evouna.png', watch);
});

test('two files dropped together: named after the files, joined by id, and the row one lacks is reported', async ({ page }) => {
  const row = (i: number, answer: string) =>
    JSON.stringify({ id: `q${i}`, question: `What is item ${i}?`, gold: `item ${i}`, candidate: answer, label: answer === `item ${i}` });
  const a = [0, 1, 2, 3, 4, 5].map((i) => row(i, `item ${i}`)).join('\n');
  const b = [0, 1, 2, 4, 5].map((i) => row(i, i % 2 ? `item ${i}` : 'no idea')).join('\n');
  const watch = await open(page, '/#/score', 1280);
  // Both files dropped at once on the drop area.
  const dataTransfer = await page.evaluateHandle(
    ([x, y]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([x!], 'alpha.jsonl'));
      dt.items.add(new File([y!], 'beta.jsonl'));
      return dt;
    },
    [a, b],
  );
  await page.getByRole('region', { name: 'File drop area' }).dispatchEvent('drop', { dataTransfer });
  await expect(page.getByRole('heading', { name: /alpha\.jsonl \+ beta\.jsonl: 11 records/ })).toBeVisible();
  const summary = page.getByTestId('systems-summary');
  await expect(summary).toContainText('2 systems');
  await expect(summary).toContainText('alpha (6 rows');
  await expect(summary).toContainText('beta (5 rows');
  await expect(summary).toContainText('Rows are paired by id; 5 of 6 questions have a row of every system');
  const notes = page.getByTestId('coverage-notes');
  await expect(notes).toContainText('beta');
  await expect(notes).toContainText('lacks 1 of 6 questions');
  await expect(notes).toContainText('q3');

  await page.getByTestId('run').click();
  const cmp = page.getByTestId('comparison');
  await cmp.getByTestId('compare-metric').selectOption('exact_match');
  await expect(cmp.getByTestId('lb-alpha-accuracy')).toHaveText('1.000');
  await expect(cmp.getByTestId('lb-beta-accuracy')).toHaveText('0.400');
  // Paired on the 5 shared questions: alpha right and beta wrong on 3 (q0, q2, q4).
  const pair = cmp.getByTestId('pair-alpha-beta');
  await expect(pair.locator('td').nth(2)).toHaveText('5');
  await expect(pair.locator('td').nth(4)).toHaveText('3/0');
  await expect(pair.getByTestId('verdict-accuracy')).toHaveText('n.s.');
  // The results table says whose answer each row is.
  await expect(page.getByTestId('result-row')).toHaveCount(11);
  await expect(page.getByTestId('result-row').first().getByTestId('row-system')).toHaveText('alpha');
  await expect(page.getByTestId('result-row').last().getByTestId('row-system')).toHaveText('beta');
  await finish(page, 'compare-files.png', watch);
});

test('a system column: taken when its values answer the same questions; a "source" naming where questions came from is not', async ({
  page,
}) => {
  const dir = mkdtempSync(join(tmpdir(), 'verity-syscol-'));
  const runs = join(dir, 'runs.csv');
  writeFileSync(runs, ['question,gold,candidate,model', 'Q1,a,a,m1', 'Q2,b,b,m1', 'Q1,a,x,m2', 'Q2,b,b,m2'].join('\n'));
  const sourced = join(dir, 'sourced.csv');
  writeFileSync(sourced, ['question,gold,candidate,source', 'Q1,a,a,wiki', 'Q2,b,b,web', 'Q3,c,x,web'].join('\n'));
  const watch = await open(page, '/#/score', 1280);

  await page.getByTestId('file-input').setInputFiles(runs);
  await expect(page.getByTestId('systems-summary')).toContainText('2 systems: m1 (2 rows), m2 (2 rows)');
  await expect(page.getByTestId('map-system')).toHaveValue('col:model');

  await page.getByTestId('file-input').setInputFiles(sourced);
  const summary = page.getByTestId('systems-summary');
  await expect(page.getByTestId('map-system')).toHaveValue('');
  await summary.getByText(/How the systems were read/).click();
  await expect(summary).toContainText(
    'column "source" is not read as the system column: no question is answered under two of its 2 values',
  );
  await page.getByTestId('run').click();
  await expect(page.getByTestId('result-row')).toHaveCount(3);
  await expect(page.getByTestId('comparison')).toHaveCount(0);
  // Chosen by hand, it is taken.
  await page.getByTestId('map-system').selectOption('col:source');
  await expect(summary).toContainText('2 systems: wiki (1 row), web (2 rows)');
  await finish(page, 'compare-system-column.png', watch);
});

test('Inspect .eval archives dropped together: each log is a system named by its model, read in the worker', async ({ page }) => {
  const fixture = join(process.cwd(), 'test', 'fixtures', 'formats');
  const first = readFileSync(join(fixture, 'inspect-triviaqa.eval'));
  // A second log: the same samples from another model, which answers the Sydney question right.
  const log = JSON.parse(readFileSync(join(fixture, 'inspect-triviaqa.json'), 'utf8')) as {
    eval: { model: string };
    samples: { id: string; output: { completion: string } }[];
  };
  log.eval.model = 'openai/gpt-4o';
  log.samples.find((s) => s.id === 'tc_49')!.output.completion = 'Canberra';
  const { samples, ...header } = log;
  const second = zipSync({
    'header.json': strToU8(JSON.stringify(header)),
    ...Object.fromEntries(samples.map((s) => [`samples/${s.id}_epoch_1.json`, strToU8(JSON.stringify(s))])),
  });
  const watch = await open(page, '/#/score', 1280);
  const dataTransfer = await page.evaluateHandle(
    ([x, y]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(x!)], 'mini.eval'));
      dt.items.add(new File([new Uint8Array(y!)], 'big.eval'));
      return dt;
    },
    [[...first], [...second]],
  );
  await page.getByRole('region', { name: 'File drop area' }).dispatchEvent('drop', { dataTransfer });
  await expect(page.getByRole('heading', { name: /mini\.eval \+ big\.eval: 8 records/ })).toBeVisible();
  await expect(page.getByTestId('systems-summary')).toContainText('2 systems');
  await page.getByTestId('run').click();
  const cmp = page.getByTestId('comparison');
  await cmp.getByTestId('compare-metric').selectOption('exact_match');
  await expect(cmp.getByTestId('lb-openai/gpt-4o-mini-accuracy')).toHaveText('0.500');
  await expect(cmp.getByTestId('lb-openai/gpt-4o-accuracy')).toHaveText('0.750');
  await expect(page.getByTestId('result-row')).toHaveCount(8);
  await finish(page, 'compare-inspect-eval.png', watch);
});

test('ids unique per row, long system names in a source column: paired by question, shared as a page', async ({ page, browser }) => {
  const systems = ['evouna/NQ/fid', 'evouna/NQ/gpt35', 'evouna/NQ/chatgpt'];
  const dir = mkdtempSync(join(tmpdir(), 'verity-per-row-'));
  const name = 'nq-runs.jsonl';
  writeFileSync(
    join(dir, name),
    systems
      .flatMap((s, k) =>
        Array.from({ length: 12 }, (_, i) =>
          JSON.stringify({
            id: `q${i}-${s.split('/')[2]}`,
            source: s,
            question: `Which item is number ${i}?`,
            gold: `item ${i}`,
            candidate: i % (k + 2) ? `item ${i}` : 'not sure',
            label: i % (k + 2) > 0,
          }),
        ),
      )
      .join('\n'),
  );
  execFileSync('node', [join(process.cwd(), 'bin/verity.mjs'), 'compare', name, '--html', 'cli.html'], { cwd: dir, stdio: 'ignore' });

  const watch = await open(page, '/#/score', 1280);
  await page.getByTestId('file-input').setInputFiles(join(dir, name));
  // Found without a flag, and paired by question text, with the reason shown.
  await expect(page.getByTestId('map-system')).toHaveValue('col:source');
  const summary = page.getByTestId('systems-summary');
  await expect(summary).toContainText('3 systems');
  await expect(summary).toContainText('Rows are paired by question text; 12 of 12 questions have a row of every system');
  await expect(page.getByTestId('systems-pairing')).toHaveText(
    'rows paired by question text (no id is shared by two systems: the ids name rows, not questions); every system has 12 questions.',
  );
  await expect(page.getByTestId('map-pair-by')).toHaveValue('');
  await expect(page.getByTestId('map-pair-by').locator('option').first()).toHaveText('automatic (question text)');
  // The column chosen by hand pairs the same way; paired by id on request, no question is shared, and the page
  // says so instead of "n.s.".
  await page.getByTestId('map-system').selectOption('col:source');
  await expect(summary).toContainText('12 of 12 questions have a row of every system');
  await page.getByTestId('map-pair-by').selectOption('id');
  await expect(summary).toContainText('0 of 36 questions have a row of every system');
  await page.getByTestId('run').click();
  const cmp = page.getByTestId('comparison');
  await cmp.getByTestId('compare-metric').selectOption('exact_match');
  const pair = cmp.getByTestId('pair-evouna/NQ/fid-evouna/NQ/gpt35');
  await expect(pair.getByTestId('verdict-accuracy')).toHaveText('no shared questions');
  await expect(cmp.getByTestId('ranking')).toContainText('not measured: no labelled question is shared by two systems');
  // Back to automatic: every pair has its 12 questions.
  await page.getByTestId('map-pair-by').selectOption('');
  await expect(summary).toContainText('12 of 12 questions');
  await page.getByTestId('run').click();
  await cmp.getByTestId('compare-metric').selectOption('exact_match');
  await expect(pair.locator('td').nth(2)).toHaveText('12');
  await expect(cmp.getByTestId('kendall-tau')).toHaveText('1.000');
  // Charts: the shared prefix is left out and said once; no bar label is cut off at the left edge.
  await expect(cmp.getByTestId('chart-prefix')).toContainText('evouna/NQ/');
  const bars = cmp.getByTestId('chart-bars').locator('svg');
  await expect(bars.locator('text', { hasText: 'chatgpt' })).toHaveCount(1);
  const clipped = await bars.evaluate((svg) => {
    const left = svg.getBoundingClientRect().left;
    return [...svg.querySelectorAll('text')].filter((t) => t.getBoundingClientRect().left < left - 0.5).map((t) => t.textContent);
  });
  expect(clipped).toEqual([]);
  // The Class filter works on the classes taxonomy_text gives: the 23 answers that are the gold are exact.
  await page.getByTestId('filter-class').selectOption('exact');
  await expect(page.getByTestId('view-count')).toHaveText('23 of 36 rows');
  await page.getByTestId('filter-class').selectOption('');

  // The page to share: the CLI's bytes, and readable with JavaScript off.
  const [dl] = await Promise.all([page.waitForEvent('download'), cmp.getByTestId('export-report-html').click()]);
  expect(dl.suggestedFilename()).toBe('nq-runs.compare.html');
  const html = readFileSync((await dl.path())!, 'utf8');
  expect(html).toBe(readFileSync(join(dir, 'cli.html'), 'utf8'));
  const noJs = await browser.newContext({ javaScriptEnabled: false });
  const view = await noJs.newPage();
  const requests: string[] = [];
  view.on('request', (r) => requests.push(r.url()));
  await view.goto(`file://${join(dir, 'cli.html')}`);
  await expect(view.getByRole('heading', { name: 'Comparison of 3 systems' })).toBeVisible();
  const board = view.getByTestId('html-leaderboard-exact_match');
  await expect(board.locator('tbody tr')).toHaveCount(3);
  // chatgpt answers 9 of 12 right, gpt35 8, fid 6.
  await expect(board.locator('tbody tr').first()).toContainText('evouna/NQ/chatgpt120.750');
  await expect(view.getByTestId('html-paired-exact_match').locator('tbody tr')).toHaveCount(3);
  await expect(view.getByTestId('html-pairing')).toContainText('rows paired by question text');
  await expect(view.locator('svg')).not.toHaveCount(0);
  expect(requests.filter((u) => !u.startsWith('file://'))).toEqual([]);
  await noJs.close();
  await finish(page, 'compare-per-row-ids.png', watch);
});
