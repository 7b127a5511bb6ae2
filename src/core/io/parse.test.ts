import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeUtf8, detectFormat, parseTable, type ParsedTable } from './parse.ts';
import { findBadUtf8, Utf8Scanner } from './utf8.ts';
import { mapRows } from './fields.ts';
import { VerityError } from '../types.ts';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const bytes = (...parts: (string | number[])[]): Uint8Array =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...enc(p)] : p)));
const fixture = (name: string): Uint8Array => readFileSync(new URL(`../../../test/fixtures/io/${name}`, import.meta.url));

/** Runs f, expects a VerityError of kind 'input', returns it. */
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

const where = (t: ParsedTable) => t.records.map((r) => [r.row, r.line]);

describe('format detection from content', () => {
  it('JSONL: one object per line', () => {
    const t = parseTable('{"gold":"a","candidate":"b"}\n{"gold":"c","candidate":"d"}\n');
    expect(t.format).toBe('jsonl');
    expect(t.columns).toEqual(['gold', 'candidate']);
    expect(t.records.map((r) => r.data)).toEqual([
      { gold: 'a', candidate: 'b' },
      { gold: 'c', candidate: 'd' },
    ]);
    expect(where(t)).toEqual([
      [1, 1],
      [2, 2],
    ]);
    expect(t.issues).toEqual([]);
  });

  it('JSON array, also after leading blank lines; columns are the union in first-seen order', () => {
    const t = parseTable('\n\n  [{"gold":"a","candidate":"b"},\n {"candidate":"d","id":7,"gold":"c"}]\n');
    expect(t.format).toBe('json');
    expect(t.columns).toEqual(['gold', 'candidate', 'id']);
    expect(t.records.map((r) => r.row)).toEqual([1, 2]);
    expect(t.records[1]!.data).toEqual({ candidate: 'd', id: 7, gold: 'c' });
  });

  it('CSV: every cell is a string', () => {
    const t = parseTable('id,gold,candidate\n1,Paris,Paris\n');
    expect(t.format).toBe('csv');
    expect(t.records[0]!.data).toEqual({ id: '1', gold: 'Paris', candidate: 'Paris' });
  });

  it('TSV: commas inside TSV cells are text, not separators', () => {
    // Header has 2 tabs and 1 comma → TSV (tabs ≥ commas).
    const t = parseTable('id\tgold, answer\tcandidate\n1\tParis, France\tParis\n');
    expect(t.format).toBe('tsv');
    expect(t.columns).toEqual(['id', 'gold, answer', 'candidate']);
    expect(t.records[0]!.data).toEqual({ id: '1', 'gold, answer': 'Paris, France', candidate: 'Paris' });
  });

  it("CSV split by semicolons (Excel's where the comma is the decimal separator); commas in its cells are text", () => {
    const t = parseTable('question;gold;candidate;score\r\n"Capital; of France?";Paris, France;Paris;0,75\r\n');
    expect(t.format).toBe('csv');
    expect(t.columns).toEqual(['question', 'gold', 'candidate', 'score']);
    expect(t.records[0]!.data).toEqual({ question: 'Capital; of France?', gold: 'Paris, France', candidate: 'Paris', score: '0,75' });
    // A comma in the header makes it comma-separated, as before.
    expect(parseTable('question,gold;alt,candidate\nq,a;b,c\n').columns).toEqual(['question', 'gold;alt', 'candidate']);
  });

  it('a file named .csv that is really JSONL is read as JSONL (content wins over the name)', () => {
    const t = parseTable(enc('{"gold":"a","candidate":"b"}\n'), 'answers.csv');
    expect(t.format).toBe('jsonl');
    expect(t.records[0]!.data).toEqual({ gold: 'a', candidate: 'b' });
    expect(detectFormat('[{"a":1}]', 'x.tsv')).toBe('json');
  });

  it('the name is only a tie-breaker: a one-column .tsv is TSV, and then fails the two-column rule', () => {
    expect(detectFormat('gold\na\n', 'x.tsv')).toBe('tsv');
    expect(inputError(() => parseTable('gold\na\n', 'x.tsv')).message).toMatch(/TSV header has fewer than two columns/);
  });
});

