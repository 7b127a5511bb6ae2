/**
 * What ran inside the page's long tasks, from a Chrome trace (bench:app's compare case with `--trace`).
 *
 * The Long Tasks API gives a task's time and length, and long-animation-frame entries name the scripts; a task
 * that runs no script (a garbage collection, say) gets no such entry, so nothing said what it was. A trace of the
 * renderer's main thread does: each task's wall time, the CPU time the thread got meanwhile (far less on a
 * machine whose cores the scoring workers hold), and the events inside it.
 */

/** The trace categories the summary reads: tasks (toplevel), page events (devtools.timeline), V8's collector. */
export const TRACE_CATEGORIES = ['toplevel', 'devtools.timeline', 'disabled-by-default-v8.gc'];

export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  /** µs */
  ts: number;
  dur?: number;
  /** Thread (CPU) time, µs. */
  tdur?: number;
  args?: { name?: string; data?: { type?: string } };
}

export interface TracedTask {
  /** Seconds from `origin` (bench:app: the Run click). */
  at: number;
  ms: number;
  /** CPU time the main thread got during the task. */
  cpuMs: number;
  /** The longest kinds of event inside the task, [name, ms summed], longest first. */
  inside: [string, number][];
}

const TASK_NAMES = new Set(['ThreadControllerImpl::RunTask', 'RunTask']);
const round1 = (x: number) => Math.round(x * 10) / 10;

/** The first click's dispatch on the renderer's main thread, µs; null without one. */
export function clickTime(events: TraceEvent[]): number | null {
  const main = mainThread(events);
  const click = events.find((e) => `${e.pid}:${e.tid}` === main && e.name === 'EventDispatch' && e.args?.data?.type === 'click');
  return click ? click.ts : null;
}

/** `pid:tid` of the page's main thread (the renderer's CrRendererMain with the most events, if several). */
function mainThread(events: TraceEvent[]): string | null {
  const mains = new Set(
    events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`),
  );
  const counts = new Map<string, number>();
  for (const e of events) {
    const k = `${e.pid}:${e.tid}`;
    if (mains.has(k)) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

/**
 * The page's main-thread tasks of at least `minMs`, in order, each with the `top` longest kinds of event inside
 * it (nested events count in their own right: a collection shows as MajorGC and as its phases).
 */
export function longTasks(events: TraceEvent[], minMs: number, origin: number, top = 6): TracedTask[] {
  const main = mainThread(events);
  const mine = events.filter((e) => e.ph === 'X' && `${e.pid}:${e.tid}` === main).sort((a, b) => a.ts - b.ts);
  const out: TracedTask[] = [];
  let last = -Infinity;
  for (let i = 0; i < mine.length; i++) {
    const task = mine[i]!;
    // A task event inside another (one task traced twice) is not a task of its own.
    if (!TASK_NAMES.has(task.name) || task.ts < last || (task.dur ?? 0) < minMs * 1000) continue;
    const end = task.ts + task.dur!;
    last = end;
    const sums = new Map<string, number>();
    for (let j = i + 1; j < mine.length && mine[j]!.ts < end; j++) {
      const e = mine[j]!;
      if (TASK_NAMES.has(e.name) || e.ts + (e.dur ?? 0) > end) continue;
      sums.set(e.name, (sums.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
    }
    out.push({
      at: Math.round((task.ts - origin) / 1e5) / 10,
      ms: round1(task.dur! / 1000),
      cpuMs: round1((task.tdur ?? 0) / 1000),
      inside: [...sums]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([n, ms]) => [n, round1(ms)]),
    });
  }
  return out;
}
