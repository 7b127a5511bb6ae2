/**
 * Asks V8 for a full garbage collection now, the one way a page or worker can: V8 starts one (incremental marking)
 * when the memory held outside its heap (ArrayBuffers) grows 64 MB past what it was at the last one. So this
 * allocates a few 64 MB buffers and drops them. They are never written, and fresh mappings are zeroed by the
 * system, so they cost address space, not memory.
 *
 * Why: a million-row file's parsed records (about 150 MB in the scoring worker) are dropped when its run starts,
 * and they then waited in V8's old generation until allocation filled it. That came 15–20 s into the run, while
 * the pool workers' heaps were growing, and made the run's peak (bench/REPORT.md). The same holds for what a
 * thread that never pauses leaves behind: the reading's spent pieces, and a pool worker's job messages, whose bytes
 * Chromium frees only in a full collection (session/input.ts, session/pool.ts ask every so many bytes).
 */
export function requestCollection(): number {
  const buffers: ArrayBuffer[] = [];
  for (let i = 0; i < 3; i++) buffers.push(new ArrayBuffer(64 << 20));
  // Returned so no engine can drop the allocations as unused.
  return buffers.reduce((n, b) => n + b.byteLength, 0);
}

/**
 * One requestCollection whose failure (a system that commits the buffers' memory and has none to spare) is ignored:
 * for callers in the middle of other work (reading a file, scoring a job), which must never fail for it.
 */
export function askForCollection(request: () => unknown = requestCollection): void {
  try {
    request();
  } catch {
    // An optimisation, never worth an error.
  }
}

let registry: FinalizationRegistry<() => void> | null = null;
const settleOnCollection = (settle: () => void): void => settle();

/** Settles once `target` was garbage-collected (never, while anything still holds it). */
export function whenCollected(target: object): Promise<void> {
  // No closure here may see `target`: closures made in one call share its scope, and the registry keeps
  // whatever its callback holds, so a callback made here would keep the target alive for good.
  registry ??= new FinalizationRegistry(settleOnCollection);
  let settle!: () => void;
  const gone = new Promise<void>((resolve) => (settle = resolve));
  registry.register(target, settle);
  return gone;
}

/**
 * Requests a collection now and again every `everyMs` until `gone` settles, at most `times` in all; resolves with
 * how many it made. Once is not always enough: a collection already under way when the records were dropped
 * had marked them live, and it is that one which V8 finishes. A request that fails (a system that commits the
 * buffers' memory and has none to spare) ends the requests: they are an optimisation, never worth an error.
 */
export function collectUntil(
  gone: Promise<unknown>,
  everyMs = 1000,
  times = 8,
  request: () => unknown = requestCollection,
): Promise<number> {
  let settled = false;
  gone.then(
    () => (settled = true),
    () => (settled = true),
  );
  return new Promise((resolve) => {
    let made = 0;
    const nudge = () => {
      if (settled || made >= times) return resolve(made);
      try {
        request();
      } catch {
        return resolve(made);
      }
      made++;
      setTimeout(nudge, everyMs);
    };
    nudge();
  });
}
