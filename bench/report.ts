/**
 * `npm run bench` — runs every benchmark (bench:core, bench:nli, bench:app, bench:cli) one after another and writes
 * their figures, the machine it ran on and the date into bench/REPORT.md: only between the report's marker comments
 * (report-blocks.ts), so the sections written by hand and each section's history stay as they are.
 *
 *   npm run bench                      # all (≈ 45 min on 2 cores)
 *   npm run bench -- --only core,app   # some of them
 *   npm run bench -- --report-only     # rebuild REPORT.md from the last bench/out/*.json
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../scripts/evouna.ts';
import { replaceBlocks } from './report-blocks.ts';
import { argFlag, argList } from './args.ts';

const OUT = join(repoRoot, 'bench', 'out');
const ALL = ['core', 'nli', 'app', 'cli'] as const;
type Bench = (typeof ALL)[number];

const only = argList<Bench>('only', [...ALL], (s) => {
  if (!(ALL as readonly string[]).includes(s)) throw new Error(`--only: ${ALL.join(', ')}, not "${s}"`);
  return s as Bench;
});
const reportOnly = argFlag('report-only');

if (!reportOnly)
  for (const b of only) {
    process.stderr.write(`\n== npm run bench:${b} ==\n`);
    const r = spawnSync('npm', ['run', `bench:${b}`], { cwd: repoRoot, stdio: 'inherit' });
    if (r.status !== 0) {
      process.stderr.write(`bench:${b} failed (exit ${r.status}); REPORT.md is written from the figures that exist\n`);
    }
  }

const read = <T>(name: string): T | null => {
  const f = join(OUT, `${name}.json`);
  return existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as T) : null;
};
const n0 = (x: number) => Math.round(x).toLocaleString('en-US');
const n1 = (x: number) => x.toFixed(1);

function machine(): string[] {
  const osName = existsSync('/etc/os-release')
    ? (/PRETTY_NAME="([^"]+)"/.exec(readFileSync('/etc/os-release', 'utf8'))?.[1] ?? 'Linux')
    : process.platform;
  let chromium = 'not installed';
  try {
    // Its stderr is dropped: Debian's launcher script prints a shell error there ("[: …: unexpected operator").
    chromium = execFileSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    /* keep "not installed" */
  }
  return [
    `- CPU: ${cpus()[0]?.model ?? 'unknown'}, ${cpus().length} cores visible; memory ${n1(totalmem() / 2 ** 30)} GiB; no GPU`,
    `- OS: ${osName} (kernel ${release()})`,
    `- Node ${process.version}; ${chromium} (headless, Playwright)`,
  ];
}

interface Core {
  date: string;
  rows: number;
  avgGolds: number;
  python: string;
  metrics: Record<string, { rate: number; peakMb: number }>;
  vsPython: Record<string, { pythonRate: number; verityRate: number; identical: boolean }>;
}
interface App {
  date: string;
  file100: { mb: number; rows: number; openSeconds: number; chromiumPeakPssMb: number; chromiumIdlePssMb: number };
  million: {
    rows: number;
    mb: number;
    appParseSeconds: number;
    appScoreSeconds: number;
    appRowsPerSecond: number;
    longTasksOver50ms: number;
    longestTaskMs: number;
    reportSeconds?: number;
    scrollEndSeconds?: number;
    scrollBackSeconds?: number;
    longTasksAfterRun?: number;
    longestTaskAfterRunMs?: number;
    cliSeconds: number | null;
    cliRowsPerSecond: number | null;
    chromiumPeakPssMb: number;
    chromiumPeakPssMbPerRun?: number[];
    chromiumPeakPhasePerRun?: string[];
    scoringWorkers?: number;
  };
  targets?: { target: number; what: string; value: string; limit: string; met: boolean; note: string }[];
}

const blocks: Record<string, string[] | null> = {
  written: [`Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}. Each section says when its figures were measured.`],
  machine: machine(),
};