describe('BOM', () => {
  it('is stripped from a string, so the first column is "id", not "\\ufeffid"', () => {
    const t = parseTable('\ufeffid,gold,candidate\n1,a,b\n');
    expect(t.columns).toEqual(['id', 'gold', 'candidate']);
    expect(t.records[0]!.data.id).toBe('1');
  });

  it('is stripped from bytes (EF BB BF) before format detection: JSONL and JSON still detected', () => {
    const jl = parseTable(bytes([0xef, 0xbb, 0xbf], '{"gold":"a","candidate":"b"}\n'));
    expect(jl.format).toBe('jsonl');
    expect(jl.records).toHaveLength(1);
    const js = parseTable(bytes([0xef, 0xbb, 0xbf], '[{"gold":"a","candidate":"b"}]'));
    expect(js.format).toBe('json');
  });

  it('fixture bom-crlf.csv (BOM + CRLF + a quoted CRLF inside a cell) keeps line numbers', () => {
    // Lines: 1 header, 2 row 1, 3-4 row 2 (quoted cell spans two lines), 5 row 3.
    const t = parseTable(fixture('bom-crlf.csv'), 'bom-crlf.csv');
    expect(t.format).toBe('csv');
    expect(t.columns).toEqual(['id', 'question', 'gold', 'candidate']);
    expect(where(t)).toEqual([
      [1, 2],
      [2, 3],
      [3, 5],
    ]);
    expect((t.records[1]!.data.candidate as string).split(/\r?\n/)).toEqual(['Lyon', 'or Paris']);
    expect(t.records[2]!.data).toEqual({ id: 'c', question: 'Capital of Italy?', gold: 'Rome', candidate: 'Rome, Italy' });
    expect(t.issues).toEqual([]);
  });
});

describe('CSV quoting and line numbers', () => {
  // line 1 header; row 1 spans lines 2-4; row 2 on 5; row 3 on 6.
  const text = 'id,gold,candidate\n1,"Paris, France","first\nsecond\nthird"\n2,Rome,"say ""Rome"", twice"\n3,Oslo,Oslo\n';

  it('quoted fields keep commas, doubled quotes and embedded newlines', () => {
    const t = parseTable(text);
    expect(t.records.map((r) => r.data)).toEqual([
      { id: '1', gold: 'Paris, France', candidate: 'first\nsecond\nthird' },
      { id: '2', gold: 'Rome', candidate: 'say "Rome", twice' },
      { id: '3', gold: 'Oslo', candidate: 'Oslo' },
    ]);
  });

  it('rows after a multi-line cell report the line where they start', () => {
    expect(where(parseTable(text))).toEqual([
      [1, 2],
      [2, 5],
      [3, 6],
    ]);
  });

  it('the same with CRLF line endings', () => {
    expect(where(parseTable(text.replace(/\n/g, '\r\n')))).toEqual([
      [1, 2],
      [2, 5],
      [3, 6],
    ]);
  });

  it('a wrong-count row after a multi-line cell is reported with its own line', () => {
    // header 1; row 1 lines 2-3; row 2 (2 fields) line 4; row 3 line 5.
    const t = parseTable('id,gold,candidate\n1,a,"x\ny"\n2,b\n3,c,d\n');
    expect(where(t)).toEqual([
      [1, 2],
      [3, 5],
    ]);
    expect(t.issues).toHaveLength(1);
    expect(t.issues[0]).toMatchObject({ row: 2, line: 4, severity: 'error' });
    expect(t.issues[0]!.message).toMatch(/row 2 \(line 4\)/);
  });
});

