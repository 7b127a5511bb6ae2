/**
 * The run engine, as the session and the CLI drive it: whatever scores a job (the pool, this thread, models here
 * beside the pool), rows come back in order with the results scoreRows gives; no more jobs are in flight than
 * asked; a job that fails stops the run after the jobs before it; rows the pool leaves unscored are named by
 * their place in the run.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_METRICS } from '../core/metrics/index.ts';
import { metricsOf, type MetricPlan } from '../core/run-config.ts';
import { scoreRows, type RowResults } from '../core/scoring.ts';
import type { ResultChunk } from '../core/result-table.ts';
import type { AnyMetric, BatchMetric, QaItem } from '../core/types.ts';
import { createPool, type ScorePool } from './pool.ts';
import { RunEngine, rowsOf, scoreHere, type EngineSetup } from './engine.ts';
import { fakeSpawn } from '../../test/fake-pool.ts';
import { lexicon } from '../../test/lexicon.ts';

const ROWS: QaItem[] = Array.from({ length: 230 }, (_, i) => ({
  question: `Which number comes after ${i}?`,
  golds: [`${i + 1}`, `number ${i + 1}`],
  candidate: i % 4 === 0 ? `It is ${i + 1}.` : i % 4 === 1 ? `${i + 2}` : i % 4 === 2 ? `number ${i + 1}, I think` : 'no idea',
}));

/** A model metric without a model: its score is read off the row, its batches counted. */
function fakeModel(batches: number[] = []): BatchMetric {
  return {
    name: 'fake_model',
    threshold: 0.5,
    needs: [],
    card: { what: '', formula: '', defaults: '', limits: '', citation: '' },
    async scoreBatch(items) {
      batches.push(items.length);
      await new Promise((r) => setTimeout(r, 1));
      return items.map((it) => {
        const score = it.candidate.length / (it.candidate.length + 10);
        return { score, decision: score >= 0.5, explanation: `length ${it.candidate.length}`, details: { length: it.candidate.length } };
      });
    },
  };
}

/** Results as a run keeps them: the details of its model metrics only. */
const asKept = (rows: RowResults[], models: ReadonlySet<string> = new Set(['fake_model'])): RowResults[] =>
  rows.map((r) =>
    Object.fromEntries(
      Object.entries(r).map(([m, { details, ...x }]) => [m, models.has(m) && details !== undefined ? { ...x, details } : x]),
    ),
  );

const plan: MetricPlan = { metrics: [...DEFAULT_METRICS], settings: {} };
const embedded = () => metricsOf(plan, { lexicon });

/** The engine's setup for these metrics; `workers`, a pool they are made in from the same plan. */
function setup(
  metrics: readonly AnyMetric[],
  { workers, ...more }: Partial<Omit<EngineSetup, 'pool'>> & { workers?: ScorePool } = {},
): EngineSetup {
  return {
    metrics,
    pool: workers ? { workers, plan: { ...plan, metrics: metrics.map((m) => m.name) } } : null,
    ctx: {},
    jobRows: 50,
    ahead: 3,
    modelBatch: 16,
    explainEmbedded: true,
    ...more,
  };
}

/** Every row's results in the order taken, with each job's place checked. */
async function run(s: EngineSetup, rows: readonly QaItem[] = ROWS, batch = 70): Promise<RowResults[]> {
  const out: RowResults[] = [];
  const detailed = new Set(s.metrics.filter((m) => 'scoreBatch' in m).map((m) => m.name));
  const engine = new RunEngine(s, (job, chunk) => {
    expect(job.start).toBe(out.length);
    expect(chunk.rows).toBe(job.rows.length);
    out.push(...rowsOf(chunk, detailed));
  });
  for (let at = 0; at < rows.length; at += batch) await engine.add(at, rows.slice(at, at + batch));
  await engine.finish();
  return out;
}

