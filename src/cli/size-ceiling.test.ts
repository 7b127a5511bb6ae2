/**
 * Files past the longest string a JavaScript engine makes (~512 M characters) in every text format the CLI
 * streams: a 545 MB CSV and JSON array were "internal error: Cannot create a string longer than
 * 0x1fffffe8 characters" (exit 3). Slow (about a minute: the files are written to a temporary folder and read
 * twice); it runs with the rest of the unit tests, in CI too.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI } from '../../test/cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'verity-ceiling-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Rows of ~500 KB to just over 545 MB: five notes of 99,000 characters each (under the 100,000 per field) that
 * the mapping leaves out, so the time goes to reading, not scoring.
 */
const ROWS = 1_100;
const LONG = 'a long note '.repeat(9_000).slice(0, 99_000);
const NOTES = [1, 2, 3, 4, 5].map((k) => `note${k}`);

function write(name: string, head: string, row: (i: number) => string, sep: string, tail: string): string {
  const path = join(dir, name);
  const fd = openSync(path, 'w');
  writeSync(fd, head);
  for (let i = 0; i < ROWS; i++) writeSync(fd, (i ? sep : '') + row(i));
  writeSync(fd, tail);
  closeSync(fd);
  expect(statSync(path).size).toBeGreaterThan(0x1fffffe8);
  return path;
}

function score(file: string): Promise<{ code: number | null; stderr: string; lines: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'score', file, '--metrics', 'exact_match'], { cwd: ROOT });
    let lines = 0;
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => {
      for (const c of b) if (c === 10) lines++;
    });
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr: Buffer.concat(err).toString('utf8'), lines }));
  });
}

/** Each format: the file's start, one row, what goes between rows, its end. */
const FORMATS: [string, string, (i: number) => string, string, string][] = [
  [
    'CSV',
    `id,question,gold,candidate,${NOTES.join(',')}\n`,
    (i) => `r${i},What is ${i}?,answer ${i},answer ${i % 3},${NOTES.map(() => LONG).join(',')}`,
    '\n',
    '\n',
  ],
  [
    'JSON',
    '[\n',
    (i) =>
      JSON.stringify({
        id: `r${i}`,
        question: `What is ${i}?`,
        gold: [`answer ${i}`],
        candidate: `answer ${i % 3}`,
        ...Object.fromEntries(NOTES.map((n) => [n, LONG])),
      }),
    ',\n',
    '\n]\n',
  ],
];

describe('text files over 512 MB', () => {
  it.each(FORMATS)(
    'a %s file is streamed and every row scored',
    async (format, head, row, sep, tail) => {
      const file = write(`big.${format.toLowerCase()}`, head, row, sep, tail);
      const r = await score(file);
      expect(r.stderr).not.toContain('internal error');
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(`${format}, ${ROWS} rows read, 0 skipped`);
      expect(r.lines).toBe(ROWS);
      rmSync(file);
    },
    240_000,
  );
});
