/**
 * Work started ahead and taken in the order it was started: how the run engine (session/engine.ts) schedules its
 * jobs, and scoreRows the batches it hands to scoring threads. Each result is taken as soon as it and every one
 * before it are, one at a time; after a failure nothing more is taken, and `until` throws it.
 */
export class InOrder<R> {
  private tail: Promise<void> = Promise.resolve();
  private readonly taken: Promise<void>[] = [];

  constructor(private readonly take: (result: R) => Promise<void> | void) {}

  /** A job's result, taken after those added before it. */
  add(result: Promise<R>): void {
    result.catch(() => {}); // taken below in order; one left behind when another fails is not unhandled
    const t = this.tail.then(() => result).then((r) => this.take(r));
    t.catch(() => {}); // thrown by until()
    this.tail = t;
    this.taken.push(t);
  }

  /** Waits until at most `n` jobs are left untaken; throws the failure of a job before them. */
  async until(n: number): Promise<void> {
    while (this.taken.length > n) {
      await this.taken[0];
      this.taken.shift();
    }
  }
}
