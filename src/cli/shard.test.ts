/**
 * Scoring past one machine: the K-th of N slices scored apart and merged give the bytes of an unsharded run
 * (N = 1, 3 and 7; JSONL and CSV), and merge refuses parts of another input or configuration, a slice given
 * twice, and a missing one.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, ROOT } from '../../test/cli.ts';
import { sliceOf } from './shard.ts';

const dir = mkdtempSync(join(tmpdir(), 'verity-shard-'));
const p = (name: string) => join(dir, name);
const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8' });
// 100 rows, one of them broken (a record number with no row), with an input column of its own.
const lines = Array.from({ length: 101 }, (_, i) =>
  i === 40
    ? '{"broken": '
    : JSON.stringify({ id: `q${i}`, question: `What is ${i}?`, gold: `answer ${i}`, candidate: i % 3 ? `answer ${i}` : 'no', note: i }),
);
writeFileSync(p('in.jsonl'), `${lines.join('\n')}\n`);
const M = ['--metrics', 'exact_match,token_f1,pedants'];

describe('sliceOf', () => {
  it('cuts the records into N contiguous slices that cover them all once', () => {
    for (const [records, n] of [
      [10, 3],
      [7, 7],
      [3, 5],
      [100, 1],
    ] as const) {
      const slices = Array.from({ length: records }, (_, i) => sliceOf(i + 1, records, n));
      expect(slices).toEqual([...slices].sort((a, b) => a - b));
      expect(slices[0]).toBe(1);
      expect(Math.max(...slices)).toBeLessThanOrEqual(n);
    }
    expect(sliceOf(12, 10, 3)).toBe(3);
  });
});

describe('verity score --shard and verity merge', () => {
  const full = run('score', p('in.jsonl'), ...M, '--out', p('full.jsonl'));
  const fullCsv = run('score', p('in.jsonl'), ...M, '--out', p('full.csv'));

  it.each([1, 3, 7])('N = %i: the merged parts are the unsharded output, byte for byte', (n) => {
    expect(full.status, full.stderr).toBe(0);
    expect(fullCsv.status, fullCsv.stderr).toBe(0);
    const parts = Array.from({ length: n }, (_, k) => p(`n${n}-part${k + 1}.jsonl`));
    parts.forEach((part, k) => {
      const r = run('score', p('in.jsonl'), ...M, '--shard', `${k + 1}/${n}`, '--out', part);
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(readFileSync(part, 'utf8').split('\n')[0]!)).toMatchObject({ verity_shard: { k: k + 1, n, records: 100 } });
    });
    const shuffled = [...parts].reverse();
    const m = run('merge', p(`n${n}.jsonl`), ...shuffled);
    expect(m.status, m.stderr).toBe(0);
    expect(readFileSync(p(`n${n}.jsonl`), 'utf8')).toBe(readFileSync(p('full.jsonl'), 'utf8'));
    expect(run('merge', p(`n${n}.csv`), ...parts).status).toBe(0);
    expect(readFileSync(p(`n${n}.csv`), 'utf8')).toBe(readFileSync(p('full.csv'), 'utf8'));
  });

  it('refuses parts of another configuration or input, a slice twice, a slice missing, and writes nothing', () => {
    const a = p('a1.jsonl');
    const b = p('a2.jsonl');
    expect(run('score', p('in.jsonl'), ...M, '--shard', '1/2', '--out', a).status).toBe(0);
    expect(run('score', p('in.jsonl'), '--metrics', 'exact_match', '--shard', '2/2', '--out', b).status).toBe(0);
    const other = run('merge', p('bad.jsonl'), a, b);
    expect([other.status, other.stderr]).toEqual([
      2,
      `verity: ${b} was scored with another configuration than ${a} (metrics, thresholds, settings or models differ)\n`,
    ]);
    writeFileSync(p('in2.jsonl'), lines.slice(0, 60).join('\n'));
    expect(run('score', p('in2.jsonl'), ...M, '--shard', '2/2', '--out', b).status).toBe(0);
    expect(run('merge', p('bad.jsonl'), a, b).stderr).toMatch(/scored another input/);
    expect(run('merge', p('bad.jsonl'), a, a).stderr).toMatch(/slice 1 of 2 is given twice/);
    expect(run('merge', p('bad.jsonl'), a).stderr).toBe('verity: slice 2 of 2 is missing\n');
    expect(run('merge', p('bad.jsonl'), p('full.jsonl')).stderr).toMatch(/is not a part of a sharded run/);
    expect(existsSync(p('bad.jsonl'))).toBe(false);
    expect(run('score', p('in.jsonl'), '--shard', '3/2').stderr).toMatch(/--shard 3\/2: expected K\/N with 1 ≤ K ≤ N/);
    expect(run('score', p('in.jsonl'), '--shard', '1/2', '--out', p('x.csv')).stderr).toMatch(/use a \.jsonl --out/);
  });
});
