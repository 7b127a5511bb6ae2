/**
 * The scoring session in Node, with the in-memory store: resume after a crash, two runs side by side, remap after
 * a run, cancel then continue, time-sliced chunks, callbacks whose answers fail, and the same numbers as the CLI.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryStore } from '../runtime/idb-cache.ts';
import { Journal } from './journal.ts';
import { toCsv } from '../core/io/export.ts';
import type { QaRow } from '../core/types.ts';
import type { RowResults } from '../core/scoring.ts';
import type { RunConfig, RunEvent } from './api.ts';
import { csvParts, jsonlParts } from './export.ts';
import { ResultTable } from '../core/result-table.ts';
import { notify, ScoringSession, SYNC_CHUNK } from './session.ts';
import { CLI } from '../../test/cli.ts';
import { lexicon } from '../../test/lexicon.ts';

function file(n: number, salt = ''): Blob {
  const out: string[] = [];
  for (let i = 0; i < n; i++)
    out.push(
      JSON.stringify({
        id: `${salt}r${i}`,
        question: `Question ${i} about ${salt}a topic?`,
        gold: [`answer ${i % 97}`, `alias ${i % 13}`],
        candidate: i % 3 ? `the answer ${i % 97} is right` : `something else ${i}`,
        label: i % 3 !== 0,
      }),
    );
  return new Blob([`${out.join('\n')}\n`]);
}

const config = (metrics = ['exact_match', 'token_f1', 'pedants']): RunConfig => ({
  metrics,
  settings: {},
  models: {},
  mapping: { map: {} },
});

let ids = 0;
const session = (kv = memoryStore<unknown>()) =>
  new ScoringSession({
    lexicon: () => Promise.resolve(lexicon),
    store: new Journal(kv),
    version: '0.0.0-test',
    newId: () => `run${++ids}`,
  });

async function ready(s: ScoringSession, blob: Blob, name = 'f.jsonl') {
  const o = await s.open(blob, name);
  if (!o.ok) throw new Error(o.error.message);
  const m = await s.map({ map: o.value.detected });
  if (!m.ok) throw new Error(m.error.message);
  return m.value;
}

async function exported(s: ScoringSession, kind: 'jsonl' | 'csv' = 'jsonl'): Promise<string> {
  const r = await s.exportFile(kind);
  if (!r.ok) throw new Error(r.error.message);
  return r.value.text();
}

/** The rows of a JSONL export (the run line dropped). */
const rowsOf = (text: string) => text.split('\n').slice(1).join('\n');

/** Starts a run and cancels it at its first progress event; returns the started run id and the outcome. */
async function cancelAtFirstChunk(s: ScoringSession, c = config(), atEvent?: (kv: void) => void) {
  let id = '';
  const r = await s.run(c, (e: RunEvent) => {
    if (e.type === 'started') id = e.id;
    if (e.type === 'progress') {
      atEvent?.();
      s.cancel();
    }
  });
  if (!r.ok) throw new Error(r.error.message);
  return { id, outcome: r.value };
}

