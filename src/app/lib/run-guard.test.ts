/** The page's watchdog: a busy worker that answers is left alone, a silent one is declared dead, and recoveries are bounded. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RecoveryBudget, stuckMessage, watch } from './run-guard.ts';

describe('watch', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('leaves a busy worker alone while it answers, however long the run', async () => {
    const onDead = vi.fn();
    // Answers each ping after 300 ms (a slice of long rows in progress).
    const stop = watch({
      pingScore: () => new Promise((r) => setTimeout(() => r({ ok: true, value: 1 }), 300)),
      pingModels: () => null,
      onDead,
      interval: 2000,
      timeout: 8000,
    });
    await vi.advanceTimersByTimeAsync(120_000);
    stop();
    expect(onDead).not.toHaveBeenCalled();
  });

  it('declares a silent worker dead once, and which one', async () => {
    const onDead = vi.fn();
    watch({
      pingScore: () => Promise.resolve({ ok: true, value: 1 }),
      pingModels: () => new Promise(() => {}),
      onDead,
      interval: 2000,
      timeout: 8000,
    });
    await vi.advanceTimersByTimeAsync(9_000);
    expect(onDead).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(onDead).toHaveBeenCalledWith('models');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(onDead).toHaveBeenCalledTimes(1);
  });

  it('a ping that fails (the worker was terminated) is death too; a stopped watch says nothing', async () => {
    const onDead = vi.fn();
    watch({ pingScore: () => Promise.reject(new Error('gone')), pingModels: () => null, onDead });
    await vi.advanceTimersByTimeAsync(2_100);
    expect(onDead).toHaveBeenCalledWith('scoring');
    // A ping that answers a failure (a scoring pool worker stopped answering) is death as well.
    const failed = vi.fn();
    const stopFailed = watch({
      pingScore: () =>
        Promise.resolve({ ok: false, error: { code: 'unavailable', message: 'scoring worker 1 of 2 stopped answering', details: {} } }),
      pingModels: () => null,
      onDead: failed,
    });
    await vi.advanceTimersByTimeAsync(2_100);
    stopFailed();
    expect(failed).toHaveBeenCalledWith('scoring');
    const quiet = vi.fn();
    const stop = watch({ pingScore: () => new Promise(() => {}), pingModels: () => null, onDead: quiet });
    await vi.advanceTimersByTimeAsync(3_000);
    stop();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(quiet).not.toHaveBeenCalled();
  });
});

describe('RecoveryBudget', () => {
  it('allows three recoveries at one saved point, and starts over once the run moved on', () => {
    const b = new RecoveryBudget(3);
    expect([b.allow('r', 4000), b.allow('r', 4000), b.allow('r', 4000), b.allow('r', 4000)]).toEqual([true, true, true, false]);
    expect(b.failures).toBe(4);
    expect(b.allow('r', 6000)).toBe(true);
    expect(b.allow('other', 6000)).toBe(true);
  });

  it('names the rows the run keeps failing on', () => {
    expect(stuckMessage('the scoring worker stopped answering', 4000, 2000, 5000, 3)).toMatch(
      /^the scoring worker stopped answering 3 times while scoring rows 4,001–5,000 of 5,000; the run is stopped there/,
    );
  });
});
