/**
 * Malformed input files: each problem gets a message naming its row and line, and the good rows around it are
 * kept. (parse.test.ts and fields.test.ts cover the well-formed cases.)
 */
import { describe, expect, it } from 'vitest';
import { detectFormat, parseTable, type ParsedTable } from './parse.ts';
import { mapRows } from './fields.ts';
import { toText } from './cells.ts';
import { toCsv, toTsv } from './export.ts';
import { createSyncMetric, DEFAULT_METRICS } from '../metrics/index.ts';
import { scoreRows } from '../scoring.ts';
import { VerityError } from '../types.ts';
import { withWordNet } from '../../../test/lexicon.ts';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const ids = (t: ParsedTable) => t.records.map((r) => r.data.id);
const where = (t: ParsedTable) => t.records.map((r) => [r.row, r.line]);

function inputError(f: () => unknown): VerityError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(VerityError);
    expect((e as VerityError).kind).toBe('input');
    return e as VerityError;
  }
  throw new Error('expected a VerityError, nothing was thrown');
}

describe('truncated JSON', () => {
  const elements = ['{"id":1,"gold":"a","candidate":"a"}', '{"id":2,"gold":"b","candidate":"b"}', '{"id":3,"gold":"c","candidate":"c"}'];
  const array = `[\n${elements.join(',\n')}\n]\n`;

  it('a JSON array cut inside its last element: the complete elements are kept, the cut one is named', () => {
    const cut = array.slice(0, array.indexOf('"candidate":"c"'));
    const t = parseTable(cut);
    expect(ids(t)).toEqual([1, 2]);
    expect(where(t)).toEqual([
      [1, 2],
      [2, 3],
    ]);
    expect(t.issues).toEqual([
      {
        row: 3,
        line: 4,
        severity: 'error',
        message:
          'row 3 (line 4): element 3 is still open at the end of the file (line 4): the file is cut off, or a closing bracket or quote is missing; skipped',
      },
    ]);
  });

  it('a JSON array cut between elements: every element is kept, with a warning that "]" is missing', () => {
    const t = parseTable(array.slice(0, array.lastIndexOf('}') + 1));
    expect(ids(t)).toEqual([1, 2, 3]);
    expect(t.issues).toEqual([
      {
        row: 0,
        line: 4,
        severity: 'warning',
        message: 'line 4: the file ends before the JSON array is closed with "]"; it may be cut off after element 3',
      },
    ]);
  });

  it('a JSON array cut inside a string of its first element: nothing to read, one error naming it', () => {
    const e = inputError(() => mapRows(parseTable('[\n  {"gold": "Par')));
    expect(e.message).toBe(
      'no record could be read: row 1 (line 2): element 1 is still open at the end of the file (line 2): the file is cut off, or a closing bracket or quote is missing; skipped',
    );
  });

  it('a broken element in the middle does not take the next ones with it', () => {
    // Element 2 has an unterminated string, element 3 a mismatched bracket; elements 1 and 4 are fine.
    const t = parseTable(
      '[\n {"id":1,"gold":"a","candidate":"a"},\n {"id":2,"gold":"b","candidate":"b},\n {"id":3,"gold":["c"},\n {"id":4,"gold":"d","candidate":"d"}\n]',
    );
    expect(ids(t)).toEqual([1, 4]);
    expect(where(t)).toEqual([
      [1, 2],
      [4, 5],
    ]);
    expect(t.issues.map((i) => [i.row, i.line, i.severity])).toEqual([
      [2, 3, 'error'],
      [3, 4, 'error'],
    ]);
    expect(t.issues[0]!.message).toMatch(/^row 2 \(line 3\): element 2 is not valid JSON \(.+\); skipped$/);
    expect(t.issues[1]!.message).toMatch(/^row 3 \(line 4\): element 3 is not valid JSON \(.+\); skipped$/);
  });

  it('a missing comma, a trailing comma, an empty element and text after "]"', () => {
    const t = parseTable(
      '[{"id":1,"gold":"a","candidate":"a"}\n{"id":2,"gold":"b","candidate":"b"},,\n{"id":4,"gold":"d","candidate":"d"},\n] trailing',
    );
    expect(ids(t)).toEqual([1, 2, 4]);
    expect(t.issues).toEqual([
      { row: 0, line: 2, severity: 'warning', message: 'line 2: no comma after element 1; reading on as if there were one' },
      { row: 3, line: 2, severity: 'error', message: 'row 3 (line 2): element 3 is empty (two commas in a row); skipped' },
      { row: 0, line: 4, severity: 'warning', message: 'line 4: text after the end of the JSON array is ignored' },
    ]);
  });

  it('JSONL whose last line is cut: the earlier rows are kept, the cut line is named as cut off', () => {
    const t = parseTable('{"id":1,"gold":"a","candidate":"a"}\n{"id":2,"gold":"b","candidate":"b"}\n{"id":3,"gold":"c","cand');
    expect(ids(t)).toEqual([1, 2]);
    expect(t.issues).toHaveLength(1);
    expect(t.issues[0]).toMatchObject({ row: 3, line: 3, severity: 'error' });
    expect(t.issues[0]!.message).toMatch(/^line 3 is cut off: the file ends before its JSON object is complete \(.+\); row 3 skipped$/);
  });

  it('JSONL: a broken line that is not the last, or is followed by a newline, is "not valid JSON", not "cut off"', () => {
    const t = parseTable('{"id":1,"gold":"a","candidate":"a"}\n{"id":2,"gold":"b"\n\n{"id":3,"gold":"c","candidate":"c"}\n{"id":4,\n');
    expect(ids(t)).toEqual([1, 3]);
    expect(t.issues.map((i) => i.message)).toEqual([
      expect.stringMatching(/^line 2 is not valid JSON \(.+\); row 2 skipped$/),
      expect.stringMatching(/^line 5 is not valid JSON \(.+\); row 4 skipped$/),
    ]);
  });

  it('JSONL: a line that is JSON but not an object says what it is', () => {
    const t = parseTable('{"id":1,"gold":"a","candidate":"a"}\n["a"]\n"text"\n42\nnull\n');
    expect(t.issues.map((i) => i.message)).toEqual([
      'line 2 is not a JSON object (it is an array); row 2 skipped',
      'line 3 is not a JSON object (it is a string); row 3 skipped',
      'line 4 is not a JSON object (it is a number); row 4 skipped',
      'line 5 is not a JSON object (it is null); row 5 skipped',
    ]);
  });
});

