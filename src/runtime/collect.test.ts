/** requestCollection: dropped old-generation objects are collected soon after, not when the old generation fills. */
import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { requestCollection } from './collect.ts';

const usedMb = () => getHeapStatistics().used_heap_size / 2 ** 20;

describe('requestCollection', () => {
  it('gets ~150 MB of dropped records collected within a little young allocation', async () => {
    // Made and dropped inside a function: old by its end, as they outlived the young generation's collections.
    const before = await (async () => {
      const records: { id: string; gold: number[] }[] = [];
      for (let i = 0; i < 1_500_000; i++) records.push({ id: `r${i}`, gold: [i] });
      await new Promise((r) => setTimeout(r, 20));
      expect(records.length).toBe(1_500_000);
      return usedMb();
    })();
    expect(requestCollection()).toBe(3 * 64 * 2 ** 20);
    // What a run goes on to do: small short-lived allocations (they finish the marking the call started).
    let n = 0;
    for (let i = 0; i < 1_000_000; i++) n += [i, i + 1].length;
    await new Promise((r) => setTimeout(r, 20));
    expect(n).toBe(2_000_000);
    expect(before - usedMb()).toBeGreaterThan(100);
  });
});
