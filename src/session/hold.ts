/**
 * The page's claim on the cores while it draws. Web workers have no priority: while a run of embedded metrics
 * scores on every core, the page's main thread waits for one, and the frame that draws a run's first rows (7–16 ms
 * of work) took over 50 ms on a two-core machine (bench:app), and so did the frames that show the run's progress
 * (2–6 ms of work; bench:app --trace). So the page raises a counter shared with the pool workers while it draws
 * such a frame, and the workers, between two rows, wait while it is up.
 *
 * The wait has a budget: a worker waits at most `burstMs` at a time and a `share` of its time in all, so a page
 * that never lowers the counter (or draws all the time) slows scoring by at most that share.
 *
 * The frames the page cannot announce (a paint it did not ask for, a collection) get a core another way: while
 * nothing is held, a worker steps off its core for 1 ms after every 16 ms of work (about 6% of its time).
 *
 * The counter needs a SharedArrayBuffer, i.e. a cross-origin isolated page; elsewhere there is no hold and the
 * workers never wait.
 */

/** A shared counter: 0 when the page does not hold the cores. */
export type HoldFlag = Int32Array;

/** A new counter, or null where memory cannot be shared (a page that is not cross-origin isolated). */
export function createHoldFlag(): HoldFlag | null {
  if (typeof SharedArrayBuffer !== 'function' || globalThis.crossOriginIsolated === false) return null;
  return new Int32Array(new SharedArrayBuffer(4));
}

/** Raises the counter until the returned function is called (once; later calls do nothing). Holds may overlap. */
export function hold(flag: HoldFlag | null): () => void {
  if (!flag) return () => {};
  Atomics.add(flag, 0, 1);
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    if (Atomics.sub(flag, 0, 1) === 1) Atomics.notify(flag, 0);
  };
}

export interface YieldOptions {
  /** Longest wait at a time (ms). */
  burstMs?: number;
  /** Fraction of the worker's time it may spend waiting, over time. */
  share?: number;
  /** Shortest wait worth a call: with less budget left, the worker goes on (no storm of tiny sleeps per row). */
  minMs?: number;
  /** While the page holds nothing: after this long of work (ms), step off the core for `breatheMs` (0: never). */
  breatheEveryMs?: number;
  breatheMs?: number;
  now?: () => number;
  /** Atomics.wait, replaceable in tests. */
  wait?: (flag: HoldFlag, index: number, value: number, timeoutMs: number) => unknown;
}

/**
 * A worker's side: `check()` between two pieces of work returns at once unless the page holds the cores, and
 * then waits until it lets go, within the budget (a token bucket: it fills at `share` ms a ms, up to `burstMs`).
 */
export class Yielder {
  /** The counter read: replaceable, the budget stays. */
  flag: HoldFlag;
  readonly #burst: number;
  readonly #share: number;
  readonly #min: number;
  readonly #now: () => number;
  readonly #wait: NonNullable<YieldOptions['wait']>;
  readonly #every: number;
  readonly #breathe: number;
  #budget: number;
  #at: number;
  #ranSince: number;

  constructor(
    flag: HoldFlag,
    {
      burstMs = 250,
      share = 0.25,
      minMs = 4,
      breatheEveryMs = 16,
      breatheMs = 1,
      now = () => performance.now(),
      wait = Atomics.wait,
    }: YieldOptions = {},
  ) {
    this.flag = flag;
    this.#burst = burstMs;
    this.#share = share;
    this.#min = minMs;
    this.#now = now;
    this.#wait = wait;
    this.#every = breatheEveryMs;
    this.#breathe = breatheMs;
    this.#budget = burstMs;
    this.#at = now();
    this.#ranSince = this.#at;
  }

  /** Milliseconds waited so far (the tests read it). */
  waited = 0;

  /** Milliseconds spent stepping off the core while the page held nothing. */
  breathed = 0;

  check(): void {
    if (Atomics.load(this.flag, 0) === 0) {
      // The frames the page does not announce (a paint, a collection's pause) find a core within about
      // `breatheEveryMs`: on two cores two scoring workers and V8's helper threads could keep one waiting 50 ms.
      if (this.#breathe <= 0) return;
      const t = this.#now();
      if (t - this.#ranSince < this.#every) return;
      this.#wait(this.flag, 0, 0, this.#breathe);
      this.#ranSince = this.#now();
      this.breathed += this.#ranSince - t;
      return;
    }
    const t = this.#now();
    this.#budget = Math.min(this.#burst, this.#budget + (t - this.#at) * this.#share);
    this.#at = t;
    if (this.#budget < this.#min) return;
    const end = t + this.#budget;
    for (let v = Atomics.load(this.flag, 0); v !== 0; v = Atomics.load(this.flag, 0)) {
      const left = end - this.#now();
      if (left <= 0) break;
      this.#wait(this.flag, 0, v, left);
    }
    const after = this.#now();
    this.#budget = Math.max(0, this.#budget - (after - t));
    this.waited += after - t;
    this.#at = after;
    this.#ranSince = after;
  }
}
