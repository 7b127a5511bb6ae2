/** bench/report-blocks.ts: a benchmark run rewrites its own blocks of bench/REPORT.md and nothing else. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { replaceBlocks } from '../bench/report-blocks.ts';

const doc = [
  '# Report',
  '',
  '## Core',
  'Written by hand, kept.',
  '<!-- bench:core -->',
  '| old | table |',
  '<!-- /bench:core -->',
  'History below, kept.',
  '',
  '## App',
  '<!-- bench:app -->',
  'old app figures',
  '<!-- /bench:app -->',
  '',
].join('\n');

describe('replaceBlocks', () => {
  it('replaces a block between its markers and keeps everything around it', () => {
    const out = replaceBlocks(doc, { core: ['| new | table |', '| a | b |'] });
    expect(out).toBe(doc.replace('| old | table |', '| new | table |\n| a | b |'));
    expect(out).toContain('Written by hand, kept.');
    expect(out).toContain('History below, kept.');
    expect(out).toContain('old app figures');
  });

  it('keeps a block whose figures are missing, and empties one rendered empty', () => {
    expect(replaceBlocks(doc, { core: null, app: null })).toBe(doc);
    expect(replaceBlocks(doc, { app: [] })).toBe(doc.replace('old app figures\n', ''));
  });

  it('is stable: rendering twice gives the same text', () => {
    const once = replaceBlocks(doc, { core: ['x'], app: ['y', ''] });
    expect(replaceBlocks(once, { core: ['x'], app: ['y', ''] })).toBe(once);
  });

  it('refuses a report without a block, or with its markers twice or out of order', () => {
    expect(() => replaceBlocks(doc, { cli: ['x'] })).toThrow(/<!-- bench:cli -->/);
    expect(() => replaceBlocks(`${doc}\n<!-- bench:core -->\n<!-- /bench:core -->`, { core: ['x'] })).toThrow(/one/);
    expect(() => replaceBlocks('<!-- /bench:core -->\n<!-- bench:core -->', { core: ['x'] })).toThrow(/bench:core/);
  });

  it('finds every block bench/report.ts writes in bench/REPORT.md', () => {
    const report = readFileSync(new URL('../bench/REPORT.md', import.meta.url), 'utf8');
    const keys = ['written', 'machine', 'core', 'nli', 'app', 'cli'];
    expect(replaceBlocks(report, Object.fromEntries(keys.map((k) => [k, null])))).toBe(report);
  });
});
