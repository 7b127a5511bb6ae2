/**
 * `verity review --known`: a review of half the systems, then of the whole file with those verdicts known — no
 * known answer asked again, the known verdicts carried in the file as known lines with what they judged, counted by
 * compare as they are; a file that lost some of them refused; the memory read from a sheet as from JSONL.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { CLI, ROOT } from '../../test/cli.ts';
import { verdictKey } from '../core/review/memory.ts';

const dir = mkdtempSync(join(tmpdir(), 'verity-known-'));
const p = (name: string) => join(dir, name);
const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8' });

const Q = 60;
const answer = (sys: string, i: number) =>
  sys === 'a' || (sys === 'c' && i % 4 !== 0)
    ? i % 3 === 0
      ? `answer ${i}`
      : `not answer ${i + 1}`
    : sys === 'b' || (sys === 'd' && i % 5 !== 0)
      ? i % 2 === 0
        ? `The answer is answer ${i}.`
        : `something else ${i}`
      : `a new answer ${i}`;
/** The truth a person gives: right when the answer holds the gold's number as its own. */
const truth = (candidate: string, i: number) => new RegExp(`(^|is )answer ${i}\\b`).test(candidate);
const wide = (systems: string[]) =>
  Array.from({ length: Q }, (_, i) => ({
    id: `q${i}`,
    question: `What is thing number ${i}?`,
    golden_answer: `answer ${i}`,
    ...Object.fromEntries(systems.map((s) => [`answer_${s}`, answer(s, i)])),
  }));
writeFileSync(p('half.json'), JSON.stringify(wide(['a', 'b'])));
writeFileSync(p('whole.json'), JSON.stringify(wide(['a', 'b', 'c', 'd'])));
const M = ['--metrics', 'exact_match,token_f1,pedants'];

type Line = Record<string, unknown> & { question: string; golds: string[]; candidate: string; label: unknown };
const read = (f: string) =>
  readFileSync(f, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);
const number = (question: string) => Number(/number (\d+)/.exec(question)![1]);
/** The review answered from the top, every line, with the truth. */
const fill = (from: string, to: string) =>
  writeFileSync(
    to,
    read(from)
      .map((l) => JSON.stringify(l.known ? l : { ...l, label: truth(l.candidate, number(l.question)) }))
      .join('\n') + '\n',
  );

