/**
 * The CLI's input and output at size and under failure: run as
 * a child process on files in a temp dir, like cli.test.ts.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../../test/cli.ts';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { strToU8, zipSync } from 'fflate';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function verity(args: string[], opts: { stdin?: string; interruptWhen?: () => boolean } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    if (opts.interruptWhen) {
      const timer = setInterval(() => {
        if (!opts.interruptWhen!()) return;
        clearInterval(timer);
        child.kill('SIGINT');
      }, 20);
      child.on('close', () => clearInterval(timer));
    }
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
    );
    if (opts.stdin !== undefined) child.stdin.end(opts.stdin);
    else child.stdin.end();
  });
}

let dir: string;
const p = (name: string) => join(dir, name);
const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
const ids = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { id: string }).id);

// 3,000 rows (~250 KB): over the 64 KiB under which files are read whole, and over one 2,048-row batch.
const BIG = Array.from({ length: 3000 }, (_, i) => ({
  id: `r${i}`,
  question: `Question ${i}?`,
  gold: i % 3 ? `answer ${i}` : [`answer ${i}`, 'other'],
  candidate: i % 2 ? `answer ${i}` : 'wrong',
  label: i % 2 === 1,
}));

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'verity-cli-io-'));
  writeFileSync(p('big.jsonl'), jsonl(BIG));
  // The same rows as one JSON array: read whole, by the code that was there before streaming.
  writeFileSync(p('big.json'), JSON.stringify(BIG));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('streaming', () => {
  it('a streamed JSONL file gives the same bytes as the same rows read whole, on stdout, --out .jsonl, .csv and evaluate', async () => {
    const [a, b, c, d, e, f, g] = await Promise.all([
      verity(['score', p('big.jsonl'), '--metrics', 'exact_match,token_f1']),
      verity(['score', p('big.json'), '--metrics', 'exact_match,token_f1']),
      verity(['score', p('big.jsonl'), '--metrics', 'exact_match,token_f1', '--out', p('big-out.csv')]),
      verity(['score', p('big.json'), '--metrics', 'exact_match,token_f1', '--out', p('big-whole.csv')]),
      verity(['evaluate', p('big.jsonl'), '--metrics', 'exact_match,token_f1', '--json', '--resamples', '20']),
      verity(['evaluate', p('big.json'), '--metrics', 'exact_match,token_f1', '--json', '--resamples', '20']),
      verity(['score', '-', '--metrics', 'exact_match'], { stdin: readFileSync(p('big.jsonl'), 'utf8') }),
    ]);
    for (const r of [a, b, c, d, e, f, g]) expect(r.code, r.stderr).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(ids(a.stdout)).toEqual(BIG.map((r) => r.id));
    expect(a.stderr).toContain('verity: JSONL, 3000 rows read, 0 skipped, 0 warnings');
    expect(readFileSync(p('big-out.csv'), 'utf8')).toBe(readFileSync(p('big-whole.csv'), 'utf8'));
    expect(e.stdout).toBe(f.stdout);
    expect(JSON.parse(e.stdout)).toMatchObject({ n: 3000 });
    expect(ids(g.stdout)).toEqual(BIG.map((r) => r.id));
    // No temporary files are left beside the outputs.
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp') || n.includes('.spool'))).toEqual([]);
  });

  it('streamed: bad lines, bad UTF-8, odd-cased keys and a late new column are reported as when read whole', async () => {
    const rows = BIG.slice(0, 1500).map((r) => ({ gold: r.gold, candidate: r.candidate }));
    const text =
      jsonl(rows.slice(0, 700)) +
      'not json\n' +
      JSON.stringify({ gold: 'a', Candidate: 'a' }) +
      '\n' +
      jsonl(rows.slice(700)) +
      JSON.stringify({ gold: 'z', candidate: 'z', label: true }) +
      '\n';
    const bytes = Buffer.concat([
      Buffer.from(text),
      Buffer.from([
        0x7b, 0x22, 0x67, 0x6f, 0x6c, 0x64, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x2c, 0x22, 0x63, 0x61, 0x6e, 0x64, 0x69, 0x64, 0x61, 0x74, 0x65,
        0x22, 0x3a, 0x22, 0x78, 0x22, 0x7d, 0x0a,
      ]),
    ]);
    writeFileSync(p('mixed.jsonl'), bytes);
    const r = await verity(['score', p('mixed.jsonl'), '--metrics', 'exact_match']);
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { candidate: string; label: unknown });
    expect(out).toHaveLength(1502);
    expect(out[700]!.candidate).toBe('a');
    expect(out.at(-1)!.label).toBe(true);
    expect(r.stderr).toContain('verity: error: line 701 is not valid JSON');
    expect(r.stderr).toContain('verity: error: row 1504 (line 1504) is not valid UTF-8 (byte 0xe9 at offset');
    expect(r.stderr).toContain(
      'verity: note: the key of column "candidate" is spelled differently across rows ("candidate", "Candidate"); every spelling is read as that column',
    );
    expect(r.stderr).toContain('verity: JSONL, 1502 rows read, 2 skipped, 0 warnings');
  });
});

describe('one huge row', () => {
  it('a 2 MB candidate with METEOR: that row is named and gives nulls with the reason; the others are scored', async () => {
    writeFileSync(
      p('huge.jsonl'),
      jsonl([
        { gold: 'Paris', candidate: 'Paris' },
        { gold: 'Paris', candidate: 'Paris '.repeat(350_000) },
        { gold: 'Rome', candidate: 'Rome' },
      ]),
    );
    const r = await verity(['score', p('huge.jsonl'), '--metrics', 'meteor,exact_match']);
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { metrics: Record<string, { score: number | null; explanation: string }> });
    expect(out.map((o) => o.metrics.exact_match!.score)).toEqual([1, null, 1]);
    expect(out[1]!.metrics.meteor!.explanation).toBe(
      'not scored: the candidate is 2,100,000 characters, over the limit of 100,000 characters per field',
    );
    expect(r.stderr).toContain('verity: warning: row 2: the candidate is 2,100,000 characters; it is not scored');
    // The warnings printed are the warnings counted.
    expect(r.stderr.match(/^verity: warning: /gm)?.length).toBe(1);
    expect(r.stderr).toContain('verity: JSONL, 3 rows read, 0 skipped, 1 warning\n');
  });

  it('the metric cards state the limit', async () => {
    const r = await verity(['metrics']);
    expect(r.stdout.match(/characters is not scored/g)?.length).toBeGreaterThanOrEqual(10);
  });
});

describe('one line too long to be a row', () => {
  it('a 40 MB line is skipped with its line named, unbuilt; the rows around it are scored', async () => {
    const { openSync, writeSync, closeSync } = await import('node:fs');
    const f = openSync(p('longline.jsonl'), 'w');
    for (let i = 0; i < 2000; i++) writeSync(f, `${JSON.stringify({ id: `r${i}`, gold: 'a', candidate: 'a' })}\n`);
    writeSync(f, `{"id":"huge","gold":"a","candidate":"${'x'.repeat(40 * 1024 * 1024)}"}\n`);
    for (let i = 2000; i < 2010; i++) writeSync(f, `${JSON.stringify({ id: `r${i}`, gold: 'a', candidate: 'a' })}\n`);
    closeSync(f);
    const r = await verity(['score', p('longline.jsonl'), '--metrics', 'exact_match']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('verity: error: line 2001 is 41,943,079 characters long, too long to be a row');
    expect(r.stderr).toContain('verity: JSONL, 2010 rows read, 1 skipped');
    expect(ids(r.stdout).slice(-2)).toEqual(['r2008', 'r2009']);
    rmSync(p('longline.jsonl'));
  });
});

describe('standard input', () => {
  it('SIGTERM while it is being read leaves no copy of it in the temporary folder', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'verity-tmp-'));
    const child = spawn(process.execPath, [CLI, 'score', '-'], { cwd: ROOT, env: { ...process.env, TMPDIR: tmp } });
    const err: Buffer[] = [];
    child.stderr.on('data', (b: Buffer) => err.push(b));
    const closed = new Promise<number | null>((res) => child.on('close', (code) => res(code)));
    // Private rows reach the copy, and standard input stays open.
    child.stdin.write(jsonl(BIG.slice(0, 500)));
    for (let i = 0; i < 200 && !readdirSync(tmp).some((n) => n.startsWith('verity-stdin-')); i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(readdirSync(tmp).some((n) => n.startsWith('verity-stdin-'))).toBe(true);
    child.kill('SIGTERM');
    expect(await closed).toBe(143);
    expect(readdirSync(tmp)).toEqual([]);
    rmSync(tmp, { recursive: true, force: true });
  });
});

describe('standard output that cannot be written', () => {
  it.skipIf(!existsSync('/dev/full'))('a full disk behind `> file` is exit 4 with one line, no stack', async () => {
    const { openSync, closeSync } = await import('node:fs');
    const { spawnSync } = await import('node:child_process');
    writeFileSync(p('full.jsonl'), '{"question":"q","gold":"a","candidate":"a"}\n');
    const fd = openSync('/dev/full', 'w');
    try {
      const r = spawnSync(process.execPath, [CLI, 'score', p('full.jsonl')], {
        cwd: ROOT,
        stdio: ['ignore', fd, 'pipe'],
        encoding: 'utf8',
      });
      expect(r.status).toBe(4);
      expect(r.stderr.trim().split('\n').pop()).toBe('verity: cannot write the results to standard output: the disk is full');
      expect(r.stderr).not.toContain('    at ');
    } finally {
      closeSync(fd);
    }
  });
});

describe('output files', () => {
  it('--out is checked before scoring: unknown extension (1), missing folder (4), a folder (4), unwritable folder (4)', async () => {
    mkdirSync(p('ro'));
    chmodSync(p('ro'), 0o500);
    const asRoot = process.getuid?.() === 0;
    const [ext, missing, isDir, ro] = await Promise.all([
      verity(['score', p('big.jsonl'), '--out', p('out.txt')]),
      verity(['score', p('big.jsonl'), '--out', p('nope/out.jsonl')]),
      verity(['score', p('big.jsonl'), '--out', dir]),
      verity(['score', p('big.jsonl'), '--out', p('ro/out.jsonl')]),
    ]);
    expect([ext.code, ext.stderr]).toEqual([1, `verity: --out ${p('out.txt')}: use a .jsonl, .csv or .tsv file name\n`]);
    expect([missing.code, missing.stderr]).toEqual([4, `verity: --out ${p('nope/out.jsonl')}: the folder ${p('nope')} does not exist\n`]);
    expect([isDir.code, isDir.stderr]).toEqual([4, `verity: --out ${dir}: it is a folder; give a file name\n`]);
    // root may write anywhere: the check is then the operating system's.
    if (!asRoot) expect([ro.code, ro.stderr]).toEqual([4, `verity: --out ${p('ro/out.jsonl')}: the folder ${p('ro')} is not writable\n`]);
    for (const r of [ext, missing, isDir]) expect(r.stderr).not.toContain('rows read');
  });

  it('an input error after output started leaves the previous file at --out untouched and no temporary file', async () => {
    writeFileSync(p('keep.jsonl'), 'previous results\n');
    writeFileSync(p('nogold.jsonl'), jsonl(BIG.map((r) => ({ candidate: r.candidate, gold: '' }))));
    const r = await verity(['score', p('nogold.jsonl'), '--out', p('keep.jsonl')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/verity: no usable rows in .*nogold\.jsonl \(3000 rows skipped\)\n$/);
    expect(readFileSync(p('keep.jsonl'), 'utf8')).toBe('previous results\n');
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('SIGINT while scoring: exit 130, the target is not created, no temporary file is left', async () => {
    const rows = Array.from({ length: 40_000 }, (_, i) => ({
      gold: `g ${i}`,
      candidate: `the answer is g ${i} or maybe something else entirely ${i}`,
    }));
    writeFileSync(p('long.jsonl'), jsonl(rows));
    // Interrupted once the temporary output file exists (the run is then under way).
    const r = await verity(['score', p('long.jsonl'), '--metrics', 'meteor,rouge_l,bleu', '--out', p('int.jsonl')], {
      interruptWhen: () => readdirSync(dir).some((n) => n.startsWith('.int.jsonl.')),
    });
    expect(r.code).toBe(130);
    expect(r.stderr).toContain(`verity: interrupted (SIGINT); nothing was written to ${p('int.jsonl')}`);
    expect(existsSync(p('int.jsonl'))).toBe(false);
    expect(readdirSync(dir).filter((n) => n.includes('int.jsonl'))).toEqual([]);
  });
});

describe('a reader that stops early', () => {
  it('stdout closed after the first rows (`| head`): exit 0, no stack trace', async () => {
    const r = await new Promise<Run>((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, 'score', p('big.jsonl'), '--metrics', 'exact_match'], { cwd: ROOT });
      const err: Buffer[] = [];
      child.stdout.once('data', () => child.stdout.destroy());
      child.stderr.on('data', (b: Buffer) => err.push(b));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout: '', stderr: Buffer.concat(err).toString('utf8') }));
    });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('EPIPE');
  });
});

describe('hostile data', () => {
  it('statements: one deeply nested row is skipped with its row; the others get statements', async () => {
    const d = 100_000;
    writeFileSync(
      p('deep.jsonl'),
      `{"question":"q","candidate":${'['.repeat(d)}1${']'.repeat(d)},"gold":"g"}\n{"question":"What is the capital of France?","candidate":"Paris","gold":"Paris"}\n`,
    );
    const r = await verity(['statements', p('deep.jsonl')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    // Read as verity score reads it: the row is skipped with its row named, as score skips it.
    expect(r.stderr).toMatch(/^verity: error: row 1: .*Maximum call stack size exceeded.*; skipped$/m);
  });

  it('terminal control sequences from the data are escaped on stderr', async () => {
    writeFileSync(p('ctl.jsonl'), jsonl([{ gold: 'a', candidate: 'a', label: '\u001b]0;pwned\u0007\u001b[2J\u202e' }]));
    const r = await verity(['score', p('ctl.jsonl'), '--metrics', 'exact_match']);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/[\u001b\u0007\u202e]/);
    expect(r.stderr).toContain('label "\\x1b]0;pwned\\x07\\x1b[2J\\u202e" is not one of');
  });

  it('calibration files: a BOM is fine; unknown metrics and thresholds outside [0, 1] are refused', async () => {
    writeFileSync(p('bom.json'), '\uFEFF' + JSON.stringify({ version: 1, metric: 'token_f1', threshold: 0.9 }));
    writeFileSync(p('unknown.json'), JSON.stringify({ version: 1, metric: 'token_f2', threshold: 0.5 }));
    writeFileSync(p('range.json'), JSON.stringify({ version: 1, metric: 'token_f1', threshold: 1.5 }));
    writeFileSync(p('one.jsonl'), jsonl([{ gold: 'George Washington', candidate: 'Washington' }]));
    const cal = (c: string) => verity(['score', p('one.jsonl'), '--metrics', 'token_f1', '--calibration', p(`${c}.json`)]);
    const [bom, unknown, range] = await Promise.all([cal('bom'), cal('unknown'), cal('range')]);
    expect(bom.code, bom.stderr).toBe(0);
    expect((JSON.parse(bom.stdout) as { metrics: { token_f1: { decision: boolean } } }).metrics.token_f1.decision).toBe(false); // F1 2/3 < 0.9
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^verity: .*unknown\.json: unknown metric "token_f2"; available: /);
    expect(range.code).toBe(2);
    expect(range.stderr).toBe(`verity: ${p('range.json')}: threshold 1.5 is outside [0, 1], where every metric's scores lie\n`);
  });
});

describe('wording and notes', () => {
  it('a ragas file: answer is scored as the candidate, and stderr says which layout was read and why', async () => {
    writeFileSync(
      p('ragas.jsonl'),
      jsonl([{ question: 'Capital of France?', answer: 'Paris', contexts: ['Paris is…'], ground_truth: 'Paris' }]),
    );
    const r = await verity(['score', p('ragas.jsonl'), '--metrics', 'exact_match']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ gold: ['Paris'], candidate: 'Paris' });
    expect(r.stderr).toContain(
      'verity: note: the columns answer, ground_truth are those of a ragas dataset: read as question = question, gold = ground_truth, candidate = answer (--map field=COLUMN reads it otherwise)',
    );
  });

  it('a chosen gold separator names --gold-sep none; an unknown --map column is worded with the flag', async () => {
    writeFileSync(p('sep.csv'), 'gold,candidate\nParis | Paris France,Paris\nRome | Roma,Roma\n');
    const [sep, whole, map] = await Promise.all([
      verity(['score', p('sep.csv'), '--metrics', 'exact_match']),
      verity(['score', p('sep.csv'), '--metrics', 'exact_match', '--gold-sep', 'none']),
      verity(['score', p('sep.csv'), '--map', 'candidate=nope']),
    ]);
    expect(sep.stderr).toContain(
      `joined by " | "; each item is read as a gold answer (--gold-sep none reads each cell as one gold answer)`,
    );
    const golds = (out: string) =>
      out
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { gold: string[] }).gold);
    expect(golds(sep.stdout)).toEqual([
      ['Paris', 'Paris France'],
      ['Rome', 'Roma'],
    ]);
    expect(golds(whole.stdout)).toEqual([['Paris | Paris France'], ['Rome | Roma']]);
    expect(whole.stderr).not.toContain('gold cells');
    // JSONL is streamed: the separator is chosen from the records kept in the first pass, a nested gold too.
    const lines = [
      { doc: { answer: 'Scorpio/Skorpio' }, golden_answer: 'Scorpio/Skorpio', candidate: 'Skorpio' },
      { doc: { answer: 'Lyon/Lugdunum' }, golden_answer: 'Lyon/Lugdunum', candidate: 'Lyon' },
    ];
    writeFileSync(p('sep.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n'));
    const [top, nested] = await Promise.all([
      verity(['score', p('sep.jsonl'), '--metrics', 'exact_match']),
      verity(['score', p('sep.jsonl'), '--metrics', 'exact_match', '--map', 'gold=doc.answer']),
    ]);
    for (const r of [top, nested]) {
      expect(golds(r.stdout)).toEqual([
        ['Scorpio', 'Skorpio'],
        ['Lyon', 'Lugdunum'],
      ]);
      expect(r.stderr).toContain('2 of 2 gold cells (100%)');
    }
    expect([map.code, map.stderr]).toEqual([1, 'verity: --map candidate=nope: no such column; the columns are gold, candidate\n']);
  });

  it('a CSV or TSV --out writes the gold cell as the input wrote it, which reads back to the same golds; merge too', async () => {
    writeFileSync(p('sep-in.csv'), 'gold,candidate\nParis | Paris France,Paris\nRome | Roma,Roma\nAu,Au\n');
    writeFileSync(
      p('slash.jsonl'),
      ['Scorpio/Skorpio', 'Lyon/Lugdunum'].map((g) => JSON.stringify({ gold: g, candidate: 'x' })).join('\n'),
    );
    const [csv, tsv, none, slash, part] = await Promise.all([
      verity(['score', p('sep-in.csv'), '--metrics', 'exact_match', '--out', p('sep-out.csv')]),
      verity(['score', p('sep-in.csv'), '--metrics', 'exact_match', '--out', p('sep-out.tsv')]),
      verity(['score', p('sep-in.csv'), '--metrics', 'exact_match', '--gold-sep', 'none', '--out', p('none-out.csv')]),
      verity(['score', p('slash.jsonl'), '--metrics', 'exact_match', '--out', p('slash-out.csv')]),
      verity(['score', p('sep-in.csv'), '--metrics', 'exact_match', '--shard', '1/1', '--out', p('sep-part.jsonl')]),
    ]);
    for (const r of [csv, tsv, none, slash, part]) expect(r.code, r.stderr).toBe(0);
    const goldColumn = (file: string) =>
      readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split(file.endsWith('.tsv') ? '\t' : ',')[2]);
    expect(goldColumn(p('sep-out.csv'))).toEqual(['Paris | Paris France', 'Rome | Roma', 'Au']);
    expect(goldColumn(p('sep-out.tsv'))).toEqual(['Paris | Paris France', 'Rome | Roma', 'Au']);
    expect(goldColumn(p('slash-out.csv'))).toEqual(['Scorpio / Skorpio', 'Lyon / Lugdunum']);
    // Read whole (no separator), each cell is one gold: a JSON list says so without being split again.
    expect(readFileSync(p('none-out.csv'), 'utf8')).toContain('"[""Paris | Paris France""]"');
    const merged = await verity(['merge', p('sep-merged.csv'), p('sep-part.jsonl')]);
    expect(merged.code, merged.stderr).toBe(0);
    expect(readFileSync(p('sep-merged.csv'), 'utf8')).toBe(readFileSync(p('sep-out.csv'), 'utf8'));
    // Each written file, scored again, has the golds of its input.
    const golds = (out: string) =>
      out
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { gold: string[] }).gold);
    const [again, againNone, againSlash] = await Promise.all([
      verity(['score', p('sep-out.csv'), '--metrics', 'exact_match']),
      verity(['score', p('none-out.csv'), '--metrics', 'exact_match']),
      verity(['score', p('slash-out.csv'), '--metrics', 'exact_match']),
    ]);
    expect(golds(again.stdout)).toEqual([['Paris', 'Paris France'], ['Rome', 'Roma'], ['Au']]);
    expect(golds(againNone.stdout)).toEqual([['Paris | Paris France'], ['Rome | Roma'], ['Au']]);
    expect(golds(againSlash.stdout)).toEqual([
      ['Scorpio', 'Skorpio'],
      ['Lyon', 'Lugdunum'],
    ]);
  });
});

describe('every input format in score, not only in compare', () => {
  const FIX = join(ROOT, 'test/fixtures/formats');
  /** Each output record's id, question, gold, candidate and scores: what must not depend on the input format. */
  const scored = (stdout: string) =>
    stdout
      .trim()
      .split('\n')
      .map((l) => {
        const r = JSON.parse(l) as {
          id: string;
          question: string;
          gold: string[];
          candidate: string;
          metrics: Record<string, { score: number }>;
        };
        return [r.id, r.question, r.gold, r.candidate, Object.values(r.metrics).map((m) => m.score)];
      });

  it('an Inspect .json log, an Inspect .eval archive and a Parquet file score as the plain JSONL does', async () => {
    const plain = await verity(['score', join(FIX, 'plain.jsonl'), '--metrics', 'exact_match,token_f1']);
    expect(plain.code).toBe(0);
    const records = plain.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; question: string; gold: string[]; candidate: string });
    writeFileSync(
      p('plain.parquet'),
      new Uint8Array(
        parquetWriteBuffer({
          columnData: [
            { name: 'id', data: records.map((r) => r.id), type: 'STRING' },
            { name: 'question', data: records.map((r) => r.question), type: 'STRING' },
            { name: 'gold', data: records.map((r) => JSON.stringify(r.gold)), type: 'STRING' },
            { name: 'candidate', data: records.map((r) => r.candidate), type: 'STRING' },
          ],
        }),
      ),
    );
    for (const file of [join(FIX, 'inspect-triviaqa.json'), join(FIX, 'inspect-triviaqa.eval'), p('plain.parquet')]) {
      const r = await verity(['score', file, '--metrics', 'exact_match,token_f1']);
      expect(r.code, `${file}: ${r.stderr}`).toBe(0);
      expect(scored(r.stdout), file).toEqual(scored(plain.stdout));
      expect(r.stderr, file).toMatch(file.endsWith('.parquet') ? /PARQUET, 4 rows read/ : /INSPECT, 4 rows read/);
    }
  });

  it('a zip that is not an Inspect log is an input error naming what Verity reads', async () => {
    writeFileSync(p('other.zip'), zipSync({ 'a.txt': strToU8('hello') }));
    const r = await verity(['score', p('other.zip')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/a zip archive that is not an Inspect \.eval log/);
  });
});

