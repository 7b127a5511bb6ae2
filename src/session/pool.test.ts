/**
 * The scoring pool in Node, with in-process workers that answer out of order: the merged run is byte-identical to
 * one scored in the session's own thread, cancel and resume stay exact, a silent worker makes the session's ping
 * fail (the page's watchdog then recovers the run), and a failed worker fails the run with its message.
 */
import { describe, expect, it, vi } from 'vitest';
import { memoryStore } from '../runtime/idb-cache.ts';
import { Journal } from './journal.ts';
import { DEFAULT_METRICS, createSyncMetric } from '../core/metrics/index.ts';
import { scoreRow } from '../core/scoring.ts';
import { ResultTable } from '../core/result-table.ts';
import type { RunConfig, RunEvent } from './api.ts';
import { ScoringSession, SYNC_CHUNK } from './session.ts';
import { createPool, poolSize, scoreJob, servePool, type PoolReply, type PoolRequest, type WorkerLike } from './pool.ts';
import { Yielder, createHoldFlag, hold } from './hold.ts';
import { fakeSpawn } from '../../test/fake-pool.ts';
import { lexicon } from '../../test/lexicon.ts';

const QUESTIONS = [
  [
    'Who wrote Hamlet?',
    ['William Shakespeare', 'Shakespeare'],
    ['Shakespeare wrote it.', 'Christopher Marlowe', 'It was not Shakespeare.'],
  ],
  ['How tall is Everest?', ['8,848 m', '29,029 feet'], ['About 8848 metres', '8,000 m', 'twenty-nine thousand feet']],
  ['Which planet is largest?', ['Jupiter'], ['Either Saturn or Jupiter', 'jupiter.', "I don't know"]],
] as const;

/** `slow`: the row whose candidate is SLOW (slowSpawn's workers stall on it). */
function file(n: number, slow = -1): Blob {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const [question, gold, cands] = QUESTIONS[i % QUESTIONS.length]!;
    const candidate = i === slow ? 'SLOW' : `${cands[i % 3]}${i % 7 ? '' : ` (${i})`}`;
    out.push(JSON.stringify({ id: `r${i}`, question, gold, candidate, label: i % 3 !== 2 }));
  }
  return new Blob([`${out.join('\n')}\n`]);
}

const config = (): RunConfig => ({ metrics: [...DEFAULT_METRICS], settings: {}, models: {}, mapping: { map: {} } });

/**
 * Workers that score as the real one does, except that a row whose candidate is SLOW (and is not in the job's
 * skip list) never finishes: they beat as the real worker would up to it — before every row when the job is
 * precise, else a few rows before it — then stay silent.
 */
function slowSpawn(counts: { spawned: number; ended: number }): () => WorkerLike {
  return () => {
    counts.spawned++;
    let ended = false;
    const w: WorkerLike = {
      onmessage: null,
      onerror: null,
      terminate: () => void ((ended = true), counts.ended++),
      postMessage({ id, job }: PoolRequest) {
        const reply = (r: PoolReply) =>
          setTimeout(() => !ended && w.onmessage?.({ data: structuredClone(r) } as MessageEvent<PoolReply>), 0);
        const skipped = new Set((job.skip ?? []).map(([i]) => i));
        const stuck = job.rows.findIndex((r, i) => r.candidate === 'SLOW' && !skipped.has(i));
        if (stuck < 0) {
          void scoreJob(job, lexicon, (next) => reply({ id, type: 'beat', next })).then((chunk) => reply({ id, type: 'done', chunk }));
          return;
        }
        reply({ id, type: 'beat', next: 0 });
        if (job.precise) for (let i = 0; i <= stuck; i++) reply({ id, type: 'beat', next: i });
        else reply({ id, type: 'beat', next: Math.max(0, stuck - 3) });
      },
    };
    return w;
  };
}

let ids = 0;
function session(kv = memoryStore<unknown>(), pool?: ReturnType<typeof createPool>) {
  return new ScoringSession({
    lexicon: () => Promise.resolve(lexicon),
    store: new Journal(kv),
    version: '0.0.0-test',
    newId: () => `run${++ids}`,
    ...(pool ? { pool } : {}),
  });
}

async function ready(s: ScoringSession, blob: Blob) {
  const o = await s.open(blob, 'f.jsonl');
  if (!o.ok) throw new Error(o.error.message);
  const m = await s.map({ map: o.value.detected });
  if (!m.ok) throw new Error(m.error.message);
}

async function exported(s: ScoringSession, kind: 'jsonl' | 'csv' | 'report' = 'jsonl'): Promise<string> {
  const r = await s.exportFile(kind);
  if (!r.ok) throw new Error(r.error.message);
  return r.value.text();
}

