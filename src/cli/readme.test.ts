/**
 * The README's commands run as written: each `npx verity …` line of its shell blocks is spawned in order (the
 * bundled CLI, test/cli.ts) in a scratch folder that holds the repository's public/ (the demo files), and
 * exits 0; each `npm …` line names a script package.json has.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, ROOT } from '../../test/cli.ts';

/** Shell words of one command line: plain words and double- or single-quoted strings (all the README uses). */
const words = (line: string): string[] => [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);

const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
const commands = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)]
  .flatMap((m) => m[1]!.split('\n'))
  .map((l) => l.replace(/\s+#.*$/, '').trim())
  .filter(Boolean)
  .flatMap((l) => l.split(/\s*&&\s*/));

describe("the README's commands", () => {
  const dir = mkdtempSync(join(tmpdir(), 'verity-readme-'));
  symlinkSync(resolve(ROOT, 'public'), join(dir, 'public'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are there: the set-up and a tour of every main command', () => {
    const verbs = commands.filter((c) => c.startsWith('npx verity ')).map((c) => words(c)[2]);
    expect(verbs).toEqual(expect.arrayContaining(['explain', 'score', 'evaluate', 'compare', 'review']));
    expect(commands).toEqual(expect.arrayContaining(['npm ci', 'npm start', 'npm test']));
  });

  it('run as written, in order, each exiting 0', { timeout: 600_000 }, () => {
    const scripts = (JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    for (const c of commands) {
      const w = words(c);
      if (w[0] === 'npm') {
        if (w[1] !== 'ci') expect(scripts, c).toHaveProperty(w[1] === 'run' ? w[2]! : w[1]!);
        continue;
      }
      expect(w.slice(0, 2), c).toEqual(['npx', 'verity']);
      const r = spawnSync(process.execPath, [CLI, ...w.slice(2)], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 26 });
      expect(r.status, `${c}\n${r.stderr}`).toBe(0);
      expect(r.stdout.length + r.stderr.length, c).toBeGreaterThan(0);
    }
  });
});
