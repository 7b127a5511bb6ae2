import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { QaRow } from '../types.ts';
import { cellKeeper, SHARE_BOUND, valueSharer } from './share.ts';

const shareRepeats = (rows: QaRow[]) => {
  const share = valueSharer();
  for (const r of rows) {
    r.question = share.question(r.question);
    r.golds = share.golds(r.golds);
    if (r.label) r.label = share.label(r.label);
  }
};

const row = (i: number, question: string, golds: string[], correct?: boolean): QaRow => ({
  row: i,
  id: `r${i}`,
  question,
  golds,
  candidate: `c${i}`,
  ...(correct === undefined ? {} : { label: { kind: 'binary', correct } }),
});

describe('valueSharer', () => {
  it('rows repeating a question, gold list or label share one copy; the values stay as they were', () => {
    const rows = [row(1, 'Q?', ['a', 'b'], true), row(2, 'Q?', ['a', 'b'], false), row(3, 'Q?', ['a', 'b'], true), row(4, 'R?', ['a'])];
    const before = structuredClone(rows);
    shareRepeats(rows);
    expect(rows).toEqual(before);
    expect(rows[1]!.golds).toBe(rows[0]!.golds);
    expect(rows[2]!.label).toBe(rows[0]!.label);
    expect(rows[1]!.label).not.toBe(rows[0]!.label);
    expect(rows[3]!.golds).not.toBe(rows[0]!.golds);
  });

  it('never merges different gold lists whose joined text is the same', () => {
    const rows = [row(1, 'Q', ['a\u0000b']), row(2, 'Q', ['a', 'b']), row(3, 'Q', ['a,b']), row(4, 'Q', ['a', 'b'])];
    shareRepeats(rows);
    expect(rows.map((r) => r.golds)).toEqual([['a\u0000b'], ['a', 'b'], ['a,b'], ['a', 'b']]);
    expect(rows[3]!.golds).toBe(rows[1]!.golds);
  });
});

describe('cellKeeper', () => {
  it('hands back an equal value, and the first copy while it is kept (any strings and lists)', () => {
    const value = fc.oneof(
      fc.constantFrom('a', 'b', ''),
      fc.array(fc.constantFrom('a', 'b', 'a\u0000b', ''), { minLength: 1, maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.array(value, { maxLength: 60 }), (values) => {
        const keep = cellKeeper();
        const first = new Map<string, unknown>();
        const startingWith = new Map<string, Set<string>>();
        for (const v of values) {
          const copy = structuredClone(v);
          const out = typeof copy === 'string' ? keep.text(copy) : keep.list(copy);
          expect(out).toEqual(v);
          const key = JSON.stringify(v);
          const alike = typeof v === 'string' ? null : (startingWith.get(v[0]!) ?? startingWith.set(v[0]!, new Set()).get(v[0]!)!);
          alike?.add(key);
          // Lists starting alike are kept eight at a time (a ninth may take a kept one's place).
          if (first.has(key) && (alike === null || alike.size <= 8)) expect(out).toBe(first.get(key));
          if (!first.has(key)) first.set(key, out);
        }
      }),
    );
  });

  it('keeps at most SHARE_BOUND values, then starts again', () => {
    const keep = cellKeeper();
    const a = keep.list(['x', 'y']);
    expect(keep.list(['x', 'y'])).toBe(a);
    for (let i = 0; i < SHARE_BOUND; i++) keep.text(`t${i}`);
    const b = ['x', 'y'];
    expect(keep.list(b)).toBe(b);
  });
});
