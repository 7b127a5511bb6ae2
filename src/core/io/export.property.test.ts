import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { goldCell, toCsv, toTsv } from './export.ts';
import { NEEDS_NEUTRALIZING, restoreCell } from './formula.ts';
import { parseTable } from './parse.ts';
import { mapRows } from './fields.ts';
import { labelValue } from '../records.ts';
import { ADVERSARIAL_PIECES } from '../text/adversarial.ts';
import { CAP_CLASSES } from '../types.ts';

const piece = fc.constantFrom(...ADVERSARIAL_PIECES);
/** Strings made of quotes, formula triggers and CSV syntax: the cases the neutralization has to get exactly right. */
const formulaish = fc.string({ unit: fc.constantFrom("'", '=', '+', '-', '@', '\t', '\r', '\n', '"', ',', ' ', 'a', '1'), maxLength: 8 });
/** Hostile pieces glued or spaced, any code points, any UTF-16 units (lone surrogates included), formula-ish. */
const text = fc.oneof(
  fc.array(piece, { maxLength: 10 }).map((p) => p.join('')),
  fc.array(piece, { maxLength: 10 }).map((p) => p.join(' ')),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 20 }),
  formulaish,
);
const RUNS = { numRuns: 300 };

const neutralize = (v: string) => (NEEDS_NEUTRALIZING.test(v) ? `'${v}` : v);
const TRIGGER = /^[=+\-@\t\r]/;

describe('formula neutralization', () => {
  it('no neutralized cell starts with a trigger, and restoring gives back the exact value', () => {
    fc.assert(
      fc.property(fc.oneof(formulaish, text), (v) => {
        expect(neutralize(v)).not.toMatch(TRIGGER);
        expect(restoreCell(neutralize(v))).toBe(v);
      }),
      { numRuns: 1000 },
    );
  });

  it('restoring leaves every cell alone that the export would not have written', () => {
    fc.assert(
      fc.property(fc.oneof(formulaish, text), (v) => {
        if (!/^'+[=+\-@\t\r]/.test(v)) expect(restoreCell(v)).toBe(v);
      }),
      { numRuns: 1000 },
    );
  });
});

// The shape of outputRecord (scoring.ts): ids are never empty, golds are trimmed and non-empty (mapRows made them so).
const cell = fc.record(
  {
    score: fc.oneof(fc.constant(null), fc.double({ min: 0, max: 1, noNaN: true }).map(Math.abs)),
    decision: fc.constantFrom(true, false, null),
    explanation: text,
    class: fc.constantFrom(...CAP_CLASSES),
  },
  { requiredKeys: ['score', 'decision', 'explanation'] },
);
const record = fc.record({
  id: text.filter((s) => s !== ''),
  question: text,
  gold: fc.array(
    text.map((s) => s.trim()).filter((s) => s !== ''),
    { minLength: 1, maxLength: 3 },
  ),
  candidate: text,
  label: fc.constantFrom(true, false, null, 'exact', 'partial', 'overinclusive-valid'),
  metrics: fc.record({ exact_match: cell, taxonomy: cell }),
});
const records = fc.array(record, { minLength: 1, maxLength: 6 });
const NAMES = ['exact_match', 'taxonomy'];
/** What a file holds: lone surrogates cannot be written as UTF-8 and become U+FFFD. */
const asFile = (s: string) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(new TextEncoder().encode(s));

describe.each([
  ['csv', toCsv, ','],
  ['tsv', toTsv, '\t'],
] as const)('%s export → parseTable → mapRows', (format, write, delimiter) => {
  it('every exported cell reads back as written, from a string and from UTF-8 bytes', () => {
    fc.assert(
      fc.property(records, (recs) => {
        const out = write(recs, NAMES);
        for (const [input, fix] of [
          [out, (s: string) => s],
          [new TextEncoder().encode(out), asFile],
        ] as const) {
          const t = parseTable(input);
          expect(t.format).toBe(format);
          expect(t.issues).toEqual([]);
          expect(t.records.map((r) => r.data)).toEqual(
            recs.map((r) => {
              const want: Record<string, string> = {
                id: r.id,
                question: r.question,
                gold: JSON.stringify(r.gold),
                candidate: r.candidate,
                label: r.label === null ? '' : String(r.label),
              };
              for (const m of NAMES) {
                const c = r.metrics[m as 'exact_match' | 'taxonomy'];
                want[`${m}.score`] = c.score === null ? '' : String(c.score);
                want[`${m}.decision`] = c.decision === null ? '' : String(c.decision);
                if (recs.some((x) => x.metrics[m as 'exact_match' | 'taxonomy'].class !== undefined)) want[`${m}.class`] = c.class ?? '';
                want[`${m}.explanation`] = c.explanation;
              }
              return Object.fromEntries(Object.entries(want).map(([k, v]) => [k, fix(v)]));
            }),
          );
        }
      }),
      RUNS,
    );
  });

  it('mapRows gives back id, question, golds, candidate and label', () => {
    fc.assert(
      fc.property(records, (recs) => {
        const { rows } = mapRows(parseTable(write(recs, NAMES)));
        expect(
          rows.map((r) => ({ id: r.id, question: r.question, gold: r.golds, candidate: r.candidate, label: labelValue(r.label) })),
        ).toEqual(recs.map(({ id, question, gold, candidate, label }) => ({ id, question, gold, candidate, label })));
      }),
      RUNS,
    );
  });

  it('no raw cell of the file starts with = + - @, tab or CR', () => {
    fc.assert(
      fc.property(records, (recs) => {
        const raw = Papa.parse<string[]>(write(recs, NAMES), { delimiter }).data.flat();
        for (const c of raw) expect(c).not.toMatch(TRIGGER);
      }),
      RUNS,
    );
  });
});

describe("the CSV's gold cell, written with the input's separator", () => {
  it('reads back as the same golds, whatever they hold (joined where that splits back, a JSON list where not)', () => {
    fc.assert(
      fc.property(records, fc.constantFrom('|', ';', ',', '||'), (recs, sep) => {
        // Text a file can hold (a lone surrogate survives only inside JSON's escapes).
        fc.pre(recs.every((r) => r.gold.every((g) => g === asFile(g))));
        const { rows } = mapRows(parseTable(toCsv(recs, NAMES, true, sep)), { goldSep: sep });
        expect(rows.map((r) => r.golds)).toEqual(recs.map((r) => r.gold));
      }),
      RUNS,
    );
  });

  it('writes plain golds as people write them (by hand)', () => {
    expect(goldCell(['Au'], '|')).toBe('Au');
    expect(goldCell(['Paris', 'City of Light'], '|')).toBe('Paris | City of Light');
    expect(goldCell(['Paris', 'Lutetia'], ';')).toBe('Paris; Lutetia');
    // A gold holding the separator, or no separator: a JSON list.
    expect(goldCell(['A|B', 'C'], '|')).toBe('["A|B","C"]');
    expect(goldCell(['Au'], '')).toBe('["Au"]');
  });
});
