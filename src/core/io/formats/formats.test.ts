/**
 * Harness formats read as they are: each fixture in test/fixtures/formats holds the same four TriviaQA rows as
 * plain.jsonl, and must map to the same rows and score to the same numbers.
 */
import { readFileSync } from 'node:fs';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { mapRows, type MapOptions } from '../fields.ts';
import { parseTable } from '../parse.ts';
import { scoreRows } from '../../scoring.ts';
import { parseMetricList } from '../../metrics/index.ts';
import {
  formatList,
  getPath,
  INPUT_ACCEPT,
  INPUT_FORMATS,
  nestedPaths,
  readBlobInput,
  readInput,
  withPaths,
  type InputTable,
} from './index.ts';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../../../test/fixtures/formats/${name}`, import.meta.url)));
const plainRecords = readFileSync(new URL('../../../../test/fixtures/formats/plain.jsonl', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { id: string; question: string; gold: string[]; candidate: string });

const metrics = parseMetricList('exact_match,token_f1,lexical_match');

async function rowsOf(t: InputTable | ReturnType<typeof parseTable>, opts: MapOptions = {}) {
  const mapped = mapRows(withPaths(t, Object.values(opts.map ?? {})), opts);
  const rows = mapped.rows.map((r) => ({ id: r.id, question: r.question, golds: r.golds, candidate: r.candidate }));
  const scores = (await scoreRows(mapped.rows, metrics)).map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v.score])));
  return { rows, scores, issues: mapped.issues };
}

const plain = await rowsOf(parseTable(fixture('plain.jsonl')));

describe('nested paths', () => {
  const rec = { doc: { answer: { aliases: ['a', 'b'] }, q: 'x' }, filtered_resps: ['y'], 'a.b': 1, a: { b: 2 } };
  it('walks objects and arrays; a dotted key wins over the path', () => {
    expect(getPath(rec, 'doc.answer.aliases')).toEqual(['a', 'b']);
    expect(getPath(rec, 'filtered_resps.0')).toBe('y');
    expect(getPath(rec, 'a.b')).toBe(1);
    expect(getPath(rec, 'doc.nope.x')).toBeUndefined();
    expect(getPath(rec, 'constructor')).toBeUndefined();
  });
  it('lists the nested paths for the mapping choices', () => {
    const t = parseTable(JSON.stringify(rec));
    expect(nestedPaths(t)).toEqual(['doc.answer.aliases', 'doc.q', 'a.b']);
  });
});

describe('lm-evaluation-harness --log_samples', () => {
  it('maps doc.question, target, filtered_resps.0 to the plain rows and the same scores', async () => {
    const t = await readInput(fixture('samples_triviaqa_2026-11-23T22-00-00.000000.jsonl'));
    expect(t.source).toBe('jsonl');
    const got = await rowsOf(t, {
      map: { id: 'doc.question_id', question: 'doc.question', gold: 'doc.answer.aliases', candidate: 'filtered_resps.0' },
    });
    expect(got.rows).toEqual(plain.rows);
    expect(got.scores).toEqual(plain.scores);
    expect(got.issues).toEqual([]);
    // `target` holds the same aliases.
    const viaTarget = await rowsOf(t, {
      map: { id: 'doc.question_id', question: 'doc.question', gold: 'target', candidate: 'filtered_resps.0' },
    });
    expect(viaTarget.rows).toEqual(plain.rows);
  });
});

describe('Inspect AI eval logs', () => {
  it('reads samples (string and chat inputs, completion or message content) as the plain rows', async () => {
    const t = await readInput(fixture('inspect-triviaqa.json'));
    expect(t.source).toBe('inspect');
    expect(t.columns).toEqual(['id', 'epoch', 'question', 'gold', 'candidate', 'model', 'score.match', 'metadata.source']);
    expect(t.records.map((r) => r.data['score.match'])).toEqual(['C', 'C', 'I', 'I']);
    expect(t.records[0]!.data.model).toBe('openai/gpt-4o-mini');
    const got = await rowsOf(t);
    expect(got.rows).toEqual(plain.rows);
    expect(got.scores).toEqual(plain.scores);
  });

  it('the same from a Blob (the app)', async () => {
    const t = await readBlobInput(new Blob([fixture('inspect-triviaqa.json')]), 'x.json');
    expect(t.source).toBe('inspect');
    expect((await rowsOf(t)).rows).toEqual(plain.rows);
  });

  it('says why a log without samples has no rows', async () => {
    const log = JSON.parse(new TextDecoder().decode(fixture('inspect-triviaqa.json'))) as Record<string, unknown>;
    delete log.samples;
    await expect(readInput(new TextEncoder().encode(JSON.stringify(log)))).rejects.toThrow(
      /has no samples \(was it written with --no-log-samples/,
    );
  });

  it('numbers epochs into the id', async () => {
    const log = JSON.parse(new TextDecoder().decode(fixture('inspect-triviaqa.json'))) as { samples: { epoch: number }[] };
    log.samples[1]!.epoch = 2;
    const t = await readInput(new TextEncoder().encode(JSON.stringify(log)));
    expect(t.records.map((r) => r.data.id)).toEqual(['tc_33#1', 'tc_40#2', 'tc_49#1', 'tc_56#1']);
  });
});

describe('Inspect AI .eval logs (zip archives)', () => {
  // Written by Python's zipfile as Inspect writes it (scripts/reference/inspect_eval_fixture.py).
  const evalBytes = fixture('inspect-triviaqa.eval');
  const jsonLog = JSON.parse(new TextDecoder().decode(fixture('inspect-triviaqa.json'))) as Record<string, unknown> & {
    samples: Record<string, unknown>[];
  };
  const archive = (files: Record<string, unknown>) =>
    zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(JSON.stringify(v))])));

  it('reads the same table as the .json log, and so the plain rows and scores', async () => {
    const t = await readInput(evalBytes, 'logs/2026-11-23T22-00-00_triviaqa.eval');
    expect(t.source).toBe('inspect');
    const fromJson = await readInput(fixture('inspect-triviaqa.json'));
    expect(t.columns).toEqual(fromJson.columns);
    expect(t.records).toEqual(fromJson.records);
    const got = await rowsOf(t);
    expect(got.rows).toEqual(plain.rows);
    expect(got.scores).toEqual(plain.scores);
  });

  it('the same from a Blob (the app)', async () => {
    const t = await readBlobInput(new Blob([evalBytes]), 'x.eval');
    expect(t.source).toBe('inspect');
    expect((await rowsOf(t)).rows).toEqual(plain.rows);
  });

  it("a log still being written (the journal's start, no header) reads its samples in Inspect's order", async () => {
    const { samples, ...head } = jsonLog;
    const files: Record<string, unknown> = { '_journal/start.json': { version: head.version, eval: head.eval, plan: head.plan } };
    // Epoch 2 of the first sample, and the samples stored in reverse.
    for (const s of [{ ...samples[0]!, epoch: 2 }, ...[...samples].reverse()])
      files[`samples/${String(s.id)}_epoch_${String(s.epoch)}.json`] = s;
    const t = await readInput(archive(files));
    expect(t.records.map((r) => r.data.id)).toEqual(['tc_33#1', 'tc_40#1', 'tc_49#1', 'tc_56#1', 'tc_33#2']);
    expect(t.records[0]!.data.model).toBe('openai/gpt-4o-mini');
  });

  it('an archive of 3,000 samples is read (it overflowed the call stack), and one that declares a huge entry is refused first', async () => {
    const { samples, ...head } = jsonLog;
    const files: Record<string, unknown> = { 'header.json': head };
    for (let i = 0; i < 3000; i++) files[`samples/s${i}_epoch_1.json`] = { ...samples[i % samples.length]!, id: `s${i}` };
    const big = archive(files);
    const t = await readInput(big, 'big.eval');
    expect(t.records).toHaveLength(3000);
    expect((await readBlobInput(new Blob([big]), 'big.eval')).records).toHaveLength(3000);
    // A small archive whose central directory says one entry inflates to 300 MB: refused before inflating anything.
    const small = archive({ 'header.json': head, 'samples/s0_epoch_1.json': samples[0] });
    const patched = small.slice();
    const view = new DataView(patched.buffer);
    for (let i = 0; i + 46 < patched.length; i++)
      if (view.getUint32(i, true) === 0x02014b50) {
        const nameLength = view.getUint16(i + 28, true);
        const name = new TextDecoder().decode(patched.subarray(i + 46, i + 46 + nameLength));
        if (name.startsWith('samples/')) view.setUint32(i + 24, 300 * 1024 * 1024, true);
      }
    await expect(readInput(patched, 'bomb.eval')).rejects.toThrow(
      'samples/s0_epoch_1.json in the .eval archive declares 300 MB once inflated; Verity reads entries up to 256 MB (is the archive damaged, or not an Inspect log?)',
    );
  });

  it('another zip, a damaged archive, and an archive with no samples are input errors that say so', async () => {
    await expect(readInput(archive({ 'data.json': { a: 1 } }))).rejects.toThrow(/a zip archive that is not an Inspect \.eval log/);
    // A spreadsheet is named, with what to do (its entry names are stored uncompressed, as in any zip).
    const xlsx = zipSync({ '[Content_Types].xml': strToU8('<Types/>'), 'xl/workbook.xml': strToU8('<workbook/>') });
    await expect(readInput(xlsx)).rejects.toThrow(
      /^the file is an Excel workbook \(\.xlsx\), which Verity does not read: save the sheet as CSV/,
    );
    const ods = zipSync({ mimetype: strToU8('application/vnd.oasis.opendocument.spreadsheet') }, { level: 0 });
    await expect(readInput(ods)).rejects.toThrow(/an OpenDocument spreadsheet \(\.ods\)/);
    // Half a Parquet file: cut short, or a wrong magic number at the start.
    const whole = new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'gold', data: ['a', 'b'] }] }));
    const cut = whole.slice(0, whole.length - 20);
    const badMagic = whole.slice();
    badMagic.set([0x58, 0x58, 0x58, 0x58], 0);
    for (const [bytes, why] of [
      [cut, 'it begins with PAR1 but does not end with it: cut short?'],
      [badMagic, 'it ends with PAR1 but does not begin with it'],
    ] as const) {
      const msg = `the file is a damaged Parquet file (${why}); Verity cannot read it: write it again`;
      await expect(readInput(bytes)).rejects.toThrow(msg);
      await expect(readBlobInput(new Blob([bytes]), 'x.parquet')).rejects.toThrow(msg);
    }
    // An old Excel workbook (.xls) is an OLE2 compound file: named too, from bytes and from a Blob.
    const xls = new Uint8Array(4096);
    xls.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    await expect(readInput(xls)).rejects.toThrow(
      /^the file is an Excel 97–2003 workbook \(\.xls\), which Verity does not read: save the sheet as CSV/,
    );
    await expect(readBlobInput(new Blob([xls]), 'marks.xls')).rejects.toThrow(/Excel 97–2003 workbook \(\.xls\)/);
    await expect(readInput(evalBytes.slice(0, 900))).rejects.toThrow(/the zip archive is cut off/);
    await expect(readInput(evalBytes.slice(0, evalBytes.length - 30))).rejects.toThrow(/the zip archive is cut off/);
    const garbled = evalBytes.slice();
    for (let i = 400; i < 420; i++) garbled[i] = 0xff;
    await expect(readInput(garbled)).rejects.toThrow(/cannot be read|is not valid JSON/);
    const { samples: _s, ...head } = jsonLog;
    await expect(readInput(archive({ 'header.json': head }))).rejects.toThrow(/has no samples/);
  });
});

describe('Parquet', () => {
  // Generated deterministically with hyparquet-writer: list<string> golds, INT64 ids, two row groups.
  const bytes = parquetWriteBuffer({
    columnData: [
      { name: 'id', data: plainRecords.map((r) => r.id) },
      { name: 'n', data: plainRecords.map((_, i) => BigInt(i)) },
      { name: 'question', data: plainRecords.map((r) => r.question) },
      { name: 'gold', data: plainRecords.map((r) => r.gold) },
      { name: 'candidate', data: plainRecords.map((r) => r.candidate) },
    ],
    schema: [
      { name: 'root', num_children: 5 },
      { name: 'id', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
      { name: 'n', type: 'INT64', repetition_type: 'REQUIRED' },
      { name: 'question', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
      { name: 'gold', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
      { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
      { name: 'element', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
      { name: 'candidate', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
    ],
    rowGroupSize: 2,
  } as Parameters<typeof parquetWriteBuffer>[0]);

  it('reads row group by row group into the plain rows, INT64 as numbers', async () => {
    const t = await readInput(new Uint8Array(bytes));
    expect(t.source).toBe('parquet');
    expect(t.columns).toEqual(['id', 'n', 'question', 'gold', 'candidate']);
    expect(t.records.map((r) => r.data.n)).toEqual([0, 1, 2, 3]);
    const got = await rowsOf(t);
    expect(got.rows).toEqual(plain.rows);
    expect(got.scores).toEqual(plain.scores);
  });

  it('from a Blob, in slices, with progress per row group', async () => {
    const seen: number[] = [];
    const blob = new Blob([bytes]);
    const t = await readBlobInput(blob, 'x.parquet', { onProgress: (read) => seen.push(read) });
    expect((await rowsOf(t)).rows).toEqual(plain.rows);
    expect(seen).toEqual([Math.round(blob.size / 2), blob.size]);
  });

  it('a cut-off Parquet file is an input error, not a crash', async () => {
    const cut = new Uint8Array(bytes).slice(0, 200);
    cut.set([0x50, 0x41, 0x52, 0x31], 196);
    await expect(readInput(cut)).rejects.toThrow(/Parquet/);
  });
});

describe('the formats table', () => {
  it('is what the app accepts, the CLI and the docs list, and the errors name', async () => {
    expect(formatList()).toBe('JSONL, JSON, CSV, TSV, Parquet and Inspect logs');
    expect(INPUT_ACCEPT.split(',')).toEqual(['.jsonl', '.ndjson', '.json', '.csv', '.txt', '.tsv', '.parquet', '.eval']);
    const doc = (name: string) => readFileSync(new URL(`../../../../${name}`, import.meta.url), 'utf8');
    expect(doc('docs/app.md')).toContain(`drop a file (${formatList('or')})`);
    expect(doc('docs/inputs.md')).toContain(`Formats: ${formatList()}`);
    expect(doc('README.md')).toContain(formatList('or'));
    const page = readFileSync(new URL('../../../app/components/score/FileMapping.svelte', import.meta.url), 'utf8');
    expect(page).toContain('accept={INPUT_ACCEPT}');
    for (const f of INPUT_FORMATS) expect(f.extensions.every((e) => e.startsWith('.'))).toBe(true);
    // A spreadsheet is refused with the list of what is read.
    const xls = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]);
    await expect(readInput(xls)).rejects.toThrow(`Verity reads ${formatList()}`);
  });
});
