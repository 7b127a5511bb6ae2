/**
 * The README and docs/ against the code: the README stays short, every link lands, the generated metrics page is
 * current, and the lists derived from code (commands, exit codes) are the code's. The README's commands are run
 * as written by src/cli/readme.test.ts.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { metricsPage } from '../scripts/docs.ts';
import { EXIT_CODES } from '../src/cli/exit-codes.ts';
import { limitsTable } from '../src/core/limits.ts';
import { program } from '../src/cli/main.ts';
import { ROOT } from './cli.ts';

const read = (p: string) => readFileSync(resolve(ROOT, p), 'utf8');
const pages = [
  'README.md',
  ...readdirSync(resolve(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe('docs', () => {
  it('the README gets a newcomer to a result in at most 150 lines', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(150);
    for (const p of ['docs/cli.md', 'docs/inputs.md', 'docs/compare.md', 'docs/review.md', 'docs/models.md', 'docs/metrics.md'])
      expect(readme, p).toContain(`](${p})`);
    expect(readme).toContain('npm start -- --port');
  });

  it('every relative link in the README and docs/ lands on a file', () => {
    for (const page of pages) {
      const text = read(page).replace(/```[\s\S]*?```/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        expect(existsSync(resolve(ROOT, dirname(page), target!)), `${page} → ${target}`).toBe(true);
      }
    }
  });

  it('docs/metrics.md is made from the metric cards (npm run docs)', () => {
    expect(read('docs/metrics.md'), 'out of date: npm run docs').toBe(metricsPage());
  });

  it("docs/inputs.md's table of limits is the code's (LIMITS)", () => {
    const doc = read('docs/inputs.md');
    expect(doc.slice(doc.indexOf('## Limits')), 'out of date: paste limitsTable() (src/core/limits.ts)').toContain(
      limitsTable().join('\n'),
    );
  });

  it("docs/development.md's metric option and model capability diffs are the code: added lines there, removed ones gone", () => {
    const doc = read('docs/development.md');
    for (const heading of ['## What a new metric option costs', '## What a new model capability costs']) {
      const section = doc.slice(doc.indexOf(heading)).split('\n## ')[0]!;
      const diff = /```diff\n([\s\S]*?)```/.exec(section);
      expect(diff, `no diff under ${heading}`).not.toBeNull();
      const files = diff![1]!.split(/^--- a\/(\S+)\n\+\+\+ b\/\S+\n/m).slice(1);
      expect(files.length, heading).toBeGreaterThan(0);
      for (let i = 0; i < files.length; i += 2) {
        const code = read(files[i]!);
        const body = files[i + 1]!.split('\n').filter((l) => /^[+-]\s*\S/.test(l));
        expect(body.length, files[i]).toBeGreaterThan(0);
        for (const l of body) expect(code.includes(l.slice(1)), `${files[i]}: ${l}`).toBe(l.startsWith('+'));
      }
    }
  });

  it("docs/cli.md names every command and exactly the CLI's exit codes", () => {
    const cli = read('docs/cli.md');
    for (const c of program().commands.map((x) => x.name())) expect(cli, c).toMatch(new RegExp(`npx verity ${c}\\b`));
    const table = cli.slice(cli.indexOf('## Exit codes'));
    const codes = [...table.matchAll(/^\| (\d+) \|/gm)].map((m) => Number(m[1]));
    expect(codes).toEqual(Object.values(EXIT_CODES).sort((a, b) => a - b));
  });
});