describe('blank lines', () => {
  it('empty, whitespace-only and all-empty-field lines are skipped and do not shift later line numbers', () => {
    const text = [
      'id,gold,candidate', // 1
      '', // 2
      '1,a,b', // 3
      '   ', // 4 spaces only
      '2,c,d', // 5
      '', // 6
      '\t', // 7 a tab only
      ',,', // 8 three empty fields
      '3,e,f', // 9
      '', // 10 (trailing)
      '',
    ].join('\n');
    const t = parseTable(text);
    expect(t.issues).toEqual([]);
    expect(t.records.map((r) => r.data.id)).toEqual(['1', '2', '3']);
    // Rows are numbered 1..3 (blank lines are not records); lines are the real file lines.
    expect(where(t)).toEqual([
      [1, 3],
      [2, 5],
      [3, 9],
    ]);
  });

  it('blank lines before the header: the header is still the first non-blank line', () => {
    const t = parseTable('\n\nid,gold,candidate\n1,a,b\n');
    expect(t.columns).toEqual(['id', 'gold', 'candidate']);
    expect(where(t)).toEqual([[1, 4]]);
  });

  it('TSV with blank lines and CRLF', () => {
    const t = parseTable('id\tgold\tcandidate\r\n\r\n1\ta\tb\r\n \t \r\n2\tc\td\r\n');
    expect(t.format).toBe('tsv');
    expect(where(t)).toEqual([
      [1, 3],
      [2, 5],
    ]);
  });

  it('JSONL blank lines are skipped and not counted as rows, but lines are real lines', () => {
    const t = parseTable('\n{"gold":"a","candidate":"b"}\n\n   \n{"gold":"c","candidate":"d"}\n\n');
    expect(where(t)).toEqual([
      [1, 2],
      [2, 5],
    ]);
  });
});

describe('rows with the wrong number of fields', () => {
  it('are reported with row and line; the other rows are kept', () => {
    const t = parseTable('id,gold,candidate\n1,a,b\n2,c\n3,e,f,g\n4,h,i\n');
    expect(t.records.map((r) => r.data.id)).toEqual(['1', '4']);
    expect(where(t)).toEqual([
      [1, 2],
      [4, 5],
    ]);
    expect(t.issues.map((i) => [i.row, i.line, i.severity])).toEqual([
      [2, 3, 'error'],
      [3, 4, 'error'],
    ]);
    expect(t.issues[0]!.message).toMatch(/row 2 \(line 3\) has 2 fields but the header has 3/);
    expect(t.issues[1]!.message).toMatch(/row 3 \(line 4\) has 4 fields but the header has 3/);
  });
});

describe('unterminated quote', () => {
  it('is an error on the row where the quote opens; earlier rows are kept', () => {
    const t = parseTable('id,gold,candidate\n1,a,b\n2,"c,d\n3,e,f\n');
    expect(t.records[0]).toEqual({ row: 1, line: 2, data: { id: '1', gold: 'a', candidate: 'b' } });
    // The open quote swallows what follows, so row 2 is not a record.
    expect(t.records.some((r) => r.data.id === '2')).toBe(false);
    const errs = t.issues.filter((i) => i.severity === 'error');
    expect(errs).toHaveLength(1);
    expect(errs[0]).toMatchObject({ row: 2, line: 3 });
    expect(errs[0]!.message).toMatch(/row 2 \(line 3\).*quote/i);
  });
});

describe('header names', () => {
  it('duplicates (case-insensitively) get _2, _3; blanks get column_N; each with a warning on line 1', () => {
    const t = parseTable('gold,Gold,,candidate,,GOLD\n1,2,3,4,5,6\n');
    expect(t.columns).toEqual(['gold', 'Gold_2', 'column_3', 'candidate', 'column_5', 'GOLD_3']);
    expect(t.records[0]!.data).toEqual({ gold: '1', Gold_2: '2', column_3: '3', candidate: '4', column_5: '5', GOLD_3: '6' });
    expect(t.issues.every((i) => i.severity === 'warning' && i.row === 0 && i.line === 1)).toBe(true);
    const msgs = t.issues.map((i) => i.message);
    expect(msgs).toContain('duplicate header "Gold" (column 2) renamed to "Gold_2"');
    expect(msgs).toContain('duplicate header "GOLD" (column 6) renamed to "GOLD_3"');
    expect(msgs).toContain('column 3 has no header; named "column_3"');
    expect(msgs).toContain('column 5 has no header; named "column_5"');
    expect(t.issues).toHaveLength(4);
  });

  it('header cells are trimmed', () => {
    expect(parseTable(' id , gold ,candidate\n1,a,b\n').columns).toEqual(['id', 'gold', 'candidate']);
  });
});