describe('ScoringSession', () => {
  const n = SYNC_CHUNK * 2 + 500;
  let clean = '';
  beforeEach(async () => {
    if (clean) return;
    const s = session();
    await ready(s, file(n));
    const r = await s.run(config());
    expect(r.ok && r.value.status).toBe('done');
    clean = rowsOf(await exported(s));
  });

  it('resumes after a crash from the saved chunks: no row lost or repeated, the same output as an uninterrupted run', async () => {
    const kv = memoryStore<unknown>();
    const s = session(kv);
    await ready(s, file(n));
    // What storage held when the worker died: a copy taken at the first saved chunk.
    let left = new Map<string, unknown>();
    // (IndexedDB stores copies; the in-memory store keeps references, so copy what the session later changes.)
    const { id } = await cancelAtFirstChunk(
      s,
      config(),
      () => void (left = new Map([...kv.map].map(([k, v]) => [k, v instanceof Blob ? v : structuredClone(v)]))),
    );
    const after = memoryStore<unknown>();
    for (const [k, v] of left) after.map.set(k, v);
    const fresh = session(after);
    const listed = await fresh.runs();
    expect(listed).toMatchObject([{ id, fileName: 'f.jsonl', done: SYNC_CHUNK, total: n, status: 'running' }]);
    const back = await fresh.resume(id);
    expect(back.ok && back.value.done).toBe(SYNC_CHUNK);
    const rest = await fresh.continueRun();
    expect(rest.ok && rest.value).toMatchObject({ status: 'done', done: n });
    expect(rowsOf(await exported(fresh))).toBe(clean);
  });

  it('two saved runs of files with one name are told apart by size and content hash', async () => {
    const kv = memoryStore<unknown>();
    const a = session(kv);
    const b = session(kv);
    await ready(a, file(n), 'same.jsonl');
    await ready(b, file(n, 'B'), 'same.jsonl');
    await Promise.all([a.run(config()), b.run(config())]);
    const runs = await a.runs();
    expect(runs.map((r) => r.fileName)).toEqual(['same.jsonl', 'same.jsonl']);
    expect(runs.every((r) => /^[0-9a-f]{8}$/.test(r.inputHash) && r.fileSize > 0)).toBe(true);
    expect(runs[0]!.inputHash).not.toBe(runs[1]!.inputHash);
  });

  it('two runs side by side in one store keep their own rows; each resumes to its own file', async () => {
    const kv = memoryStore<unknown>();
    const a = session(kv);
    const b = session(kv);
    await ready(a, file(n), 'a.jsonl');
    await ready(b, file(n, 'B'), 'b.jsonl');
    // Each session's own run id: the two runs start in whichever order their input hashes finish.
    const started: Record<string, string> = {};
    const onEvent = (who: string) => (e: RunEvent) => void (e.type === 'started' && (started[who] = e.id));
    await Promise.all([a.run(config(), onEvent('a')), b.run(config(), onEvent('b'))]);
    expect((await a.runs()).map((r) => r.fileName).sort()).toEqual(['a.jsonl', 'b.jsonl']);
    for (const [id, name, salt] of [
      [started.a!, 'a.jsonl', ''],
      [started.b!, 'b.jsonl', 'B'],
    ] as const) {
      const s = session(kv);
      const back = await s.resume(id);
      expect(back.ok && back.value.inspection.fileName).toBe(name);
      const first = JSON.parse((await exported(s)).split('\n')[1]!) as { id: string };
      expect(first.id).toBe(`${salt}r0`);
    }
    expect(rowsOf(await exported(a))).toBe(clean);
  });

  it('a remap after a run drops its results: no view, no report, no export of rows that no longer exist', async () => {
    const s = session();
    const summary = await ready(s, file(50));
    await s.run(config());
    expect(s.view({}).length).toBe(50);
    const remapped = await s.map({ map: { ...summary.columns, candidate: 'question' } });
    expect(remapped.ok).toBe(true);
    expect(s.view({}).length).toBe(0);
    expect(s.report()).toMatchObject({ ok: false, error: { message: 'nothing is scored' } });
    expect(await s.exportFile('jsonl')).toMatchObject({
      ok: false,
      error: { code: 'not-ready', message: 'nothing is scored: run the metrics first' },
    });
    expect((await s.calibrate()).ok).toBe(false);
    expect((await s.continueRun()).ok).toBe(false);
  });

  it('a run with the mapping the rows were made with keeps them (no second read or mapping); another maps again', async () => {
    let reads = 0;
    class Counted extends Blob {
      override slice(...a: Parameters<Blob['slice']>): Blob {
        reads++;
        return super.slice(...a);
      }
    }
    const counted = new Counted([await file(300).text()]);
    const s = session();
    const o = await s.open(counted, 'f.jsonl');
    if (!o.ok) throw new Error(o.error.message);
    const mapping = { map: o.value.detected };
    expect((await s.map(mapping)).ok).toBe(true);
    const opened = reads;
    const once = await s.run({ ...config(), mapping });
    expect(once.ok && once.value.done).toBe(300);
    const first = await exported(s);
    expect((await s.run({ ...config(), mapping: structuredClone(mapping) })).ok).toBe(true);
    expect(reads).toBe(opened);
    expect(await exported(s)).toBe(first);
    // Another mapping reads the released file again.
    const other = { ...mapping, goldSep: ';' };
    const r = await s.run({ ...config(), mapping: other });
    expect(r.ok && r.value.done).toBe(300);
    expect(reads).toBeGreaterThan(opened);
  });

  it('cancel keeps the rows scored; continue scores the rest, ending as an uninterrupted run', async () => {
    const s = session();
    await ready(s, file(n));
    const { outcome } = await cancelAtFirstChunk(s);
    expect(outcome).toMatchObject({ status: 'cancelled', done: SYNC_CHUNK, total: n });
    expect(s.view({}).length).toBe(SYNC_CHUNK);
    const rest = await s.continueRun();
    expect(rest.ok && rest.value).toMatchObject({ status: 'done', done: n });
    expect(rowsOf(await exported(s))).toBe(clean);
    expect((await s.runs())[0]).toMatchObject({ status: 'done', done: n });
  });

  it('a cancel sent while the run is set up stops it before its first chunk', async () => {
    const s = session();
    await ready(s, file(n));
    const running = s.run(config());
    s.cancel();
    const r = await running;
    expect(r.ok && r.value).toMatchObject({ status: 'cancelled', done: 0, total: n });
    const rest = await s.continueRun();
    expect(rest.ok && rest.value).toMatchObject({ status: 'done', done: n });
    expect(rowsOf(await exported(s))).toBe(clean);
  });

  it('scores a chunk in slices: timers (and so pings) run before the first chunk is done', async () => {
    const s = new ScoringSession({ lexicon: () => Promise.resolve(lexicon), store: new Journal(memoryStore()), version: 't', sliceMs: 1 });
    await ready(s, file(SYNC_CHUNK));
    let ticks = 0;
    let firstChunk = -1;
    const timer = setInterval(() => void ticks++, 0);
    await s.run(
      config(['exact_match', 'token_f1', 'meteor', 'rouge_l', 'pedants']),
      (e) => void (e.type === 'progress' && firstChunk < 0 && (firstChunk = ticks)),
    );
    clearInterval(timer);
    expect(firstChunk).toBeGreaterThan(3);
  });

  describe('callbacks across a worker boundary', () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => void unhandled.push(e);
    beforeEach(() => void process.on('unhandledRejection', onUnhandled));
    afterEach(() => void process.off('unhandledRejection', onUnhandled));

    it('a callback whose answer cannot come back (a rejected promise) leaves no unhandled rejection', async () => {
      const s = session();
      const failing = () => Promise.reject(new Error('Unserializable return value'));
      const big = file(3000);
      expect(big.size).toBeGreaterThan(64 * 1024);
      let calls = 0;
      const r = await s.open(big, 'big.jsonl', () => (calls++, failing()));
      expect(r.ok).toBe(true);
      expect(calls).toBeGreaterThan(0);
      await s.map({ map: {} });
      expect((await s.run(config(), failing)).ok).toBe(true);
      expect((await s.exportFile('jsonl', failing)).ok).toBe(true);
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).toEqual([]);
    });

    it('notify drops a throwing callback and ignores any returned value', () => {
      expect(() =>
        notify(() => {
          throw new Error('gone');
        }),
      ).not.toThrow();
      expect(notify((x: number) => x + 1, 1)).toBeUndefined();
    });
  });
});

