import { describe, expect, it } from 'vitest';
import { blobPieces } from './pieces.ts';

const collect = async (blob: Blob, size: number) => {
  const out: number[][] = [];
  let buffer: ArrayBufferLike | null = null;
  let same = true;
  for await (const p of blobPieces(blob, size)) {
    out.push([...p]);
    // Every piece lands in the memory of the one before.
    if (buffer && p.buffer !== buffer) same = false;
    buffer = p.buffer;
  }
  return { out, same };
};

describe('blobPieces', () => {
  it('gives the bytes in pieces of the size asked for, the last shorter, through one buffer', async () => {
    const bytes = Uint8Array.from({ length: 23 }, (_, i) => i);
    // A blob of several parts: a read may return fewer bytes than asked, and pieces still come whole.
    const blob = new Blob([bytes.slice(0, 3), bytes.slice(3, 11), bytes.slice(11)]);
    const { out, same } = await collect(blob, 5);
    expect(out.map((p) => p.length)).toEqual([5, 5, 5, 5, 3]);
    expect(out.flat()).toEqual([...bytes]);
    expect(same).toBe(true);
    expect((await collect(blob, 100)).out).toEqual([[...bytes]]);
    expect((await collect(blob, 23)).out).toEqual([[...bytes]]);
    expect((await collect(new Blob([]), 4)).out).toEqual([]);
  });
});