describe('JSON errors', () => {
  it('a truncated JSON array keeps the complete elements and names the cut one by row and line', () => {
    const t = parseTable('[\n  {"gold": "a", "candidate": "b"},\n  {"gold": "c", "cand');
    expect(t.format).toBe('json');
    expect(t.records).toEqual([{ row: 1, line: 2, data: { gold: 'a', candidate: 'b' } }]);
    expect(t.issues).toEqual([
      {
        row: 2,
        line: 3,
        severity: 'error',
        message:
          'row 2 (line 3): element 2 is still open at the end of the file (line 3): the file is cut off, or a closing bracket or quote is missing; skipped',
      },
    ]);
  });

  it('JSONL with a bad line in the middle: the error names the line, other rows are kept', () => {
    const text = [
      '{"id":1,"gold":"a","candidate":"b"}', // line 1, row 1
      '{"id":2,"gold": oops}', // line 2, row 2 — bad
      '', // line 3 blank
      '{"id":3,"gold":"c","candidate":"d"}', // line 4, row 3
      '[1,2]', // line 5, row 4 — valid JSON, not an object
      '"just a string"', // line 6, row 5
      '{"id":6,"gold":"e","candidate":"f"}', // line 7, row 6
    ].join('\n');
    const t = parseTable(text);
    expect(t.format).toBe('jsonl');
    expect(t.records.map((r) => r.data.id)).toEqual([1, 3, 6]);
    expect(where(t)).toEqual([
      [1, 1],
      [3, 4],
      [6, 7],
    ]);
    expect(t.issues.map((i) => [i.row, i.line, i.severity])).toEqual([
      [2, 2, 'error'],
      [4, 5, 'error'],
      [5, 6, 'error'],
    ]);
    expect(t.issues[0]!.message).toMatch(/^line 2 is not valid JSON/);
    expect(t.issues[1]!.message).toMatch(/^line 5 is not a JSON object/);
    expect(t.issues[2]!.message).toMatch(/^line 6 is not a JSON object/);
  });

  it('a bad first JSONL line that is not a pretty-printed object is a row error, not a fatal one', () => {
    const t = parseTable('{"gold": \n{"gold":"c","candidate":"d"}\n');
    expect(t.records.map((r) => r.line)).toEqual([2]);
    expect(t.issues).toHaveLength(1);
    expect(t.issues[0]).toMatchObject({ row: 1, line: 1, severity: 'error' });
  });

  it('non-object JSON array elements are reported by element number and skipped', () => {
    const t = parseTable('[{"gold":"a","candidate":"b"}, 3, null, [1], "s", {"gold":"c","candidate":"d"}]');
    expect(t.records.map((r) => r.row)).toEqual([1, 6]);
    expect(t.issues.map((i) => i.row)).toEqual([2, 3, 4, 5]);
    expect(t.issues.every((i) => i.severity === 'error')).toBe(true);
    expect(t.issues.map((i) => i.message)).toEqual([
      'element 2 is number, not an object; skipped',
      'element 3 is null, not an object; skipped',
      'element 4 is an array, not an object; skipped',
      'element 5 is string, not an object; skipped',
    ]);
  });

  it('a pretty-printed single JSON object is one record', () => {
    const t = parseTable('{\n  "question": "Capital of France?",\n  "gold": ["Paris"],\n  "candidate": "Paris"\n}\n');
    expect(t.records).toHaveLength(1);
    expect(t.records[0]!.data).toEqual({ question: 'Capital of France?', gold: ['Paris'], candidate: 'Paris' });
    expect(t.columns).toEqual(['question', 'gold', 'candidate']);
    expect(t.issues).toEqual([]);
  });

  it('a top-level JSON value that is not an array of objects', () => {
    // Starts with "[" but is an array of arrays: every element is reported, nothing kept.
    const t = parseTable('[[1,2],[3,4]]');
    expect(t.records).toEqual([]);
    expect(t.issues).toHaveLength(2);
  });
});