describe('mixed delimiters', () => {
  it('a CSV line written with tabs: named with row and line, and why; the other rows are kept', () => {
    const t = parseTable('id,gold,candidate\n1,a,a\n2\tb\tb\n3,c,c\n');
    expect(ids(t)).toEqual(['1', '3']);
    expect(t.issues).toEqual([
      {
        row: 2,
        line: 3,
        severity: 'error',
        message:
          'row 2 (line 3) has 1 field but the header has 3; it looks tab-separated, but the header (line 1) is comma-separated; skipped',
      },
    ]);
  });

  it('a TSV line written with commas', () => {
    const t = parseTable('id\tgold\tcandidate\n1\ta\ta\n2,b,b\n');
    expect(ids(t)).toEqual(['1']);
    expect(t.issues[0]!.message).toBe(
      'row 2 (line 3) has 1 field but the header has 3; it looks comma-separated, but the header (line 1) is tab-separated; skipped',
    );
  });

  it('no hint when the other delimiter would not fix the row either', () => {
    const t = parseTable('id,gold,candidate\n1,a\n');
    expect(t.issues[0]!.message).toBe('row 1 (line 2) has 2 fields but the header has 3; skipped');
  });

  it('an unterminated quote names the row where it opens; the rows before it are kept', () => {
    const t = parseTable('id,gold,candidate\n1,a,a\n2,"b,b\n3,c,c\n');
    expect(ids(t)).toEqual(['1']);
    expect(t.issues).toEqual([
      {
        row: 2,
        line: 3,
        severity: 'error',
        message:
          'row 2 (line 3): a quoted field opened on this row is never closed, so everything after it, to the end of the file, was read into it; skipped',
      },
    ]);
  });

  it('the header decides the delimiter, counting only separators outside quotes', () => {
    // Two quoted commas would outvote one tab if quotes were ignored.
    expect(detectFormat('"a, b, c"\tgold\n1\t2\n')).toBe('tsv');
    expect(detectFormat('"a\tb\tc",gold\n1,2\n')).toBe('csv');
    // A quoted header name may even span lines.
    expect(parseTable('"gold\nanswer",candidate\nParis,Paris\n').columns).toEqual(['gold\nanswer', 'candidate']);
  });
});

