/** The streaming reader gives exactly what parseTable gives, whatever the chunk boundaries. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseBlob, streamRecords } from './parse-stream.ts';
import { parseTable } from './parse.ts';

const blobOf = (s: string | Uint8Array<ArrayBuffer>) => new Blob([s]);
const same = async (text: string | Uint8Array<ArrayBuffer>, chunkBytes: number) => {
  let want: unknown;
  try {
    want = parseTable(text, 'x.jsonl');
  } catch (e) {
    want = { error: (e as Error).message };
  }
  let got: unknown;
  try {
    got = await parseBlob(blobOf(text), 'x.jsonl', { chunkBytes, sniffBytes: 16 });
  } catch (e) {
    got = { error: (e as Error).message };
  }
  expect(got).toEqual(want);
};

// Longer than the 16-byte sniff used here, so the streaming path runs.
const pad = (lines: string[]) => [JSON.stringify({ question: 'q'.repeat(20), gold: ['g'], candidate: 'c' }), ...lines];

describe('parseBlob', () => {
  it('streams JSONL with the same records, rows, lines and messages as parseTable', async () => {
    const text = pad([
      '',
      '{"question":"é ✓ 😀","gold":["a"],"candidate":"b"}',
      'not json',
      '[1]',
      '{"gold":["x"],"candidate":"y"}',
      '{"cut": "off',
    ]).join('\n');
    for (const size of [1, 7, 4096, 65_536, 1 << 22]) await same(text, size);
  });

  it('a file ending with a newline, CRLF lines, and a BOM', async () => {
    await same(`\uFEFF${pad(['{"a":1}']).join('\r\n')}\r\n`, 1000);
  });

  it('property: any JSONL-ish lines, any chunk size', async () => {
    const line = fc.oneof(
      fc
        .record({ question: fc.string(), gold: fc.array(fc.string(), { maxLength: 3 }), candidate: fc.string({ unit: 'grapheme' }) })
        .map((o) => JSON.stringify(o)),
      fc.string(),
      fc.constant(''),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 30 }), fc.integer({ min: 1, max: 300 }), fc.boolean(), async (ls, size, trailing) => {
        await same(pad(ls).join('\n') + (trailing ? '\n' : ''), size);
      }),
      { numRuns: 200 },
    );
  });

  it('non-UTF-8 bytes: the same refused rows (row, line, byte, offset) and kept rows as parseTable, at any chunk size', async () => {
    const enc = (t: string) => [...new TextEncoder().encode(t)];
    const file = new Uint8Array([
      ...enc(`${pad(['{"gold":["a"],"candidate":"caf'])[0]}\n{"gold":["a"],"candidate":"caf`),
      0xe9,
      ...enc('"}\n'),
      ...enc('{"gold":["b"],"candidate":"b"}\n'),
      0xff,
      0x0a, // a junk line that is only a bad byte
      ...enc('{"gold":["😀"],"candidate":"😀"}\n{"gold":["c"],"candidate":"'),
      0xf0,
      0x9f,
      ...enc('"}'),
    ]);
    const t = parseTable(file, 'x.jsonl');
    expect(t.records.map((r) => r.row)).toEqual([1, 3, 5]);
    expect(t.issues.filter((i) => i.severity === 'error').map((i) => i.row)).toEqual([2, 4, 6]);
    expect(t.issues.find((i) => i.row === 2)!.message).toMatch(
      /^row 2 \(line 2\) is not valid UTF-8 \(byte 0xe9 at offset \d+\); .* row 2 skipped$/,
    );
    for (const size of [1, 2, 3, 7, 64, 4096]) await same(file, size);
  });

  it('property: valid and invalid bytes anywhere, any chunk size', async () => {
    const line = fc.oneof(
      fc
        .record({ gold: fc.array(fc.string(), { maxLength: 2 }), candidate: fc.string({ unit: 'grapheme' }) })
        .map((o) => [...new TextEncoder().encode(JSON.stringify(o))]),
      fc.uint8Array({ maxLength: 12 }).map((b) => [...b].map((x) => (x === 0x0a ? 0x20 : x))),
      fc.constant([0xe2, 0x82]),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 20 }), fc.integer({ min: 1, max: 50 }), async (ls, size) => {
        const head = [...new TextEncoder().encode(pad([])[0]!)];
        await same(new Uint8Array([...head, ...ls.flatMap((l) => [0x0a, ...l])]), size);
      }),
      { numRuns: 200 },
    );
  });

  it('other formats and small files go through parseTable', async () => {
    await same('a,b\n1,2\n', 3);
    await same('{"question": "q",\n "gold": ["a"], "candidate": "a"}', 3);
  });
});

describe('parseBlob encodings and line ends', () => {
  it('CR-only JSONL, CR at a chunk boundary or not: the same rows as parseTable', async () => {
    const text = pad(['{"gold":"a","candidate":"a"}', '', '{"gold":"b","candidate":"b"}']).join('\r') + '\r';
    for (const size of [1, 2, 5, 30, 4096]) await same(text, size);
    const t = await parseBlob(blobOf(text), 'x.jsonl', { chunkBytes: 5, sniffBytes: 16 });
    expect(t.records.map((r) => r.line)).toEqual([1, 2, 4]);
  });

  it('LF, CRLF and CR in any mix, streamed or whole: every row', async () => {
    const rows = Array.from({ length: 40 }, (_, i) => JSON.stringify({ gold: `g${i}`, candidate: `c${i}` }));
    // Starts with CR, then LF, then CRLF, then CR again.
    const ends = rows.map((_, i) => (i < 3 ? '\r' : i < 20 ? '\n' : i < 30 ? '\r\n' : '\r'));
    const text = pad(rows)
      .map((l, i) => l + (i === 0 ? '\r' : ends[i - 1]!))
      .join('');
    for (const size of [1, 3, 7, 64, 4096]) {
      const t = await parseBlob(blobOf(text), 'x.jsonl', { chunkBytes: size, sniffBytes: 16 });
      expect(t.records.map((r) => r.data.gold).slice(1), `chunks of ${size}`).toEqual(rows.map((_, i) => `g${i}`));
      expect(t.records.map((r) => r.line)).toEqual(Array.from({ length: 41 }, (_, i) => i + 1));
    }
    expect(parseTable(text).records).toHaveLength(41);
  });

  it('property: LF, CRLF and CR, and lines over the longest read, at any chunk size, as in chunks of one byte', async () => {
    // Rows of at most 39 characters, or of 139 or more: a line is passed over once it is past the longest read (70)
    // at a chunk's end, so only lines at least a chunk (50) past it are passed over at every chunk size.
    const row = fc
      .tuple(fc.nat({ max: 99 }), fc.oneof(fc.nat({ max: 10 }), fc.integer({ min: 110, max: 150 })))
      .map(([i, n]) => JSON.stringify({ gold: `g${i}`, candidate: 'c'.repeat(n) }));
    const end = fc.constantFrom('\n', '\r\n', '\r');
    const read = (text: string, chunkBytes: number) => parseBlob(blobOf(text), 'x.jsonl', { chunkBytes, sniffBytes: 16, maxLineChars: 70 });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(row, end), { maxLength: 12 }), fc.integer({ min: 2, max: 50 }), async (ls, size) => {
        const text = `${pad([]).join('')}\n${ls.map(([l, e]) => l + e).join('')}`;
        expect(await read(text, size)).toEqual(await read(text, 1));
      }),
      { numRuns: 300 },
    );
  });

  it('a line over the longest read is passed over unbuilt, named, and the other rows are read', async () => {
    const rows = [0, 1, 2].map((i) => JSON.stringify({ gold: `g${i}`, candidate: `c${i}` }));
    const long = JSON.stringify({ gold: 'x', candidate: 'y'.repeat(5000) });
    for (const ending of ['\n', '']) {
      const text = pad([rows[0]!, long, rows[1]!, rows[2]!]).join('\n') + '\n' + long + ending;
      for (const size of [7, 100, 4096]) {
        const t = await parseBlob(blobOf(text), 'x.jsonl', { chunkBytes: size, sniffBytes: 16, maxLineChars: 1000 });
        expect(t.records.map((r) => r.data.gold).slice(1), `chunks of ${size}`).toEqual(['g0', 'g1', 'g2']);
        expect(t.issues.map((i) => i.message)).toEqual([
          `line 3 is ${long.length.toLocaleString('en')} characters long, too long to be a row (each field is read up to 100,000 characters); row 3 skipped`,
          `line 6 is ${long.length.toLocaleString('en')} characters long, too long to be a row (each field is read up to 100,000 characters); row 6 skipped`,
        ]);
      }
    }
  });

  it('UTF-16 LE with a BOM is read (whole), as parseTable reads it', async () => {
    const s = '\ufeff' + pad(['{"gold":"Málaga","candidate":"x"}']).join('\n');
    const b = new Uint8Array(s.length * 2);
    for (let i = 0; i < s.length; i++) {
      b[2 * i] = s.charCodeAt(i) & 0xff;
      b[2 * i + 1] = s.charCodeAt(i) >> 8;
    }
    const t = await parseBlob(blobOf(b), 'x.jsonl', { chunkBytes: 7, sniffBytes: 16 });
    expect(t.records.map((r) => r.data.gold)).toEqual([['g'], 'Málaga']);
  });
});

describe('repeated values in a JSONL file', () => {
  it('records repeating a question or gold list share one copy; every value reads as written', async () => {
    const lines = [
      { id: 'a', question: 'Who wrote Hamlet?', gold: ['Shakespeare', 'W. Shakespeare'], candidate: 'Shakespeare' },
      { id: 'b', question: 'Who wrote Hamlet?', gold: ['Shakespeare', 'W. Shakespeare'], candidate: 'Marlowe' },
      { id: 'c', question: 'Who wrote Hamlet?', gold: ['Shakespeare\u0000W. Shakespeare'], candidate: 'x', extra: [1, 'a'] },
    ];
    const text = `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
    const t = await parseBlob(new Blob([text.repeat(2000)]), 'f.jsonl', { sniffBytes: 64 });
    expect(t.records.map((r) => r.data)).toEqual(Array.from({ length: 2000 }, () => lines).flat());
    const [a, b, c] = t.records.map((r) => r.data);
    expect(b!.gold).toBe(a!.gold);
    expect(c!.gold).not.toBe(a!.gold);
    expect(t.records[3]!.data.gold).toBe(a!.gold);
  });
});

// CSV, TSV and JSON arrays were read as one string, which fails past ~512 M characters.
describe('parseBlob and streamRecords on CSV, TSV and JSON arrays', () => {
  const csv = [
    'id,question,gold,candidate',
    'a,"What is ""x""?",x,x',
    'b,"two',
    'lines",y,"y, really"',
    '',
    'c,short row',
    'd,q\u00e9,g\u00e9,\u00e9\u00e8',
    'e,q,g,c',
  ].join('\r\n');
  const json = `[\n${[
    { id: 'a', question: 'q', gold: ['x'], candidate: 'x' },
    { id: 'b', question: 'é', gold: [], candidate: 'y' },
  ]
    .map((o) => JSON.stringify(o, null, 2))
    .join(',\n')},\n  [1],\n  {"broken": \n]`;

  it('read piece by piece, they give what parseTable gives, at any piece size', async () => {
    for (const text of [csv, csv.replaceAll(',', '\t'), csv.replaceAll(',', ';'), json])
      for (const size of [1, 2, 3, 7, 64]) await same(text, size);
  });

  it('a byte that is not UTF-8 refuses its record on whichever of its lines it is', async () => {
    const bytes = new TextEncoder().encode(csv);
    const at = new TextEncoder().encode(csv).indexOf(0x6c); // the "l" of "lines", the second line of row 2
    const bad = new Uint8Array(bytes);
    bad[at] = 0xff;
    for (const size of [1, 5, 64]) await same(bad, size);
  });

  it('streamRecords hands over the same records, with the columns and issues', async () => {
    for (const [text, format] of [
      [csv, 'csv'],
      [json, 'json'],
    ] as const) {
      const whole = parseTable(text);
      const got: unknown[] = [];
      const pass = await streamRecords(blobOf(text), (r) => void got.push(r), { chunkBytes: 5, sniffBytes: 16 });
      expect(pass).toMatchObject({ format, columns: whole.columns, records: whole.records.length, issues: whole.issues });
      expect(got).toEqual(whole.records);
    }
  });
});

describe('progress', () => {
  it('is told every 4 MiB read and at the end, whatever the read size, for JSONL and CSV alike', async () => {
    const line = `${JSON.stringify({ question: 'q'.repeat(40), gold: ['g'], candidate: 'c'.repeat(40) })}\n`;
    const jsonl = line.repeat(Math.ceil((9.5 * 1024 * 1024) / line.length));
    const csv = `question,gold,candidate\n${`${'q'.repeat(40)},g,${'c'.repeat(40)}\n`.repeat(120_000)}`;
    for (const text of [jsonl, csv])
      for (const chunkBytes of [undefined, 1024 * 1024, 3 * 1024 * 1024]) {
        const seen: number[] = [];
        const blob = blobOf(text);
        await parseBlob(blob, 'f', { ...(chunkBytes ? { chunkBytes } : {}), onProgress: (read) => void seen.push(read) });
        expect(seen.at(-1)).toBe(blob.size);
        const steps = seen.map((r, i) => r - (seen[i - 1] ?? 0));
        // Read in pieces of 128 KiB (JSONL) or 4 MiB (CSV) unless told.
        const piece = chunkBytes ?? (text === jsonl ? 128 * 1024 : 4 * 1024 * 1024);
        expect(steps.slice(0, -1).every((s) => s >= 4 * 1024 * 1024 && s < 4 * 1024 * 1024 + piece)).toBe(true);
        if ((4 * 1024 * 1024) % piece === 0) expect(seen.length).toBe(Math.floor(blob.size / (4 * 1024 * 1024)) + 1);
      }
  });
});
