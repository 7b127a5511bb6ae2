/**
 * `npm run bench:core`: scores 100,000 rows built from the shared TriviaQA data with each lexical metric and
 * pedants, prints rows/s and peak memory, and times the same exact-match / F1 / containment computations
 * in a stdlib-only Python SQuAD-style script on the same rows (bench/squad_baseline.py), printing the ratio.
 * Also checks that both sides agree (sums of scores under SQuAD normalization).
 *
 * Then the rule statement writer's rate, and the default set on answers it has not seen (a fresh process each
 * time), with and without explanations.
 *
 *   npm run bench:core [-- --rows 100000 --repeats 3]   (rows/s is the best of the repeats, on both sides)
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEvouna, repoRoot, evounaPath } from '../scripts/evouna.ts';
import { createSyncMetric, DEFAULT_METRICS, LEXICAL_METRICS } from '../src/core/metrics/index.ts';
import { scoreRow } from '../src/core/scoring.ts';
import type { QaItem } from '../src/core/types.ts';
import { nodeLexicon } from '../src/runtime/lexicon-node.ts';
import { writeStatement } from '../src/core/statements/rules.ts';
import { argFlag, argNumber } from './args.ts';

// WordNet, as the app and the CLI score.
const lexicon = nodeLexicon();

const N = argNumber('rows', 100_000);
const REPEATS = argNumber('repeats', 3);

// Every answer of every system, labelled or not, cycled to N rows.
function buildRows(): QaItem[] {
  const base: QaItem[] = loadEvouna().map(({ question, golds, candidate }) => ({ question, golds, candidate }));
  const out: QaItem[] = [];
  for (let i = 0; i < N; i++) out.push(base[i % base.length]!);
  return out;
}

function python(): string {
  for (const p of ['python3', '/usr/bin/python3']) {
    try {
      execFileSync(p, ['--version'], { stdio: 'ignore' });
      return p;
    } catch {
      /* try the next */
    }
  }
  throw new Error('python3 not found');
}

/**
 * The default set on answers it has not seen (run in a fresh process, so no text is cached): the JIT warmed on
 * the first half of EVOUNA's questions, then the second half timed once, each question's golds shared by its five
 * systems' answers as in a real multi-system file. The cycled rows above repeat every answer, so after the first
 * cycle each text's analyses come from the memos; a file whose answers do not repeat pays for them on every row.
 */
function firstPass(scoresOnly: boolean): number {
  const set = DEFAULT_METRICS.map((n) => createSyncMetric(n, {}, { lexicon }));
  const only = scoresOnly ? new Set(DEFAULT_METRICS) : undefined;
  const base: QaItem[] = loadEvouna().map(({ question, golds, candidate }) => ({ question, golds: [...golds], candidate }));
  const half = Math.floor(base.length / 2);
  for (const r of base.slice(0, half)) scoreRow(r, set, only);
  const rest = base.slice(half);
  const t = performance.now();
  for (const r of rest) scoreRow(r, set, only);
  return ((performance.now() - t) * 1000) / rest.length;
}

/** firstPass in a child process (its memos empty), best of REPEATS. */
function firstPassChild(scoresOnly: boolean): number {
  let best = Infinity;
  for (let rep = 0; rep < REPEATS; rep++) {
    const out = execFileSync(
      process.execPath,
      [...process.execArgv, process.argv[1]!, '--first-pass', ...(scoresOnly ? ['--scores-only'] : [])],
      { encoding: 'utf8', cwd: repoRoot },
    );
    best = Math.min(best, Number(out.trim()));
  }
  return best;
}

