/**
 * The worked example in docs/compare.md on EVOUNA is what the code prints today (scripts/compare-example.ts): a change that
 * moves a number fails here until `npm run docs` writes it again. Skips, saying what it needs, without the file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, ROOT } from '../../test/cli.ts';
import { evounaPath, EVOUNA_NEEDED } from '../../scripts/evouna.ts';
import { compareExample, withExample } from '../../scripts/compare-example.ts';

if (!existsSync(evounaPath())) console.log(`skipped: the worked example in docs/compare.md on EVOUNA ${EVOUNA_NEEDED}`);
describe.skipIf(!existsSync(evounaPath()))('the worked example in docs/compare.md on EVOUNA', () => {
  it('shows the numbers verity compare prints now', () => {
    const page = readFileSync(resolve(ROOT, 'docs/compare.md'), 'utf8');
    expect(withExample(page, compareExample(CLI)), 'the worked example in docs/compare.md is out of date: run npm run docs').toBe(page);
  });
});
