/** What opening a file starts before any run: its hash and this thread's lexicon, so a run's first chunk waits for neither. */
import { describe, expect, it } from 'vitest';
import { memoryStore } from '../runtime/idb-cache.ts';
import { newSession, ok, runConfig } from '../../test/session.ts';
import { lexicon } from '../../test/lexicon.ts';

const file = new Blob(
  Array.from(
    { length: 50 },
    (_, i) => `${JSON.stringify({ id: `r${i}`, question: `Question ${i}?`, gold: [`answer ${i}`], candidate: `answer ${i % 7}` })}\n`,
  ),
);

describe('opening a file', () => {
  it('asks for the hash and the lexicon as the file opens (a run waits for both), and saves the run under that hash', async () => {
    const hashed: Blob[] = [];
    let lexicons = 0;
    const s = newSession(memoryStore<unknown>(), {
      lexicon: () => (lexicons++, Promise.resolve(lexicon)),
      hash: (blob) => (hashed.push(blob), Promise.resolve('ab'.repeat(32))),
    });
    const opened = ok(await s.open(file, 'f.jsonl'));
    expect(hashed).toEqual([file]);
    expect(lexicons).toBeGreaterThan(0);
    const mapping = { map: opened.detected };
    ok(await s.map(mapping));
    ok(await s.run(runConfig(mapping, ['exact_match'])));
    expect((await s.runs()).map((r) => r.inputHash)).toEqual(['abababab']);
    expect(hashed).toHaveLength(1);
  });

  it('asks for the lexicon as several files, one per system, open too', async () => {
    let lexicons = 0;
    const s = newSession(memoryStore<unknown>(), { lexicon: () => (lexicons++, Promise.resolve(lexicon)) });
    ok(
      await s.openFiles([
        { name: 'a.jsonl', blob: file },
        { name: 'b.jsonl', blob: file },
      ]),
    );
    expect(lexicons).toBeGreaterThan(0);
  });
});