describe('lm-evaluation-harness samples large enough to stream', () => {
  it('read the question from doc.question, detected or chosen with --map', async () => {
    const FIX = join(ROOT, 'test/fixtures/formats');
    const four = readFileSync(join(FIX, 'samples_triviaqa_2026-11-23T22-00-00.000000.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    // 400 samples (~470 KB): past the size under which files are read whole.
    const file = p('samples_triviaqa_big.jsonl');
    writeFileSync(file, jsonl(Array.from({ length: 400 }, (_, i) => ({ ...four[i % 4], doc_id: i }))));
    for (const args of [[], ['--map', 'question=doc.question']]) {
      const r = await verity(['score', file, '--metrics', 'exact_match', ...args]);
      expect(r.code, r.stderr).toBe(0);
      const questions = r.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { question: string }).question);
      expect(questions).toHaveLength(400);
      expect(questions[0]).toBe('Which Lloyd Webber musical premiered in the US on 10th December 1993?');
      expect(questions.every((q) => q.length > 0)).toBe(true);
    }
  });
});

describe('signals during a slow row', () => {
  it('SIGTERM stops the CLI at once while a row takes seconds, and leaves nothing at --out', async () => {
    // ROUGE-L's longest common subsequence over two 99,000-character answers takes several seconds per row.
    let seed = 7;
    const word = () => `w${(seed = (seed * 48271) % 2147483647) % 3000}`;
    const text = () => {
      let t = '';
      while (t.length < 99_000) t += `${word()} `;
      return t.slice(0, 99_000);
    };
    const rows = Array.from({ length: 3 }, (_, i) => ({ id: `s${i}`, question: 'q?', gold: [text()], candidate: text() }));
    writeFileSync(p('slow.jsonl'), jsonl(rows));
    const out = p('slow-out.jsonl');
    const child = spawn(process.execPath, [CLI, 'score', p('slow.jsonl'), '--metrics', 'rouge_l', '--out', out], { cwd: ROOT });
    const err: Buffer[] = [];
    child.stderr.on('data', (b: Buffer) => err.push(b));
    const closed = new Promise<number | null>((res) => child.on('close', (code) => res(code)));
    // The file read (the CLI says so once its handlers are in place), then well into the first row: a condition, not
    // a clock, so a loaded machine only makes the test slower.
    while (!Buffer.concat(err).toString('utf8').includes('rows read')) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 500));
    const sent = Date.now();
    child.kill('SIGTERM');
    expect(await closed).toBe(143);
    // Before, the signal waited for the row to end (seconds later, more under load); now the main thread answers it.
    expect(Date.now() - sent).toBeLessThan(5000);
    expect(Buffer.concat(err).toString('utf8')).toContain(`verity: interrupted (SIGTERM); nothing was written to ${out}`);
    expect(readdirSync(dir).filter((n) => n.startsWith('slow-out'))).toEqual([]);
  }, 600_000);
});
