/**
 * A run's speed, told with its time left: rows a second over the last `windowMs`. Counted from the run's start
 * instead, its first seconds (each pool worker's first pass over answers it has not seen, about a third of its
 * later speed) stayed in the average to the end: a million-row run in the app was told 62 s left at 15 s when ~39
 * were, and too long all the way. The CLI's progress bar also estimates from its recent updates.
 */
export class RecentRate {
  /** (time in ms, rows done): the oldest kept is the last one at or before the window's start. */
  private readonly samples: { t: number; done: number }[] = [];

  /** `t`, `done`: the run's start (rows already done when it resumes). */
  constructor(
    t: number,
    done: number,
    private readonly windowMs = 10_000,
  ) {
    this.samples.push({ t, done });
  }

  /** Rows a second over the last window (over the whole run while it is shorter), `done` rows at time `t` (ms). */
  at(t: number, done: number): number {
    const s = this.samples;
    s.push({ t, done });
    while (s.length > 2 && s[1]!.t <= t - this.windowMs) s.shift();
    const first = s[0]!;
    return t > first.t ? ((done - first.done) * 1000) / (t - first.t) : 0;
  }
}
