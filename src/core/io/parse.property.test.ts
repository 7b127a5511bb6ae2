import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { parseTable, type ParsedTable } from './parse.ts';
import { FIELD_ALIASES, FIELDS, mapRows, type ColumnMap, type MapOptions } from './fields.ts';
import { restoreCell } from './formula.ts';
import { ADVERSARIAL_PIECES } from '../text/adversarial.ts';
import { VerityError } from '../types.ts';

const piece = fc.constantFrom(...ADVERSARIAL_PIECES);
/** Hostile pieces glued or spaced, any code points, and any UTF-16 units (lone surrogates included). */
const text = fc.oneof(
  fc.array(piece, { maxLength: 12 }).map((p) => p.join('')),
  fc.array(piece, { maxLength: 12 }).map((p) => p.join(' ')),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 30 }),
);
/** Whole files: table-like shapes built from hostile pieces, and plain noise. */
const file = fc.oneof(
  fc
    .array(
      fc.array(text, { maxLength: 5 }).map((cells) => cells.join(',')),
      { maxLength: 6 },
    )
    .map((lines) => lines.join('\n')),
  fc
    .array(
      fc.array(text, { maxLength: 5 }).map((cells) => cells.join('\t')),
      { maxLength: 6 },
    )
    .map((lines) => lines.join('\r\n')),
  fc
    .array(
      fc.oneof(
        fc.jsonValue().map((v) => JSON.stringify(v)),
        text,
      ),
      { maxLength: 6 },
    )
    .map((lines) => lines.join('\n')),
  fc
    .array(
      fc.oneof(
        fc.jsonValue().map((v) => JSON.stringify(v)),
        text,
      ),
      { maxLength: 6 },
    )
    .map((els) => `[${els.join(',\n')}`),
  fc.array(piece, { maxLength: 40 }).map((p) => p.join('')),
  text,
);
const enc = (s: string) => new TextEncoder().encode(s);
const bytes = fc.oneof(
  fc.uint8Array({ maxLength: 300 }),
  file.map(enc),
  // A file with a few random bytes spliced in (often invalid UTF-8).
  fc.tuple(file, fc.uint8Array({ minLength: 1, maxLength: 4 }), fc.nat()).map(([f, junk, at]) => {
    const b = enc(f);
    const k = b.length ? at % b.length : 0;
    return Uint8Array.from([...b.subarray(0, k), ...junk, ...b.subarray(k)]);
  }),
);
const RUNS = { numRuns: 400 };

/** Runs f; anything thrown must be an input VerityError. */
function onlyInputErrors<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch (e) {
    expect(e).toBeInstanceOf(VerityError);
    expect((e as VerityError).kind).toBe('input');
    return undefined;
  }
}

/** What every parsed table promises. */
function checkTable(t: ParsedTable): void {
  expect(['jsonl', 'json', 'csv', 'tsv']).toContain(t.format);
  expect(new Set(t.columns).size).toBe(t.columns.length);
  let prevRow = 0;
  let prevLine = 0;
  for (const r of t.records) {
    expect(r.row).toBeGreaterThan(prevRow);
    prevRow = r.row;
    if (r.line !== undefined) {
      expect(r.line).toBeGreaterThanOrEqual(Math.max(1, prevLine));
      prevLine = r.line;
    }
    for (const k of Object.keys(r.data)) expect(t.columns).toContain(k);
    // Every column, in any key order (integer-like keys such as "977" always come first in a JS object).
    if (t.format === 'csv' || t.format === 'tsv') expect(Object.keys(r.data).sort()).toEqual([...t.columns].sort());
  }
  const kept = new Set(t.records.map((r) => r.row));
  for (const i of t.issues) {
    expect(i.row).toBeGreaterThanOrEqual(0);
    if (i.line !== undefined) expect(i.line).toBeGreaterThanOrEqual(1);
    expect(i.message.length).toBeGreaterThan(0);
    if (i.row > 0) {
      // Every row issue names its row (an element of a JSON array is its row).
      expect(i.message).toMatch(new RegExp(`\\b(row|element) ${i.row}\\b`));
      if (i.severity === 'error') expect(kept.has(i.row)).toBe(false);
    }
  }
}

/** What mapRows promises: usable rows, and every record either a row or an error that names it. */
function checkMapped(t: ParsedTable, options: MapOptions = {}): void {
  const m = onlyInputErrors(() => mapRows(t, options));
  if (!m) return;
  for (const r of m.rows) {
    for (const v of [r.id, r.question, r.candidate]) expect(typeof v).toBe('string');
    expect(r.golds.length).toBeGreaterThan(0);
    for (const g of r.golds) expect(g).toBe(g.trim());
    for (const g of r.golds) expect(g.length).toBeGreaterThan(0);
    for (const list of [r.choices, r.wrongAnswers]) if (list) for (const c of list) expect(typeof c).toBe('string');
  }
  const rows = new Set(m.rows.map((r) => r.row));
  const failed = new Set(m.issues.filter((i) => i.severity === 'error').map((i) => i.row));
  for (const rec of t.records) expect(rows.has(rec.row) !== failed.has(rec.row)).toBe(true);
}

