/**
 * `verity review` and `--labels`: each distinct answer asked once for every system that gave it, deterministic for
 * a seed, the budget read unambiguously; the file, filled in, folded into compare (one estimate per system, ranks,
 * rank intervals, every metric measured against it), evaluate and calibrate; stdin and pipes named by what they
 * held; label files of another input refused for several inputs too; bad label files said precisely.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { CLI, ROOT } from '../../test/cli.ts';
import type { JudgeReport } from '../core/review/judge.ts';

const dir = mkdtempSync(join(tmpdir(), 'verity-review-'));
const p = (name: string) => join(dir, name);
const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8' });
const sh = (cmd: string) => spawnSync('bash', ['-c', cmd], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CLI } });

// Two systems in the wide layout: 40 questions; b gives a's answer on every sixth question.
const records = Array.from({ length: 40 }, (_, i) => ({
  id: `q${i}`,
  question: `What is thing number ${i}?`,
  golden_answer: `answer ${i}`,
  answer_a: i % 3 === 0 ? `answer ${i}` : i % 3 === 1 ? 'no idea' : `it might be answer ${i} or ${i + 1}`,
  judge_a: i % 3 === 0,
  answer_b: i % 6 === 0 ? `answer ${i}` : i % 2 === 0 ? `The answer is answer ${i}.` : `something else ${i}`,
  judge_b: i % 2 === 0,
}));
writeFileSync(p('wide.json'), JSON.stringify(records));
const M = ['--metrics', 'exact_match,token_f1,pedants'];

interface Line {
  order: number;
  id: string;
  system: string;
  rows?: { id: string; system: string }[];
  given_by?: string;
  judge: { metric: string };
  why: string;
  sample: { weight: number; draw: number; q: number };
  design: { seed: number; groups: number; asked: number; total: number };
  input: string;
  label: unknown;
}
const read = (f: string) =>
  readFileSync(f, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);

describe('verity review', () => {
  it('asks each distinct answer once, in the design order, with its draw; the same for the same seed', () => {
    const a = run('review', p('wide.json'), '--budget', '0.25', '--out', p('a.jsonl'), ...M);
    expect(a.status, a.stderr).toBe(0);
    // 80 rows, 7 questions answered alike: 73 distinct answers; 25% of the rows' worth = 20 questions.
    expect(a.stderr).toMatch(
      /wrote .*a\.jsonl: 0\.25 of 80 rows = 20 questions \(of 73 distinct answers; each asked once for every system that gave it\), which cover 2\d rows \(2\d%\)/,
    );
    // What to expect, before any answer: each accuracy's half-width, and the pairs the priority expects apart by more.
    expect(a.stderr).toMatch(
      /expected before any answer, from the judge's priority .*: each accuracy known to about ±0\.\d{3} at the widest after all 20 answers \(±0\.\d{3} after half of them\); the priority expects [01] of 1 pair apart/,
    );
    const lines = read(p('a.jsonl'));
    expect(lines.map((l) => l.order)).toEqual(Array.from({ length: 20 }, (_, k) => k + 1));
    expect(lines.every((l) => l.judge.metric === 'pedants' && l.why.length > 0 && l.label === null)).toBe(true);
    expect(lines.every((l) => l.design.asked === 20 && l.design.groups === 73 && l.sample.q > 0 && l.sample.q <= 1)).toBe(true);
    for (const l of lines.filter((x) => x.rows)) {
      expect(l.rows!.map((r) => r.system)).toEqual(['a', 'b']);
      expect(l.given_by).toBe('2 systems: a, b');
    }
    // A percentage, a fraction and a count of the same size give the same file.
    for (const budget of ['25%', '20']) {
      const again = run('review', p('wide.json'), '--budget', budget, '--out', p('b.jsonl'), ...M);
      expect(again.status).toBe(0);
      expect(readFileSync(p('b.jsonl'), 'utf8')).toBe(readFileSync(p('a.jsonl'), 'utf8'));
    }
    const c = run('review', p('wide.json'), '--budget', '20', '--seed', '5', '--out', p('c.jsonl'), ...M);
    expect(c.status).toBe(0);
    expect(readFileSync(p('c.jsonl'), 'utf8')).not.toBe(readFileSync(p('a.jsonl'), 'utf8'));
    // "1.0" is every distinct answer, not one question.
    const all = run('review', p('wide.json'), '--budget', '1.0', '--out', p('all.jsonl'), ...M);
    expect(all.status).toBe(0);
    expect(read(p('all.jsonl'))).toHaveLength(73);
  });

  it('a budget of 0, over 1 as a fraction, or not a number is a usage error that writes nothing', () => {
    for (const [budget, message] of [
      ['0', '--budget 0: ask at least one question'],
      ['1.5', '--budget 1.5: a fraction of the rows is above 0 and at most 1 (write 500 for 500 questions, 15% or 0.15 for a share)'],
      ['lots', '--budget "lots" is not a number of questions (500) or a share of the rows (15% or 0.15)'],
    ]) {
      const r = run('review', p('wide.json'), '--budget', budget!, '--out', p('bad.jsonl'), '--metrics', 'exact_match');
      expect([r.status, r.stderr]).toEqual([1, `verity: ${message}\n`]);
    }
  });
});

// The same answers without their labels: the review's answers are all the comparison has.
const unlabelled = records.map(({ judge_a: _a, judge_b: _b, ...r }) => r);
writeFileSync(p('answers.json'), JSON.stringify(unlabelled));
const truth = new Map<string, boolean>(records.flatMap((r) => [[`a/${r.id}`, r.judge_a] as const, [`b/${r.id}`, r.judge_b] as const]));
writeFileSync(
  p('one.json'),
  JSON.stringify(unlabelled.map((r) => ({ id: r.id, question: r.question, golden_answer: r.golden_answer, answer: r.answer_b }))),
);

/** `verity review`'s file with every label (or the first `answered`) filled in from the truth of the row shown. */
function reviewed(name: string, budget = '40', input = 'answers.json', answered = Infinity): string {
  const r = run('review', p(input), '--budget', budget, '--out', p(`${name}.review.jsonl`), ...M);
  expect(r.status, r.stderr).toBe(0);
  const filled = read(p(`${name}.review.jsonl`))
    .map((l) => JSON.stringify({ ...l, label: l.order <= answered ? truth.get(`${l.system ?? 'b'}/${l.id}`) : null }))
    .join('\n');
  writeFileSync(p(`${name}.labels.jsonl`), `${filled}\n`);
  return p(`${name}.labels.jsonl`);
}

