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

// The same answers without their labels: the review's labels are all the comparison has.
const unlabelled = records.map(({ judge_a: _a, judge_b: _b, ...r }) => r);
writeFileSync(p('answers.json'), JSON.stringify(unlabelled));
const truth = new Map<string, boolean>(records.flatMap((r) => [[`a/${r.id}`, r.judge_a] as const, [`b/${r.id}`, r.judge_b] as const]));
const M = ['--metrics', 'exact_match,token_f1,pedants'];
// System b alone, one file.
writeFileSync(
  p('one.json'),
  JSON.stringify(unlabelled.map((r) => ({ id: r.id, question: r.question, golden_answer: r.golden_answer, answer: r.answer_b }))),
);

/** `verity review`'s file with every label filled in from the truth (what the person would say). */
function reviewed(name: string, budget = '20'): string {
  const r = run('review', p('answers.json'), '--budget', budget, '--out', p(`${name}.review.jsonl`), ...M);
  expect(r.status, r.stderr).toBe(0);
  const lines = readFileSync(p(`${name}.review.jsonl`), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(lines.every((l) => l.label === null && typeof l.input === 'string')).toBe(true);
  const filled = lines.map((l) => JSON.stringify({ ...l, label: truth.get(`${l.system as string}/${l.id as string}`) })).join('\n');
  writeFileSync(p(`${name}.labels.jsonl`), `${filled}\n`);
  return p(`${name}.labels.jsonl`);
}

interface Entry {
  system: string;
  accuracy: { value: number };
  reviewed?: { value: number; ci: [number, number] | null; labelled: number; design: string };
}

describe('review labels folded back (--labels)', () => {
  it('verity compare: each leaderboard entry gains its reviewed accuracy, ranks use it, and the text says so', () => {
    const labels = reviewed('cmp');
    const r = run('compare', p('answers.json'), '--labels', labels, '--json', '--resamples', '50', ...M);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/cmp\.labels\.jsonl: \d+ rows labelled by review/);
    const json = JSON.parse(r.stdout) as {
      labelled: number;
      leaderboard: { metrics: { metric: string; rankedBy: string; entries: Entry[] }[] };
      paired: { basis: string };
      ranking: { metrics: { against: string }[] };
    };
    expect(json.labelled).toBeGreaterThan(10);
    const board = json.leaderboard.metrics.find((m) => m.metric === 'pedants')!;
    expect(board.rankedBy).toBe('reviewed');
    for (const e of board.entries) {
      expect(e.reviewed!.design).toBe('queue');
      expect(e.reviewed!.labelled).toBeGreaterThan(0);
      const [lo, hi] = e.reviewed!.ci!;
      expect(lo).toBeLessThanOrEqual(hi);
      // Labels where reviewed, decisions elsewhere: the human count over every row is what it approaches.
      const human = records.filter((x) => (e.system === 'a' ? x.judge_a : x.judge_b)).length / records.length;
      expect(Math.abs(e.reviewed!.value - human)).toBeLessThanOrEqual(Math.abs(e.accuracy.value - human) + 1e-9);
    }
    expect(json.paired.basis).toBe('reviewed');
    expect(json.ranking.metrics.every((m) => m.against === 'reviewed')).toBe(true);
    const text = run('compare', p('answers.json'), '--labels', labels, '--resamples', '0', ...M);
    expect(text.stdout).toMatch(/reviewed: \d+ of 80 rows labelled\. Ranks, Kendall τ and paired tests use the reviewed accuracy/);
    expect(text.stdout).toMatch(/reviewed acc/);
  });

  it('verity evaluate: each metric gains its reviewed accuracy; every row labelled is as before', () => {
    const labels = unlabelled
      .slice(0, 10)
      .map((r, i) => JSON.stringify({ id: r.id, label: truth.get(`b/${r.id}`), picked: i < 3 ? 'random' : 'uncertain' }));
    writeFileSync(p('one.labels.jsonl'), `${labels.join('\n')}\n`);
    const r = run('evaluate', p('one.json'), '--labels', p('one.labels.jsonl'), '--json', '--resamples', '0', ...M);
    expect(r.status, r.stderr).toBe(0);
    const m = (JSON.parse(r.stdout) as { n: number; metrics: Record<string, { reviewed?: { labelled: number; random: number } }> }).metrics;
    expect(m.pedants!.reviewed).toMatchObject({ labelled: 10, random: 3 });
    const text = run('evaluate', p('one.json'), '--labels', p('one.labels.jsonl'), '--resamples', '0', ...M);
    expect(text.stdout).toMatch(/reviewed accuracy \(the label where a row has one/);
    // Every row labelled: no reviewed figure (the agreement report says it all).
    const all = unlabelled.map((r) => JSON.stringify({ id: r.id, label: truth.get(`b/${r.id}`) }));
    writeFileSync(p('all.labels.jsonl'), `${all.join('\n')}\n`);
    const full = run('evaluate', p('one.json'), '--labels', p('all.labels.jsonl'), '--json', '--resamples', '0', ...M);
    expect(full.status, full.stderr).toBe(0);
    expect((JSON.parse(full.stdout) as { metrics: Record<string, object> }).metrics.pedants).not.toHaveProperty('reviewed');
  });

  it('verity calibrate --labels refits the threshold on the reviewed rows and says what changed on the random slice', () => {
    const q = run('review', p('one.json'), '--budget', '20', '--out', p('one.review.jsonl'), ...M);
    expect(q.status, q.stderr).toBe(0);
    const filled = readFileSync(p('one.review.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string })
      .map((l) => JSON.stringify({ ...l, label: truth.get(`b/${l.id}`) }));
    writeFileSync(p('one.review.jsonl'), `${filled.join('\n')}\n`);
    const r = run('calibrate', p('one.json'), '--metric', 'token_f1', '--labels', p('one.review.jsonl'), '--out', p('cal.json'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /token_f1: the reviewed rows favour threshold [\d.]+ \(fitted on \d+ reviewed rows\); agreement with the labels on the random slice \(\d+ rows\): [\d.]+% → [\d.]+%, cross-fitted; (threshold 0\.5 → [\d.]+|not better on the slice, so the threshold stays 0\.5)/,
    );
    const cal = JSON.parse(readFileSync(p('cal.json'), 'utf8')) as { metric: string; threshold: number };
    expect(cal.metric).toBe('token_f1');
    expect(typeof cal.threshold).toBe('number');
  });

  it('bad label files: another input, no matching id, unknown ids and duplicates, a bad line', () => {
    const labels = reviewed('bad');
    // Another input: the file's hash is not the one the labels name.
    writeFileSync(p('other.json'), JSON.stringify(unlabelled.slice(0, 39)));
    const other = run('compare', p('other.json'), '--labels', labels, '--resamples', '0', ...M);
    expect(other.status).toBe(2);
    expect(other.stderr).toMatch(/holds labels for another input \(SHA-256 [0-9a-f]{12}…\), not .*other\.json/);
    // No input named and no id in common.
    writeFileSync(p('stray.jsonl'), '{"id":"x1","system":"a","label":true}\n{"id":"x2","system":"b","label":false}\n');
    const stray = run('compare', p('answers.json'), '--labels', p('stray.jsonl'), '--resamples', '0', ...M);
    expect(stray.status).toBe(2);
    expect(stray.stderr).toMatch(/none of the 2 labels in .*stray\.jsonl matches a row of the input \(ids such as a\/x1, b\/x2\)/);
    // Some unknown, one labelled twice: folded, and said.
    writeFileSync(
      p('mixed.jsonl'),
      '{"id":"q1","system":"a","label":false}\n{"id":"q1","system":"a","label":true}\n{"id":"zz","system":"a","label":true}\n',
    );
    const mixed = run('compare', p('answers.json'), '--labels', p('mixed.jsonl'), '--resamples', '0', ...M);
    expect(mixed.status, mixed.stderr).toBe(0);
    expect(mixed.stderr).toMatch(
      /1 row labelled by review; 1 labelled twice \(the last label kept\); 1 label for ids not in the input \(a\/zz\) left out/,
    );
    writeFileSync(p('broken.jsonl'), '{"id":"q1","system":"a","label":true}\n{"id":"q2","label":"perhaps"}\n');
    const broken = run('compare', p('answers.json'), '--labels', p('broken.jsonl'), '--resamples', '0', ...M);
    expect(broken.status).toBe(2);
    expect(broken.stderr).toMatch(/broken\.jsonl, line 2: label "perhaps" is not one of/);
    const missing = run('compare', p('answers.json'), '--labels', p('nope.jsonl'), '--resamples', '0', ...M);
    expect([missing.status, missing.stderr]).toEqual([2, `verity: --labels ${p('nope.jsonl')}: cannot read it (ENOENT)\n`]);
  });
});