describe('the run engine', () => {
  it('gives the results scoreRows gives, in row order, in this thread and in a pool that answers out of order', async () => {
    const metrics = embedded();
    const want = asKept(await scoreRows(ROWS, metrics));
    expect(await run(setup(metrics))).toEqual(want);
    // Later jobs answer first.
    const pool = createPool(fakeSpawn({ delay: (k) => 40 - k * 5 }), 3);
    expect(await run(setup(metrics, { workers: pool }))).toEqual(want);
    pool.retire();
  });

  it('scores model metrics here, a job at a time, beside the embedded ones in the pool, in batches of the model size', async () => {
    const batches: number[] = [];
    const metrics = [...embedded(), fakeModel(batches)];
    const want = asKept(await scoreRows(ROWS, [...embedded(), fakeModel()]));
    const pool = createPool(fakeSpawn({ delay: (k) => (k % 2 ? 15 : 0) }), 2);
    const got = await run(setup(metrics, { workers: pool }));
    pool.retire();
    expect(got).toEqual(want);
    expect(got[3]!.fake_model!.details).toEqual({ length: ROWS[3]!.candidate.length });
    // Rows added 70 at a time (the last 20) in jobs of at most 50: jobs of 50, 20, 50, 20, 50, 20, 20 rows; each
    // in model batches of 16 and what is left.
    const bySixteen = (n: number) => [...Array.from({ length: Math.floor(n / 16) }, () => 16), ...(n % 16 ? [n % 16] : [])];
    expect(batches).toEqual([50, 20, 50, 20, 50, 20, 20].flatMap(bySixteen));
    expect(await run(setup(metrics))).toEqual(want);
  });

  it('keeps the embedded explanations only when asked', async () => {
    const metrics = [...embedded(), fakeModel()];
    const s = setup(metrics, { explainEmbedded: false });
    const chunks: ResultChunk[] = [];
    const engine = new RunEngine(s, (_job, c) => void chunks.push(c));
    await engine.add(0, ROWS.slice(0, 20));
    await engine.finish();
    const cols = chunks[0]!.columns;
    expect(cols.slice(0, -1).every((c) => c.explanation.length === 0)).toBe(true);
    expect(cols.at(-1)!.strings).toContain(`length ${ROWS[0]!.candidate.length}`);
  });

  it('has no more jobs in flight than `ahead`', async () => {
    let inFlight = 0;
    let most = 0;
    const inner = createPool(fakeSpawn(), 4);
    const pool: ScorePool = {
      ...inner,
      size: 4,
      async score(job, onSkip) {
        most = Math.max(most, ++inFlight);
        try {
          return await inner.score(job, onSkip);
        } finally {
          inFlight--;
        }
      },
    };
    await run(setup(embedded(), { workers: pool, jobRows: 10, ahead: 3 }));
    inner.retire();
    expect(most).toBe(3);
  });

  it('stops at a job that fails: the jobs before it are taken, none after', async () => {
    const metrics = embedded();
    const pool = createPool(fakeSpawn({ crash: 3 }), 1);
    const taken: number[] = [];
    const engine = new RunEngine(setup(metrics, { workers: pool }), (job) => void taken.push(job.start));
    const adding = (async () => {
      for (let at = 0; at < ROWS.length; at += 70) await engine.add(at, ROWS.slice(at, at + 70));
      await engine.finish();
    })();
    await expect(adding).rejects.toThrow('out of memory');
    pool.retire();
    expect(taken).toEqual([0, 50]);
  });

  it('names a row the pool leaves unscored by its place in the run', async () => {
    const skipped: [number, string][] = [];
    const pool: ScorePool = {
      ...createPool(fakeSpawn(), 1),
      size: 1,
      score: async (job, onSkip) => {
        onSkip?.(7, 'too slow');
        return { rows: job.rows.length, metrics: [], columns: [] };
      },
    };
    const engine = new RunEngine(setup(embedded(), { workers: pool, onSkip: (row, why) => skipped.push([row, why]) }), () => {});
    await engine.add(100, ROWS.slice(0, 60));
    await engine.finish();
    expect(skipped).toEqual([
      [107, 'too slow'],
      [157, 'too slow'],
    ]);
  });

  it('scores rows in this thread for the page (scoreHere), telling its progress job by job', async () => {
    const batches: number[] = [];
    const progress: number[] = [];
    const got = await scoreHere(
      ROWS,
      [...embedded(), fakeModel(batches)],
      {},
      { jobRows: 100, onProgress: (done, total) => progress.push(done / total) },
    );
    expect(got).toEqual(asKept(await scoreRows(ROWS, [...embedded(), fakeModel()])));
    expect(batches).toEqual([100, 100, 30]);
    expect(progress).toEqual([100 / 230, 200 / 230, 1]);
  });
});