interface Entry {
  system: string;
  accuracy: { value: number };
  human: unknown;
  ranks: [number, number] | null;
  reviewed?: { value: number; ci: [number, number] | null; labelled: number; design: string };
}
interface Report {
  labelled: number;
  leaderboard: { metrics: { metric: string; rankedBy: string; reference?: string; entries: Entry[] }[] };
  paired: { reference?: string; metrics: { metric: string }[] };
  ranking: { metrics: { metric: string; against: string; reference?: string; gaps: { system: string; humanAccuracy: number }[] }[] };
  judge: JudgeReport & { reference: string };
}

describe('review labels folded back (--labels)', () => {
  it('verity compare: one estimate per system in every leaderboard, ranks and rank intervals from it, every metric against it', () => {
    const labels = reviewed('cmp');
    const r = run('compare', p('answers.json'), '--labels', labels, '--json', '--resamples', '50', ...M);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/cmp\.labels\.jsonl: \d+ rows labelled by review/);
    const json = JSON.parse(r.stdout) as Report;
    const board = json.leaderboard.metrics.find((m) => m.metric === 'pedants')!;
    expect(board).toMatchObject({ rankedBy: 'reviewed', reference: 'pedants' });
    const em = json.leaderboard.metrics.find((m) => m.metric === 'exact_match')!;
    for (const e of board.entries) {
      expect(e.reviewed!.design).toBe('designed');
      expect(e.human).toBeNull();
      expect(e.ranks).not.toBeNull();
      const [lo, hi] = e.reviewed!.ci!;
      expect(lo).toBeLessThanOrEqual(e.reviewed!.value);
      expect(e.reviewed!.value).toBeLessThanOrEqual(hi);
      expect(em.entries.find((x) => x.system === e.system)!.reviewed!.value).toBe(e.reviewed!.value);
    }
    expect(json.paired.reference).toBe('pedants');
    expect(json.paired.metrics.map((m) => m.metric)).toEqual(['exact_match', 'token_f1', 'pedants', 'reviewed']);
    // exact_match is measured against pedants' reviewed estimate, not against its own decisions.
    const rk = json.ranking.metrics.find((m) => m.metric === 'exact_match')!;
    expect(rk).toMatchObject({ against: 'reviewed', reference: 'pedants' });
    for (const g of rk.gaps) expect(g.humanAccuracy).toBe(board.entries.find((e) => e.system === g.system)!.reviewed!.value);
    const text = run('compare', p('answers.json'), '--labels', labels, '--resamples', '0', ...M);
    expect(text.stdout).toMatch(/reviewed: \d+ of 80 rows labelled\. \d+ of them were drawn by the review's design/);
    expect(text.stdout).toMatch(/can be/);
    expect(text.stdout).toMatch(/== the review: paired differences of the estimated accuracies ==/);
    expect(text.stdout).toMatch(/metric vs reviewed \(pedants\) ranking/);
    // What the review says about the judge: its bias on a system is its accuracy minus the reviewed one, the same
    // estimate the leaderboard shows; the rates are shares, inside their intervals.
    expect(json.judge).toMatchObject({ reference: 'pedants', interval: 'anytime' });
    for (const e of json.judge.systems) {
      const entry = board.entries.find((x) => x.system === e.system)!;
      expect(e.rows).toBe(40);
      expect(e.bias.value).toBeCloseTo(entry.accuracy.value - entry.reviewed!.value, 9);
      for (const f of [e.falseNegative, e.falsePositive, e.bias])
        if (f.value !== null) expect(f.ci![0] <= f.value && f.value <= f.ci![1]).toBe(true);
    }
    expect(json.judge.overall).toMatchObject({ system: null, rows: 80 });
    // The reviewed report, judge and all, keeps the published shape.
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(
      JSON.parse(readFileSync(join(ROOT, 'docs/report.schema.json'), 'utf8')) as object,
    );
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    expect(text.stdout).toMatch(/== what the review says about the judge \(pedants\) ==\n\nsystem +rows +reviewed +judge − reviewed/);
    expect(text.stdout).toMatch(/\nall systems +80 /);
  });

  it('verity compare --known: earlier verdicts stand in for the judge as the prediction of the rows they judge', () => {
    const labels = reviewed('known', '12');
    // Earlier verdicts, true, on every row of system a (a label memory: what each judged).
    writeFileSync(
      p('earlier.jsonl'),
      `${records.map((r) => JSON.stringify({ question: r.question, golds: [r.golden_answer], candidate: r.answer_a, label: r.judge_a })).join('\n')}\n`,
    );
    const args = [p('answers.json'), '--labels', labels, '--json', '--resamples', '0', ...M];
    const plain = run('compare', ...args);
    const known = run('compare', ...args, '--known', p('earlier.jsonl'));
    expect(known.status, known.stderr).toBe(0);
    expect(known.stderr).toMatch(/--known: 40 earlier verdicts judge 4\d rows; they stand in for the judge's prediction/);
    const entry = (out: string, system: string) =>
      (JSON.parse(out) as Report).leaderboard.metrics.find((m) => m.metric === 'pedants')!.entries.find((e) => e.system === system)!
        .reviewed!;
    // System a: every row's verdict known and right, so the estimate is its accuracy, with a narrower interval.
    const truthA = records.filter((r) => r.judge_a).length / 40;
    const [before, after] = [entry(plain.stdout, 'a'), entry(known.stdout, 'a')];
    expect(after.value).toBeCloseTo(truthA, 9);
    expect(after.ci![1] - after.ci![0]).toBeLessThan(before.ci![1] - before.ci![0]);
    // System b, which the verdicts do not judge, is estimated as before.
    expect(entry(known.stdout, 'b').value).toBeCloseTo(entry(plain.stdout, 'b').value, 9);
    const alone = run('compare', p('answers.json'), '--known', p('earlier.jsonl'), ...M);
    expect([alone.status, alone.stderr]).toEqual([
      1,
      "verity: --known needs --labels: earlier verdicts stand in for the judge in a review's estimate\n",
    ]);
  });

  it('a review written as a spreadsheet (--out .csv), filled in, gives compare and --continue what its JSONL form gives', () => {
    for (const out of ['sheet.csv', 'sheet.jsonl'])
      expect(run('review', p('answers.json'), '--budget', '40', '--out', p(out), ...M).status).toBe(0);
    const lines = read(p('sheet.jsonl'));
    const [header, ...rows] = Papa.parse<string[]>(readFileSync(p('sheet.csv'), 'utf8').trim()).data;
    const at = (c: string) => header!.indexOf(c);
    // One line a question, in the same order, the label column empty; the line itself in the last column.
    expect(rows.map((r) => ({ ...(JSON.parse(r[at('verity')]!) as object), label: null }))).toEqual(lines);
    expect(rows.every((r) => r[at('label')] === '' && r[at('question')]!.length > 0)).toBe(true);
    // Answered from the top as a spreadsheet writes booleans, the JSONL with the same answers.
    const truthOf = (l: Line) => truth.get(`${l.system ?? 'b'}/${l.id}`);
    rows.forEach((r, k) => (r[at('label')] = k < 30 ? String(truthOf(lines[k]!)).toUpperCase() : ''));
    writeFileSync(p('sheet.filled.csv'), `${Papa.unparse([header!, ...rows], { newline: '\r\n' })}\r\n`);
    const filled = lines.map((l, k) => JSON.stringify({ ...l, label: k < 30 ? truthOf(l) : null }));
    writeFileSync(p('sheet.filled.jsonl'), `${filled.join('\n')}\n`);
    const cmp = (f: string) => run('compare', p('answers.json'), '--labels', p(f), '--json', '--resamples', '50', ...M);
    const [c1, c2] = [cmp('sheet.filled.csv'), cmp('sheet.filled.jsonl')];
    expect(c1.status, c1.stderr).toBe(0);
    expect(c1.stdout).toBe(c2.stdout);
    expect(c1.stderr.replaceAll('sheet.filled.csv', 'F')).toBe(c2.stderr.replaceAll('sheet.filled.jsonl', 'F'));
    const cont = (f: string, out: string) => run('review', p('answers.json'), '--continue', p(f), '--out', p(out), ...M);
    expect(cont('sheet.filled.csv', 'next1.jsonl').status).toBe(0);
    expect(cont('sheet.filled.jsonl', 'next2.jsonl').status).toBe(0);
    expect(readFileSync(p('next1.jsonl'), 'utf8')).toBe(readFileSync(p('next2.jsonl'), 'utf8'));
    // Another extension is refused, naming both.
    const bad = run('review', p('answers.json'), '--budget', '40', '--out', p('sheet.xlsx'), ...M);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/use a \.jsonl file name \(or \.csv for a spreadsheet\)/);
  });

  it('uses the answered part of a review, and says how many answers wait for an unanswered question', () => {
    const labels = reviewed('part', '40', 'answers.json', 10);
    const r = run('compare', p('answers.json'), '--labels', labels, '--json', '--resamples', '0', ...M);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/30 lines not labelled yet/);
    // Answers after a gap are left out until it is answered.
    const lines = readFileSync(labels, 'utf8').trim().split('\n');
    const gap = lines.map((l, k) => (k === 4 ? JSON.stringify({ ...(JSON.parse(l) as object), label: null }) : l));
    writeFileSync(p('gap.jsonl'), `${gap.join('\n')}\n`);
    const g = run('compare', p('answers.json'), '--labels', p('gap.jsonl'), '--resamples', '0', ...M);
    expect(g.status, g.stderr).toBe(0);
    expect(g.stderr).toMatch(/\d+ labels? after question 5 of the review, which has no answer, left out until it has one/);
  });

  it('reads a review file cut after any line as a shorter review, and its lines in any order; refuses holes and edits', () => {
    const labels = reviewed('cut', '40', 'answers.json');
    const lines = readFileSync(labels, 'utf8').trim().split('\n');
    const json = (f: string) => {
      const r = run('compare', p('answers.json'), '--labels', f, '--json', '--resamples', '0', ...M);
      expect(r.status, r.stderr).toBe(0);
      const board = (
        JSON.parse(r.stdout) as { leaderboard: { metrics: { entries: { system: string; reviewed: { value: number; ci: number[] } }[] }[] } }
      ).leaderboard.metrics[0]!;
      return Object.fromEntries(board.entries.map((e) => [e.system, e.reviewed]));
    };
    // The unanswered tail deleted is the same review as the tail left blank.
    const blank = lines.map((l, k) => (k < 15 ? l : JSON.stringify({ ...(JSON.parse(l) as object), label: null })));
    writeFileSync(p('blank.jsonl'), `${blank.join('\n')}\n`);
    writeFileSync(p('cut.jsonl'), `${lines.slice(0, 15).join('\n')}\n`);
    expect(json(p('cut.jsonl'))).toEqual(json(p('blank.jsonl')));
    // Shuffled lines are read by their order.
    const shuffled = lines.map((l, k) => [l, (k * 17) % lines.length] as const).sort((a, b) => a[1] - b[1]);
    writeFileSync(p('shuffled.jsonl'), `${shuffled.map(([l]) => l).join('\n')}\n`);
    expect(json(p('shuffled.jsonl'))).toEqual(json(labels));
    // A line deleted in the middle: refused, naming it.
    writeFileSync(p('hole.jsonl'), `${lines.filter((_, k) => k !== 6).join('\n')}\n`);
    const hole = run('compare', p('answers.json'), '--labels', p('hole.jsonl'), '--resamples', '0', ...M);
    expect(hole.status).not.toBe(0);
    expect(hole.stderr).toMatch(/lacks the review's question 7 while holding later ones/);
    // A line moved to another row: its draw is not that row's.
    const moved = lines.map((l, k) =>
      k === 3 ? JSON.stringify({ ...(JSON.parse(l) as Line), id: (JSON.parse(lines[30]!) as Line).id, rows: undefined }) : l,
    );
    writeFileSync(p('moved.jsonl'), `${moved.join('\n')}\n`);
    const m = run('compare', p('answers.json'), '--labels', p('moved.jsonl'), '--resamples', '0', ...M);
    expect(m.status).not.toBe(0);
    expect(m.stderr).toMatch(/question 4: its draw is not the one seed \d+ gives its row/);
  });

  it('--continue keeps the answers in order and draws the rest again from them; the file reads back and folds in', () => {
    const labels = reviewed('cont', '60', 'answers.json', 45);
    // A label past the first blank line is carried too (here: question 50 answered, 46–49 not).
    const lines = readFileSync(labels, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Line);
    const late = lines[49]!;
    lines[49] = { ...late, label: truth.get(`${late.system ?? 'b'}/${late.id}`) };
    writeFileSync(labels, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const r = run('review', p('answers.json'), '--continue', labels, '--out', p('cont2.jsonl'), ...M);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/45 answers in order; the 15 questions after them drawn again, weighed by what those answers say/);
    const next = read(p('cont2.jsonl')).filter((l) => l.order !== undefined);
    expect(next.map((l) => l.order)).toEqual(Array.from({ length: 60 }, (_, k) => k + 1));
    // The answered part is kept as it was: the same questions, draws and labels.
    for (let k = 0; k < 45; k++) {
      expect(next[k]!.id).toBe(lines[k]!.id);
      expect(next[k]!.sample.draw).toBe(lines[k]!.sample.draw);
      expect(next[k]!.label).toEqual(lines[k]!.label);
    }
    // The rest is a new epoch with its own draws; the late answer stays on its question, wherever it is now.
    const tail = next.slice(45) as (Line & { sample: { epoch: number; total: number } })[];
    for (const l of tail) expect(l.sample.epoch).toBe(1);
    expect(new Set(tail.map((l) => l.sample.total)).size).toBe(1);
    const all = readFileSync(p('cont2.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Line);
    const carried = all.filter(
      (l) => l.id === late.id && (l.system ?? 'b') === (late.system ?? 'b') && l.label !== null && l.label !== undefined,
    );
    expect(carried.length).toBeGreaterThan(0);
    // Answered on, the continued file folds into compare with its epochs' probabilities.
    const filled = all.map((l) => (l.order !== undefined && l.order <= 55 ? { ...l, label: truth.get(`${l.system ?? 'b'}/${l.id}`) } : l));
    writeFileSync(p('cont3.jsonl'), `${filled.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const c = run('compare', p('answers.json'), '--labels', p('cont3.jsonl'), '--json', '--resamples', '0', ...M);
    expect(c.status, c.stderr).toBe(0);
    const board = (JSON.parse(c.stdout) as Report).leaderboard.metrics.find((m) => m.metric === 'pedants')!;
    for (const e of board.entries) expect(e.reviewed!.design).toBe('designed');
    // An edited epoch (a tail line given the first epoch's draw) is refused by the reader.
    const edited = filled.map((l, k) => (k === 50 ? { ...l, sample: { ...l.sample, epoch: 0 } } : l));
    writeFileSync(p('cont4.jsonl'), `${edited.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const bad = run('compare', p('answers.json'), '--labels', p('cont4.jsonl'), '--resamples', '0', ...M);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/question 51: its (draw is not the one|epoch)/);
    // Another seed than the file's, or the file as its own output: refused before anything is written.
    const seed = run('review', p('answers.json'), '--continue', labels, '--seed', '99', '--out', p('cont5.jsonl'), ...M);
    expect(seed.status).not.toBe(0);
    expect(seed.stderr).toMatch(/drawn with seed \d+: leave out --seed/);
    const same = run('review', p('answers.json'), '--continue', labels, '--out', labels, ...M);
    expect(same.status).not.toBe(0);
    expect(same.stderr).toMatch(/write the continued review to another file/);
    // A budget no larger than the answers in order: nothing is drawn again, and it says so.
    const full = run('review', p('answers.json'), '--continue', labels, '--budget', '45', '--out', p('cont6.jsonl'), ...M);
    expect(full.status, full.stderr).toBe(0);
    expect(full.stderr).toMatch(/45 answers in order and a budget of 45: no question is left to draw/);
    const kept = read(p('cont6.jsonl')).filter((l) => l.order !== undefined);
    expect(kept.map((l) => l.id)).toEqual(lines.slice(0, 45).map((l) => l.id));
  });

  it('verity evaluate: the file gains its reviewed accuracy; every row labelled is as before', () => {
    const labels = reviewed('one', '20', 'one.json');
    const r = run('evaluate', p('one.json'), '--labels', labels, '--json', '--resamples', '0', ...M);
    expect(r.status, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as { reviewed?: { labelled: number; sampled: number; reference: string; value: number } };
    expect(json.reviewed).toMatchObject({ labelled: 20, sampled: 20, reference: 'pedants' });
    const text = run('evaluate', p('one.json'), '--labels', labels, '--resamples', '0', ...M);
    expect(text.stdout).toMatch(/reviewed accuracy of the file \(estimated from the review, starting from pedants/);
    const all = unlabelled.map((x) => JSON.stringify({ id: x.id, label: truth.get(`b/${x.id}`) }));
    writeFileSync(p('all.labels.jsonl'), `${all.join('\n')}\n`);
    const full = run('evaluate', p('one.json'), '--labels', p('all.labels.jsonl'), '--json', '--resamples', '0', ...M);
    expect(full.status, full.stderr).toBe(0);
    expect(JSON.parse(full.stdout) as object).not.toHaveProperty('reviewed');
  });

  it('verity calibrate --labels refits the threshold on the reviewed rows, each weighed for the rows it stands for', () => {
    const labels = reviewed('cal', '20', 'one.json');
    const r = run('calibrate', p('one.json'), '--metric', 'token_f1', '--labels', labels, '--out', p('cal.json'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /token_f1: the reviewed rows favour threshold [\d.]+ \(fitted on \d+ reviewed rows\); agreement with the labels on the review's sample, weighted for the rows each stands for \(\d+ rows\): [\d.]+% → [\d.]+%, cross-fitted; (threshold 0\.5 → [\d.]+|not better on the sample, so the threshold stays 0\.5)/,
    );
    expect((JSON.parse(readFileSync(p('cal.json'), 'utf8')) as { metric: string }).metric).toBe('token_f1');
  });

  it('reads the input from stdin or a pipe, and names it by what it held', () => {
    const viaStdin = sh(`node "$CLI" review - --budget 10 --out ${p('stdin.jsonl')} --metrics exact_match < ${p('answers.json')}`);
    expect(viaStdin.status, viaStdin.stderr).toBe(0);
    const viaPipe = sh(`node "$CLI" review <(cat ${p('answers.json')}) --budget 10 --out ${p('pipe.jsonl')} --metrics exact_match`);
    expect(viaPipe.status, viaPipe.stderr).toBe(0);
    expect(run('review', p('answers.json'), '--budget', '10', '--out', p('file.jsonl'), '--metrics', 'exact_match').status).toBe(0);
    const hash = read(p('file.jsonl'))[0]!.input;
    expect(read(p('stdin.jsonl'))[0]!.input).toBe(hash);
    expect(read(p('pipe.jsonl'))[0]!.input).toBe(hash);
    const labels = reviewed('stdin');
    for (const cmd of [
      `node "$CLI" compare - --labels ${labels} --resamples 0 --metrics exact_match,token_f1,pedants < ${p('answers.json')}`,
      `node "$CLI" evaluate - --labels ${reviewed('stdin1', '10', 'one.json')} --resamples 0 --metrics exact_match,pedants < ${p('one.json')}`,
    ]) {
      const r = sh(cmd);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/rows labelled by review/);
    }
  });

  it('bad label files: another input (one file or several), no match, no system, unknown ids, duplicates, a bad line', () => {
    const labels = reviewed('bad');
    writeFileSync(p('other.json'), JSON.stringify(unlabelled.slice(0, 39)));
    const other = run('compare', p('other.json'), '--labels', labels, '--resamples', '0', ...M);
    expect(other.status).toBe(2);
    expect(other.stderr).toMatch(/holds labels for another input \(SHA-256 [0-9a-f]{12}…\), not .*other\.json/);
    // Several inputs are named together, as the app names them.
    const sysA = unlabelled.map((x) => ({ id: x.id, question: x.question, golden_answer: x.golden_answer, answer: x.answer_a }));
    writeFileSync(p('a.json'), JSON.stringify(sysA));
    const two = run('compare', p('a.json'), p('one.json'), '--labels', labels, '--resamples', '0', ...M);
    expect(two.status).toBe(2);
    expect(two.stderr).toMatch(/holds labels for another input \(SHA-256 [0-9a-f]{12}…\), not these 2 files/);
    writeFileSync(p('stray.jsonl'), '{"id":"x1","system":"a","label":true}\n{"id":"x2","system":"b","label":false}\n');
    const stray = run('compare', p('answers.json'), '--labels', p('stray.jsonl'), '--resamples', '0', ...M);
    expect(stray.status).toBe(2);
    expect(stray.stderr).toMatch(/none of the 2 labels in .*stray\.jsonl matches a row of the input \(ids such as a\/x1, b\/x2\)/);
    // No system, for an input of two; CR line ends read.
    writeFileSync(p('nosys.jsonl'), '{"id":"q1","label":true}\r{"id":"q2","label":false}\r');
    const nosys = run('compare', p('answers.json'), '--labels', p('nosys.jsonl'), '--resamples', '0', ...M);
    expect(nosys.status).toBe(2);
    expect(nosys.stderr).toMatch(/nosys\.jsonl: 2 of its 2 labels name no "system", and the input has 2 systems/);
    writeFileSync(
      p('mixed.jsonl'),
      '{"id":"q1","system":"a","label":false}\r\n{"id":"q1","system":"a","label":true}\r\n{"id":"zz","system":"a","label":true}\r\n',
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

  it('gives a label for a (system, id) the input has twice to the row the comparison keeps, and says so', () => {
    const twice = [...unlabelled, { ...unlabelled[0]!, answer_a: 'a second answer' }];
    writeFileSync(p('twice.json'), JSON.stringify(twice));
    writeFileSync(p('dup.jsonl'), '{"id":"q0","system":"a","label":false}\n');
    const r = run('compare', p('twice.json'), '--labels', p('dup.jsonl'), '--json', '--resamples', '0', ...M);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /1 label for a \(system, id\) the input has more than once: applied to its first row, which the comparison keeps/,
    );
    expect((JSON.parse(r.stdout) as Report).labelled).toBe(1);
  });
});