describe('verity review --known', () => {
  it('never asks a known answer again; carries the known verdicts; compare counts them; a file short of them is refused', () => {
    const first = run('review', p('half.json'), '--budget', '100%', '--out', p('r1.jsonl'), ...M);
    expect(first.status, first.stderr).toBe(0);
    fill(p('r1.jsonl'), p('r1-filled.jsonl'));
    const remembered = new Set(read(p('r1-filled.jsonl')).map((l) => verdictKey(l)));

    const second = run('review', p('whole.json'), '--known', p('r1-filled.jsonl'), '--budget', '10', '--out', p('r2.jsonl'), ...M);
    expect(second.status, second.stderr).toBe(0);
    const lines = read(p('r2.jsonl'));
    const asked = lines.filter((l) => l.order !== undefined);
    const known = lines.filter((l) => l.known === true);
    // No known answer is asked again; every row of the whole file that gave one is a known line.
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.filter((l) => remembered.has(verdictKey(l)))).toEqual([]);
    const whole = JSON.parse(readFileSync(p('whole.json'), 'utf8')) as Record<string, string>[];
    const knownRows = whole.flatMap((r) =>
      ['a', 'b', 'c', 'd'].filter((s) =>
        remembered.has(verdictKey({ question: r.question!, golds: [r.golden_answer!], candidate: r[`answer_${s}`]! })),
      ),
    ).length;
    expect(known).toHaveLength(knownRows);
    expect(knownRows).toBeGreaterThan(100);
    // Each known line holds the verdict given, with what it judged.
    for (const l of known) expect(l.label).toBe(truth(l.candidate, number(l.question)));
    expect(asked.every((l) => (l.design as { known: number }).known === knownRows)).toBe(true);
    expect(second.stderr).toMatch(
      new RegExp(`: \\d+ earlier verdicts; \\d+ of this file's distinct answers \\(${knownRows} rows\\) known, not asked again`),
    );

    fill(p('r2.jsonl'), p('r2-filled.jsonl'));
    const compare = run('compare', p('whole.json'), '--labels', p('r2-filled.jsonl'), '--json', '--resamples', '50', ...M);
    expect(compare.status, compare.stderr).toBe(0);
    expect(compare.stderr).toContain(`${knownRows} of them known from earlier verdicts`);
    type Entry = { reviewed?: { labelled: number; sampled: number } };
    const report = JSON.parse(compare.stdout) as { leaderboard: { metrics: { entries: Entry[] }[] } };
    const entries = report.leaderboard.metrics[0]!.entries;
    // Every known row counted as labelled, outside the draw's sample.
    expect(entries.reduce((s, e) => s + e.reviewed!.labelled - e.reviewed!.sampled, 0)).toBe(knownRows);

    // A file that lost some known lines is a cut file: refused, with what to do.
    const cut = readFileSync(p('r2-filled.jsonl'), 'utf8').trim().split('\n');
    const drop = cut.findIndex((l) => l.includes('"known":true'));
    writeFileSync(p('r2-cut.jsonl'), [...cut.slice(0, drop), ...cut.slice(drop + 1)].join('\n') + '\n');
    const refused = run('compare', p('whole.json'), '--labels', p('r2-cut.jsonl'), ...M);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain(`holds the known lines of only ${knownRows - 1}: put the missing lines ("known": true) back`);

    // --continue keeps the known verdicts it was drawn beside: never with --known.
    const both = run(
      'review',
      p('whole.json'),
      '--continue',
      p('r2-filled.jsonl'),
      '--known',
      p('r1-filled.jsonl'),
      '--out',
      p('r3.jsonl'),
      ...M,
    );
    expect(both.status).not.toBe(0);
    expect(both.stderr).toContain('--known with --continue');
    const continued = run('review', p('whole.json'), '--continue', p('r2-filled.jsonl'), '--budget', '15', '--out', p('r3.jsonl'), ...M);
    expect(continued.status, continued.stderr).toBe(0);
    const again = read(p('r3.jsonl'));
    expect(again.filter((l) => l.known === true)).toHaveLength(knownRows);
    expect(again.filter((l) => l.order !== undefined && remembered.has(verdictKey(l)))).toEqual([]);
  }, 300_000);

  it('reads the memory from a review sheet as from its JSONL form', () => {
    const jsonl = run('review', p('half.json'), '--budget', '50%', '--out', p('s1.jsonl'), ...M);
    const csv = run('review', p('half.json'), '--budget', '50%', '--out', p('s1.csv'), ...M);
    expect([jsonl.status, csv.status]).toEqual([0, 0]);
    fill(p('s1.jsonl'), p('s1-filled.jsonl'));
    const sheet = Papa.parse<Record<string, string>>(readFileSync(p('s1.csv'), 'utf8'), { header: true, skipEmptyLines: true });
    const filled = sheet.data.map((r) => {
      const l = JSON.parse(r.verity!) as Line;
      return { ...r, label: String(truth(l.candidate, number(l.question))) };
    });
    writeFileSync(p('s1-filled.csv'), Papa.unparse(filled, { columns: sheet.meta.fields! }));
    const a = run('review', p('whole.json'), '--known', p('s1-filled.jsonl'), '--budget', '20', '--out', p('k1.jsonl'), ...M);
    const b = run('review', p('whole.json'), '--known', p('s1-filled.csv'), '--budget', '20', '--out', p('k2.jsonl'), ...M);
    expect([a.status, b.status], a.stderr + b.stderr).toEqual([0, 0]);
    expect(readFileSync(p('k2.jsonl'), 'utf8')).toBe(readFileSync(p('k1.jsonl'), 'utf8'));
  }, 300_000);
});
