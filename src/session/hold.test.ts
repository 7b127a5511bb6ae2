/**
 * The page's hold on the cores: the shared counter, a worker's wait and its budget (with a fake clock), and a real
 * wake-up across threads (Node's worker_threads share memory as browser workers do).
 */
import { describe, expect, it } from 'vitest';
import { Worker } from 'node:worker_threads';
import { Yielder, createHoldFlag, hold, type HoldFlag } from './hold.ts';

/** A clock and an Atomics.wait stand-in: each wait advances the clock, and may let go of the hold meanwhile. */
function fakeTime(flag: HoldFlag, releaseAfter = Infinity) {
  const t = { now: 0, waits: [] as number[] };
  let held = 0;
  const wait = (_f: HoldFlag, _i: number, _v: number, timeout: number) => {
    t.waits.push(timeout);
    const step = Math.min(timeout, releaseAfter - held);
    t.now += step;
    held += step;
    if (held >= releaseAfter) Atomics.store(flag, 0, 0);
  };
  return { t, wait, now: () => t.now };
}

describe('hold', () => {
  it('counts overlapping holds, and each lets go once', () => {
    const flag = createHoldFlag()!;
    const a = hold(flag);
    const b = hold(flag);
    expect(flag[0]).toBe(2);
    a();
    a();
    expect(flag[0]).toBe(1);
    b();
    expect(flag[0]).toBe(0);
  });

  it('is nothing without shared memory', () => {
    expect(() => hold(null)()).not.toThrow();
  });
});

describe('Yielder', () => {
  it('does not wait while the page holds nothing', () => {
    const flag = createHoldFlag()!;
    const f = fakeTime(flag);
    const y = new Yielder(flag, { now: f.now, wait: f.wait });
    for (let i = 0; i < 100; i++) y.check();
    expect(f.t.waits).toEqual([]);
    expect(y.waited).toBe(0);
  });

  it('while nothing is held, steps off the core briefly after a stretch of work', () => {
    const flag = createHoldFlag()!;
    const f = fakeTime(flag);
    const y = new Yielder(flag, { now: f.now, wait: f.wait, breatheEveryMs: 16, breatheMs: 1 });
    // Rows of 5 ms: a breath after the 4th (20 ms of work), then after every 4th again.
    for (let i = 0; i < 12; i++) {
      f.t.now += 5;
      y.check();
    }
    expect(f.t.waits).toEqual([1, 1, 1]);
    expect(y.breathed).toBe(3);
    const never = new Yielder(flag, { now: f.now, wait: f.wait, breatheMs: 0 });
    f.t.now += 100;
    never.check();
    expect(f.t.waits).toHaveLength(3);
  });

  it('waits until the page lets go', () => {
    const flag = createHoldFlag()!;
    const f = fakeTime(flag, 30);
    const y = new Yielder(flag, { now: f.now, wait: f.wait });
    hold(flag);
    y.check();
    expect(y.waited).toBe(30);
    expect(flag[0]).toBe(0);
  });

  it('waits at most a burst at a time, and a share of its time in all', () => {
    const flag = createHoldFlag()!;
    const f = fakeTime(flag);
    const y = new Yielder(flag, { now: f.now, wait: f.wait, burstMs: 200, share: 0.25 });
    hold(flag); // never let go
    y.check();
    expect(y.waited).toBe(200);
    // The budget is spent: the next checks go on at once, without a call to wait, until it is worth one again.
    const calls = f.t.waits.length;
    for (let i = 0; i < 3; i++) {
      f.t.now += 5;
      y.check();
    }
    expect(y.waited).toBe(200);
    expect(f.t.waits.length).toBe(calls);
    // 400 ms of work in all earn 100 ms of waiting; 2,000 ms earn no more than a burst.
    f.t.now += 385;
    y.check();
    expect(y.waited).toBe(300);
    f.t.now += 2000;
    y.check();
    expect(y.waited).toBe(500);
    // Over the whole time, a quarter (the first burst comes on top).
    expect(y.waited).toBeLessThanOrEqual(200 + 0.25 * f.t.now);
  });

  it('wakes when another thread lets go, before its burst is over', async () => {
    const flag = createHoldFlag()!;
    hold(flag);
    const other = new Worker(
      `const { workerData: f } = require('node:worker_threads');
       setTimeout(() => { Atomics.sub(f, 0, 1); Atomics.notify(f, 0); }, 20);`,
      { eval: true, workerData: flag },
    );
    await new Promise((r) => other.once('online', r));
    const y = new Yielder(flag, { burstMs: 10_000 });
    y.check();
    expect(flag[0]).toBe(0);
    expect(y.waited).toBeGreaterThan(0);
    expect(y.waited).toBeLessThan(10_000);
    await other.terminate();
  }, 600_000);
});