describe('streamed exports', () => {
  const rows: QaRow[] = Array.from({ length: 7 }, (_, i) => ({
    row: i + 1,
    id: `r${i}`,
    question: `q${i}`,
    golds: [`=g${i}`],
    candidate: `c,${i}\n"x"`,
  }));
  const results: RowResults[] = rows.map((_, i) => ({
    taxonomy: { score: i / 7, decision: i > 3, explanation: `e${i}`, ...(i === 5 ? { class: 'partial' as const } : {}) },
    hierarchy: { score: null, decision: null, explanation: 'n', ...(i === 0 ? { set: 'equivalent' } : {}) },
  }));
  const input = {
    rows,
    results: ResultTable.of(results, ['taxonomy', 'hierarchy']),
    metricNames: ['taxonomy', 'hierarchy'],
    detailed: new Set<string>(),
    run: { file: 'x' },
    batch: 2,
  };

  it('CSV in parts of 2 rows is byte-identical to one toCsv over every row, class and set columns included', async () => {
    const { outputRecord } = await import('../core/records.ts');
    const whole = toCsv(
      rows.map((r, i) => ({ ...outputRecord(r, results[i]!), verity_run: i === 0 ? JSON.stringify({ file: 'x' }) : '' })),
      ['taxonomy', 'hierarchy'],
    );
    expect((await csvParts(input)).join('')).toBe(whole);
    expect(whole).toContain('taxonomy.class');
  });

  it('JSONL in parts, with progress per part', async () => {
    const seen: number[] = [];
    const parts = await jsonlParts({ ...input, onProgress: (d) => void seen.push(d) });
    expect(parts).toHaveLength(1 + 4);
    expect(seen).toEqual([2, 4, 6, 7]);
    expect(parts.join('').trim().split('\n')).toHaveLength(8);
  });
});