describe('headers', () => {
  it("duplicate headers are renamed and warned about on the header's real line (after blank lines)", () => {
    const t = parseTable('\n\ngold,Gold,candidate\na,b,c\n');
    expect(t.headerLine).toBe(3);
    expect(t.issues).toEqual([{ row: 0, line: 3, severity: 'warning', message: 'duplicate header "Gold" (column 2) renamed to "Gold_2"' }]);
    // The first "gold" is the gold column.
    expect(mapRows(t).rows[0]!.golds).toEqual(['a']);
  });

  it('an empty header cell is named column_N, with a warning naming the column', () => {
    const t = parseTable('gold,,candidate\na,x,c\n');
    expect(t.columns).toEqual(['gold', 'column_2', 'candidate']);
    expect(t.issues).toEqual([{ row: 0, line: 1, severity: 'warning', message: 'column 2 has no header; named "column_2"' }]);
    expect(mapRows(t).rows).toHaveLength(1);
  });

  it('no header row: the error says the first line looks like data', () => {
    const e = inputError(() => mapRows(parseTable('\n1,Paris,Paris\n2,Rome,Rome\n')));
    expect(e.message).toBe(
      'no candidate-answer column: expected one of candidate, prediction, response, model_answer, output or 21 other names; the columns are 1, Paris, Paris_2. ' +
        'No column has a name Verity knows, so line 2 may be data rather than a header: CSV and TSV files need a header row (e.g. question,gold,candidate)',
    );
  });

  it('a column named __proto__ keeps its values', () => {
    const t = parseTable('gold,candidate,__proto__\na,b,c\n');
    expect(Object.hasOwn(t.records[0]!.data, '__proto__')).toBe(true);
    expect(t.records[0]!.data.__proto__).toBe('c');
    expect(mapRows(t, { map: { question: '__proto__' } }).rows[0]!.question).toBe('c');
  });

  it('--map to an Object.prototype name: a record without that key reads as empty, not as a function', () => {
    const t = parseTable('{"gold":"a","candidate":"a","constructor":"Q1"}\n{"gold":"b","candidate":"b"}\n');
    expect(mapRows(t, { map: { question: 'constructor' } }).rows.map((r) => r.question)).toEqual(['Q1', '']);
  });
});

describe('a 10 MB single field', () => {
  // Quotes, commas, tabs and line breaks inside, so the CSV/TSV cell must be quoted and its lines counted.
  const big = `${'Paris, "the city" of light\tand\nmore '.repeat(Math.ceil(10_000_000 / 32))}`.slice(0, 10_000_000);
  const record = { id: 'big', question: 'Q?', gold: ['Paris'], candidate: big, label: true, metrics: {} };

  it.each([
    [
      'jsonl',
      () =>
        `${JSON.stringify({ id: 'small', gold: 'Rome', candidate: 'Rome' })}\n${JSON.stringify({ id: 'big', gold: 'Paris', candidate: big })}\n`,
    ],
    [
      'json',
      () =>
        JSON.stringify([
          { id: 'small', gold: 'Rome', candidate: 'Rome' },
          { id: 'big', gold: 'Paris', candidate: big },
        ]),
    ],
    ['csv', () => toCsv([{ ...record, id: 'small', candidate: 'Rome', gold: ['Rome'] }, record], [])],
    ['tsv', () => toTsv([{ ...record, id: 'small', candidate: 'Rome', gold: ['Rome'] }, record], [])],
  ] as const)('%s: read intact, next to an ordinary row', (format, make) => {
    const t = parseTable(enc(make()));
    expect(t.format).toBe(format);
    expect(t.issues).toEqual([]);
    const { rows, issues } = mapRows(t);
    expect(issues).toEqual([]);
    expect(rows.map((r) => r.id)).toEqual(['small', 'big']);
    expect(rows[1]!.candidate).toBe(big);
  });

  it('over the per-field limit: every default metric gives null with the reason (no failure), the next row is scored', async () => {
    const [r, next] = await scoreRows(
      [
        { question: 'Q?', golds: ['Paris'], candidate: big },
        { question: 'Q?', golds: ['Paris'], candidate: 'Paris' },
      ],
      DEFAULT_METRICS.map((m) => createSyncMetric(m, {}, withWordNet)),
    );
    for (const [name, res] of Object.entries(r!)) {
      expect(res.explanation, name).toBe(
        'not scored: the candidate is 10,000,000 characters, over the limit of 100,000 characters per field',
      );
      expect(res.score, name).toBeNull();
    }
    for (const [name, res] of Object.entries(next!)) expect(res.score, name).not.toBeNull();
  });
});

