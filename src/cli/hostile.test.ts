/**
 * Faults a hostile-input probe and a first-time user found, each as the CLI meets it: no row lost to mixed line
 * ends or an over-long record, a never-closing record named with the bytes not read (and a non-zero exit), a file
 * of (question, answer) pairs turned into statements, the input's own columns kept in every export, any string a
 * system name, the 1,000-system cap in the wide layout, no local folder in a report made to be shared, and the
 * wide layout named where score and evaluate meet it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, ROOT } from '../../test/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'verity-hostile-'));
const p = (name: string) => join(dir, name);
const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28 });
const ENDS = ['\n', '\r', '\r\n'];

describe('no row lost', () => {
  it('a CSV mixing LF, CR and CRLF line ends, quoted line breaks included, gives every record', () => {
    const rows = Array.from({ length: 1490 }, (_, i) => [
      `q${i}`,
      `"What is ${i}?"`,
      `"answer ${i}${i % 7 === 0 ? '\nand more' : ''}"`,
      `answer ${i}`,
    ]);
    const text = `id,question,gold,candidate${ENDS[0]}${rows.map((r, i) => r.join(',') + ENDS[(i * 5) % 3]).join('')}`;
    writeFileSync(p('mixed.csv'), text);
    const r = run('score', p('mixed.csv'), '--metrics', 'exact_match');
    expect(r.status, r.stderr).toBe(0);
    const out = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; gold: string[] });
    expect(out).toHaveLength(1490);
    expect(out[7]!.gold).toEqual(['answer 7\nand more']);
    expect(r.stderr).toMatch(/CSV, 1490 rows read, 0 skipped/);
  });

  it('an over-long CSV record is skipped and named, and every row after it is read; one that never closes fails the run', () => {
    const head = 'id,question,gold,candidate\n';
    const good = (i: number) => `q${i},Q${i}?,a${i},a${i}\n`;
    const long = `q746,Q?,a,"${'x'.repeat(40 * 1024 * 1024)}"\n`;
    writeFileSync(
      p('long.csv'),
      head +
        Array.from({ length: 745 }, (_, i) => good(i)).join('') +
        long +
        Array.from({ length: 744 }, (_, i) => good(1000 + i)).join(''),
    );
    const r = run('score', p('long.csv'), '--metrics', 'exact_match', '--out', p('long.out.jsonl'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /row 746 \(line 747\): a record of 41,943,0\d\d characters, over the 33,554,432 a record may have .*skipped, and the reading goes on at line 748/,
    );
    expect(readFileSync(p('long.out.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1489);

    writeFileSync(p('open.csv'), `${head}${good(1)}q2,Q?,a,"${'y'.repeat(40 * 1024 * 1024)}\n${good(3)}`);
    const o = run('score', p('open.csv'), '--metrics', 'exact_match', '--out', p('open.out.jsonl'));
    expect(o.status).toBe(2);
    expect(o.stderr).toMatch(
      /row 2 \(line 3\): a quoted field opened on this row is never closed; the rest of the file, 41,943,\d+ bytes from line 3 on, was not read/,
    );
    expect(o.stderr).toMatch(/verity: the input was not read to its end: /);
    expect(readFileSync(p('open.out.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1);
  }, 600_000);

  it('an over-long JSON-array element is skipped and the elements after it are read', () => {
    const el = (i: number) => JSON.stringify({ id: `q${i}`, question: 'Q?', gold: 'a', candidate: 'a' });
    const long = JSON.stringify({ id: 'big', question: 'Q?', gold: 'a', candidate: 'x'.repeat(40 * 1024 * 1024) });
    writeFileSync(p('long.json'), `[${[el(1), long, el(3), el(4)].join(',\n')}]`);
    const r = run('score', p('long.json'), '--metrics', 'exact_match');
    expect(r.status, r.stderr).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { id: string }).id),
    ).toEqual(['q1', 'q3', 'q4']);
    expect(r.stderr).toMatch(/row 2 \(line 2\): element 2 is [\d,]+ characters long, .*skipped, and the reading goes on after it/);
  }, 600_000);
});

describe('statements and exports', () => {
  it('verity explain with no --metrics runs the embedded metrics, downloading nothing', () => {
    const r = run('explain', '--question', 'Who wrote Hamlet?', '--gold', 'William Shakespeare', '--candidate', 'Shakespeare');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^meteor /m);
    expect(r.stdout).not.toMatch(/^(cap|nli_lex|bertscore) /m);
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/download|failed/);
  });

  it('verity statements reads a file of (question, answer) pairs, the CAP-Statements layout', () => {
    writeFileSync(
      p('cap.jsonl'),
      `${JSON.stringify({ id: '1', question: 'Who wrote Hamlet?', answer: 'Shakespeare', statement: 'Shakespeare wrote Hamlet.' })}\n`,
    );
    const r = run('statements', p('cap.jsonl'));
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout) as object).toMatchObject({
      id: '1',
      answer: 'Shakespeare',
      statement: expect.stringMatching(/Shakespeare/),
      golds: [],
    });
    const mapped = run('statements', p('cap.jsonl'), '--map', 'candidate=answer');
    expect(mapped.status, mapped.stderr).toBe(0);
  });

  it("keeps the input's own columns in score's JSONL and CSV and in compare's --rows-out", () => {
    const rows = [
      { id: '1', question: 'Who?', gold: 'Shakespeare', candidate: 'Shakespeare', source: 'a', bem: 0.9 },
      { id: '1', question: 'Who?', gold: 'Shakespeare', candidate: 'Marlowe', source: 'b', bem: 0.1 },
    ];
    writeFileSync(p('cols.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n'));
    const j = run('score', p('cols.jsonl'), '--metrics', 'exact_match');
    expect(JSON.parse(j.stdout.split('\n')[0]!) as object).toMatchObject({ source: 'a', bem: 0.9 });
    const c = run('score', p('cols.jsonl'), '--metrics', 'exact_match', '--out', p('cols.csv'));
    expect(c.status, c.stderr).toBe(0);
    expect(readFileSync(p('cols.csv'), 'utf8').split('\n')[0]).toMatch(/,source,bem$/);
    const cmp = run('compare', p('cols.jsonl'), '--metrics', 'exact_match', '--rows-out', p('cols.rows.jsonl'));
    expect(cmp.status, cmp.stderr).toBe(0);
    expect(JSON.parse(readFileSync(p('cols.rows.jsonl'), 'utf8').split('\n')[0]!) as object).toMatchObject({
      system: 'a',
      source: 'a',
      bem: 0.9,
    });
  });
});

describe('any name, any number of columns', () => {
  it('systems named __proto__, constructor and hasOwnProperty are systems like any other', () => {
    const rows = ['__proto__', 'constructor', 'hasOwnProperty'].flatMap((system, s) =>
      [0, 1].map((q) => ({
        id: String(q),
        question: `Q${q}?`,
        gold: 'Paris',
        candidate: s === 0 ? 'Paris' : 'Lyon',
        system,
        __proto__x: 1,
      })),
    );
    writeFileSync(p('proto.jsonl'), rows.map((r) => JSON.stringify(r).replace('"__proto__x"', '"__proto__"')).join('\n'));
    const c = run('compare', p('proto.jsonl'), '--metrics', 'exact_match,pedants', '--json', '--resamples', '0');
    expect(c.status, c.stderr).toBe(0);
    expect((JSON.parse(c.stdout) as { systems: string[] }).systems).toEqual(['__proto__', 'constructor', 'hasOwnProperty']);
    const r = run('review', p('proto.jsonl'), '--budget', '3', '--out', p('proto.review.jsonl'));
    expect(r.status, r.stderr).toBe(0);
    const s = run('score', p('proto.jsonl'), '--metrics', 'exact_match');
    expect(s.stdout).toContain('"__proto__":1');
  });

  it('splits named __proto__, constructor, toString and hasOwnProperty keep their cells in the JSON', () => {
    const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
    const rows = names.flatMap((ds, d) =>
      ['a', 'b'].flatMap((system, s) =>
        [0, 1].map((q) => ({ id: `${d}-${q}`, question: `Q${d}${q}?`, gold: 'Paris', candidate: s === 0 ? 'Paris' : 'Lyon', system, ds })),
      ),
    );
    writeFileSync(p('proto-split.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n'));
    const c = run('compare', p('proto-split.jsonl'), '--metrics', 'exact_match', '--split-by', 'ds', '--json', '--resamples', '0');
    expect(c.status, c.stderr).toBe(0);
    const json = JSON.parse(c.stdout) as { summary: { systems: { system: string; cells: Record<string, unknown> }[] }[] };
    for (const sys of json.summary[0]!.systems) for (const n of names) expect(Object.hasOwn(sys.cells, n), `${sys.system} ${n}`).toBe(true);
  });

  it('never lets a name from the input write terminal control sequences or forge a line', () => {
    const evil = 'A\x1b[31mRED\x1b]52;c;aGVsbG8=\x07\nverity: all rows scored, 0 errors\u202e';
    const rows = [evil, 'B'].flatMap((system, s) =>
      [0, 1, 2].map((q) => ({ id: `${q}\x1b[2J`, question: `Q${q}?`, gold: 'Paris', candidate: s ? 'Lyon' : 'Paris', system, ds: evil })),
    );
    // A question the second system lacks, so the CLI has a note naming the first.
    rows.push({ id: '9', question: 'Q9?', gold: 'Paris', candidate: 'Paris', system: evil, ds: evil });
    writeFileSync(p('evil.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n'));
    for (const args of [
      ['compare', p('evil.jsonl'), '--metrics', 'exact_match', '--resamples', '0'],
      ['compare', p('evil.jsonl'), '--metrics', 'exact_match', '--resamples', '0', '--split-by', 'ds'],
    ]) {
      const c = run(...args);
      expect(c.status, c.stderr).toBe(0);
      for (const out of [c.stdout, c.stderr]) {
        expect(out).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
        expect(out).not.toMatch(/^verity: all rows scored/m);
      }
      expect(c.stdout).toContain('A\\x1b[31mRED');
    }
  });

  it('the wide layout holds the 1,000-system cap, quickly and in little memory', () => {
    const cols = ['id', 'question', 'golden_answer', ...Array.from({ length: 100_000 }, (_, i) => `answer_s${i}`)];
    const line = (r: number) => [`q${r}`, 'What?', 'x', ...new Array<string>(100_000).fill('a')].join(',');
    writeFileSync(p('wide.csv'), `${cols.join(',')}\n${[0, 1, 2, 3, 4].map(line).join('\n')}\n`);
    const r = run('compare', p('wide.csv'), '--metrics', 'exact_match');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/the wide layout names 100,000 systems \(columns such as answer_s0\); Verity compares at most 1,000/);
  });

  it('score and evaluate say which command reads the wide layout, and which --map scores one system', () => {
    writeFileSync(
      p('tq.json'),
      JSON.stringify([{ question: 'Q?', golden_answer: 'a', answer_fid: 'a', judge_fid: true, answer_gpt4: 'b', judge_gpt4: false }]),
    );
    for (const cmd of ['score', 'evaluate']) {
      const r = run(cmd, p('tq.json'), '--metrics', 'exact_match');
      expect(r.status).toBe(2);
      expect(r.stderr).toBe(
        'verity: the file holds 2 systems side by side (answer_fid, answer_gpt4): verity compare reads them all (and verity review); to score one system, choose its column: --map candidate=answer_fid,label=judge_fid\n',
      );
    }
  });
});

describe('a report made to be sent', () => {
  it('names input files by their base names, never the folders they were read from', () => {
    const folder = join(dir, 'private', 'data');
    mkdirSync(folder, { recursive: true });
    const a = Array.from({ length: 8 }, (_, i) => ({ id: String(i), question: `Q${i}?`, gold: 'a', candidate: 'a' }));
    writeFileSync(join(folder, 'sys-a.jsonl'), a.map((r) => JSON.stringify(r)).join('\n'));
    writeFileSync(
      join(folder, 'sys-b.jsonl'),
      a
        .slice(1)
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    const r = run(
      'compare',
      join(folder, 'sys-a.jsonl'),
      join(folder, 'sys-b.jsonl'),
      '--metrics',
      'exact_match',
      '--html',
      p('report.html'),
    );
    expect(r.status, r.stderr).toBe(0);
    const html = readFileSync(p('report.html'), 'utf8');
    expect(html).toContain('sys-a.jsonl');
    expect(html).not.toContain('private');
    expect(html).not.toContain(dir);
  });
});
