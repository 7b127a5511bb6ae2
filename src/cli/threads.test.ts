/**
 * The CLI's scoring threads: a run gives the same bytes with one thread and with several, rows stay in input
 * order across batches while the next batch is read during the scoring of one, and the pool starts no more
 * threads than it is allowed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, ROOT } from '../../test/cli.ts';
import { compileRun } from './options.ts';
import { scoreRow } from '../core/scoring.ts';
import { createSyncMetric } from '../core/metrics/index.ts';
import type { QaItem } from '../core/types.ts';
import { defaultScoringThreads, endScoringThreads, scoringPool, scoringThreads, setScoringThreads } from './thread.ts';
import { rowsOf } from '../session/engine.ts';

const dir = mkdtempSync(join(tmpdir(), 'verity-threads-'));
const p = (name: string) => join(dir, name);
const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8' });

// Over two read batches (2,048 rows each) and a partial third; one broken line; answers that differ row to row.
const ROWS = 4500;
const item = (i: number) => ({
  id: `r${i}`,
  question: `Which number comes after ${i}?`,
  gold: [`${i + 1}`, `number ${i + 1}`],
  candidate: i % 4 === 0 ? `It is ${i + 1}.` : i % 4 === 1 ? `${i + 2}` : i % 4 === 2 ? `number ${i + 1}, I think` : 'no idea',
});
writeFileSync(
  p('in.jsonl'),
  `${Array.from({ length: ROWS }, (_, i) => (i === 3000 ? '{"broken": ' : JSON.stringify(item(i)))).join('\n')}\n`,
);
const M = ['--metrics', 'exact_match,token_f1,taxonomy_text'];

describe('verity score --threads', () => {
  const one = run('score', p('in.jsonl'), ...M, '--threads', '1', '--out', p('one.jsonl'));
  const three = run('score', p('in.jsonl'), ...M, '--threads', '3', '--out', p('three.jsonl'));

  it('gives the same bytes with one thread and with three', () => {
    expect(one.status, one.stderr).toBe(0);
    expect(three.status, three.stderr).toBe(0);
    expect(readFileSync(p('three.jsonl'), 'utf8')).toBe(readFileSync(p('one.jsonl'), 'utf8'));
  });

  it('writes every row in input order, each with its own results', () => {
    const out = readFileSync(p('three.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; metrics: Record<string, { score: number | null }> });
    const ids = Array.from({ length: ROWS }, (_, i) => i)
      .filter((i) => i !== 3000)
      .map((i) => `r${i}`);
    expect(out.map((r) => r.id)).toEqual(ids);
    const em = createSyncMetric('exact_match');
    for (const r of out) {
      const i = Number(r.id.slice(1));
      const it = item(i);
      expect(r.metrics.exact_match!.score, r.id).toBe(em.score({ question: it.question, golds: it.gold, candidate: it.candidate }).score);
    }
  });

  it('refuses a thread count under 1', () => {
    const r = run('score', p('in.jsonl'), ...M, '--threads', '0');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('--threads expects a whole number ≥ 1');
  });
});

describe('the scoring threads', () => {
  afterAll(() => endScoringThreads());

  it('default to one per core, 1 to 4', () => {
    expect([1, 2, 3, 5, 16].map((c) => defaultScoringThreads(c))).toEqual([1, 2, 3, 4, 4]);
  });

  it('start up to the limit while every thread has work, and score each job as this thread would', async () => {
    setScoringThreads(2);
    const { mapping: _mapping, ...plan } = compileRun({ metrics: 'exact_match,token_f1' });
    const jobs: QaItem[][] = Array.from({ length: 5 }, (_, k) =>
      Array.from({ length: 50 }, (_, i) => ({ question: 'q?', golds: [`a${k}`], candidate: i % 2 ? `a${k}` : `b${i}` })),
    );
    const results = await Promise.all(
      jobs.map(async (rows) => rowsOf(await scoringPool().score({ rows, plan, detailed: [], explainAll: true }))),
    );
    expect(scoringThreads()).toBe(2);
    const metrics = ['exact_match', 'token_f1'].map((n) => createSyncMetric(n));
    results.forEach((rows, k) =>
      rows.forEach((r, i) => {
        const here = scoreRow(jobs[k]![i]!, metrics);
        expect(r.exact_match!.score).toBe(here.exact_match!.score);
        expect(r.token_f1!.score).toBe(here.token_f1!.score);
      }),
    );
  });
});
