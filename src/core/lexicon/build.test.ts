/**
 * The committed lexicon is what scripts/lexicon/build.ts makes of WordNet 3.0 (Debian's wordnet-base): built
 * again into a temporary folder and compared byte for byte. Skipped on a machine without the database (the
 * file itself needs none of it: it is part of the app).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../../test/cli.ts';

const WORDNET = process.env.WORDNET_DIR ?? '/usr/share/wordnet';

describe.skipIf(!existsSync(join(WORDNET, 'data.noun')))('the lexicon build', () => {
  it('gives the committed file again, byte for byte', () => {
    const out = mkdtempSync(join(tmpdir(), 'verity-lexicon-'));
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/lexicon/build.ts'], {
      cwd: ROOT,
      env: { ...process.env, LEXICON_OUT: out },
    });
    expect(readFileSync(join(out, 'wordnet-3.0.wnlex')).equals(readFileSync(join(ROOT, 'lexicon/wordnet-3.0.wnlex')))).toBe(true);
  }, 600_000);
});
