/**
 * collectUntil: dropped old-generation objects are collected soon after, not when the old generation fills (which
 * young allocation alone never does: without the requests the records below stay).
 */
import { describe, expect, it } from 'vitest';
import { askForCollection, collectUntil, whenCollected } from './collect.ts';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** ~150 MB of records, made and dropped inside a function: old by its end (they outlived young collections). */
async function dropRecords(): Promise<{ gone: Promise<void> }> {
  const records: { id: string; gold: number[] }[] = [];
  for (let i = 0; i < 1_500_000; i++) records.push({ id: `r${i}`, gold: [i] });
  await wait(20);
  expect(records.length).toBe(1_500_000);
  // Wrapped: an async function returning the promise itself would wait for it.
  return { gone: whenCollected(records) };
}

/** What a run goes on to do: small short-lived allocations (they finish the marking a request started). */
function youngWork(): number {
  let n = 0;
  for (let i = 0; i < 1_000_000; i++) n += [i, i + 1].length;
  return n;
}

describe('collectUntil', () => {
  it('asks again until the records are collected, and then stops', async () => {
    const { gone } = await dropRecords();
    let collected = false;
    void gone.then(() => (collected = true));
    const made = collectUntil(gone, 30, 20);
    for (let k = 0; k < 100 && !collected; k++) {
      youngWork();
      await wait(10);
    }
    expect(collected).toBe(true);
    const n = await made;
    expect(n).toBeGreaterThanOrEqual(1);
    expect(n).toBeLessThan(20);
  });

  it('gives up after `times` requests when nothing is collected', async () => {
    const kept = { still: 'held' };
    expect(await collectUntil(whenCollected(kept), 1, 3)).toBe(3);
    expect(kept.still).toBe('held');
  });

  it('stops without an error when a request fails (no memory to spare for the buffers)', async () => {
    let asked = 0;
    const failing = () => {
      asked++;
      throw new RangeError('Array buffer allocation failed');
    };
    expect(await collectUntil(new Promise(() => {}), 1, 5, failing)).toBe(0);
    expect(asked).toBe(1);
  });
});

describe('askForCollection', () => {
  it('asks once, and a request that fails is no error for the work around it', () => {
    let asked = 0;
    askForCollection(() => asked++);
    expect(asked).toBe(1);
    expect(() =>
      askForCollection(() => {
        throw new RangeError('Array buffer allocation failed');
      }),
    ).not.toThrow();
  });
});
