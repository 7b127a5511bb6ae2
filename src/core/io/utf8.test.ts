/**
 * The scanner's shortcut (a chunk whose decoded text has no U+FFFD is only counted) finds exactly what a full scan
 * finds, for any bytes cut into any chunks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findBadUtf8, Utf8Scanner, Utf8StreamDecoder } from './utf8.ts';

const enc = (s: string) => [...new TextEncoder().encode(s)];
// Valid characters of every length, line ends, U+FFFD itself, and bytes that are not UTF-8 (a Latin-1 é, a lone
// continuation, a cut or overlong sequence, a surrogate, past U+10FFFF).
const piece = fc.constantFrom(
  enc('a'),
  enc('\n'),
  enc('\r\n'),
  enc('é'),
  enc('€'),
  enc('𝄞'),
  enc('\uFFFD'),
  [0xe9],
  [0x80],
  [0xe2, 0x82],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xf0, 0x9d],
);
const bytes = fc.array(piece, { maxLength: 40 }).map((ps) => Uint8Array.from(ps.flat()));

const state = (s: Utf8Scanner) => ({ count: s.count, bad: [...s.bad.values()] });

describe('Utf8Scanner.pushDecoded', () => {
  it('finds the same bad bytes, lines and offsets as a full scan, at any chunk sizes', () => {
    fc.assert(
      fc.property(bytes, fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 8 }), (b, sizes) => {
        const scan = new Utf8Scanner();
        const decoder = new TextDecoder('utf-8');
        let at = 0;
        for (let k = 0; at < b.length || k === 0; k++) {
          const chunk = b.slice(at, at + sizes[k % sizes.length]!);
          at += chunk.length;
          const last = at >= b.length;
          scan.pushDecoded(chunk, last, decoder.decode(chunk, { stream: !last }));
        }
        expect(state(scan)).toEqual(state(findBadUtf8(b)));
      }),
      { numRuns: 2000 },
    );
  });

  it('counts the lines of chunks it does not scan, so a later bad byte names its line', () => {
    const b = Uint8Array.from([...enc('a\nb\n€\n'), 0xe9, ...enc('\n')]);
    const scan = new Utf8Scanner();
    const decoder = new TextDecoder('utf-8');
    // Cut inside the euro sign: the first chunk is clean, and its cut character is carried.
    for (const [chunk, last] of [
      [b.slice(0, 5), false],
      [b.slice(5), true],
    ] as const)
      scan.pushDecoded(chunk, last, decoder.decode(chunk, { stream: !last }));
    expect(state(scan)).toEqual({ count: 1, bad: [{ offset: 8, line: 4, byte: 0xe9 }] });
  });
});

describe('Utf8StreamDecoder', () => {
  it('gives the text a replacing TextDecoder gives, for any bytes cut into any chunks (the buffer reused)', () => {
    const withBom = fc.tuple(fc.boolean(), bytes).map(([bom, b]) => (bom ? Uint8Array.from([0xef, 0xbb, 0xbf, ...b]) : b));
    fc.assert(
      fc.property(withBom, fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 8 }), (b, sizes) => {
        const decoder = new Utf8StreamDecoder();
        const buf = new Uint8Array(16);
        let text = '';
        let at = 0;
        for (let k = 0; at < b.length || k === 0; k++) {
          const n = Math.min(sizes[k % sizes.length]!, b.length - at);
          // Each chunk is written over the last one, as blobPieces reuses its buffer.
          buf.fill(0xff);
          buf.set(b.subarray(at, at + n));
          at += n;
          text += decoder.decode(buf.subarray(0, n), at >= b.length);
        }
        expect(text).toBe(new TextDecoder('utf-8').decode(b));
      }),
      { numRuns: 2000 },
    );
  });
});
