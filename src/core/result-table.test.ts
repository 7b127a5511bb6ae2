import { describe, expect, it } from 'vitest';
import type { RowResults } from './scoring.ts';
import { ChunkPacker, chunkBuffers, packChunk, ResultTable } from './result-table.ts';
import { VerityError, type CapClass } from './types.ts';

const rows: RowResults[] = [
  {
    m: { score: 0.25, decision: false, explanation: 'low', details: { a: 1 } },
    t: { score: 0.9375, decision: true, class: 'exact', explanation: 'same' },
  },
  {
    m: { score: null, decision: null, explanation: 'not scored: too long' },
    t: { score: 0.0625, decision: false, class: 'contradictory', set: 'inferior', explanation: 'same', details: { b: 2 } },
  },
  { m: { score: -0, decision: true, explanation: 'low' }, t: { score: 1, decision: true, explanation: 'só “quoted” …' } },
];

describe('ResultTable', () => {
  it('gives back every score, decision, class, set and explanation; details only of the metrics that keep them', () => {
    const t = ResultTable.of(rows, ['m', 't'], new Set(['t']));
    expect(t.length).toBe(3);
    const strip = (r: RowResults, keep: string) =>
      Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === keep ? v : (({ details: _, ...x }) => x)(v)]));
    rows.forEach((r, i) => expect(t.row(i)).toEqual(strip(r, 't')));
    expect(Object.is(t.score('m', 2), -0)).toBe(true);
    expect([t.score('m', 1), t.decision('m', 1), t.score('nope', 0), t.cls('t', 2), t.set('t', 1)]).toEqual([
      null,
      null,
      null,
      undefined,
      'inferior',
    ]);
    expect([t.hasAny('t', 'class'), t.hasAny('m', 'class'), t.hasAny('t', 'set')]).toEqual([true, false, true]);
  });

  it('appends chunks in order (after their buffers were transferred as copies), and re-decides in place', () => {
    const t = new ResultTable(['m', 't']);
    for (let k = 0; k < 1500; k++) {
      const c = packChunk(rows, ['t', 'm'], new Set());
      expect(chunkBuffers(c)).toHaveLength(10);
      t.append(structuredClone(c));
    }
    expect(t.length).toBe(4500);
    expect(t.row(4499)).toEqual(t.row(2));
    expect(t.explanation('m', 3000)).toBe('low');
    t.redecide({ m: 0.2 });
    expect([t.decision('m', 0), t.decision('m', 1), t.decision('m', 2)]).toEqual([true, null, false]);
  });

  it('keeps a run reserved ahead empty until appended, and long explanations repeated across chunks', () => {
    const long = `P(correct)=0.998 (threshold 0.495); best gold "Red apes": ${'contains the gold, '.repeat(8)}`;
    const more: RowResults[] = rows.map((r) => ({ ...r, m: { ...r.m!, explanation: long } }));
    const t = new ResultTable(['m', 't']);
    t.reserve(9);
    expect([t.length, t.score('m', 0), t.explanation('m', 0)]).toEqual([0, null, undefined]);
    for (let k = 0; k < 3; k++) t.append(structuredClone(packChunk(more, ['m', 't'], new Set())));
    expect(t.length).toBe(9);
    expect(t.explanation('m', 8)).toBe(long);
    expect(t.row(7)).toEqual(t.row(1));
  });
});

describe('explanations computed again', () => {
  it('a metric left out of `explained` keeps none: its chunk column is empty, and the table asks explainWith', () => {
    const c = packChunk(rows, ['m', 't'], new Set(), new Set(['t']));
    expect([c.columns[0]!.strings, c.columns[0]!.explanation.length]).toEqual([[], 0]);
    expect(c.columns[1]!.strings).toEqual(['same', 'só “quoted” …']);
    const t = new ResultTable(['m', 't'], new Set(), new Set(['t']));
    t.append(structuredClone(c));
    expect(() => t.explanation('m', 0)).toThrow('m: its explanations are not kept and nothing computes them');
    const asked: number[] = [];
    t.explainWith((m, i) => (asked.push(i), `${m} of row ${i}`));
    expect([t.explanation('m', 2), t.row(1).m!.explanation, t.row(1).t!.explanation, t.explanation('t', 3)]).toEqual([
      'm of row 2',
      'm of row 1',
      'same',
      undefined,
    ]);
    expect(asked).toEqual([2, 1, 1]);
    // A chunk that carries explanations (a run saved by an earlier version) appends to such a column too.
    t.append(structuredClone(packChunk(rows, ['m', 't'], new Set())));
    expect([t.length, t.explanation('m', 3), t.explanation('t', 5)]).toEqual([6, 'm of row 3', 'só “quoted” …']);
    // A kept column refuses a chunk without them.
    expect(() => new ResultTable(['m', 't']).append(c)).toThrow('the chunk has no explanations for m');
  });
});

describe('ChunkPacker', () => {
  it('packs row by row what packChunk packs, and refuses a chunk with too few or too many rows', () => {
    const p = new ChunkPacker(3, ['t', 'm'], new Set(['m']));
    expect(() => p.done()).toThrow('got 0 of its 3 rows');
    for (const r of rows) p.add(r);
    expect(p.done()).toEqual(packChunk(rows, ['t', 'm'], new Set(['m'])));
    expect(() => p.add(rows[0]!)).toThrow('holds 3 rows');
    expect(() => new ChunkPacker(1, ['x'], new Set()).add(rows[0]!)).toThrow('row 0 has no result for x');
  });

  it('names the metrics whose scores alone it keeps: no explanation and no details', () => {
    expect([...new ChunkPacker(1, ['t', 'm', 'x'], new Set(['m']), new Set(['m'])).scoresOnly]).toEqual(['t', 'x']);
    expect([...new ChunkPacker(1, ['t', 'm', 'x'], new Set(['m']), new Set(['t'])).scoresOnly]).toEqual(['x']);
    // Every explanation kept (no `explained`): none.
    expect([...new ChunkPacker(1, ['t', 'm'], new Set()).scoresOnly]).toEqual([]);
  });
});

describe('more than 255 classes and sets', () => {
  // The table stores class and set names as data (up to 255), whatever metric gave them; the types name only eight.
  it('is refused as bad input (a typed error with its code), not a broken invariant', () => {
    const many = Array.from({ length: 256 }, (_, k): RowResults => ({
      t: { score: 0.5, decision: true, class: `class ${k}` as CapClass, explanation: '' },
    }));
    let error: unknown;
    try {
      ResultTable.of(many, ['t'], new Set());
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(VerityError);
    expect(error).toMatchObject({ kind: 'input', code: 'too-many-classes' });
    expect(() => ResultTable.of(many.slice(0, 255), ['t'], new Set())).not.toThrow();
  });
});
