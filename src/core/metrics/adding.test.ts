/**
 * "Adding a lexical metric is one new file plus one line in the metric table" (docs/development.md), done for
 * real: a copy of src/ gets a throwaway metric file and its table line, and the copied CLI and the lists the
 * app and the e2e specs use all show it, with no other edit.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
let copy: string;

const METRIC_FILE = `/** @file Length ratio: a throwaway metric proving that a metric is one file plus one table line. */
import type { Metric, MetricCard, QaItem } from '../types.ts';
import { thresholdOption, type LexicalDescriptor } from './descriptor.ts';

export const card: MetricCard = {
  what: 'How close the candidate is in length to the nearest gold answer (a test metric).',
  formula: 'max over golds of min(|c|, |g|) / max(|c|, |g|) in characters.',
  defaults: 'Threshold 0.5.',
  limits: 'Says nothing about correctness; it exists to test the metric table.',
  citation: 'Verity tests.',
};

export function createLengthRatio(o: { threshold?: number } = {}): Metric {
  const threshold = o.threshold ?? 0.5;
  return {
    name: 'length_ratio',
    card,
    threshold,
    score(item: QaItem) {
      if (!item.golds.length) return { score: null, decision: null, explanation: 'no gold answer' };
      const c = item.candidate.length;
      const score = Math.max(...item.golds.map((g) => (Math.max(c, g.length) ? Math.min(c, g.length) / Math.max(c, g.length) : 1)));
      return { score, decision: score >= threshold, explanation: 'length ratio ' + score };
    },
  };
}

export const descriptor: LexicalDescriptor = {
  name: 'length_ratio',
  family: 'lexical',
  card,
  create: (s, name = 'length_ratio') => createLengthRatio(thresholdOption(s, name)),
  examples: [{ item: { question: 'Q?', golds: ['abcd'], candidate: 'ab' }, expected: { score: 0.5, decision: true } }],
};
`;

beforeAll(() => {
  copy = mkdtempSync(join(ROOT, '.verity-add-metric-'));
  // Inside the repository, so packages resolve from its node_modules.
  cpSync(join(ROOT, 'src'), join(copy, 'src'), { recursive: true, filter: (f) => !f.endsWith('.test.ts') });
  cpSync(join(ROOT, 'bin'), join(copy, 'bin'), { recursive: true });
  for (const f of ['package.json', 'tsconfig.json']) cpSync(join(ROOT, f), join(copy, f));
  // The one new file …
  writeFileSync(join(copy, 'src/core/metrics/length_ratio.ts'), METRIC_FILE);
  // … and the one table line (with its import).
  const index = join(copy, 'src/core/metrics/index.ts');
  const src = readFileSync(index, 'utf8');
  const withImport = src.replace(
    "import { descriptor as taxonomy } from './taxonomy.ts';\n",
    "$&import { descriptor as lengthRatio } from './length_ratio.ts';\n",
  );
  const withLine = withImport.replace('  taxonomy,\n]);', '  taxonomy,\n  lengthRatio,\n]);');
  expect(withLine).not.toBe(withImport);
  expect(withImport).not.toBe(src);
  writeFileSync(index, withLine);
  writeFileSync(
    join(copy, 'rows.jsonl'),
    `${JSON.stringify({ question: 'Capital of France?', gold: 'Paris', candidate: 'Paris, France' })}\n`,
  );
});

afterAll(() => rmSync(copy, { recursive: true, force: true }));

const cli = (...args: string[]) =>
  new Promise<{ status: number; stdout: string; stderr: string }>((resolve) =>
    execFile(process.execPath, [join(copy, 'bin/verity.mjs'), ...args], { cwd: copy, encoding: 'utf8' }, (e, stdout, stderr) =>
      resolve({ status: e ? Number(e.code ?? 1) : 0, stdout, stderr }),
    ),
  );

describe('adding a lexical metric', () => {
  it('shows up in the CLI (metrics, --help, score) and in every derived list, from one file and one table line', async () => {
    // Independent runs, started together (each CLI start costs a few seconds).
    const [metrics, help, scored] = await Promise.all([
      cli('metrics'),
      cli('score', '--help'),
      cli('score', 'rows.jsonl', '--metrics', 'exact_match,length_ratio'),
    ]);
    expect(metrics.status, metrics.stderr).toBe(0);
    expect(metrics.stdout).toContain('length_ratio\n  what: How close the candidate is in length');
    expect(help.stdout.replace(/\s+/g, ' ')).toMatch(/available: [a-z0-9_,]*length_ratio/);
    expect(scored.status, scored.stderr).toBe(0);
    const rec = JSON.parse(scored.stdout) as { metrics: Record<string, { score: number; decision: boolean }> };
    expect(rec.metrics.length_ratio).toMatchObject({ score: 5 / 13, decision: false });

    // The lists the app's pages (Score, Learn, Playground) and the e2e helpers read.
    const table = (await import(pathToFileURL(join(copy, 'src/core/metrics/index.ts')).href)) as typeof import('./index.ts');
    expect(table.LEXICAL_METRICS).toContain('length_ratio');
    expect(table.METRIC_NAMES.at(-1)).toBe('length_ratio');
    expect(table.MODEL_METRICS).not.toContain('length_ratio');
    expect(table.createSyncMetric('length_ratio').score({ question: 'Q?', golds: ['abcd'], candidate: 'ab' }).score).toBe(0.5);
  });
});
