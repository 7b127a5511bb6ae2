/**
 * The piecewise readers (CSV/TSV, JSON arrays) give, for any text cut into any pieces, the table parseTable
 * gives for the whole text: the same records, columns, header line and issues (issue 38 item 2).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DelimitedReader } from './delimited.ts';
import { JsonArrayReader } from './json-array.ts';
import { parseTable, type ParsedTable } from './parse.ts';
import { ADVERSARIAL_PIECES } from '../text/adversarial.ts';

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

  it('a record that never ends stops the reading with a message, not a record the size of the file', () => {
    const reader = new DelimitedReader('csv', 'question,gold,candidate\n');
    reader.push('question,gold,candidate\nq,"never closed', false);
    for (let i = 0; i < 12 && reader.end().issues.length === 0; i++) reader.push('x'.repeat(4 * 1024 * 1024), false);
    expect(reader.end().issues.at(-1)?.message).toMatch(/^row 1 \(line 2\): a record over 33,554,432 characters .* not read$/);
    const json = new JsonArrayReader();
    json.push('[{"a": "', false);
    for (let i = 0; i < 12 && json.end().issues.length === 0; i++) json.push('x'.repeat(4 * 1024 * 1024), false);
    expect(json.end().issues.at(-1)?.message).toMatch(/^row 1 \(line 1\): element 1 is over 33,554,432 characters long/);
  });
});
