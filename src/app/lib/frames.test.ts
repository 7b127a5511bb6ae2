/** Sections mount one per drawn frame, in order; cancelled ones never; a tab that draws no frames still gets them. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { holdNextFrame, holdUntilDrawn, inOwnFrame, whenDrawn } from './frames.ts';

describe('inOwnFrame', () => {
  let frameCallbacks: (() => void)[] = [];
  /** The browser draws a frame: rAF callbacks run, then the tasks queued after it. */
  const drawFrame = async () => {
    const cbs = frameCallbacks;
    frameCallbacks = [];
    for (const cb of cbs) cb();
    await vi.advanceTimersByTimeAsync(0);
  };

  beforeEach(() => {
    vi.useFakeTimers();
    frameCallbacks = [];
    vi.stubGlobal('requestAnimationFrame', (cb: () => void) => frameCallbacks.push(cb));
  });
  afterEach(async () => {
    // Let the queue drain so one test's pieces do not reach the next.
    await vi.advanceTimersByTimeAsync(1000);
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('runs one piece per drawn frame, in the order queued', async () => {
    const ran: string[] = [];
    for (const name of ['table', 'report', 'charts']) inOwnFrame(() => ran.push(name));
    await vi.advanceTimersByTimeAsync(0);
    expect(ran).toEqual([]);
    await drawFrame();
    expect(ran).toEqual(['table']);
    await drawFrame();
    expect(ran).toEqual(['table', 'report']);
    await drawFrame();
    expect(ran).toEqual(['table', 'report', 'charts']);
  });

  it('skips cancelled pieces without spending a frame on them', async () => {
    const ran: string[] = [];
    inOwnFrame(() => ran.push('a'));
    const cancelB = inOwnFrame(() => ran.push('b'));
    inOwnFrame(() => ran.push('c'));
    cancelB();
    await drawFrame();
    await drawFrame();
    expect(ran).toEqual(['a', 'c']);
  });

  it('goes on without frames (a hidden tab draws none), a piece each 100 ms', async () => {
    const ran: number[] = [];
    inOwnFrame(() => ran.push(1));
    inOwnFrame(() => ran.push(2));
    await vi.advanceTimersByTimeAsync(99);
    expect(ran).toEqual([]);
    await vi.advanceTimersByTimeAsync(2);
    expect(ran).toEqual([1]);
    await vi.advanceTimersByTimeAsync(101);
    expect(ran).toEqual([1, 2]);
  });

  it('a piece that throws does not keep the others from running, and its error is reported', async () => {
    const reported: unknown[] = [];
    vi.stubGlobal('reportError', (e: unknown) => reported.push(e));
    const ran: string[] = [];
    inOwnFrame(() => {
      throw new Error('broken section');
    });
    inOwnFrame(() => ran.push('next'));
    await drawFrame();
    await drawFrame();
    expect(ran).toEqual(['next']);
    expect(reported.map((e) => (e as Error).message)).toEqual(['broken section']);
  });

  it('whenDrawn settles a frame after the queued pieces, and those they queue, have run', async () => {
    let frame = 0;
    const at = new Map<string, number>();
    inOwnFrame(() => {
      at.set('results', frame);
      // A section that, once mounted, queues one of its own (the table's rows).
      inOwnFrame(() => at.set('rows', frame));
    });
    inOwnFrame(() => at.set('never', frame))();
    void whenDrawn().then(() => at.set('drawn', frame));
    for (; frame < 8 && !at.has('drawn');) {
      frame++;
      await drawFrame();
    }
    expect([...at.keys()]).toEqual(['results', 'rows', 'drawn']);
    expect(at.get('drawn')).toBeGreaterThan(at.get('rows')!);
  });

  it('several whenDrawn at once all settle, a frame after the pieces queued before them', async () => {
    let frame = 0;
    const at = new Map<string, number>();
    inOwnFrame(() => at.set('results', frame));
    void whenDrawn().then(() => at.set('first', frame));
    void whenDrawn().then(() => at.set('second', frame));
    inOwnFrame(() => at.set('rows', frame));
    void whenDrawn().then(() => at.set('third', frame));
    for (; frame < 8 && at.size < 5;) {
      frame++;
      await drawFrame();
    }
    expect(new Set(at.keys())).toEqual(new Set(['results', 'rows', 'first', 'second', 'third']));
    for (const w of ['first', 'second', 'third']) expect(at.get(w)).toBeGreaterThan(at.get('rows')!);
  });

  it('holdUntilDrawn holds from the call until the frame after the queued pieces is drawn', async () => {
    const events: string[] = [];
    let frame = 0;
    inOwnFrame(() => events.push(`section@${frame}`));
    holdUntilDrawn(() => {
      events.push(`hold@${frame}`);
      return () => events.push(`release@${frame}`);
    });
    expect(events).toEqual(['hold@0']);
    for (; frame < 8 && !events.some((e) => e.startsWith('release'));) {
      frame++;
      await drawFrame();
    }
    expect(events).toEqual(['hold@0', 'section@1', 'release@2']);
  });

  it("holdNextFrame holds from the next frame's animation callbacks until a task after that frame", async () => {
    const events: string[] = [];
    let frame = 0;
    const hold = () => {
      events.push(`hold@${frame}`);
      return () => events.push(`release@${frame}`);
    };
    holdNextFrame(hold);
    holdNextFrame(hold);
    await vi.advanceTimersByTimeAsync(500);
    expect(events).toEqual([]);
    // The frame's callbacks run, the frame is drawn (nothing runs between), then the queued tasks.
    frame = 1;
    const cbs = frameCallbacks;
    frameCallbacks = [];
    for (const cb of cbs) cb();
    expect(events).toEqual(['hold@1', 'hold@1']);
    await vi.advanceTimersByTimeAsync(0);
    expect(events).toEqual(['hold@1', 'hold@1', 'release@1', 'release@1']);
    frame = 2;
    await drawFrame();
    expect(events).toHaveLength(4);
  });
});