const core = read<Core>('core');
blocks.core = null;
if (core) {
  blocks.core = [
    `Measured ${core.date.slice(0, 10)}: ${n0(core.rows)} rows cycled from the shared EVOUNA TriviaQA answers (${n1(core.avgGolds)} golds per row), best of 3 passes, one thread.`,
    '',
    '| metric | rows/s | µs per row | peak RSS (MB) |',
    '|---|---:|---:|---:|',
    ...Object.entries(core.metrics).map(([m, v]) => `| ${m} | ${n0(v.rate)} | ${n1(1e6 / v.rate)} | ${n0(v.peakMb)} |`),
    '',
    `Against a stdlib Python SQuAD-style script on the same rows (${core.python}); results checked identical:`,
    '',
    '| metric | Python rows/s | Verity rows/s | ratio | identical |',
    '|---|---:|---:|---:|---|',
    ...Object.entries(core.vsPython).map(
      ([m, v]) =>
        `| ${m} | ${n0(v.pythonRate)} | ${n0(v.verityRate)} | ${n1(v.verityRate / v.pythonRate)}× | ${v.identical ? 'yes' : 'NO'} |`,
    ),
  ];
}

const nli = read<Record<string, unknown>>('nli');
blocks.nli = nli ? renderNli(nli) : null;

const app = read<App>('app');
blocks.app = null;
if (app) {
  const m = app.million;
  blocks.app = [
    `Measured ${app.date.slice(0, 10)} in headless Chromium against \`vite preview\`. Memory is the summed PSS of all Chromium processes (shared pages counted once).`,
    '',
    '| figure | value |',
    '|---|---:|',
    `| ${n1(app.file100.mb)} MB JSONL (${n0(app.file100.rows)} rows): picked → preview and mapped rows shown | ${n1(app.file100.openSeconds)} s |`,
    `| Chromium memory before → peak while reading it | ${n0(app.file100.chromiumIdlePssMb)} → ${n0(app.file100.chromiumPeakPssMb)} MB |`,
    `| ${n0(m.rows)} rows (${n0(m.mb)} MB): read and mapped | ${n1(m.appParseSeconds)} s |`,
    `| … scored with the embedded default in the app | ${n1(m.appScoreSeconds)} s = **${n0(m.appRowsPerSecond)} rows/s** |`,
    ...(m.cliSeconds === null || m.cliRowsPerSecond === null
      ? []
      : [
          `| … the Node CLI on the same file (\`verity score\`, parse included) | ${n1(m.cliSeconds)} s = **${n0(m.cliRowsPerSecond)} rows/s** |`,
        ]),
    `| main-thread tasks over 50 ms while scoring (PerformanceObserver longtask; target 0) | **${m.longTasksOver50ms}**${m.longTasksOver50ms ? ` (longest ${m.longestTaskMs} ms)` : ''} |`,
    ...(m.reportSeconds === undefined
      ? []
      : [
          `| after the run: report shown | ${n1(m.reportSeconds)} s |`,
          `| … table paged and scrolled to row ${n0(m.rows)} / back to row 1 (row shown) | ${n1(m.scrollEndSeconds!)} s / ${n1(m.scrollBackSeconds!)} s |`,
          `| … main-thread tasks over 50 ms meanwhile (report charts drawn) | ${m.longTasksAfterRun}${m.longTasksAfterRun ? ` (longest ${m.longestTaskAfterRunMs} ms)` : ''} |`,
        ]),
    `| Chromium memory peak during the million-row run${m.chromiumPeakPssMbPerRun && m.chromiumPeakPssMbPerRun.length > 1 ? `, the highest of ${m.chromiumPeakPssMbPerRun.length} runs` : ''} | ${n0(m.chromiumPeakPssMb)} MB |`,
    ...(m.chromiumPeakPssMbPerRun && m.chromiumPeakPssMbPerRun.length > 1
      ? [
          `| … each run's peak (and while it was reading, scoring or showing the report) | ${m.chromiumPeakPssMbPerRun
            .map((v, i) => `${n0(v)}${m.chromiumPeakPhasePerRun?.[i] ? ` (${m.chromiumPeakPhasePerRun[i]})` : ''}`)
            .join(', ')} MB |`,
        ]
      : []),
    ...(m.scoringWorkers ? [`| scoring workers (navigator.hardwareConcurrency) | ${m.scoringWorkers} |`] : []),
    '',
    ...(app.targets ?? []).map(
      (t) => `Issue 16 target ${t.target}, ${t.what}: ${t.value} (limit ${t.limit}): **${t.met ? 'met' : 'not met'}**${t.note}.`,
    ),
  ];
}

