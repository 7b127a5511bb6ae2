/** bench/trace-tasks.ts on a small hand-written trace: which tasks are long, and what ran inside them. */
import { describe, expect, it } from 'vitest';
import { clickTime, longTasks, type TraceEvent } from '../bench/trace-tasks.ts';

const M = (pid: number, tid: number, name: string): TraceEvent => ({ name: 'thread_name', ph: 'M', pid, tid, ts: 0, args: { name } });
const X = (tid: number, name: string, ts: number, dur: number, tdur?: number, type?: string): TraceEvent => ({
  name,
  ph: 'X',
  pid: 1,
  tid,
  ts,
  dur,
  ...(tdur === undefined ? {} : { tdur }),
  ...(type ? { args: { data: { type } } } : {}),
});

// Thread 10 is the page's main thread; 20 a worker whose long task must not count.
const trace: TraceEvent[] = [
  M(1, 10, 'CrRendererMain'),
  M(1, 20, 'DedicatedWorker thread'),
  X(10, 'ThreadControllerImpl::RunTask', 1_000_000, 5_000, 4_000),
  X(10, 'EventDispatch', 1_000_500, 3_000, 3_000, 'click'),
  // 60 ms on the wall, 12 ms of CPU: a collection and its two phases.
  X(10, 'ThreadControllerImpl::RunTask', 3_000_000, 60_000, 12_000),
  X(10, 'MajorGC', 3_000_100, 59_000),
  X(10, 'V8.GC_MC_MARK', 3_000_200, 20_000),
  X(10, 'V8.GC_MC_EVACUATE', 3_020_300, 38_000),
  // The same task traced twice: counted once.
  X(10, 'RunTask', 3_000_050, 59_500),
  // Short: left out at 50 ms.
  X(10, 'ThreadControllerImpl::RunTask', 4_000_000, 45_000, 45_000),
  X(20, 'ThreadControllerImpl::RunTask', 5_000_000, 900_000, 900_000),
  // An event that runs past its task's end is not inside it.
  X(10, 'ThreadControllerImpl::RunTask', 6_500_000, 51_000),
  X(10, 'FunctionCall', 6_500_100, 30_000),
  X(10, 'Layout', 6_549_000, 5_000),
];

describe('longTasks', () => {
  it('finds the main thread click', () => {
    expect(clickTime(trace)).toBe(1_000_500);
  });

  it('lists the main thread tasks of at least minMs, with what ran inside, from the origin', () => {
    expect(longTasks(trace, 50, 1_000_500)).toEqual([
      {
        at: 2,
        ms: 60,
        cpuMs: 12,
        inside: [
          ['MajorGC', 59],
          ['V8.GC_MC_EVACUATE', 38],
          ['V8.GC_MC_MARK', 20],
        ],
      },
      { at: 5.5, ms: 51, cpuMs: 0, inside: [['FunctionCall', 30]] },
    ]);
    expect(longTasks(trace, 40, 0).map((t) => t.ms)).toEqual([60, 45, 51]);
    expect(longTasks(trace, 50, 0, 1)[0]!.inside).toEqual([['MajorGC', 59]]);
  });

  it('says nothing without a main thread or a click', () => {
    expect(
      longTasks(
        trace.slice(1).filter((e) => e.tid !== 10),
        50,
        0,
      ),
    ).toEqual([]);
    expect(clickTime(trace.filter((e) => e.name !== 'EventDispatch'))).toBeNull();
  });
});
