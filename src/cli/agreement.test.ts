/**
 * `verity agreement`: κ for two reviewers and α for more, the same as the core's on the same verdicts; a line's
 * reviewer before its file's name; one person's later verdict wins; the adjudicator settles and is not a reviewer;
 * unsettled answers left out or taken by the majority; the merged file is a label memory `verity review --known` reads.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, ROOT } from '../../test/cli.ts';
import { cohenKappa, krippendorffAlpha } from '../core/review/reviewers.ts';
import { sheetLines } from '../core/review/sheet.ts';

const dir = mkdtempSync(join(tmpdir(), 'verity-agreement-'));
const p = (name: string) => join(dir, name);
const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8' });

const rows = Array.from({ length: 12 }, (_, i) => ({
  id: `q${i}`,
  question: `What is thing ${i}?`,
  gold: [`thing ${i}`],
  candidate: `answer ${i}`,
}));
writeFileSync(p('input.jsonl'), `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
const ana = [true, true, false, true, false, true, true, false, true, true];
const ben = [true, false, false, true, false, true, false, false, true, true];
const verdicts = (labels: boolean[], extra: object = {}) =>
  `${labels.map((label, i) => JSON.stringify({ question: rows[i]!.question, golds: rows[i]!.gold, candidate: rows[i]!.candidate, label, ...extra })).join('\n')}\n`;
writeFileSync(p('ana.jsonl'), verdicts(ana));
writeFileSync(p('ben.jsonl'), verdicts(ben));

describe('verity agreement', () => {
  it("two reviewers: Cohen's κ as the core computes it, with an interval, and where they differ", () => {
    const r = run('agreement', p('ana.jsonl'), p('ben.jsonl'), '--json', '--resamples', '200');
    expect(r.status, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as {
      statistic: string;
      reviewers: string[];
      shared: number;
      value: number;
      ci: [number, number];
      disagreements: { question: string }[];
    };
    const code = (x: boolean[]) => x.map((v) => (v ? 'correct' : 'incorrect'));
    expect(j).toMatchObject({ statistic: 'kappa', reviewers: ['ana', 'ben'], shared: 10 });
    expect(j.value).toBeCloseTo(cohenKappa(code(ana), code(ben))!, 12);
    expect(j.ci[0]).toBeLessThanOrEqual(j.value);
    expect(j.value).toBeLessThanOrEqual(j.ci[1]);
    expect(j.disagreements.map((d) => d.question)).toEqual(['What is thing 1?', 'What is thing 6?']);
    const text = run('agreement', p('ana.jsonl'), p('ben.jsonl'));
    expect(text.stdout).toMatch(/^2 reviewers \(ana, ben\): 10 of 10 answers judged by two or more/);
    expect(text.stdout).toMatch(/Cohen's κ = \d\.\d{3} \(95% CI/);
    expect(text.stdout).toMatch(/"What is thing 1\?" — answer "answer 1" \(gold "thing 1"\): ana correct, ben incorrect/);
  });

  it("a line's reviewer names it; one person's later verdict wins; three reviewers give α", () => {
    // One file with two people's lines; ana changes her mind on thing 1 later.
    const both = verdicts(ana, { reviewer: 'ana', time: '2026-01-01T00:00:00Z' }) + verdicts(ben, { reviewer: 'ben' });
    writeFileSync(p('both.jsonl'), both + verdicts([ana[0]!, false], { reviewer: 'ana', time: '2026-02-01T00:00:00Z' }));
    const cy = ben.map((v, i) => (i === 0 ? !v : v));
    writeFileSync(p('cy.jsonl'), verdicts(cy));
    const r = run('agreement', p('both.jsonl'), p('cy.jsonl'), '--json', '--resamples', '0');
    expect(r.status, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as { statistic: string; reviewers: string[]; value: number };
    expect(j.reviewers).toEqual(['ana', 'ben', 'cy']);
    const anaLater = ana.map((v, i) => (i === 1 ? false : v));
    const code = (v: boolean) => (v ? 'correct' : 'incorrect');
    expect(j.value).toBeCloseTo(krippendorffAlpha(ana.map((_, i) => [code(anaLater[i]!), code(ben[i]!), code(cy[i]!)]))!, 12);
  });

  it('an adjudicator settles; unsettled answers are left out or go to the majority; the merged file is a memory', () => {
    // The adjudicator judged thing 1 only.
    writeFileSync(p('dee.jsonl'), verdicts([true, true]).split('\n')[1]! + '\n');
    const r = run(
      'agreement',
      p('ana.jsonl'),
      p('ben.jsonl'),
      p('dee.jsonl'),
      '--adjudicator',
      'dee',
      '--out',
      p('merged.jsonl'),
      '--json',
      '--resamples',
      '0',
    );
    expect(r.status, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as { reviewers: string[]; settling: Record<string, unknown> };
    expect(j.reviewers).toEqual(['ana', 'ben']);
    expect(j.settling).toMatchObject({ adjudicator: 'dee', adjudicated: 1, majority: 0, omitted: 1, merged: 9 });
    const merged = readFileSync(p('merged.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(merged.find((m) => m.question === 'What is thing 1?')).toMatchObject({
      label: true,
      settled: 'adjudicated',
      reviewers: { ana: true, ben: false, dee: true },
    });
    expect(merged.some((m) => m.question === 'What is thing 6?')).toBe(false);
    // Two against one is a majority (things 0, 1 and 6).
    const three = run('agreement', p('ana.jsonl'), p('ben.jsonl'), p('cy.jsonl'), '--unsettled', 'majority', '--json', '--resamples', '0');
    expect(JSON.parse(three.stdout).settling).toMatchObject({ majority: 3, omitted: 0, merged: 10 });
    // verity review --known reads the merged file: its answers are known, not asked.
    const rev = run(
      'review',
      p('input.jsonl'),
      '--known',
      p('merged.jsonl'),
      '--budget',
      '3',
      '--out',
      p('review.jsonl'),
      '--metrics',
      'exact_match',
    );
    expect(rev.status, rev.stderr).toBe(0);
    const lines = readFileSync(p('review.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { known?: boolean; id: string });
    expect(
      lines
        .filter((l) => l.known)
        .map((l) => l.id)
        .sort(),
    ).toEqual(['q0', 'q1', 'q2', 'q3', 'q4', 'q5', 'q7', 'q8', 'q9']);
  });

  it('verity review --second writes a share of its questions for a second person, blind to the judge; agreement reads both', () => {
    for (const ext of ['jsonl', 'csv']) {
      const out = p(`twice.${ext}`);
      const r = run('review', p('input.jsonl'), '--budget', '8', '--second', '25%', '--out', out, '--metrics', 'exact_match');
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toMatch(new RegExp(`wrote .*twice\\.second\\.${ext}: 2 of the 8 questions, drawn at random`));
      const read = (path: string) =>
        ext === 'csv'
          ? (sheetLines(readFileSync(path, 'utf8')) as { value: { value: Record<string, unknown> }[] }).value.map((x) => x.value)
          : readFileSync(path, 'utf8')
              .trim()
              .split('\n')
              .map((l) => JSON.parse(l) as Record<string, unknown>);
      const first = read(out);
      const second = read(p(`twice.second.${ext}`));
      expect(second).toHaveLength(2);
      for (const l of second) {
        // What was asked, in the review's order, without the judge's call, the draw or the rows' ids.
        const same = first.find((f) => f.order === l.order)!;
        expect(l).toMatchObject({ question: same.question, golds: same.golds, candidate: same.candidate, second: true });
        expect(Object.keys(l).filter((k) => ['judge', 'id', 'rows', 'design', 'input', 'draw'].includes(k))).toEqual([]);
      }
    }
    // Both answered (JSONL): the second person disagrees on one of the two; agreement is over those two answers.
    const fill = (path: string, flip: number) =>
      readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .map((l, k) => {
          const o = JSON.parse(l) as Record<string, unknown>;
          return JSON.stringify({ ...o, label: o.known ? o.label : k === flip ? false : true });
        })
        .join('\n');
    writeFileSync(p('me.jsonl'), fill(p('twice.jsonl'), -1));
    writeFileSync(p('you.jsonl'), fill(p('twice.second.jsonl'), 0));
    const a = run('agreement', p('me.jsonl'), p('you.jsonl'), '--json', '--resamples', '0');
    expect(a.status, a.stderr).toBe(0);
    expect(JSON.parse(a.stdout)).toMatchObject({ reviewers: ['me', 'you'], shared: 2, units: 8 });
    expect((JSON.parse(a.stdout) as { disagreements: unknown[] }).disagreements).toHaveLength(1);
    // Settled into the review: the question they differ on is left unanswered, said, and the estimate has one less.
    const settled = run('agreement', p('me.jsonl'), p('you.jsonl'), '--settle', p('settled.jsonl'), '--resamples', '0');
    expect(settled.status, settled.stderr).toBe(0);
    const differ = (JSON.parse(readFileSync(p('you.jsonl'), 'utf8').split('\n')[0]!) as { order: number }).order;
    expect(settled.stderr).toContain(
      `1 agreed, 0 settled by the adjudicator, 0 by the majority, 1 left unsettled (unanswered there: the estimate uses answers in order, so it stops before question ${differ}`,
    );
    const back = readFileSync(p('settled.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(back.filter((l) => l.unsettled)).toEqual([expect.objectContaining({ order: differ, label: null })]);
    expect(back.filter((l) => l.settled === 'agreed')).toHaveLength(1);
    // Read by --labels: the answers before it count, those after it wait for it.
    const ev = run('evaluate', p('input.jsonl'), '--labels', p('settled.jsonl'), '--metrics', 'exact_match').stderr;
    // … and says what the estimate stands on: how the questions judged twice were settled.
    expect(ev).toContain(
      'settled.jsonl: 2 questions were judged by two or more reviewers: 1 agreed, 0 settled by an adjudicator, 0 by the majority, 1 unsettled and left unanswered',
    );
    expect(ev).toMatch(
      new RegExp(
        `${differ - 1} rows? labelled by review; ${8 - differ} labels? after question ${differ} of the review, which has no answer`,
      ),
    );
    expect(run('agreement', p('ana.jsonl'), p('ben.jsonl'), '--settle', p('x.jsonl')).stderr).toMatch(/is not a review file/);
    const bad = run('review', p('input.jsonl'), '--budget', '8', '--second', '150%', '--out', p('bad.jsonl'), '--metrics', 'exact_match');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/"150%" is not a share of the questions/);
  });

  it('says what is wrong: one reviewer, no shared answer, an adjudicator nobody is, a bad --unsettled', () => {
    expect(run('agreement', p('ana.jsonl')).stderr).toMatch(/every verdict is ana's: agreement needs two reviewers/);
    writeFileSync(p('other.jsonl'), `${JSON.stringify({ question: 'Else?', golds: ['x'], candidate: 'y', label: true })}\n`);
    expect(run('agreement', p('ana.jsonl'), p('other.jsonl')).stderr).toMatch(/no answer was judged by two of them/);
    expect(run('agreement', p('ana.jsonl'), p('ben.jsonl'), '--adjudicator', 'zed').stderr).toMatch(
      /adjudicator zed: no verdict is theirs/,
    );
    const bad = run('agreement', p('ana.jsonl'), p('ben.jsonl'), '--unsettled', 'coin');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/--unsettled expects majority or omit/);
  });
});