interface CliRun {
  command: string;
  rows: number;
  bytes: number;
  seconds: number;
  peakRssMb: number;
  exit: number | null;
  written: number;
}
const cli = read<{ date: string; metrics: string; runs: CliRun[]; peakRatioLargeToSmall: number; flat: boolean; gbScored: boolean }>('cli');
blocks.cli = null;
if (cli) {
  blocks.cli = [
    `Measured ${cli.date.slice(0, 10)}: \`verity score --out\` (and \`evaluate\`) on generated JSONL built from the shared TriviaQA answers, metrics ${cli.metrics}; peak RSS of the process (/usr/bin/time).`,
    '',
    '| run | rows | file | time | peak RSS | exit | rows written |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...cli.runs.map(
      (r) =>
        `| ${r.command} | ${n0(r.rows)} | ${n0(r.bytes / 1e6)} MB | ${n0(r.seconds)} s | ${n0(r.peakRssMb)} MB | ${r.exit} | ${r.command === 'score' ? n0(r.written) : '—'} |`,
    ),
    '',
    `Target: peak RSS flat in the row count, 3M rows within 1.3× the peak at 300k: **${cli.peakRatioLargeToSmall.toFixed(2)}× — ${cli.flat ? 'met' : 'not met'}**; a 1 GB file scored end to end: **${cli.gbScored ? 'met' : 'not met'}**. \`evaluate\` keeps a label and each metric's score and decision per row (typed arrays), so its memory grows with the rows by design.`,
  ];
}

const reportPath = join(repoRoot, 'bench', 'REPORT.md');
writeFileSync(reportPath, replaceBlocks(readFileSync(reportPath, 'utf8'), blocks));
const kept = Object.keys(blocks).filter((k) => blocks[k] === null);
process.stderr.write(`wrote bench/REPORT.md${kept.length ? ` (kept as they were, no figures here: ${kept.join(', ')})` : ''}\n`);

