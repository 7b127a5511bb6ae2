import { describe, expect, it } from 'vitest';
import type { QaRow } from '../types.ts';
import { valueSharer } from './share.ts';

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
