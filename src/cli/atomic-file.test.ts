import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AtomicFile } from './io.ts';

describe('AtomicFile (issue 38 item 6)', () => {
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
});