describe('non-UTF-8 bytes', () => {
  const badAt = (b: Uint8Array) => [...findBadUtf8(b).bad.values()].map((x) => `0x${x.byte.toString(16)} at ${x.offset}, line ${x.line}`);

  it('only the row holding them is refused, naming row, line, byte and offset; the rows around it are kept', () => {
    // "id,gold,candidate\n" is 18 bytes and "1,caf" 5 more, so the Latin-1 é (0xE9) is at offset 23, on line 2.
    const t = parseTable(bytes('id,gold,candidate\n1,caf', [0xe9], ',x\n2,b,b\n'));
    expect(t.records.map((r) => r.data)).toEqual([{ id: '2', gold: 'b', candidate: 'b' }]);
    expect(t.issues).toEqual([
      {
        row: 1,
        line: 2,
        severity: 'error',
        message:
          'row 1 (line 2) is not valid UTF-8 (byte 0xe9 at offset 23); the file may be Latin-1 or Windows-1252: re-save it as UTF-8; row 1 skipped',
      },
    ]);
  });

  it('offsets count bytes, not characters (a valid 2-byte é earlier on)', () => {
    // line 1: 18 bytes; "1,café,x\n" = 1+1+3+2+1+1+1 = 10 bytes → 28; "2,caf" → bad byte at 33, line 3.
    expect(badAt(bytes('id,gold,candidate\n1,café,x\n2,caf', [0xff], '\n'))).toEqual(['0xff at 33, line 3']);
  });

  it('truncated, overlong and surrogate sequences are located too', () => {
    // A lone lead byte at the very end: offset = length − 1.
    expect(badAt(bytes('ab\ncd', [0xc3]))).toEqual(['0xc3 at 5, line 2']);
    // Overlong encoding of "/" (C0 AF): both bytes are bad, the line's first is reported.
    expect(badAt(bytes('x', [0xc0, 0xaf]))).toEqual(['0xc0 at 1, line 1']);
    // UTF-16 surrogate D800 encoded as ED A0 80.
    expect(badAt(bytes('\n\n', [0xed, 0xa0, 0x80]))).toEqual(['0xed at 2, line 3']);
    // A 4-byte sequence above U+10FFFF (F4 90 80 80).
    expect(badAt(bytes([0xf4, 0x90, 0x80, 0x80]))).toEqual(['0xf4 at 0, line 1']);
  });

  it('a character split across chunks is not reported; the same bytes give the same findings at any chunk size', () => {
    const file = bytes('a,b\né,', [0xe9], ',😀\n東京,x\n', [0xf0, 0x9f], '\n');
    const whole = badAt(file);
    // "a,b\n" 4 + "é," 3 → 0xE9 at 7; ",😀\n" 6 + "東京,x\n" 9 → 0xF0 at 23 (cut off by the end of the file).
    expect(whole).toEqual(['0xe9 at 7, line 2', '0xf0 at 23, line 4']);
    for (let size = 1; size <= file.length; size++) {
      const s = new Utf8Scanner();
      for (let i = 0; i < file.length; i += size) s.push(file.subarray(i, i + size), i + size >= file.length);
      expect(
        [...s.bad.values()].map((x) => `0x${x.byte.toString(16)} at ${x.offset}, line ${x.line}`),
        `chunk ${size}`,
      ).toEqual(whole);
    }
  });

  it('fixture latin1.csv (Windows-1252 "Málaga"): row 2 refused with its line, row 1 kept', () => {
    // Line 1 "id,gold,candidate" (18 bytes incl. \n), line 2 "1,Paris,Paris" (14) → 32; "2,M" → á (0xE1) at 35, line 3.
    const t = parseTable(fixture('latin1.csv'), 'latin1.csv');
    expect(t.records.map((r) => r.row)).toEqual([1]);
    expect(t.issues).toHaveLength(1);
    expect(t.issues[0]).toMatchObject({ row: 2, line: 3, severity: 'error' });
    expect(t.issues[0]!.message).toContain('byte 0xe1 at offset 35');
  });

  it('JSONL and JSON arrays: the record is refused, a bad byte in a CSV header is a warning', () => {
    const jsonl = parseTable(
      bytes('{"gold":"a","candidate":"a"}\n{"gold":"caf', [0xe9], '","candidate":"x"}\n{"gold":"c","candidate":"c"}\n'),
    );
    expect(jsonl.records.map((r) => r.row)).toEqual([1, 3]);
    expect(jsonl.issues.map((i) => [i.row, i.line, i.severity])).toEqual([[2, 2, 'error']]);
    const json = parseTable(bytes('[\n{"gold":"a","candidate":"a"},\n{"gold":"caf', [0xe9], '","candidate":"x"}\n]'));
    expect(json.records.map((r) => r.row)).toEqual([1]);
    expect(json.issues.map((i) => [i.row, i.line, i.severity])).toEqual([[2, 3, 'error']]);
    const header = parseTable(bytes('gold,candidate,not', [0xe9], '\na,a,x\n'));
    expect(header.records).toHaveLength(1);
    expect(header.issues.map((i) => [i.row, i.line, i.severity])).toEqual([[0, 1, 'warning']]);
    expect(header.issues[0]!.message).toMatch(/^the header \(line 1\) is not valid UTF-8 \(byte 0xe9 at offset 18\)/);
  });

  it('valid multi-byte UTF-8 (accents, CJK, emoji) decodes unchanged, with nothing found', () => {
    const s = 'gold,candidate\nMálaga,東京 🙂\n';
    expect(decodeUtf8(enc(s))).toEqual({ text: s, scan: null });
    expect(findBadUtf8(enc(s)).count).toBe(0);
    expect(parseTable(enc(s)).records[0]!.data).toEqual({ gold: 'Málaga', candidate: '東京 🙂' });
  });
});