// The first job of each round is the slowest, so chunks finish out of order.
const outOfOrder = (job: number) => (job % 3 === 1 ? 40 : 1);

describe('the scoring pool', () => {
  const n = SYNC_CHUNK * 4 + 321;

  it('merges chunks scored out of order into the same JSONL, CSV and report as one thread; progress in order', async () => {
    const plain = session();
    await ready(plain, file(n));
    expect((await plain.run(config())).ok).toBe(true);

    const pooled = session(undefined, createPool(fakeSpawn({ delay: outOfOrder }), 3));
    await ready(pooled, file(n));
    const seen: number[] = [];
    const r = await pooled.run(config(), (e: RunEvent) => void (e.type === 'progress' && seen.push(e.done)));
    expect(r.ok && r.value).toMatchObject({ status: 'done', done: n });
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBe(n);
    for (const kind of ['jsonl', 'csv'] as const) expect(await exported(pooled, kind)).toBe(await exported(plain, kind));
    const report = (s: ScoringSession) => JSON.parse(JSON.stringify((s.report() as { value: unknown }).value)) as unknown;
    expect(report(pooled)).toEqual(report(plain));
  }, 600_000);

  it('cancel keeps whole chunks in row order; continue and a resume from storage end as an uninterrupted run', async () => {
    const plain = session();
    await ready(plain, file(n));
    await plain.run(config());
    const clean = await exported(plain);

    const kv = memoryStore<unknown>();
    const s = session(kv, createPool(fakeSpawn({ delay: outOfOrder }), 2));
    await ready(s, file(n));
    let id = '';
    const seen: number[] = [];
    const r = await s.run(config(), (e) => {
      if (e.type === 'started') id = e.id;
      if (e.type === 'progress') {
        seen.push(e.done);
        s.cancel();
      }
    });
    expect(r.ok && r.value.status).toBe('cancelled');
    const done = r.ok ? r.value.done : 0;
    // chunks the pool finished after the cancel are kept, and the last progress says so
    // (it was throttled away: "6,000 / 15,099 rows · cancelled" over a table of 8,000).
    expect(seen.at(-1)).toBe(done);
    expect(done % SYNC_CHUNK).toBe(0);
    expect(done).toBeLessThan(n);

    // A new worker (after a crash) resumes from what storage holds.
    const fresh = session(kv, createPool(fakeSpawn({ delay: outOfOrder }), 2));
    const back = await fresh.resume(id);
    expect(back.ok && back.value.done).toBe(done);
    expect((await fresh.continueRun()).ok).toBe(true);
    expect(await exported(fresh)).toBe(clean);
  }, 600_000);

  // chunks already handed to the pool were always finished, so a cancel took seconds or
  // none at all ("clicked at 0 / 3,000 rows: the run finished").
  it('cancel drops what the pool is scoring: the run ends at the last saved chunk, and continue scores the rest', async () => {
    const plain = session();
    await ready(plain, file(n));
    await plain.run(config());
    const clean = await exported(plain);

    // Every job after the first takes a long while until the cancel: the run must not wait for any of them.
    let slow = true;
    const s = session(undefined, createPool(fakeSpawn({ delay: (job) => (job > 1 && slow ? 5_000 : 0) }), 2));
    await ready(s, file(n));
    const r = await s.run(config(), (e) => void (e.type === 'progress' && s.cancel()));
    expect(r.ok && r.value).toMatchObject({ status: 'cancelled', done: SYNC_CHUNK });
    expect(s.view({}).length).toBe(SYNC_CHUNK);
    slow = false;
    const rest = await s.continueRun();
    expect(rest.ok && rest.value).toMatchObject({ status: 'done', done: n });
    expect(await exported(s)).toBe(clean);
  }, 600_000);

  it('a worker that stops answering makes the ping fail (the watchdog), with what happened', async () => {
    let clock = 0;
    const pool = createPool(fakeSpawn({ hang: 2 }), 2, 8000, () => clock);
    const s = session(undefined, pool);
    await ready(s, file(SYNC_CHUNK * 3));
    const running = s.run(config());
    while (!(s.ping() as { value: { running: boolean } }).value.running) await new Promise((r) => setTimeout(r, 10));
    clock = 9000;
    expect(s.ping()).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/^scoring worker [12] of 2 stopped answering$/) },
    });
    s.cancel();
    void running;
  });

  // a row that took ~25 s made the watchdog take a busy worker for a dead one, three restarts
  // and "stopped answering 4 times": 0 of 200 rows scored. A worker that beat is busy, not dead; the row is
  // left unscored with why, and the run goes on.
  it('a row over the row budget is left unscored with why, named in a warning, and the run goes on', async () => {
    let clock = 0;
    const counts = { spawned: 0, ended: 0 };
    const pool = createPool(slowSpawn(counts), 1, 60_000, () => clock, 10_000);
    const s = session(undefined, pool);
    const n = SYNC_CHUNK + 40;
    const slow = SYNC_CHUNK + 3;
    await ready(s, file(n, slow));
    const warnings: string[] = [];
    let settled = false;
    const running = s.run(config(), (e) => void (e.type === 'warning' && warnings.push(e.message))).finally(() => (settled = true));
    while (!settled) {
      clock += 11_000;
      expect(s.ping().ok).toBe(true); // fails if the pool took the busy worker for a dead one
      await new Promise((r) => setTimeout(r, 5));
    }
    const r = await running;
    expect(r.ok && r.value).toMatchObject({ status: 'done', done: n });
    const why = 'this row took longer than 10 s to score here, so it was left unscored (the CLI scores it without a time limit)';
    expect(warnings).toEqual([`Row ${(slow + 1).toLocaleString('en')}: ${why}.`]);
    // Ended twice: once to find the row (a beat before every row), once on it.
    expect(counts.ended).toBeGreaterThanOrEqual(2);
    for (const [name, res] of Object.entries(s.detail(slow)!.results))
      expect(res, name).toEqual({ score: null, decision: null, explanation: why });
    // The other rows are scored as in one thread, and an export does not stall on the slow row again.
    const plain = session();
    await ready(plain, file(n, slow));
    const stuck = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the export stalled')), 20_000));
    const [pooled, alone] = await Promise.race([
      Promise.all([exported(s), (async () => (await plain.run(config()), exported(plain)))()]),
      stuck,
    ]);
    const lines = (t: string) => t.trim().split('\n').slice(1);
    lines(pooled).forEach((l, i) => {
      if (i === slow) expect(l).toContain(why);
      else expect(l, `row ${i}`).toBe(lines(alone)[i]);
    });
  }, 600_000);

  it('a worker beats when a job arrives, then once a slice has passed, or before every row of a precise job', async () => {
    const rows = QUESTIONS.flatMap(([question, gold, cands]) => cands.map((candidate) => ({ question, golds: [...gold], candidate })));
    const job = { rows, plan: { metrics: [...DEFAULT_METRICS], settings: {} }, detailed: [] };
    const beats: number[] = [];
    await scoreJob({ ...job, precise: true }, lexicon, (i) => beats.push(i));
    expect(beats).toEqual([0, ...rows.map((_, i) => i)]);
    beats.length = 0;
    await scoreJob(job, lexicon, (i) => beats.push(i), 1e9);
    expect(beats).toEqual([0]);
    // A skipped row: no score, and its reason even where explanations are not kept.
    const first = DEFAULT_METRICS[0]!;
    const table = new ResultTable([first], new Set(), new Set());
    table.explainWith(() => 'computed again');
    table.append(await scoreJob({ ...job, plan: { ...job.plan, metrics: [first] }, skip: [[4, 'too slow']] }, lexicon));
    expect(table.note(4)).toBe('too slow');
    expect(table.row(4)[first]).toEqual({ score: null, decision: null, explanation: 'too slow' });
    expect(table.score(first, 3)).toBe(scoreRow(rows[3]!, [createSyncMetric(first, {}, { lexicon })])[first]!.score);
    expect(table.row(3)[first]!.explanation).toBe('computed again');
  });

  it('a worker asks for a full collection each time the rows it took in pass the budget, and scores the same', async () => {
    // Each row: 4 + 3 + 3 = 10 characters (question, gold, answer), so a job of two rows is 20.
    const row = { question: 'Who?', golds: ['Ann'], candidate: 'Bob' };
    const job = (id: number): PoolRequest => ({
      id,
      job: { rows: [row, row], plan: { metrics: ['exact_match'], settings: {} }, detailed: [] },
    });
    const serve = (collect?: () => void) => {
      const replies: PoolReply[] = [];
      const scope: Parameters<typeof servePool>[0] = { onmessage: null, postMessage: (r) => void replies.push(r) };
      servePool(scope, Promise.resolve(lexicon), collect, 50);
      return { scope, replies };
    };
    let asked = 0;
    const w = serve(() => asked++);
    const at: number[] = [];
    for (let id = 1; id <= 9; id++) {
      w.scope.onmessage!({ data: job(id) } as MessageEvent<PoolRequest>);
      at.push(asked);
    }
    // 20, 40, 60 → asked, then from 0 again: 20, 40, 60 → asked …
    expect(at).toEqual([0, 0, 1, 1, 1, 2, 2, 2, 3]);
    const plain = serve();
    for (let id = 1; id <= 9; id++) plain.scope.onmessage!({ data: job(id) } as MessageEvent<PoolRequest>);
    await vi.waitFor(() => expect(w.replies.filter((r) => r.type === 'done')).toHaveLength(9));
    await vi.waitFor(() => expect(plain.replies.filter((r) => r.type === 'done')).toHaveLength(9));
    expect(w.replies.filter((r) => r.type === 'done')).toEqual(plain.replies.filter((r) => r.type === 'done'));
  });

  it('a worker that crashes fails the run with its message; the chunks before it stay', async () => {
    const s = session(undefined, createPool(fakeSpawn({ crash: 2 }), 1));
    await ready(s, file(SYNC_CHUNK * 3));
    const r = await s.run(config());
    expect(r).toMatchObject({ ok: false, error: { message: 'out of memory' } });
    expect(s.ping()).toEqual({ ok: true, value: { done: SYNC_CHUNK, running: expect.any(Boolean) as unknown } });
  });

  it("a row's detail has the embedded metrics' details, computed again as the run scored them", async () => {
    const s = session(undefined, createPool(fakeSpawn(), 2));
    await ready(s, file(50));
    await s.run(config());
    const d = s.detail(4)!;
    const metrics = DEFAULT_METRICS.map((m) => createSyncMetric(m, {}, { lexicon }));
    const [question, gold, cands] = QUESTIONS[4 % 3]!;
    expect(d.results).toEqual(scoreRow({ question, golds: [...gold], candidate: cands[4 % 3]! }, metrics));
  });

  it('ends its idle workers when a run or an export is over, and starts new ones for the next', async () => {
    const spawn = fakeSpawn();
    let started = 0;
    let ended = 0;
    const pool = createPool(() => {
      started++;
      const w = spawn();
      w.terminate = () => void ended++;
      return w;
    }, 2);
    const s = session(undefined, pool);
    await ready(s, file(SYNC_CHUNK * 3));
    await s.run(config());
    expect([started, ended]).toEqual([2, 2]);
    // An export computes the rows' explanations again in the pool's workers, then ends them too.
    const first = await exported(s, 'csv');
    expect([started, ended]).toEqual([4, 4]);
    await s.run(config());
    expect([started, ended]).toEqual([6, 6]);
    expect(await exported(s, 'csv')).toBe(first);
    expect([started, ended]).toEqual([8, 8]);
  }, 600_000);

  it("gives its workers the page's hold, and a held worker scores the same", async () => {
    const sent: PoolRequest[] = [];
    const spawn = fakeSpawn();
    const pool = createPool(() => {
      const w = spawn();
      const post = w.postMessage.bind(w);
      w.postMessage = (m) => (sent.push(m), post(m));
      return w;
    }, 1);
    const flag = createHoldFlag()!;
    const rows = QUESTIONS.flatMap(([question, gold, cands]) => cands.map((candidate) => ({ question, golds: [...gold], candidate })));
    const job = { rows, plan: { metrics: [...DEFAULT_METRICS], settings: {} }, detailed: [] };
    await pool.score(job);
    pool.share(flag);
    await pool.score(job);
    pool.share(null);
    await pool.score(job);
    expect(sent.map((m) => m.hold)).toEqual([undefined, flag, undefined]);

    // Held all along: the worker waits between rows (through a stand-in for Atomics.wait), and scores the same.
    const waits: number[] = [];
    const y = new Yielder(flag, { wait: (_f, _i, _v, ms) => void waits.push(ms) });
    const free = await scoreJob(job, lexicon);
    hold(flag);
    expect(await scoreJob(job, lexicon, undefined, 50, y)).toEqual(free);
    expect(waits.length).toBeGreaterThan(0);
  });

  it('watches its workers only when it has a limit to watch: the CLI’s pool, with none, starts no timer', async () => {
    const job = { rows: [{ question: 'q', golds: ['a'], candidate: 'a' }], plan: { metrics: ['exact_match'], settings: {} }, detailed: [] };
    const timers = vi.spyOn(globalThis, 'setInterval');
    try {
      for (const [budgets, watched] of [
        [[8000, 4000], true],
        [[Infinity, Infinity], false],
      ] as const) {
        timers.mockClear();
        const pool = createPool(fakeSpawn(), 1, budgets[0], undefined, budgets[1]);
        expect((await pool.score(job)).rows).toBe(1);
        pool.retire();
        expect(timers.mock.calls.length > 0, `budgets ${budgets.join(', ')}`).toBe(watched);
      }
    } finally {
      timers.mockRestore();
    }
  });

  it('has one worker per reported core, at least 1 and at most 8', () => {
    expect([undefined, 0, 1, 2, 4, 64].map(poolSize)).toEqual([1, 1, 1, 2, 4, 8]);
  });
});
