/**
 * The piecewise readers (CSV/TSV, JSON arrays) give, for any text cut into any pieces, the table parseTable
 * gives for the whole text: the same records, columns, header line and issues.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DelimitedReader } from './delimited.ts';
import { JsonArrayReader } from './json-array.ts';
import { parseTable, type ParsedTable } from './parse.ts';
import { ADVERSARIAL_PIECES } from '../text/adversarial.ts';

const utf8 = (t: string) => new TextEncoder().encode(t).length;

const piece = fc.constantFrom(...ADVERSARIAL_PIECES, '"', '""', ',', '\t', '\n', '\r\n', '\r', '[', ']', '{', '}', ':', '\\');
const text = fc.oneof(
  fc.array(piece, { maxLength: 8 }).map((p) => p.join('')),
  fc.string({ unit: 'binary', maxLength: 20 }),
);
const cell = fc.oneof(
  text,
  text.map((t) => `"${t.replaceAll('"', '""')}"`),
);
const delimited = (sep: string, eol: fc.Arbitrary<string>) =>
  fc
    .tuple(
      fc.array(fc.constantFrom('question', 'gold', 'candidate', 'id', 'a b'), { minLength: 2, maxLength: 4 }),
      fc.array(fc.tuple(fc.array(cell, { maxLength: 5 }), eol), { maxLength: 8 }),
    )
    .map(([head, rows]) => `${head.join(sep)}\n${rows.map(([cells, end]) => cells.join(sep) + end).join('')}`);
const element = fc.oneof(
  {
    arbitrary: fc.dictionary(fc.constantFrom('question', 'gold', 'candidate', 'x'), fc.jsonValue()).map((o) => JSON.stringify(o, null, 1)),
    weight: 4,
  },
  { arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)), weight: 1 },
  { arbitrary: text, weight: 1 },
);
const jsonArray = fc
  .tuple(
    fc.array(element, { maxLength: 8 }),
    fc.constantFrom(',', ',\n', ' , ', '\n', ',,'),
    fc.constantFrom(']', ']\n', '', '] trailing', ',]'),
  )
  .map(([els, sep, close]) => `[${els.join(sep)}${close}`);
const files = fc.oneof(
  delimited(',', fc.constantFrom('\n', '\r\n', '\r')),
  delimited('\t', fc.constantFrom('\n', '\r\n')),
  delimited(';', fc.constant('\n')),
  jsonArray,
);

/** The text cut at the given places (in order, repeats and ends allowed: empty pieces too). */
const cutAt = (s: string, at: number[]): string[] => {
  const points = [0, ...at.map((a) => Math.floor(a * s.length)).sort((a, b) => a - b), s.length];
  return points.slice(1).map((p, k) => s.slice(points[k], p));
};

function piecewise(format: ParsedTable['format'], whole: string, pieces: string[]): ParsedTable {
  const reader = format === 'json' ? new JsonArrayReader() : new DelimitedReader(format as 'csv' | 'tsv', whole);
  const records: ParsedTable['records'] = [];
  pieces.forEach((p, k) => {
    reader.push(p, k === pieces.length - 1);
    records.push(...reader.take());
  });
  const end = reader.end();
  return { ...end, records: [...records, ...end.records] };
}