function main(): void {
  const rows = buildRows();
  const avgGolds = rows.reduce((s, r) => s + r.golds.length, 0) / rows.length;
  console.log(
    `Verity bench:core — ${rows.length} rows from ${evounaPath()} (avg ${avgGolds.toFixed(1)} golds/row), Node ${process.version}`,
  );
  const results: Record<string, { rate: number; sum: number; peakMb: number }> = {};
  const strict = { normalization: 'squad' as const };
  const specs: [string, string, object][] = [
    ...LEXICAL_METRICS.map((n) => [n, n, {}] as [string, string, object]),
    ['lexical_match (squad norm.)', 'lexical_match', strict],
  ];
  for (const [label, name, settings] of specs) {
    const m = createSyncMetric(name, settings, { lexicon });
    globalThis.gc?.();
    let peak = process.memoryUsage().rss;
    // Best of REPEATS passes (the first also warms the JIT up); the Python side does the same.
    let best = Infinity;
    let sum = 0;
    for (let rep = 0; rep < REPEATS; rep++) {
      const t = performance.now();
      sum = 0;
      for (let i = 0; i < rows.length; i++) {
        sum += m.score(rows[i]!).score ?? 0;
        if ((i & 4095) === 0) peak = Math.max(peak, process.memoryUsage().rss);
      }
      best = Math.min(best, (performance.now() - t) / 1000);
    }
    const secs = best;
    peak = Math.max(peak, process.memoryUsage().rss);
    results[label] = { rate: rows.length / secs, sum, peakMb: peak / 2 ** 20 };
    console.log(
      `  ${label.padEnd(28)} ${Math.round(rows.length / secs)
        .toLocaleString('en-US')
        .padStart(10)} rows/s   peak RSS ${(peak / 2 ** 20).toFixed(0)} MB`,
    );
  }

  // The default set as the app and the CLI score it: every metric on one row before the next (their shared
  // text analyses are memoized per row), so its cost is less than the sum of its metrics alone.
  {
    const set = DEFAULT_METRICS.map((n) => createSyncMetric(n, {}, { lexicon }));
    let best = Infinity;
    for (let rep = 0; rep < REPEATS; rep++) {
      const fresh = rows.map((r) => ({ ...r, golds: [...r.golds] }));
      const t = performance.now();
      for (const r of fresh) scoreRow(r, set);
      best = Math.min(best, (performance.now() - t) / 1000);
    }
    const label = `default set (${DEFAULT_METRICS.length} metrics)`;
    results[label] = { rate: rows.length / best, sum: 0, peakMb: process.memoryUsage().rss / 2 ** 20 };
    console.log(
      `  ${label.padEnd(28)} ${Math.round(rows.length / best)
        .toLocaleString('en-US')
        .padStart(10)} rows/s`,
    );
  }
  for (const [label, r] of Object.entries(results)) console.log(`  ${label.padEnd(28)} ${(1e6 / r.rate).toFixed(1).padStart(8)} µs/row`);
  // The rule statement writer (CAP's default StatementWriter) on every question and answer, gold and candidate.
  const statementsPerSecond = (() => {
    const pairs = loadEvouna().flatMap(({ question, golds, candidate }) => [...golds, candidate].map((a) => [question, a] as const));
    let best = Infinity;
    for (let rep = 0; rep < REPEATS; rep++) {
      const t = performance.now();
      for (const [q, a] of pairs) writeStatement(q, a);
      best = Math.min(best, (performance.now() - t) / 1000);
    }
    console.log(
      `  ${'rule statements'.padEnd(28)} ${Math.round(pairs.length / best)
        .toLocaleString('en-US')
        .padStart(10)} statements/s`,
    );
    return pairs.length / best;
  })();
  const unseen = { full: firstPassChild(false), scoresOnly: firstPassChild(true) };
  console.log(
    `  default set, answers unseen: ${unseen.full.toFixed(1)} µs/row with explanations (the CLI), ${unseen.scoresOnly.toFixed(1)} scores only (the app's workers)`,
  );

  const dir = mkdtempSync(join(tmpdir(), 'verity-bench-'));
  try {
    const file = join(dir, 'rows.jsonl');
    writeFileSync(file, rows.map((r) => JSON.stringify({ candidate: r.candidate, gold: r.golds })).join('\n'));
    const py = JSON.parse(
      execFileSync(python(), [join(repoRoot, 'bench/squad_baseline.py'), file, String(REPEATS)], { encoding: 'utf8', maxBuffer: 1 << 26 }),
    ) as Record<string, { rows_per_s: number; sum: number }>;
    console.log(
      `\nPython (stdlib SQuAD-style script, ${execFileSync(python(), ['--version'], { encoding: 'utf8' }).trim()}) on the same rows:`,
    );
    const vsPython: Record<string, { pythonRate: number; verityRate: number; identical: boolean }> = {};
    for (const [name, ts] of [
      ['exact_match', 'exact_match'],
      ['token_f1', 'token_f1'],
      ['lexical_match', 'lexical_match (squad norm.)'],
    ] as const) {
      const p = py[name]!;
      const v = results[ts]!;
      const agree = Math.abs(p.sum - v.sum) < 1e-6 * Math.max(1, p.sum);
      vsPython[name] = { pythonRate: p.rows_per_s, verityRate: v.rate, identical: agree };
      console.log(
        `  ${name.padEnd(14)} Python ${Math.round(p.rows_per_s).toLocaleString('en-US').padStart(8)} rows/s   Verity ${Math.round(v.rate).toLocaleString('en-US').padStart(9)} rows/s   ratio ${(v.rate / p.rows_per_s).toFixed(1)}×   results ${agree ? 'identical' : `DIFFER (${p.sum} vs ${v.sum})`}`,
      );
    }
    mkdirSync(join(repoRoot, 'bench/out'), { recursive: true });
    const pythonVersion = execFileSync(python(), ['--version'], { encoding: 'utf8' }).trim();
    writeFileSync(
      join(repoRoot, 'bench/out/core.json'),
      `${JSON.stringify({ date: new Date().toISOString(), node: process.version, python: pythonVersion, rows: rows.length, avgGolds, metrics: results, statementsPerSecond, unseenMicrosPerRow: unseen, vsPython }, null, 2)}\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (argFlag('first-pass')) console.log(firstPass(argFlag('scores-only')).toFixed(2));
else main();
