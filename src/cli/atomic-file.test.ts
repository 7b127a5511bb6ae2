import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AtomicFile, removePending } from './output.ts';

describe('AtomicFile', () => {
  it('many writes that wait for the disk add no listener each: no MaxListenersExceededWarning', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => void warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const path = join(mkdtempSync(join(tmpdir(), 'verity-atomic-')), 'out.jsonl');
      const f = new AtomicFile(path);
      // Each piece is over the stream's buffer, so every write waits for 'drain'.
      const piece = `${'x'.repeat(70_000)}\n`;
      for (let i = 0; i < 40; i++) await f.write(piece);
      await f.commit();
      await new Promise((r) => setTimeout(r, 50));
      expect(readFileSync(path, 'utf8').length).toBe(40 * piece.length);
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('an interrupt while outputs are still being opened leaves no temporary file (two outputs, as compare writes)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'verity-atomic-'));
    // Made and written to, but not yet open on disk when the signal's cleanup runs.
    const a = new AtomicFile(join(dir, 'board.csv'));
    const b = new AtomicFile(join(dir, 'rows.jsonl'));
    void a.write('x\n').catch(() => {});
    void b.write('y\n').catch(() => {});
    await removePending();
    await new Promise((r) => setTimeout(r, 100));
    expect(readdirSync(dir)).toEqual([]);
  });
});