describe('reading CSV, TSV and JSON arrays piece by piece', () => {
  it('gives the table the whole text gives, wherever the text is cut', () => {
    fc.assert(
      fc.property(files, fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 }), (file, at) => {
        let whole: ParsedTable;
        try {
          whole = parseTable(file);
        } catch {
          return; // not a table at all: parseTable's own tests cover the message
        }
        if (whole.format === 'jsonl') return;
        expect(piecewise(whole.format, file, cutAt(file, at))).toEqual(whole);
      }),
      { numRuns: 2000 },
    );
  });

  it('a file of any mix of LF, CR and CRLF gives the records of the same file with LF, quoted line breaks kept', () => {
    const quoted = fc.array(fc.constantFrom('a', 'b c', ',', '""', '\n', '\r\n', 'x\ny'), { maxLength: 4 }).map((p) => `"${p.join('')}"`);
    const plain = fc.constantFrom('', 'Paris', 'a b', '42');
    const rows = fc.array(fc.array(fc.oneof(quoted, plain), { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(
        rows,
        fc.array(fc.constantFrom('\n', '\r', '\r\n'), { minLength: 9, maxLength: 9 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 5 }),
        (rs, ends, at) => {
          const lines = ['question,gold,candidate', ...rs.map((r) => r.join(','))];
          const lf = parseTable(`${lines.join('\n')}\n`);
          const mixed = lines.map((l, k) => l + ends[k % ends.length]).join('');
          const got = piecewise('csv', mixed, cutAt(mixed, at));
          expect(got.records.map((r) => r.data)).toEqual(lf.records.map((r) => r.data));
          expect(got.issues).toEqual(lf.issues);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a record or element too long to hold is skipped, named, and the reading goes on after it', () => {
    const big = 'x'.repeat(4 * 1024 * 1024);
    const reader = new DelimitedReader('csv', 'question,gold,candidate\n');
    reader.push('question,gold,candidate\nq1,g1,c1\nq2,"a field that goes on', false);
    for (let i = 0; i < 9; i++) reader.push(big, false);
    reader.push('\nand on",c2\r\nq3,g3,c3\rq4,g4,c4\n', true);
    const csv = reader.end();
    expect(csv.records.map((r) => [r.row, r.line, r.data.question])).toEqual([
      [1, 2, 'q1'],
      [3, 5, 'q3'],
      [4, 6, 'q4'],
    ]);
    expect(csv.issues).toEqual([
      {
        row: 2,
        line: 3,
        severity: 'error',
        message:
          'row 2 (line 3): a record of 37,748,771 characters, over the 33,554,432 a record may have (it runs to line 4); skipped, and the reading goes on at line 5',
      },
    ]);
    const json = new JsonArrayReader();
    json.push('[{"question": "q1"},\n{"question": "', false);
    for (let i = 0; i < 9; i++) json.push(big, false);
    json.push('"},\n{"question": "q3"}]', true);
    const arr = json.end();
    expect(arr.records.map((r) => [r.row, r.data.question])).toEqual([
      [1, 'q1'],
      [3, 'q3'],
    ]);
    expect(arr.issues).toHaveLength(1);
    expect(arr.issues[0]!.message).toMatch(
      /^row 2 \(line 2\): element 2 is 37,748,752 characters long, over the 33,554,432 a row may have .*; skipped, and the reading goes on after it \(line 2\)$/,
    );
    expect(arr.issues[0]!.unread).toBeUndefined();
  });

  it('a record that never closes ends the reading there, saying how many bytes were not read', () => {
    const reader = new DelimitedReader('csv', 'question,gold,candidate\n');
    reader.push('question,gold,candidate\nq,"never closed', false);
    for (let i = 0; i < 9; i++) reader.push('é'.repeat(4 * 1024 * 1024), false);
    reader.push('', true);
    const issue = reader.end().issues.at(-1)!;
    // The record from its first character, then 9 × 4 Mi "é" of 2 bytes each.
    expect(issue.unread).toBe(utf8('q,"never closed') + 9 * 4 * 1024 * 1024 * 2);
    expect(issue.message).toMatch(
      /^row 1 \(line 2\): a quoted field opened on this row is never closed; the rest of the file, [\d,]+ bytes from line 2 on, was not read$/,
    );
    const json = new JsonArrayReader();
    json.push('[{"a": "', false);
    for (let i = 0; i < 9; i++) json.push('x'.repeat(4 * 1024 * 1024), false);
    json.push('', true);
    expect(json.end().issues.at(-1)).toMatchObject({
      unread: 9 * 4 * 1024 * 1024 + 7,
      message: expect.stringMatching(/element 1 never closes; the rest of the file, [\d,]+ bytes from line 1 on, was not read$/),
    });
  });
});
