import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { similarSpelling } from './pedants-features.ts';

/** Levenshtein distance over UTF-16 code units, the whole table (the reference the shortcuts must agree with). */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length]![b.length]!;
}
const similar = (a: string, b: string) =>
  a === b || (a.length > 0 && b.length > 0 && 1 - distance(a, b) / Math.max(a.length, b.length) >= 0.8);

/** A word and a few random edits of it: most pairs are near each other, as the spelling test's pairs are meant to be. */
const letters = fc.constantFrom('a', 'b', 'c', 'e', 'o', 'é', '😀');
const word = fc.array(letters, { maxLength: 16 }).map((x) => x.join(''));
const edit = fc.tuple(fc.constantFrom('change', 'insert', 'delete'), fc.nat(20), letters);
const pair = fc.tuple(word, fc.array(edit, { maxLength: 3 })).map(([w, edits]) => {
  let v = w;
  for (const [kind, at, c] of edits) {
    const i = v.length === 0 ? 0 : at % (v.length + (kind === 'insert' ? 1 : 0));
    if (kind === 'insert') v = v.slice(0, i) + c + v.slice(i);
    else if (v.length > 0) v = v.slice(0, i) + (kind === 'change' ? c : '') + v.slice(i + 1);
  }
  return [w, v] as const;
});

describe('similarSpelling', () => {
  it('is Levenshtein similarity of at least 0.8, for near and far pairs of any length', () => {
    fc.assert(
      fc.property(fc.oneof(pair, fc.tuple(word, word)), ([a, b]) => {
        expect(similarSpelling(a, b)).toBe(similar(a, b));
        expect(similarSpelling(b, a)).toBe(similar(a, b));
      }),
      { numRuns: 20000 },
    );
  });

  it('pins the edges of the 0.8 line', () => {
    expect(similarSpelling('paris', 'parts')).toBe(true); // 1 of 5
    expect(similarSpelling('pari', 'part')).toBe(false); // 1 of 4
    expect(similarSpelling('tchaikovsky', 'tchaikowsky')).toBe(true);
    expect(similarSpelling('abcdefghij', 'abcdefghxy')).toBe(true); // 2 of 10
    expect(similarSpelling('abcdefghi', 'abcdefgxy')).toBe(false); // 2 of 9
    expect(similarSpelling('london', 'londons')).toBe(true);
    expect(similarSpelling('london', 'lndon')).toBe(true);
    expect(similarSpelling('london', 'ldnon')).toBe(false);
  });
});
