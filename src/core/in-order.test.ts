import { describe, expect, it } from 'vitest';
import { InOrder } from './in-order.ts';

/** A promise and its settling functions. */
function later<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('InOrder', () => {
  it('takes results in the order added, each once it and every one before it are done, one take at a time', async () => {
    const taken: number[] = [];
    let inTake = 0;
    const order = new InOrder<number>(async (n) => {
      expect(++inTake).toBe(1);
      await settle();
      taken.push(n);
      inTake--;
    });
    const jobs = [later<number>(), later<number>(), later<number>()];
    for (const j of jobs) order.add(j.promise);
    jobs[2]!.resolve(2);
    jobs[1]!.resolve(1);
    await settle();
    expect(taken).toEqual([]); // the first is not done: nothing is taken
    jobs[0]!.resolve(0);
    await order.until(1);
    expect(taken).toEqual([0, 1]);
    await order.until(0);
    expect(taken).toEqual([0, 1, 2]);
  });

  it('after a failure takes nothing more, and until throws it (no rejection left unhandled)', async () => {
    const taken: number[] = [];
    const order = new InOrder<number>((n) => void taken.push(n));
    const jobs = [later<number>(), later<number>(), later<number>()];
    for (const j of jobs) order.add(j.promise);
    jobs[0]!.resolve(0);
    jobs[2]!.resolve(2);
    jobs[1]!.reject(new Error('worker died'));
    await expect(order.until(0)).rejects.toThrow('worker died');
    expect(taken).toEqual([0]);
  });

  it('a take that throws fails the order as a job would', async () => {
    const order = new InOrder<number>(() => {
      throw new Error('disk full');
    });
    order.add(Promise.resolve(1));
    order.add(Promise.resolve(2));
    await expect(order.until(0)).rejects.toThrow('disk full');
  });
});
