/**
 * Calibration is part of the run: a cancelled run calibrated, continued, reloaded and
 * resumed decides every row with the calibrated thresholds — the rows scored before the calibration, those the
 * pool scored after it, and those scored after the resume — exactly as `verity score --calibration` does.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryStore } from '../runtime/idb-cache.ts';
import { createMetric } from '../core/metrics/index.ts';
import { Journal, type SavedRun } from './journal.ts';
import { createPool } from './pool.ts';
import { ScoringSession, SYNC_CHUNK } from './session.ts';
import type { RunConfig, RunEvent } from './api.ts';
import { fakeSpawn } from '../../test/fake-pool.ts';
import { CLI } from '../../test/cli.ts';
import { lexicon } from '../../test/lexicon.ts';
import { ok } from '../../test/session.ts';
import { withWordNet } from '../../test/lexicon.ts';

const WORDS = ['red', 'river', 'stone', 'castle', 'north', 'winter', 'glass', 'harbor', 'forest', 'silver', 'eagle', 'bridge'];

/**
 * Golds of four words; each candidate keeps k of them (k from a fixed sequence) among other words, and a human
 * said correct when it keeps at least two: the default thresholds disagree with that, so calibrating moves them.
 */
function file(n: number): Blob {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const gold = [0, 1, 2, 3].map((j) => WORDS[(i + j * 5) % WORDS.length]!);
    const k = (i * 7) % 5;
    const noise = [0, 1, 2].map((j) => WORDS[(i * 3 + j * 7 + 1) % WORDS.length]!).filter((w) => !gold.includes(w));
    const candidate = [...gold.slice(0, Math.min(k, 4)), ...noise.slice(0, 1 + (i % 3))].join(' ');
    out.push(JSON.stringify({ id: `r${i}`, question: `What is thing ${i}?`, gold: gold.join(' '), candidate, label: k >= 2 }));
  }
  return new Blob([`${out.join('\n')}\n`]);
}

const METRICS = ['token_f1', 'pedants', 'bleu'];
const config = (): RunConfig => ({ metrics: METRICS, settings: {}, models: {}, mapping: { map: {} } });

let ids = 0;
const session = (kv: ReturnType<typeof memoryStore<unknown>>) =>
  new ScoringSession({
    lexicon: () => Promise.resolve(lexicon),
    store: new Journal(kv),
    version: '0.0.0-test',
    newId: () => `cal${++ids}`,
    pool: createPool(fakeSpawn(), 2),
  });

/** Cancels at the first progress event (one chunk more saved). */
const cancelling = (s: ScoringSession, seen?: (id: string) => void) => (e: RunEvent) => {
  if (e.type === 'started') seen?.(e.id);
  if (e.type === 'progress') s.cancel();
};

describe('a calibrated run', () => {
  it('decides every row with its calibration after continue, reload and resume, as verity score --calibration does', async () => {
    const n = SYNC_CHUNK * 3 + 137;
    const blob = file(n);
    const kv = memoryStore<unknown>();
    const first = session(kv);
    const inspected = ok(await first.open(blob, 'cal.jsonl'));
    ok(await first.map({ map: inspected.detected }));
    let id = '';
    const started = ok(
      await first.run(
        config(),
        cancelling(first, (x) => (id = x)),
      ),
    );
    expect(started).toMatchObject({ status: 'cancelled', done: SYNC_CHUNK });

    const { thresholds } = ok(await first.calibrate());
    for (const m of METRICS) expect(thresholds[m], m).not.toBeCloseTo(createMetric(m, {}, withWordNet).threshold, 3);
    // Saved with the run at once (a reload before any more rows keeps it).
    expect((kv.map.get(`meta:${id}`) as SavedRun<RunConfig>).config.calibration?.thresholds).toEqual(thresholds);

    // Continued: the pool scores the next chunk with the calibrated thresholds.
    expect(ok(await first.continueRun(cancelling(first)))).toMatchObject({ status: 'cancelled', done: 2 * SYNC_CHUNK });

    // A reload: a new session on the same storage resumes the run, calibration and all, and finishes it.
    const second = session(kv);
    const [listed] = ok({ ok: true, value: await second.runs() });
    expect(listed).toMatchObject({ id, calibrated: true, done: 2 * SYNC_CHUNK });
    const resumed = ok(await second.resume(id));
    expect(resumed.config.calibration?.thresholds).toEqual(thresholds);
    expect(ok(await second.continueRun())).toMatchObject({ status: 'done', done: n });
    const exported = await ok(await second.exportFile('jsonl')).text();

    // The CLI on the same file with the same thresholds (one calibration file per metric, as verity calibrate writes).
    const dir = mkdtempSync(join(tmpdir(), 'verity-cal-'));
    writeFileSync(join(dir, 'cal.jsonl'), Buffer.from(await blob.arrayBuffer()));
    const cals = METRICS.flatMap((m) => {
      const p = join(dir, `${m}.json`);
      writeFileSync(p, JSON.stringify({ version: 1, metric: m, threshold: thresholds[m] }));
      return ['--calibration', p];
    });
    const cli = execFileSync('node', [CLI, 'score', join(dir, 'cal.jsonl'), '--metrics', METRICS.join(','), ...cals], {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
    const rows = (text: string) =>
      text
        .trim()
        .split('\n')
        .filter((l) => !l.includes('"verity_run"'))
        .map((l) => JSON.parse(l) as { id: string; metrics: Record<string, { score: number | null; decision: boolean | null }> });
    const app = rows(exported);
    const ref = rows(cli);
    expect(app).toHaveLength(n);
    expect(ref).toHaveLength(n);
    let differ = 0;
    for (let i = 0; i < n; i++) for (const m of METRICS) if (app[i]!.metrics[m]!.decision !== ref[i]!.metrics[m]!.decision) differ++;
    expect(differ).toBe(0);
    // The whole records too: scores, decisions and explanations (which name the calibrated threshold).
    expect(exported.split('\n').slice(1).join('\n')).toBe(cli);
  }, 600_000);
});
