/**
 * `verity review` (issue 36): the rows to look at within a budget, deterministic for a seed, balanced across
 * systems, each with why it was picked; and a clear usage error for a budget of 0, over the row count, or not a number.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, ROOT } from '../../test/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'verity-review-'));
const p = (name: string) => join(dir, name);
const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8' });

// Two systems in the wide layout: 40 questions, answers right, wrong, or half right.
const records = Array.from({ length: 40 }, (_, i) => ({
  id: `q${i}`,
  question: `What is thing number ${i}?`,
  golden_answer: `answer ${i}`,
  answer_a: i % 3 === 0 ? `answer ${i}` : i % 3 === 1 ? 'no idea' : `it might be answer ${i} or ${i + 1}`,
  judge_a: i % 3 === 0,
  answer_b: i % 2 === 0 ? `The answer is answer ${i}.` : `something else ${i}`,
  judge_b: i % 2 === 0,
}));
writeFileSync(p('wide.json'), JSON.stringify(records));

describe('verity review', () => {
  it('writes the budget of rows, each with its system, the judge and why it was picked; the same for the same seed', () => {
    const a = run('review', p('wide.json'), '--budget', '0.25', '--out', p('a.jsonl'), '--metrics', 'exact_match,token_f1,pedants');
    expect(a.status, a.stderr).toBe(0);
    expect(a.stderr).toMatch(/wrote .*a\.jsonl: 20 of 80 rows to review \(16 most uncertain for pedants, 4 at random\)/);
    const rows = readFileSync(p('a.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map(
        (l) => JSON.parse(l) as { id: string; system: string; judge: { metric: string; decision: boolean }; picked: string; why: string },
      );
    expect(rows).toHaveLength(20);
    expect(new Set(rows.map((r) => `${r.system}/${r.id}`)).size).toBe(20);
    expect(rows.filter((r) => r.picked === 'uncertain' && r.system === 'a')).toHaveLength(8);
    expect(rows.every((r) => r.judge.metric === 'pedants' && r.why.length > 0)).toBe(true);
    const again = run('review', p('wide.json'), '--budget', '20', '--out', p('b.jsonl'), '--metrics', 'exact_match,token_f1,pedants');
    expect(again.status).toBe(0);
    expect(readFileSync(p('b.jsonl'), 'utf8')).toBe(readFileSync(p('a.jsonl'), 'utf8'));
    const c = run(
      'review',
      p('wide.json'),
      '--budget',
      '20',
      '--seed',
      '5',
      '--out',
      p('c.jsonl'),
      '--metrics',
      'exact_match,token_f1,pedants',
    );
    expect(c.status).toBe(0);
    expect(readFileSync(p('c.jsonl'), 'utf8')).not.toBe(readFileSync(p('a.jsonl'), 'utf8'));
  });

  it('a budget of 0, over the row count, or not a number is a usage error that writes nothing', () => {
    for (const [budget, message] of [
      ['0', '--budget 0: review at least one row'],
      ['81', '--budget 81 is more than the 80 rows of the file; give at most 80, or a fraction'],
      ['lots', '--budget expects a number of rows or a fraction, got "lots"'],
    ]) {
      const r = run('review', p('wide.json'), '--budget', budget!, '--out', p('bad.jsonl'), '--metrics', 'exact_match');
      expect([r.status, r.stderr]).toEqual([1, `verity: ${message}\n`]);
    }
  });
});