describe('non-UTF-8 bytes', () => {
  it('refuse the record holding them with the byte, its offset and its line (a mis-decoded record would score wrong silently); valid rows are kept', () => {
    const head = '{"gold":"a","candidate":"a"}\n{"gold":"b","candidate":"b"}\n{"gold":"caf';
    const bytes = Uint8Array.from([...enc(head), 0xe9, ...enc('","candidate":"x"}\n{"gold":"d","candidate":"d"}\n')]);
    const t = parseTable(bytes);
    expect(t.records.map((r) => r.data.gold)).toEqual(['a', 'b', 'd']);
    expect(t.issues.map((i) => i.message)).toEqual([
      `row 3 (line 3) is not valid UTF-8 (byte 0xe9 at offset ${enc(head).length}); the file may be Latin-1 or Windows-1252: re-save it as UTF-8; row 3 skipped`,
    ]);
  });
});

describe('wrong values', () => {
  it('labels: unknown words, numbers, lists and objects are warnings naming the row (and line); the rows are kept and scored', () => {
    const t = parseTable('id,gold,candidate,label\n1,a,a,yes\n2,b,b,maybe\n3,c,"c\nc",2\n4,d,d,✓\n');
    const { rows, issues } = mapRows(t);
    expect(rows.map((r) => [r.id, r.label?.kind ?? null])).toEqual([
      ['1', 'binary'],
      ['2', null],
      ['3', null],
      ['4', null],
    ]);
    expect(issues.map((i) => [i.row, i.line, i.severity])).toEqual([
      [2, 3, 'warning'],
      [3, 4, 'warning'],
      [4, 6, 'warning'],
    ]);
    expect(issues[0]!.message).toMatch(/^row 2 \(line 3\): label "maybe" is not one of /);
    expect(issues[1]!.message).toMatch(/^row 3 \(line 4\): label "2" is not one of /);
    expect(issues[2]!.message).toMatch(/^row 4 \(line 6\): label "✓" is not one of /);
  });

  it('a JSON list or object is never a label (String([1]) would have read as "1", i.e. correct)', () => {
    const t = parseTable('{"gold":"a","candidate":"a","label":[1]}\n{"gold":"a","candidate":"a","label":{"correct":true}}\n');
    const { rows, issues } = mapRows(t);
    expect(rows.map((r) => r.label)).toEqual([undefined, undefined]);
    expect(issues.map((i) => i.message)).toEqual([
      'row 1: label [1] is a JSON array, not true/false, 1/0 or a class name; the row is scored but not used in agreement reports',
      'row 2: label {"correct":true} is a JSON object, not true/false, 1/0 or a class name; the row is scored but not used in agreement reports',
    ]);
  });

  it('a value nested too deeply to turn into text skips its row with an error; the other rows are kept', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const t = parseTable(`{"id":"ok","gold":"a","candidate":"a"}\n{"id":"deep","gold":"b","candidate":${deep}}\n`);
    const { rows, issues } = mapRows(t);
    expect(rows.map((r) => r.id)).toEqual(['ok']);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ row: 2, severity: 'error' });
    expect(issues[0]!.message).toMatch(/^row 2: a value cannot be turned into text \(.+\); skipped$/);
    // Bad input, not a broken invariant: a typed error, as toText throws it.
    let nested: unknown = [];
    for (let k = 0; k < 100_000; k++) nested = [nested];
    let thrown: unknown;
    try {
      toText(nested);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toMatchObject({ name: 'VerityError', kind: 'input', code: 'too-nested' });
  });
});
