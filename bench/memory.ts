/**
 * `npm run bench:memory [-- ROWS]`: the CLI's peak memory (RSS of the whole process, its
 * scoring thread included) scoring the same rows written as JSONL, CSV, TSV and a JSON array, with exact_match
 * (so reading dominates). Every text format is streamed, so memory should not grow with the rows; the table
 * goes into bench/REPORT.md ("Memory per input format"). Needs GNU time at /usr/bin/time.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROWS = Number(process.argv[2] ?? 1_000_000);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'verity-memory-'));

const row = (i: number) => ({
  id: `r${i}`,
  question: `What is item ${i % 5000} of the long list?`,
  gold: [`answer ${i % 97}`, `alias ${i % 13}`],
  candidate: i % 3 ? `the answer ${i % 97} is right` : `something else ${i}`,
});
const csvCell = (s: string) => (/[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);
const FORMATS: Record<string, { head: string; line: (i: number) => string; sep: string; tail: string }> = {
  jsonl: { head: '', line: (i) => JSON.stringify(row(i)), sep: '\n', tail: '\n' },
  csv: {
    head: 'id,question,gold,candidate\n',
    line: (i) => {
      const r = row(i);
      return [r.id, r.question, r.gold.join(' | '), r.candidate].map(csvCell).join(',');
    },
    sep: '\n',
    tail: '\n',
  },
  tsv: {
    head: 'id\tquestion\tgold\tcandidate\n',
    line: (i) => {
      const r = row(i);
      return [r.id, r.question, r.gold.join(' | '), r.candidate].join('\t');
    },
    sep: '\n',
    tail: '\n',
  },
  json: { head: '[\n', line: (i) => JSON.stringify(row(i)), sep: ',\n', tail: '\n]\n' },
};

const lines: string[] = [];
try {
  for (const [format, f] of Object.entries(FORMATS)) {
    const path = join(dir, `rows.${format}`);
    const fd = openSync(path, 'w');
    writeSync(fd, f.head);
    let buf = '';
    for (let i = 0; i < ROWS; i++) {
      buf += (i ? f.sep : '') + f.line(i);
      if (buf.length > 1 << 20) {
        writeSync(fd, buf);
        buf = '';
      }
    }
    writeSync(fd, buf + f.tail);
    closeSync(fd);
    const mb = statSync(path).size / 1e6;
    const run = spawnSync(
      '/usr/bin/time',
      ['-f', '%M %e', process.execPath, 'bin/verity.mjs', 'score', path, '--metrics', 'exact_match', '--out', join(dir, 'out.jsonl')],
      { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] },
    );
    if (run.status !== 0) throw new Error(`${format}: verity failed:\n${run.stderr}`);
    const [kb, secs] = run.stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
    lines.push(`| ${format.toUpperCase()} | ${mb.toFixed(0)} | ${(kb! / 1024).toFixed(0)} | ${secs!.toFixed(1)} |`);
    rmSync(path);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.stdout.write(
  [
    `${ROWS.toLocaleString('en')} rows, \`verity score FILE --metrics exact_match --out FILE\` (bin/verity.mjs), peak RSS by GNU time.`,
    '',
    '| format | file MB | peak RSS MB | s |',
    '|---|---:|---:|---:|',
    ...lines,
    '',
  ].join('\n'),
);
