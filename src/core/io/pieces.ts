/**
 * A blob's bytes in pieces of `size` bytes (the last one shorter), all in one buffer that is reused. Reading a
 * piece at a time with `blob.slice().arrayBuffer()` left every piece to the collector: a 4 MB buffer lives through
 * the parsing of its lines, so it reaches the old generation, and after a 517 MB file was read Chromium still held
 * ~575 MB of spent buffers until the worker's next full collection, tens of seconds into the run. The stream's own
 * chunks (tens of KB) are copied at once and die young. A piece is valid until the next one is asked for.
 */
export async function* blobPieces(blob: Blob, size: number): AsyncGenerator<Uint8Array<ArrayBuffer>, void> {
  if (blob.size === 0) return;
  const buf = new Uint8Array(Math.max(1, Math.min(size, blob.size)));
  const reader = blob.stream().getReader();
  let filled = 0;
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      let chunk: Uint8Array = r.value;
      while (chunk.length > 0) {
        const n = Math.min(chunk.length, buf.length - filled);
        buf.set(chunk.subarray(0, n), filled);
        filled += n;
        chunk = chunk.subarray(n);
        if (filled === buf.length) {
          yield buf;
          filled = 0;
        }
      }
    }
    if (filled > 0) yield buf.subarray(0, filled);
  } finally {
    reader.releaseLock();
  }
}