describe('parseTable on anything', () => {
  it('bytes: returns a well-formed table or throws an input VerityError, nothing else', () => {
    fc.assert(
      fc.property(bytes, (b) => {
        const t = onlyInputErrors(() => parseTable(b));
        if (t) {
          checkTable(t);
          checkMapped(t);
        }
      }),
      RUNS,
    );
  });

  it('strings (lone surrogates included), with any name hint', () => {
    fc.assert(
      fc.property(file, fc.constantFrom('', 'x.csv', 'x.tsv', 'x.json', 'x.jsonl'), (s, name) => {
        const t = onlyInputErrors(() => parseTable(s, name));
        if (t) {
          checkTable(t);
          checkMapped(t);
        }
      }),
      RUNS,
    );
  });
});

const object = fc.dictionary(fc.oneof(text, fc.constantFrom(...FIELDS)), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 });
const same = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

describe('JSONL: good lines are kept exactly, bad lines are reported on their own line', () => {
  // Never a whole JSON object, and no "{" so that bad lines cannot add up to a pretty-printed object; one line
  // (CR, like LF, ends a line).
  const junk = text.filter((s) => {
    if (s.includes('\n') || s.includes('\r') || s.includes('{') || s.trim() === '') return false;
    try {
      const v: unknown = JSON.parse(s);
      return typeof v !== 'object' || v === null || Array.isArray(v);
    } catch {
      return true;
    }
  });
  const line = fc.oneof(
    { arbitrary: object.map((o) => ({ good: true as const, o })), weight: 3 },
    { arbitrary: junk.map((s) => ({ good: false as const, s })), weight: 1 },
  );
  it('with blank lines and CRLF anywhere', () => {
    const blank = fc.constantFrom('', '\n', '  \r\n');
    // The first line is good: it is what makes the file JSONL.
    const first = fc.tuple(
      object.map((o) => ({ good: true as const, o })),
      blank,
    );
    fc.assert(
      fc.property(
        fc.tuple(first, fc.array(fc.tuple(line, blank), { maxLength: 8 })).map(([f, rest]) => [f, ...rest]),
        fc.boolean(),
        (lines, crlf) => {
          let textOut = '';
          let n = 1;
          let row = 0;
          const want: { row: number; line: number; data: unknown }[] = [];
          const bad: [number, number][] = [];
          for (const [l, blank] of lines) {
            row++;
            if (l.good) want.push({ row, line: n, data: same(l.o) });
            else bad.push([row, n]);
            textOut += `${l.good ? JSON.stringify(l.o) : l.s}${crlf ? '\r\n' : '\n'}${blank}`;
            n += 1 + (blank.match(/\n/g) ?? []).length;
          }
          const t = parseTable(textOut);
          expect(t.records).toEqual(want);
          expect(t.issues.map((i) => [i.row, i.line, i.severity])).toEqual(bad.map(([r, l]) => [r, l, 'error']));
        },
      ),
      RUNS,
    );
  });

  it('cut anywhere: the complete lines are kept, a cut last line is reported as cut off', () => {
    fc.assert(
      fc.property(fc.array(object, { minLength: 1, maxLength: 6 }), fc.nat(), (objs, at) => {
        const full = objs.map((o) => JSON.stringify(o)).join('\n');
        const cut = full.slice(0, 1 + (at % full.length));
        const t = onlyInputErrors(() => parseTable(cut));
        if (!t) return;
        const lines = cut.split('\n');
        const partial = lines.at(-1) !== JSON.stringify(objs[lines.length - 1]) && lines.at(-1) !== '';
        const complete = lines
          .slice(0, -1)
          .concat(partial ? [] : lines.slice(-1))
          .filter((l) => l !== '');
        expect(t.records.map((r) => r.data)).toEqual(complete.map((l) => JSON.parse(l)));
        if (partial) {
          expect(t.issues).toHaveLength(1);
          expect(t.issues[0]!.message).toMatch(/is cut off/);
        } else expect(t.issues).toEqual([]);
      }),
      RUNS,
    );
  });
});

