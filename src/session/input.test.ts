/**
 * The session's input while it reads a file: the reading's progress goes on as it was, and a collection is asked
 * for once per so many bytes read (the spent pieces and stream chunks otherwise wait for a late full collection).
 */
import { describe, expect, it } from 'vitest';
import { SessionInput } from './input.ts';

/** `n` JSONL rows of about 110 bytes. */
const file = (n: number): Blob =>
  new Blob(
    Array.from(
      { length: n },
      (_, i) =>
        `${JSON.stringify({ id: `r${i}`, question: `Question ${i} about a topic?`, gold: [`answer ${i % 97}`], candidate: `the answer ${i % 97} is right` })}\n`,
    ),
  );

describe('reading a file', () => {
  it('asks for a collection once per so many bytes read, and none for a small file', async () => {
    const big = file(100_000);
    for (const [blob, every] of [
      [big, 4 << 20],
      [file(2000), 4 << 20],
      [big, 64 << 20],
    ] as const) {
      let asked = 0;
      const progress: number[] = [];
      const input = new SessionInput(undefined, () => asked++, every);
      await input.open(blob, 'f.jsonl', { onProgress: (read) => progress.push(read) });
      // The reading's progress goes on as before; the asks come with it, at least `every` bytes apart.
      expect(progress.at(-1)).toBe(blob.size);
      const crossings = progress.filter((read, i) => Math.floor(read / every) > Math.floor((progress[i - 1] ?? 0) / every)).length;
      expect(asked, `${blob.size} bytes, every ${every}`).toBe(crossings);
      expect(asked).toBeLessThanOrEqual(Math.floor(blob.size / every));
      if (blob.size >= 2 * every) expect(asked).toBeGreaterThan(0);
    }
  });
});
