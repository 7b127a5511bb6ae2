/** The speed a run tells while it goes is its recent one (the time left is told from it); at its end, the whole run's. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newSession, ok, runConfig } from '../../test/session.ts';
import { SYNC_CHUNK } from './session.ts';
import type { RunEvent } from './api.ts';

const CHUNKS = 20;
const file = new Blob(
  Array.from(
    { length: CHUNKS * SYNC_CHUNK },
    (_, i) =>
      `${JSON.stringify({ id: `r${i}`, question: `Question ${i % 50}?`, gold: [`answer ${i % 50}`], candidate: `answer ${i % 7}` })}\n`,
  ),
);

describe('a run’s progress', () => {
  afterEach(() => vi.restoreAllMocks());

  it('tells the recent speed while it runs, and the whole run’s at the end', async () => {
    // The clock moves only between progress events: 20 s after the first chunk (a slow start), then 1 s a chunk.
    let clock = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => clock);
    const s = newSession();
    const mapping = { map: ok(await s.open(file, 'f.jsonl')).detected };
    ok(await s.map(mapping));
    const told: { t: number; done: number; rate: number }[] = [];
    const onEvent = (e: RunEvent) => {
      if (e.type !== 'progress') return;
      told.push({ t: clock, done: e.done, rate: e.rowsPerSecond });
      clock += told.length === 1 ? 20_000 : 1000;
    };
    expect(ok(await s.run(runConfig(mapping, ['exact_match']), onEvent)).done).toBe(CHUNKS * SYNC_CHUNK);
    expect(told.map((e) => e.done)).toEqual(Array.from({ length: CHUNKS }, (_, k) => (k + 1) * SYNC_CHUNK));
    // Ten seconds after the slow start, the speed told is the recent one: a chunk a second.
    for (const e of told.slice(0, -1)) if (e.t >= 31_000) expect(e.rate).toBe(SYNC_CHUNK);
    expect(told.filter((e) => e.t >= 31_000).length).toBeGreaterThan(3);
    const last = told.at(-1)!;
    expect(last.rate).toBeCloseTo((CHUNKS * SYNC_CHUNK * 1000) / last.t, 9);
    expect(last.rate).toBeLessThan(SYNC_CHUNK);
  });
});
