/**
 * `npm run bench:cli`: the CLI at size. Scores generated JSONL files built from the shared
 * TriviaQA answers with `verity score --out` and records the peak RSS of the process (/usr/bin/time):
 *   - 300,000 and 3,000,000 rows: the target is a peak at 3M within 1.3× the peak at 300k (memory flat in
 *     the row count, since rows are streamed in and written out batch by batch);
 *   - a file of 1 GB (long rows), scored end to end (exit 0, every row written).
 * Also `evaluate` on the 3M file (its memory grows by design: a label and each metric's score per row).
 * Writes bench/out/cli.json. Needs ~2.5 GB of free disk in the temp folder; takes a long while on 2 cores.
 *
 *   npm run bench:cli [-- --small 300000 --large 3000000 --gb 1 --metrics exact_match,token_f1]
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEvouna, repoRoot } from '../scripts/evouna.ts';
import { argNumber, argText } from './args.ts';

const SMALL = argNumber('small', 300_000);
const LARGE = argNumber('large', 3_000_000);
const GB = argNumber('gb', 1);
const METRICS = argText('metrics', 'exact_match,token_f1');

const base = loadEvouna();

/** Writes `rows` JSONL rows cycling over the TriviaQA answers; `pad` words of filler lengthen each answer. */
async function generate(file: string, rows: number, pad = 0): Promise<void> {
  const out = createWriteStream(file);
  const filler = pad ? ` ${'and so on '.repeat(pad)}` : '';
  for (let i = 0; i < rows; i++) {
    const b = base[i % base.length]!;
    const line = `${JSON.stringify({ id: `r${i}`, question: b.question, gold: b.golds, candidate: b.candidate + filler, label: b.correct })}\n`;
    if (!out.write(line)) await new Promise<void>((res) => out.once('drain', () => res()));
  }
  await new Promise<void>((res) => out.end(() => res()));
}

interface Run {
  command: string;
  rows: number;
  bytes: number;
  seconds: number;
  peakRssMb: number;
  exit: number | null;
  written: number;
}

/** Lines in a file, read in chunks (the output of the 1 GB run is larger than a Buffer may be). */
async function countLines(file: string): Promise<number> {
  let n = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>)
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) n++;
  return n;
}

async function run(command: 'score' | 'evaluate', file: string, rows: number, dir: string): Promise<Run> {
  const out = join(dir, 'out.jsonl');
  const args = [
    command,
    file,
    '--metrics',
    METRICS,
    '--no-progress',
    ...(command === 'score' ? ['--out', out] : ['--json', '--resamples', '0']),
  ];
  const started = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', 'PEAK_RSS_KB=%M', process.execPath, 'bin/verity.mjs', ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  const seconds = (performance.now() - started) / 1000;
  const kb = Number(/PEAK_RSS_KB=(\d+)/.exec(r.stderr)?.[1] ?? NaN);
  let written = 0;
  if (command === 'score' && r.status === 0) {
    written = await countLines(out);
    rmSync(out);
  }
  if (r.status !== 0) process.stderr.write(r.stderr.slice(-2000));
  const result = { command, rows, bytes: statSync(file).size, seconds, peakRssMb: kb / 1024, exit: r.status, written };
  process.stderr.write(
    `${command} ${rows.toLocaleString('en-US')} rows (${(result.bytes / 1e6).toFixed(0)} MB): ${seconds.toFixed(0)} s, peak RSS ${result.peakRssMb.toFixed(0)} MB, exit ${r.status}\n`,
  );
  return result;
}

const dir = mkdtempSync(join(tmpdir(), 'verity-bench-cli-'));
try {
  const runs: Run[] = [];
  const small = join(dir, 'small.jsonl');
  await generate(small, SMALL);
  runs.push(await run('score', small, SMALL, dir));
  rmSync(small);
  const large = join(dir, 'large.jsonl');
  await generate(large, LARGE);
  runs.push(await run('score', large, LARGE, dir));
  runs.push(await run('evaluate', large, LARGE, dir));
  rmSync(large);
  // ~1 KB rows: the TriviaQA answers padded with 80 filler words.
  const gbRows = Math.round((GB * 1e9) / 1000);
  const gb = join(dir, 'gb.jsonl');
  await generate(gb, gbRows, 80);
  runs.push(await run('score', gb, gbRows, dir));
  rmSync(gb);
  const ratio = runs[1]!.peakRssMb / runs[0]!.peakRssMb;
  const summary = {
    date: new Date().toISOString(),
    metrics: METRICS,
    runs,
    peakRatioLargeToSmall: ratio,
    flat: ratio <= 1.3,
    gbScored: runs[3]!.exit === 0 && runs[3]!.written === gbRows,
  };
  process.stderr.write(
    `peak RSS ${LARGE.toLocaleString('en-US')} / ${SMALL.toLocaleString('en-US')} rows = ${ratio.toFixed(2)} (target ≤ 1.3); 1 GB file scored end to end: ${summary.gbScored}\n`,
  );
  mkdirSync(join(repoRoot, 'bench', 'out'), { recursive: true });
  writeFileSync(join(repoRoot, 'bench', 'out', 'cli.json'), `${JSON.stringify(summary, null, 2)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
