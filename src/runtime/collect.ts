/**
 * Asks V8 for a full garbage collection now, the one way a page or worker can: V8 starts one when the memory
 * held outside its heap (ArrayBuffers) grows past a limit, 64 MB above what it was at the last one. So this
 * allocates a few 64 MB buffers and drops them. They are never written, and fresh mappings are zeroed by the
 * system, so they cost address space, not memory.
 *
 * Why: a million-row file's parsed records (about 150 MB in the scoring worker) are dropped when its run starts,
 * and they then wait in V8's old generation until allocation fills it. That came 15–20 s into the run, while the
 * pool workers' heaps were growing, and made the run's peak (bench/REPORT.md, issue 16 target 3).
 */
export function requestCollection(): number {
  const buffers: ArrayBuffer[] = [];
  for (let i = 0; i < 3; i++) buffers.push(new ArrayBuffer(64 << 20));
  // Returned so no engine can drop the allocations as unused.
  return buffers.reduce((n, b) => n + b.byteLength, 0);
}