function renderNli(j: Record<string, unknown>): string[] {
  // bench:nli writes its own section (Verity against the WASM ceiling).
  if (typeof j.markdown === 'string') return j.markdown.split('\n');
  const out: string[] = [];
  const date = typeof j.date === 'string' ? j.date.slice(0, 10) : '';
  out.push(
    `Measured ${date}${j.quick ? ' (--quick run: fewer pairs, figures noisier)' : ''}: ${String(j.pairs)} (premise, hypothesis) pairs (${String(j.unique)} distinct) on a generated real-size BERT NLI model (6 layers, hidden 768, 12 heads, vocab 30,522, random weights).`,
    '',
  );
  const machine = j.machine as { cpu: string; cores: number; simd: string[] } | undefined;
  if (machine)
    out.push(
      `CPU: ${machine.cpu}, ${machine.cores} cores, SIMD ${machine.simd.join(', ')}.${typeof j.chromium === 'string' ? ` ${j.chromium}.` : ''}`,
      '',
    );
  const ratios = j.ratios as Record<string, { wasmToNode: number; nodeBatchedToNaive: number; browserBatchedToNaive: number }> | undefined;
  if (ratios) {
    const mark = (v: number, target: number) => `${v.toFixed(2)}× ${v >= target ? '(met)' : '(**not met**)'}`;
    out.push(
      'Targets from issue 4: Chromium WASM ≥ 0.8× Node; batched ≥ 2× naive.',
      '',
      '| dtype | Chromium WASM / Node (≥ 0.8×) | Node batched / naive (≥ 2×) | Chromium batched / naive (≥ 2×) |',
      '|---|---:|---:|---:|',
    );
    for (const [dtype, r] of Object.entries(ratios))
      out.push(`| ${dtype} | ${mark(r.wasmToNode, 0.8)} | ${mark(r.nodeBatchedToNaive, 2)} | ${mark(r.browserBatchedToNaive, 2)} |`);
    out.push('');
  }
  const node = j.node as { naive: number; batched: number; ratio: number } | undefined;
  const q8 = j.q8 as
    | {
        node?: { naive: number; batched: number; ratio: number };
        agreementWithFp32?: { sameTopLabel: number; maxAbsProbDiff: number; meanAbsProbDiff: number };
      }
    | undefined;
  if (node) {
    out.push('| Node (onnxruntime-node) | fp32 pairs/s | q8 pairs/s |', '|---|---:|---:|');
    out.push(`| naive, one pair per call | ${n1(node.naive)} | ${q8?.node ? n1(q8.node.naive) : ''} |`);
    out.push(`| batched (dedup + length-sorted) | ${n1(node.batched)} | ${q8?.node ? n1(q8.node.batched) : ''} |`, '');
  }
  if (q8?.agreementWithFp32) {
    const a = q8.agreementWithFp32;
    out.push(
      `q8 against fp32 on the same pairs: same top label for ${(a.sameTopLabel * 100).toFixed(1)} %, mean |Δp| ${a.meanAbsProbDiff.toFixed(4)}, max |Δp| ${a.maxAbsProbDiff.toFixed(3)} (random weights: says nothing about a real model's accuracy).`,
      '',
    );
  }
  const browser = j.browser as
    | { label: string; pairs: number; pairsPerSecond: number | null; device?: string; dtype?: string; threads?: number; error?: string }[]
    | undefined;
  if (browser?.length) {
    out.push('| Chromium | pairs | pairs/s | device / dtype / threads |', '|---|---:|---:|---|');
    for (const b of browser)
      out.push(
        `| ${b.label} | ${b.pairs} | ${b.pairsPerSecond === null ? `failed: ${b.error}` : n1(b.pairsPerSecond)} | ${b.device ?? ''} / ${b.dtype ?? ''} / ${b.threads ?? ''} |`,
      );
    out.push('');
  }
  const sweep = j.sweep as
    | {
        pairs: number;
        allPairs: number;
        rounds: number;
        rows: {
          dtype: string;
          batchSize: number;
          node: number;
          browser: number | null;
          nodeAllPairs: number;
          paddingShare?: { allPairs: number };
        }[];
      }
    | undefined;
  if (sweep?.rows.length) {
    out.push(
      `Batch-size sweep (pairs/s, mean of ${sweep.rounds} rounds; Node and Chromium WASM on the first ${sweep.pairs} pairs, "Node all" on all ${sweep.allPairs}; padding = share of padded token positions):`,
      '',
      '| dtype | batch | Node | Node all | Chromium WASM | padding |',
      '|---|---:|---:|---:|---:|---:|',
    );
    for (const r of sweep.rows)
      out.push(
        `| ${r.dtype} | ${r.batchSize} | ${n1(r.node)} | ${n1(r.nodeAllPairs)} | ${r.browser === null ? '—' : n1(r.browser)} | ${r.paddingShare ? `${(r.paddingShare.allPairs * 100).toFixed(0)} %` : ''} |`,
      );
    out.push('');
  }
  const defaults = j.defaults as { nodeAndWorkerHostBatch: number; classifyUniqueChunk: number } | undefined;
  if (defaults)
    out.push(`Defaults in use: model-host batch ${defaults.nodeAndWorkerHostBatch}, evidence chunk ${defaults.classifyUniqueChunk}.`, '');
  const noise = j.noise as { maxOtherCores: number; runs: { label: string; attempts: unknown[] }[] } | undefined;
  if (noise) {
    const repeated = noise.runs.filter((r) => r.attempts.length > 1).map((r) => r.label);
    out.push(
      `Each timed run records the CPU other processes used meanwhile and is repeated when that exceeds ${noise.maxOtherCores} cores; ${repeated.length ? `repeated here: ${repeated.join(', ')}` : 'no run needed repeating'}.`,
      '',
    );
  }
  return out;
}