describe('files that are not tables', () => {
  it('an empty file (string, bytes, whitespace only, BOM only)', () => {
    for (const f of ['', new Uint8Array(0), '  \n\n\t\n', '\ufeff', bytes([0xef, 0xbb, 0xbf], '\n')])
      expect(inputError(() => parseTable(f)).message).toBe('the file is empty');
  });

  it('a file of prose is one "not a table" error', () => {
    const prose = 'Dear team\nPlease find attached the answers, as discussed.\nThanks, Sam\n';
    expect(inputError(() => parseTable(prose)).message).toMatch(/^the file is not a table/);
    expect(inputError(() => parseTable(enc(prose), 'answers.csv')).message).toMatch(/^the file is not a table/);
  });

  it('prose whose first line has a comma still ends in a single input error once fields are mapped', () => {
    const prose = 'Once upon a time, there was a file.\nIt was not a table, really; it was a story.\nThe end.\n';
    expect(() => mapRows(parseTable(prose))).toThrow(VerityError);
    inputError(() => mapRows(parseTable(prose)));
  });
});

describe('UTF-16 files', () => {
  const utf16 = (s: string, le: boolean, bom: boolean): Uint8Array => {
    const units = (bom ? '\ufeff' : '') + s;
    const out = new Uint8Array(units.length * 2);
    for (let i = 0; i < units.length; i++) {
      const c = units.charCodeAt(i);
      out[2 * i + (le ? 0 : 1)] = c & 0xff;
      out[2 * i + (le ? 1 : 0)] = c >> 8;
    }
    return out;
  };
  const csv = 'question,gold,candidate\nWhere?,Málaga,東京 🙂\n';
  const jl = '{"gold":"Málaga","candidate":"x"}\n{"gold":"b","candidate":"y"}\n';

  it('LE and BE, with and without a BOM, CSV and JSONL: read as their text', () => {
    for (const le of [true, false])
      for (const bom of [true, false]) {
        const t = parseTable(utf16(csv, le, bom));
        expect(t.format).toBe('csv');
        expect(t.columns).toEqual(['question', 'gold', 'candidate']);
        expect(t.records.map((r) => r.data)).toEqual([{ question: 'Where?', gold: 'Málaga', candidate: '東京 🙂' }]);
        expect(t.issues).toEqual([]);
        const j = parseTable(utf16(jl, le, bom));
        expect(j.records.map((r) => r.data.gold)).toEqual(['Málaga', 'b']);
      }
  });

  it('a cut-off UTF-16 file (odd byte count) is refused with a clear message', () => {
    const b = utf16(csv, true, true);
    const e = inputError(() => parseTable(b.slice(0, b.length - 1)));
    expect(e.message).toBe(
      'the file looks like UTF-16 little-endian text but cannot be read as such (it has an odd number of bytes (89)); re-save it as UTF-8',
    );
    expect(e.code).toBe('encoding');
  });
});

describe('CR-only line ends', () => {
  it('JSONL with CR alone between lines gives every row, with its line', () => {
    const t = parseTable('{"gold":"a","candidate":"a"}\r{"gold":"b","candidate":"b"}\r\r{"gold":"c","candidate":"c"}\r');
    expect(t.records.map((r) => [r.row, r.line, r.data.gold])).toEqual([
      [1, 1, 'a'],
      [2, 2, 'b'],
      [3, 4, 'c'],
    ]);
    expect(t.issues).toEqual([]);
  });
});
