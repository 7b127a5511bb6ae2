/**
 * The README's worked example on EVOUNA is what the code prints today (scripts/readme-example.ts): a change that
 * moves a number fails here until `npm run readme` writes it again. Skips, saying what it needs, without the file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, ROOT } from '../../test/cli.ts';
import { evounaPath, EVOUNA_NEEDED } from '../../scripts/evouna.ts';
import { readmeExample, withExample } from '../../scripts/readme-example.ts';

if (!existsSync(evounaPath())) console.log(`skipped: the README's worked example on EVOUNA ${EVOUNA_NEEDED}`);
describe.skipIf(!existsSync(evounaPath()))("the README's worked example on EVOUNA", () => {
  it('shows the numbers verity compare prints now', () => {
    const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
    expect(withExample(readme, readmeExample(CLI)), 'the README example is out of date: run npm run readme').toBe(readme);
  });
});
