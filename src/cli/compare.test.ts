/**
 * `verity compare`, run as a child process on small files written here (numbers worked by hand) and on the
 * shared EVOUNA file when it is present.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../../test/cli.ts';
import { diverRows } from '../../test/diver-rows.ts';
import { evounaPath, EVOUNA_NEEDED } from '../../scripts/evouna.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EVOUNA = evounaPath();
if (!existsSync(EVOUNA)) console.log(`skipped: verity compare on EVOUNA TriviaQA ${EVOUNA_NEEDED}`);

function verity(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', rej);
    child.on('close', (code) => res({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
}

let dir: string;
const p = (name: string) => join(dir, name);

// Exact match, by hand (SQuAD normalization):
//   q    gold      A (a.jsonl)  EM label   B (b.csv)    EM label
//   q1   Paris     Paris        1  T       paris        1  T
//   q2   1945      1945         1  T       1944         0  F
//   q3   Canberra  Sydney       0  F       Canberra     1  T
//   q4   Lyon      Lyon         1  T       Marseille    0  F
//   q5   Everest   Everest      1  T       —
//   q6   Jupiter   Jupiter      1  F       —
//   q7   Nile      —                       Amazon       0  F
// A: EM 5/6, human 4/6. B: EM 2/5, human 2/5. Shared q1–q4: A-only correct q2, q4 (b = 2), B-only q3 (c = 1)
// → McNemar p = 2·P(X ≤ 1 | n = 3) = 2·4/8 = 1. Kendall τ over two systems: both orderings say A > B → 1.
const A = [
  { id: 'q1', question: 'Capital of France?', gold: 'Paris', candidate: 'Paris', label: true },
  { id: 'q2', question: 'End of WWII?', gold: '1945', candidate: '1945', label: true },
  { id: 'q3', question: 'Capital of Australia?', gold: 'Canberra', candidate: 'Sydney', label: false },
  { id: 'q4', question: 'Second city of France?', gold: 'Lyon', candidate: 'Lyon', label: true },
  { id: 'q5', question: 'Highest mountain?', gold: 'Everest', candidate: 'Everest', label: true },
  { id: 'q6', question: 'Largest planet?', gold: 'Jupiter', candidate: 'Jupiter', label: false },
];
const B_CSV =
  'id,question,gold,candidate,label,latency_ms\nq1,Capital of France?,Paris,paris,true,120\nq2,End of WWII?,1945,1944,false,80\nq3,Capital of Australia?,Canberra,Canberra,true,95\nq4,Second city of France?,Lyon,Marseille,false,70\nq7,Longest river?,Nile,Amazon,false,60\n';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'verity-compare-'));
  writeFileSync(p('sysA.jsonl'), A.map((r) => JSON.stringify(r)).join('\n'));
  writeFileSync(p('sysB.csv'), B_CSV);
  // The same two systems as one long file with a "run" column.
  const long = [
    ...A.map((r) => ({ ...r, run: 'sysA' })),
    ...B_CSV.trim()
      .split('\n')
      .slice(1)
      .map((l) => {
        const [id, question, gold, candidate, label] = l.split(',');
        return { id, question, gold, candidate, label, run: 'sysB' };
      }),
  ];
  writeFileSync(p('long.jsonl'), long.map((r) => JSON.stringify(r)).join('\n'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('verity compare on two files', () => {
  it('leaderboard, paired test, ranking, coverage report and exports, all as worked by hand', async () => {
    const r = await verity(
      'compare',
      p('sysA.jsonl'),
      p('sysB.csv'),
      '--metrics',
      'exact_match',
      '--json',
      '--resamples',
      '200',
      '--out',
      p('board.csv'),
      '--rows-out',
      p('rows.jsonl'),
    );
    expect(r.stderr).toMatch(/sysA \(.*sysA\.jsonl\): 1 of 7 questions missing \(present in another input\), e\.g\. q7/);
    expect(r.stderr).toMatch(/sysB \(.*sysB\.csv\): 2 of 7 questions missing \(present in another input\), e\.g\. q5, q6\n/);
    expect(r.code).toBe(0);
    const rep = JSON.parse(r.stdout);
    expect(rep.systems).toEqual(['sysA', 'sysB']);
    expect(rep.join_by).toBe('id');
    const board = rep.leaderboard.metrics[0].entries;
    expect(
      board.map((e: { system: string; accuracy: { value: number }; human: { correct: number; labelled: number } }) => [
        e.system,
        e.accuracy.value,
        e.human.correct,
        e.human.labelled,
      ]),
    ).toEqual([
      ['sysA', 5 / 6, 4, 6],
      ['sysB', 2 / 5, 2, 5],
    ]);
    const pair = rep.paired.metrics[0].pairs[0];
    expect([pair.accuracy.n, pair.accuracy.mcnemar.b, pair.accuracy.mcnemar.c, pair.accuracy.mcnemar.p, pair.accuracy.better]).toEqual([
      4,
      2,
      1,
      1,
      null,
    ]);
    expect(rep.ranking.metrics[0].kendallTau).toBe(1);
    // Exports: the leaderboard as CSV, every row with its system and the extra input column.
    const csv = readFileSync(p('board.csv'), 'utf8').split('\n');
    expect(csv[0]).toBe(
      'metric,threshold,rank,system,rows,decided,accuracy,accuracy_lo,accuracy_hi,mean,mean_lo,mean_hi,human_correct,human_labelled,human_accuracy,human_lo,human_hi,gap,gap_lo,gap_hi,kendall_tau',
    );
    expect(csv[2]!.startsWith('exact_match,1,2,sysB,5,5,0.4,')).toBe(true);
    const rows = readFileSync(p('rows.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows).toHaveLength(11);
    expect(rows[6]).toMatchObject({
      system: 'sysB',
      id: 'q1',
      candidate: 'paris',
      label: true,
      latency_ms: '120',
      metrics: { exact_match: { score: 1 } },
    });
  });

  it('the same numbers from one long file with a system column, and the same output twice', async () => {
    const [a, b] = await Promise.all([
      verity('compare', p('long.jsonl'), '--metrics', 'exact_match', '--json', '--resamples', '200'),
      verity('compare', p('long.jsonl'), '--metrics', 'exact_match', '--json', '--resamples', '200'),
    ]);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    const rep = JSON.parse(a.stdout);
    expect(rep.layout).toBe('system-column');
    const files = JSON.parse(
      (await verity('compare', p('sysA.jsonl'), p('sysB.csv'), '--metrics', 'exact_match', '--json', '--resamples', '200')).stdout,
    );
    expect(rep.leaderboard).toEqual(files.leaderboard);
    expect(rep.paired).toEqual(files.paired);
  });

  it('prints a readable report, and refuses bad options', async () => {
    const [text, badOut, badCol] = await Promise.all([
      verity('compare', p('sysA.jsonl'), p('sysB.csv'), '--metrics', 'exact_match', '--resamples', '50'),
      verity('compare', p('sysA.jsonl'), '--out', p('x.txt')),
      verity('compare', p('long.jsonl'), '--system-column', 'nope'),
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('== exact_match (correct when score ≥ 1) ==');
    expect(text.stdout).toMatch(/sysA\s+sysB\s+4\s+\+0\.250/);
    expect(text.stdout).toContain('metric vs human ranking: Kendall τ = 1.000 over 2 systems; pairs ordered the other way: none');
    // q1–q4 are decided for both systems; they split on q2, q3, q4.
    expect(text.stdout).toContain('systems disagree on 3 of 4 questions decided for two or more systems');
    expect(badOut.code).toBe(1);
    expect(badOut.stderr).toContain('--out');
    expect(badCol.code).toBe(1);
    expect(badCol.stderr).toContain('--system-column nope: no such column');
  });
});

describe('verity compare pairs every layout, and claims nothing without data', () => {
  const systems = ['evouna/NQ/fid', 'evouna/NQ/gpt35', 'evouna/NQ/gpt4'];
  // Ids unique per row, the systems in a `source` column; system k answers question i right when i % (k + 2) > 0.
  const perRow = systems.flatMap((s, k) =>
    [0, 1, 2, 3, 4, 5, 6, 7].map((i) => ({
      id: `q${i}-${s.split('/')[2]}`,
      source: s,
      question: `Question number ${i}?`,
      gold: `answer ${i}`,
      candidate: i % (k + 2) ? `answer ${i}` : 'no',
      label: i % (k + 2) > 0,
    })),
  );

  it('ids unique per row: pairs by question text, says so, and compares every pair; names are joined by " vs "', async () => {
    writeFileSync(p('per-row.jsonl'), perRow.map((r) => JSON.stringify(r)).join('\n'));
    const r = await verity('compare', p('per-row.jsonl'), '--metrics', 'exact_match', '--resamples', '50');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'verity: rows paired by question text (no id is shared by two systems: the ids name rows, not questions); every system has 8 questions',
    );
    expect(r.stdout).toContain('3 systems, 8 questions, 24 rows');
    expect(r.stdout).toMatch(/evouna\/NQ\/fid\s+evouna\/NQ\/gpt35\s+8\s/);
    expect(r.stdout).not.toContain('no shared questions');
    expect(r.stdout).toContain('metric vs human ranking: Kendall τ = 1.000 over 3 systems');
    // Humans who rank the systems the other way round: the pairs are named "A vs B", as names hold "/".
    const reversed = perRow.map((x, j) => ({ ...x, label: (j % 8) % (4 - Math.floor(j / 8)) > 0 }));
    writeFileSync(p('reversed.jsonl'), reversed.map((x) => JSON.stringify(x)).join('\n'));
    const rev = await verity('compare', p('reversed.jsonl'), '--metrics', 'exact_match', '--resamples', '0');
    expect(rev.stdout).toContain(
      'Kendall τ = -1.000 over 3 systems; pairs ordered the other way: evouna/NQ/fid vs evouna/NQ/gpt35, evouna/NQ/fid vs evouna/NQ/gpt4, evouna/NQ/gpt35 vs evouna/NQ/gpt4',
    );
  });

  it('systems with no question in common: no verdict, no p-value, no Kendall τ', async () => {
    const apart = perRow.map((r) => ({ ...r, question: `${r.source}: ${r.question}` }));
    writeFileSync(p('apart.jsonl'), apart.map((r) => JSON.stringify(r)).join('\n'));
    const r = await verity('compare', p('apart.jsonl'), '--system-column', 'source', '--metrics', 'exact_match', '--resamples', '50');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/evouna\/NQ\/fid\s+evouna\/NQ\/gpt35\s+0\s+—\s+—\s+—\s+no shared questions/);
    expect(r.stdout).not.toContain('n.s.');
    expect(r.stdout).toContain('metric vs human ranking: no Kendall τ (no labelled question is shared by two systems)');
  });

  it('a one-valued source column is one system, said in the singular', async () => {
    writeFileSync(
      p('nq301.jsonl'),
      perRow
        .slice(0, 8)
        .map((r) => JSON.stringify({ ...r, source: 'kamalloo/nq301' }))
        .join('\n'),
    );
    const r = await verity('compare', p('nq301.jsonl'), '--metrics', 'exact_match', '--resamples', '0');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('column "source" is not read as the system column: it has one value ("kamalloo/nq301")');
    expect(r.stderr).toContain('8 rows of 1 system (nq301)');
    expect(r.stdout).toMatch(/^1 system, 8 questions, 8 rows/);
    expect(r.stdout).not.toContain('Kendall');
    expect(r.stdout).not.toContain('disagree');
  });

  it('--html writes the page to share; --rows-out has no internal key; a bad --html name is refused', async () => {
    const [r, bad] = await Promise.all([
      verity(
        'compare',
        p('per-row.jsonl'),
        '--metrics',
        'exact_match',
        '--resamples',
        '50',
        '--html',
        p('report.html'),
        '--rows-out',
        p('rows.jsonl'),
      ),
      verity('compare', p('per-row.jsonl'), '--html', p('report.txt')),
    ]);
    expect(r.code, r.stderr).toBe(0);
    const html = readFileSync(p('report.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('data-testid="html-leaderboard-exact_match"');
    expect(html).not.toMatch(/<script/i);
    const row = JSON.parse(readFileSync(p('rows.jsonl'), 'utf8').split('\n')[0]!) as Record<string, unknown>;
    expect(row.system).toBe('evouna/NQ/fid');
    expect(row).not.toHaveProperty('question_key');
    expect([bad.code, bad.stderr]).toEqual([1, `verity: --html ${p('report.txt')}: use a .html file name\n`]);
  });
});

describe('verity compare writes its files as verity score does', () => {
  it('--out, --rows-out and --html are checked before any work: a missing folder or a folder is exit 4, one line', async () => {
    writeFileSync(p('small.jsonl'), A.map((r) => JSON.stringify({ ...r, model: 'm1' })).join('\n'));
    const [out, rows, html] = await Promise.all([
      verity('compare', p('small.jsonl'), '--out', p('nowhere/lb.csv')),
      verity('compare', p('small.jsonl'), '--rows-out', p('nowhere/rows.jsonl')),
      verity('compare', p('small.jsonl'), '--html', dir),
    ]);
    expect([out.code, out.stderr]).toEqual([4, `verity: --out ${p('nowhere/lb.csv')}: the folder ${p('nowhere')} does not exist\n`]);
    expect([rows.code, rows.stderr]).toEqual([
      4,
      `verity: --rows-out ${p('nowhere/rows.jsonl')}: the folder ${p('nowhere')} does not exist\n`,
    ]);
    expect(html.code).toBe(1); // a folder has no .html name: refused as usage first
  });

  it('a file that cannot be written leaves no part of it, and the previous file at the target is kept', async () => {
    writeFileSync(p('keep.csv'), 'previous\n');
    mkdirSync(p('rows-dir.jsonl'), { recursive: true });
    // --rows-out names a folder: refused before scoring; --out keeps its previous content.
    const r = await verity('compare', p('sysA.jsonl'), p('sysB.csv'), '--out', p('keep.csv'), '--rows-out', p('rows-dir.jsonl'));
    expect([r.code, r.stderr]).toEqual([4, `verity: --rows-out ${p('rows-dir.jsonl')}: it is a folder; give a file name\n`]);
    expect(readFileSync(p('keep.csv'), 'utf8')).toBe('previous\n');
    // Written: whole files, and no temporary file left beside them.
    const ok = await verity(
      'compare',
      p('sysA.jsonl'),
      p('sysB.csv'),
      '--out',
      p('keep.csv'),
      '--rows-out',
      p('rows.jsonl'),
      '--resamples',
      '0',
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect(readFileSync(p('keep.csv'), 'utf8')).toMatch(/^metric,threshold,rank,system/);
    expect(readFileSync(p('rows.jsonl'), 'utf8').trim().split('\n')).toHaveLength(11);
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('hostile system names', () => {
  it('are escaped in the text report, and names that differ only by a control character stay apart', async () => {
    const names = ['\u001b[31mred', '\u202eevil', '\t=1+1', '\r=1+1'];
    writeFileSync(
      p('hostile.jsonl'),
      names
        .flatMap((model) => [0, 1].map((i) => JSON.stringify({ id: `q${i}`, model, question: `Q${i}?`, gold: 'a', candidate: 'a' })))
        .join('\n'),
    );
    const r = await verity('compare', p('hostile.jsonl'), '--metrics', 'exact_match', '--resamples', '0');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^4 systems, 2 questions, 8 rows/);
    expect(r.stdout).not.toMatch(/[\u001b\u202e\r\t]/);
    for (const shown of ['\\x1b[31mred', '\\u202eevil', '\\x09=1+1', '\\x0d=1+1']) expect(r.stdout).toContain(shown);
    expect(r.stderr).not.toMatch(/[\u001b\u202e]/);
  });
});

describe('verity compare on harness files', () => {
  const FIX = fileURLToPath(new URL('../../test/fixtures/formats/', import.meta.url));
  it('two Inspect logs compare as their models; two lm-eval sample files by folder, through nested paths', async () => {
    const log = JSON.parse(readFileSync(join(FIX, 'inspect-triviaqa.json'), 'utf8'));
    log.eval.model = 'anthropic/claude-test';
    // The second model gets q tc_49 right and leaves out tc_56.
    log.samples[2].output.completion = 'Canberra';
    log.samples.pop();
    writeFileSync(p('claude.json'), JSON.stringify(log));
    const lm = readFileSync(join(FIX, 'samples_triviaqa_2026-11-23T22-00-00.000000.jsonl'), 'utf8');
    for (const m of ['gpt2', 'llama']) {
      mkdirSync(p(m));
      writeFileSync(
        p(`${m}/samples_triviaqa_2026-11-23T22-00-00.jsonl`),
        m === 'gpt2' ? lm : lm.replace('"filtered_resps": ["Sunset Boulevard"]', '"filtered_resps": ["Cats"]'),
      );
    }
    const [inspect, lmEval] = await Promise.all([
      verity('compare', join(FIX, 'inspect-triviaqa.json'), p('claude.json'), '--metrics', 'exact_match', '--json', '--resamples', '0'),
      verity(
        'compare',
        p('gpt2/samples_triviaqa_2026-11-23T22-00-00.jsonl'),
        p('llama/samples_triviaqa_2026-11-23T22-00-00.jsonl'),
        '--metrics',
        'exact_match',
        '--json',
        '--resamples',
        '0',
        '--map',
        'id=doc.question_id,question=doc.question,gold=doc.answer.aliases,candidate=filtered_resps.0',
      ),
    ]);
    expect(inspect.code).toBe(0);
    const a = JSON.parse(inspect.stdout);
    expect(a.systems).toEqual(['openai/gpt-4o-mini', 'anthropic/claude-test']);
    expect(a.coverage.systems[1]).toMatchObject({ missing: 1, examples: ['tc_56'] });
    expect(
      a.leaderboard.metrics[0].entries.map((e: { system: string; accuracy: { value: number } }) => [e.system, e.accuracy.value]),
    ).toEqual([
      ['anthropic/claude-test', 1],
      ['openai/gpt-4o-mini', 0.5],
    ]);
    expect(lmEval.code).toBe(0);
    const b = JSON.parse(lmEval.stdout);
    expect(b.systems).toEqual(['gpt2', 'llama']);
    expect(b.paired.metrics[0].pairs[0].accuracy.mcnemar).toMatchObject({ b: 1, c: 0, n: 4 });
  });
});

describe('verity compare chooses the gold separator', () => {
  it('splits on the separator most gold cells use and says so; --gold-sep none reads cells whole', async () => {
    const wide = [
      {
        question: 'Capital of France?',
        golden_answer: 'Paris/Paris, France',
        answer_a: 'Paris',
        judge_a: true,
        answer_b: 'Lyon',
        judge_b: false,
      },
      {
        question: 'Largest planet?',
        golden_answer: 'Jupiter/Planet Jupiter',
        answer_a: 'Jupiter',
        judge_a: true,
        answer_b: 'Saturn',
        judge_b: false,
      },
      {
        question: 'Author of Hamlet?',
        golden_answer: 'Shakespeare/William Shakespeare',
        answer_a: 'Marlowe',
        judge_a: false,
        answer_b: 'Shakespeare',
        judge_b: true,
      },
    ];
    writeFileSync(p('wide-golds.json'), JSON.stringify(wide));
    const [auto, whole, split] = await Promise.all([
      verity('compare', p('wide-golds.json'), '--metrics', 'exact_match', '--resamples', '20', '--json'),
      verity('compare', p('wide-golds.json'), '--metrics', 'exact_match', '--resamples', '20', '--json', '--gold-sep', 'none'),
      verity('compare', p('wide-golds.json'), '--metrics', 'exact_match', '--resamples', '20', '--json', '--gold-sep', '/'),
    ]);
    expect([auto.code, whole.code, split.code]).toEqual([0, 0, 0]);
    expect(auto.stderr).toContain(
      `verity: note: 3 of 3 gold cells (100%) in column "golden_answer" hold short items joined by "/"; each item is read as a gold answer (--gold-sep none reads each cell as one gold answer)`,
    );
    expect(whole.stderr).not.toContain('gold cells');
    expect(split.stderr).not.toContain('gold cells');
    // Split, "Paris" equals the gold "Paris"; whole, it does not equal "Paris/Paris, France".
    const acc = (out: string) =>
      JSON.parse(out).leaderboard.metrics[0].entries.map((e: { accuracy: { value: number } }) => e.accuracy.value);
    expect([acc(whole.stdout), acc(split.stdout)]).toEqual([
      [0, 0],
      [2 / 3, 1 / 3],
    ]);
    expect(auto.stdout).toBe(split.stdout);
  }, 600_000);
});

describe.skipIf(!existsSync(EVOUNA))('verity compare on EVOUNA TriviaQA (five systems, wide layout)', () => {
  it(`reads every system in one step; human accuracy per system equals a plain count of ${EVOUNA}`, async () => {
    const data = JSON.parse(readFileSync(EVOUNA, 'utf8')) as Record<string, unknown>[];
    const systems = ['fid', 'gpt35', 'chatgpt', 'gpt4', 'newbing'];
    const plain = Object.fromEntries(
      systems.map((s) => {
        const judged = data.filter((e) => e.improper !== true && typeof e[`judge_${s}`] === 'boolean');
        return [s, { correct: judged.filter((e) => e[`judge_${s}`] === true).length, labelled: judged.length }];
      }),
    );
    const r = await verity('compare', EVOUNA, '--metrics', 'exact_match,lexical_match', '--gold-sep', '/', '--resamples', '100', '--json');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('62 records marked improper: true left out');
    const rep = JSON.parse(r.stdout);
    expect(rep.layout).toBe('wide');
    expect(rep.systems).toEqual(systems);
    expect([rep.rows, rep.labelled]).toEqual([9690, 9690]);
    for (const e of rep.leaderboard.metrics[0].entries)
      expect({ correct: e.human.correct, labelled: e.human.labelled }).toEqual(plain[e.system]);
    expect(Object.values(plain).reduce((a, x) => a + x.correct, 0)).toBe(8221);
  }, 600_000);
});

/** The demo comparison's rows with a dataset column: the demo set's topic of each question. */
function demoByTopic() {
  const demo = readFileSync(new URL('../../public/demo/demo-set.jsonl', import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { question: string; topic: string });
  const topic = new Map(demo.map((r) => [r.question, r.topic]));
  return readFileSync(new URL('../../public/demo/compare-demo.jsonl', import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { id: string; question: string; system: string; label: string })
    .map((r) => ({ ...r, dataset: topic.get(r.question) }));
}

describe('verity compare --split-by', () => {
  it("one comparison per split, and each system's macro average over the splits, by hand from the labels", async () => {
    const rows = demoByTopic();
    const file = join(dir, 'split.jsonl');
    writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n'));
    const r = await verity('compare', file, '--split-by', 'dataset', '--metrics', 'exact_match', '--json', '--resamples', '0');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('2 splits by dataset: science (39 rows), general (39 rows)');
    type Summary = {
      metric: string;
      splits: string[];
      systems: { system: string; macro: number; ci: [number, number]; cells: Record<string, { accuracy: number; n: number }> }[];
    };
    const out = JSON.parse(r.stdout) as {
      schema: string;
      summary: Summary[];
      splits: { split: string; report: { leaderboard: unknown } }[];
    };
    expect(out.schema).toBe('verity-compare-splits/1');
    expect(out.splits.map((s) => s.split)).toEqual(['science', 'general']);
    const correct = new Set(['exact', 'equivalent', 'alternative-correct', 'overinclusive-valid']);
    const human = out.summary.find((s) => s.metric === 'human labels')!;
    for (const system of ['careful', 'verbose', 'hasty']) {
      const acc = (d: string) => {
        const mine = rows.filter((x) => x.system === system && x.dataset === d);
        return mine.filter((x) => correct.has(x.label)).length / mine.length;
      };
      const row = human.systems.find((s) => s.system === system)!;
      expect(row.cells.science!.accuracy).toBeCloseTo(acc('science'), 12);
      expect(row.macro).toBeCloseTo((acc('science') + acc('general')) / 2, 12);
      const se = Math.sqrt(['science', 'general'].reduce((s, d) => s + (acc(d) * (1 - acc(d))) / 13, 0)) / 2;
      expect(row.ci[1] - row.ci[0]).toBeCloseTo(Math.min(1, row.macro + 1.959964 * se) - Math.max(0, row.macro - 1.959964 * se), 5);
    }
    const em = out.summary.find((s) => s.metric === 'exact_match')!;
    for (const s of em.systems) expect(s.macro).toBeCloseTo((s.cells.science!.accuracy + s.cells.general!.accuracy) / 2, 12);

    const bad = await verity('compare', file, '--split-by', 'nope');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--split-by nope: row 1 has no value there; the columns not mapped to a field are dataset');
    // Systems in the order of their macro average.
    for (const sum of out.summary)
      expect(sum.systems.map((x) => x.macro)).toEqual([...sum.systems.map((x) => x.macro)].sort((a, b) => b - a));
  });

  it('takes a review, and writes the page to share and the tables, split by a column', async () => {
    const rows = demoByTopic().map(({ label: _, ...r }) => r);
    const file = join(dir, 'split-review.jsonl');
    writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n'));
    const review = join(dir, 'split-review.review.jsonl');
    const made = await verity(
      'review',
      file,
      '--budget',
      '20',
      '--out',
      review,
      '--metrics',
      'exact_match,pedants',
      '--split-by',
      'dataset',
    );
    expect(made.code, made.stderr).toBe(0);
    expect(made.stderr).toContain('split by dataset: 2 splits');
    for (const l of readFileSync(review, 'utf8').trim().split('\n'))
      expect((JSON.parse(l) as { design: { split?: string } }).design.split).toBe('dataset');
    const other = await verity(
      'review',
      file,
      '--continue',
      review,
      '--split-by',
      'topic',
      '--out',
      join(dir, 'other.jsonl'),
      '--metrics',
      'exact_match,pedants',
    );
    expect(other.code, other.stderr).toBe(1);
    expect(other.stderr).toContain('its review was drawn split by dataset: leave out --split-by, or give dataset');
    const truth = new Map(
      readFileSync(new URL('../../public/demo/compare-demo.jsonl', import.meta.url), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { id: string; system: string; label: string })
        .map((r) => [`${r.system}/${r.id}`, !['partial', 'overinclusive-invalid', 'invalid', 'contradictory'].includes(r.label)] as const),
    );
    const lines = readFileSync(review, 'utf8').trim().split('\n');
    writeFileSync(
      review,
      `${lines.map((l) => JSON.stringify({ ...(JSON.parse(l) as { id: string; system: string }), label: truth.get(`${(JSON.parse(l) as { system: string }).system}/${(JSON.parse(l) as { id: string }).id}`) })).join('\n')}\n`,
    );
    const html = join(dir, 'split.html');
    const csv = join(dir, 'split.csv');
    const compareSplit = (...more: string[]) =>
      verity('compare', file, '--split-by', 'dataset', '--labels', review, '--metrics', 'exact_match,pedants', '--resamples', '0', ...more);
    const r = await compareSplit('--html', html, '--out', csv);
    expect(r.code, r.stderr).toBe(0);
    // One line for the questions each system lacks in the other split, not one a system.
    expect(r.stderr).not.toMatch(/questions missing \(present in another input\)/);
    expect(r.stdout).toMatch(/reviewed estimate: accuracy per split/);
    expect(r.stdout).toMatch(/In short: by reviewed estimate's macro average over 2 splits, /);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('data-testid="html-splits-reviewed estimate"');
    expect(page.match(/data-testid="html-split"/g)).toHaveLength(2);
    expect(page).toContain('The answer: ranked by the reviewed estimate');
    const table = readFileSync(csv, 'utf8').trim().split('\n');
    expect(table[0]).toBe('metric,system,science,general,macro,macro_lo,macro_hi');
    expect(table.filter((l) => l.startsWith('reviewed estimate,'))).toHaveLength(3);
    // One estimate over both splits: each macro average is the mean of its cells (unless clipped to what the labels
    // allow, where it meets its interval's end), inside its own interval.
    const j = await compareSplit('--json');
    const summary = (
      JSON.parse(j.stdout) as {
        summary: { metric: string; systems: { cells: Record<string, { accuracy: number }>; macro: number; ci: [number, number] }[] }[];
      }
    ).summary[0]!;
    expect(summary.metric).toBe('reviewed estimate');
    let clipped = 0;
    for (const s of summary.systems) {
      expect(s.ci[0]).toBeLessThanOrEqual(s.macro);
      expect(s.ci[1]).toBeGreaterThanOrEqual(s.macro);
      if (s.ci[0] < s.macro && s.macro < s.ci[1])
        expect(s.macro).toBeCloseTo((s.cells.science!.accuracy + s.cells.general!.accuracy) / 2, 9);
      else clipped++;
    }
    expect(clipped).toBeLessThan(summary.systems.length);
  });

  it('system names that hold the dataset (diver/<dataset>/<model>) split at their last "/": the models are the systems', async () => {
    const rows = diverRows();
    const file = join(dir, 'diver.jsonl');
    writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n'));
    const r = await verity('compare', file, '--split-by', 'system/', '--metrics', 'exact_match', '--json', '--resamples', '0');
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      summary: { metric: string; systems: { system: string; macro: number }[] }[];
      splits: { split: string }[];
    };
    expect(out.splits.map((s) => s.split)).toEqual(['diver/nq', 'diver/tq']);
    const human = out.summary.find((s) => s.metric === 'human labels')!;
    // llama: 1 of 4 right on nq, 2 of 4 on tq → (0.25 + 0.5) / 2.
    expect(human.systems.find((s) => s.system === 'llama')!.macro).toBeCloseTo(0.375, 12);
    expect(human.systems.find((s) => s.system === 'gpt4')!.macro).toBe(1);
    const plain = await verity('compare', join(dir, 'split.jsonl'), '--split-by', 'system/');
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain('has no "/" to split its name at');
  });
});