describe('JSON array: every complete object element is kept, whatever is broken or cut after it', () => {
  const element = fc.oneof({ arbitrary: object, weight: 4 }, { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 1 });
  it('cut at any point, compact or pretty-printed', () => {
    fc.assert(
      fc.property(fc.array(element, { maxLength: 6 }), fc.boolean(), fc.nat(), (els, pretty, at) => {
        const parts = els.map((e) => JSON.stringify(e, null, pretty ? 2 : undefined));
        let full = '[\n';
        const spans = parts.map((p) => {
          const start = full.length;
          full += p;
          const end = full.length;
          full += ',\n';
          return { start, end };
        });
        full = `${full.replace(/,\n$/, '')}\n]`;
        const cut = full.slice(0, 1 + (at % full.length));
        const t = parseTable(cut);
        checkTable(t);
        const lineOf = (offset: number) => (full.slice(0, offset).match(/\n/g) ?? []).length + 1;
        const want = els.flatMap((e, i) =>
          spans[i]!.end <= cut.length && typeof e === 'object' && e !== null && !Array.isArray(e)
            ? [{ row: i + 1, line: lineOf(spans[i]!.start), data: same(e) }]
            : [],
        );
        expect(t.records).toEqual(want);
        // Each started element that is not a record has an error naming it; nothing after the cut is mentioned.
        const started = spans.filter((s) => s.start < cut.length).length;
        const errors = t.issues.filter((i) => i.severity === 'error').map((i) => i.row);
        expect([...want.map((r) => r.row), ...errors].sort((a, b) => a - b)).toEqual(Array.from({ length: started }, (_, i) => i + 1));
      }),
      RUNS,
    );
  });
});

describe('CSV and TSV: rows with the right number of fields are kept exactly', () => {
  const names = fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/), { minLength: 2, maxLength: 5 });
  it.each([
    ['csv', ','],
    ['tsv', '\t'],
  ] as const)('%s, with rows of the wrong width in between', (format, delimiter) => {
    fc.assert(
      fc.property(
        names,
        fc.array(fc.tuple(fc.boolean(), fc.array(text, { minLength: 1, maxLength: 7 })), { maxLength: 8 }),
        (header, rows) => {
          const width = header.length;
          // A good row gets exactly `width` cells; a bad one keeps its own count unless that happens to be right.
          const lines = rows.map(([good, cells]) => (good ? Array.from({ length: width }, (_, k) => cells[k % cells.length]!) : cells));
          const serialize = (cells: string[]) => Papa.unparse([cells], { delimiter, newline: '\n' });
          const out = [header.join(delimiter), ...lines.map(serialize)].join('\n');
          const t = parseTable(out);
          expect(t.format).toBe(format);
          expect(t.columns).toEqual(header);
          let line = 2;
          let row = 0;
          const want: { row: number; line: number; data: Record<string, string> }[] = [];
          const bad: [number, number][] = [];
          for (const cells of lines) {
            const restored = cells.map(restoreCell);
            if (restored.join('').trim() !== '') {
              row++;
              if (cells.length === width) want.push({ row, line, data: Object.fromEntries(header.map((h, k) => [h, restored[k]!])) });
              else bad.push([row, line]);
            }
            line += (serialize(cells).match(/\n/g) ?? []).length + 1;
          }
          expect(t.records).toEqual(want);
          expect(t.issues.map((i) => [i.row, i.line])).toEqual(bad);
        },
      ),
      RUNS,
    );
  });
});

describe('mapRows on any records and any --map', () => {
  // Column names include the field aliases and Object.prototype members.
  const column = fc.oneof(fc.constantFrom(...Object.values(FIELD_ALIASES).flat(), '__proto__', 'constructor', 'toString', 'valueOf'), text);
  const value = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    text,
    fc.constantFrom('yes', 'No', '1', 'partial', '["a","b"]', '[', '{"gold_to_candidate":[1,0,0]}'),
  );
  it('rows are well-formed, and every record is either a row or an error naming it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.dictionary(column, value, { maxKeys: 8 }), { minLength: 1, maxLength: 6 }),
        fc.dictionary(fc.constantFrom(...FIELDS), column, { maxKeys: 3 }),
        fc.option(fc.constantFrom('/', ' / ', ',', '')),
        (records, map, goldSep) => {
          const t = onlyInputErrors(() => parseTable(records.map((r) => JSON.stringify(r)).join('\n')));
          if (!t) return;
          let m: ReturnType<typeof mapRows> | undefined;
          try {
            m = mapRows(t, { map: map as ColumnMap, ...(goldSep ? { goldSep } : {}) });
          } catch (e) {
            expect(e).toBeInstanceOf(VerityError); // usage (an unknown --map column) or input
            return;
          }
          checkMapped(t, { map: map as ColumnMap, ...(goldSep ? { goldSep } : {}) });
          for (const r of m.rows) expect(typeof r.question).toBe('string');
        },
      ),
      RUNS,
    );
  });
});