describe('the app and the CLI', () => {
  it('give byte-identical records for the same file and metrics', async () => {
    const blob = file(3000);
    const dir = mkdtempSync(join(tmpdir(), 'verity-session-'));
    const path = join(dir, 'same.jsonl');
    writeFileSync(path, Buffer.from(await blob.arrayBuffer()));
    const metrics = ['exact_match', 'token_f1', 'lexical_match', 'bleu', 'rouge_l', 'meteor', 'pedants'];
    const cli = execFileSync('node', [CLI, 'score', path, '--metrics', metrics.join(',')], {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
    const s = session();
    await ready(s, blob, 'same.jsonl');
    await s.run(config(metrics));
    expect(rowsOf(await exported(s))).toBe(cli);
  }, 600_000);
});

describe('deleting saved runs', () => {
  it('deleting the run on screen keeps its rows for exports, and nothing of it is written again', async () => {
    const kv = memoryStore<unknown>();
    const s = session(kv);
    await ready(s, file(SYNC_CHUNK + 10));
    const { id } = await cancelAtFirstChunk(s);
    await s.deleteRun(id);
    expect(kv.map.size).toBe(0);
    expect((await s.exportFile('jsonl')).ok).toBe(true);
    expect((await s.continueRun()).ok).toBe(true);
    expect(kv.map.size).toBe(0);
    expect(s.view({}).length).toBe(SYNC_CHUNK + 10);
  });
});

describe('explanations of the embedded metrics', () => {
  it('are not saved or kept, but come back in exports and the detail view and after a calibration say the thresholds that decide them now', async () => {
    const kv = memoryStore<unknown>();
    const s = session(kv);
    await ready(s, file(SYNC_CHUNK + 10));
    await s.run(config());
    // Saved chunks hold scores and decisions only (no explanation strings to keep, move between threads or save).
    const chunks = [...kv.map.entries()].filter(([k]) => k.startsWith('chunk:'));
    expect(chunks).toHaveLength(2);
    for (const [, c] of chunks)
      for (const col of (c as { results: { columns: { strings: string[]; explanation: Uint32Array }[] } }).results.columns)
        expect([col.strings.length, col.explanation.length]).toEqual([0, 0]);
    const before = await exported(s);
    const detail = s.detail(7)!.results;
    expect(detail.pedants!.explanation).toMatch(/threshold 0\.\d+/);
    const cal = await s.calibrate();
    if (!cal.ok) throw new Error(cal.error.message);
    // The calibrated configuration makes the metrics: each explanation agrees with the decision shown beside it.
    const after = rowsOf(await exported(s))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { metrics: Record<string, { decision: boolean | null; explanation: string }> });
    const t = cal.value.thresholds.pedants!;
    expect(t).not.toBeCloseTo(Number(/threshold (0\.\d+)/.exec(detail.pedants!.explanation)![1]), 3);
    for (const r of after) expect(r.metrics.pedants!.explanation).toContain(`(threshold ${Math.round(t * 1000) / 1000})`);
    expect(s.detail(7)!.results.pedants!.explanation).toContain(`(threshold ${Math.round(t * 1000) / 1000})`);
    expect(rowsOf(before).split('\n').filter(Boolean)).toHaveLength(after.length);
  });
});

describe("a large file's records", () => {
  it("are dropped at the run's start with a collection asked for once; a small file asks for none", async () => {
    const asked: (Promise<void> | undefined)[] = [];
    const make = () =>
      new ScoringSession({
        lexicon: () => Promise.resolve(lexicon),
        store: new Journal(memoryStore()),
        version: '0.0.0-test',
        collect: (gone) => asked.push(gone),
      });
    const small = make();
    await ready(small, file(500));
    await cancelAtFirstChunk(small, config(['exact_match']));
    expect(asked).toEqual([]);
    const large = make();
    await ready(large, file(100_000));
    // Mapping keeps the records (the mapping may change before the run); what the parse left is collected first.
    expect(asked).toEqual([undefined]);
    await cancelAtFirstChunk(large, config(['exact_match']));
    // The run's mapping differs from the page's here, so it maps again (and asks again) before dropping them.
    expect(asked.slice(0, -1)).toEqual([undefined, undefined]);
    expect(asked.at(-1)).toBeInstanceOf(Promise);
  });
});
