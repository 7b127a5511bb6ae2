/**
 * The review queue in the scoring session (issue 36): start within a budget, answer, undo, every answer saved with
 * the run (a new session on the same storage resumes it as left), labels exported and imported into another run of
 * the same input (refused for another input), the comparison's reviewed accuracy, the refit saved as the run's
 * calibration, and clear errors for bad requests.
 */
import { describe, expect, it } from 'vitest';
import { memoryStore } from '../runtime/idb-cache.ts';
import { compareApi } from './compare.ts';
import { newSession, ok, runConfig } from '../../test/session.ts';
import type { Mapping } from './api.ts';
import { reviewAnswers } from '../../test/review-answers.ts';

/** Two systems, wide layout, no labels. */
const records = reviewAnswers(60);
const blob = () => new Blob([JSON.stringify(records)]);
const mapping: Mapping = { map: { question: 'question', gold: 'golden_answer' }, goldSep: '', systems: { wide: true } };
const METRICS = ['exact_match', 'token_f1', 'pedants'];

async function scored(kv = memoryStore<unknown>(), file = blob(), name = 'answers.json') {
  const s = newSession(kv);
  ok(await s.open(file, name));
  ok(await s.map(mapping));
  ok(await s.run(runConfig(mapping, METRICS)));
  return s;
}

describe('the review queue', () => {
  it('asks about the budget of rows, records answers and undo, and a new session on the same storage resumes it', async () => {
    const kv = memoryStore<unknown>();
    const s = await scored(kv);
    expect(ok(s.reviewState())).toBeNull();
    const st = ok(await s.reviewStart({ budget: 12 }));
    expect(st).toMatchObject({ judge: 'pedants', budget: 12, answered: 0, next: 0, classes: false, canUndo: false });
    expect(st.asked).toBeLessThanOrEqual(12);
    const first = ok(s.reviewItem(0));
    expect(first.row.system).toMatch(/^[ab]$/);
    expect(first.judge.metric).toBe('pedants');
    expect(first.why.length).toBeGreaterThan(0);
    ok(await s.reviewAnswer(0, true));
    ok(await s.reviewAnswer(1, false));
    ok(await s.reviewAnswer(2, 'skip'));
    let now = ok(await s.reviewUndo());
    expect(now).toMatchObject({ answered: 2, labelled: 2, skipped: 0, next: 2, canUndo: true });
    now = ok(await s.reviewAnswer(1, true));
    expect(now).toMatchObject({ answered: 2, labelled: 2, next: 2 });
    expect(ok(s.reviewItem(1)).answer).toBe(true);

    // A reload: a new session on the same storage, the run reopened.
    const runId = (await s.runs())[0]!.id;
    const again = newSession(kv);
    ok(await again.resume(runId));
    expect(ok(again.reviewState())).toMatchObject({ answered: 2, labelled: 2, next: 2, budget: 12 });
    expect(ok(again.reviewItem(0)).answer).toBe(true);
    // Starting over while answers stand is refused; discarding is not.
    expect(await again.reviewStart({ budget: 5 })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/a review with 3 answers is going on/),
    });
    ok(await again.reviewDiscard());
    expect(ok(again.reviewState())).toBeNull();
    expect(ok(await again.reviewStart({ budget: 5 })).budget).toBe(5);
  });

  it('folds the labels into the comparison: reviewed accuracy per system, ranks and paired tests say so', async () => {
    const s = await scored();
    const st = ok(await s.reviewStart({ budget: 20 }));
    for (let p = 0; p < st.asked; p++) {
      const it = ok(s.reviewItem(p));
      const k = Number(it.row.id.slice(1));
      ok(await s.reviewAnswer(p, it.row.system === 'a' ? true : k % 2 === 0));
    }
    const rep = ok(await compareApi(s).compareReport()).report;
    const board = rep.leaderboard.metrics.find((m) => m.metric === 'pedants')!;
    expect(board.rankedBy).toBe('reviewed');
    expect(board.entries.every((e) => e.reviewed && e.reviewed.labelled > 0)).toBe(true);
    expect(rep.paired.basis).toBe('reviewed');
    const est = ok(s.reviewState())!.estimates;
    expect(est.map((e) => e.system).sort()).toEqual(['a', 'b']);
    // The comparison and the review panel give the same figure.
    for (const e of est) expect(e.reviewed!.value).toBeCloseTo(board.entries.find((x) => x.system === e.system)!.reviewed!.value, 12);
  });

  it('exports labels and imports them into another run of the same input; refuses another input', async () => {
    const kv = memoryStore<unknown>();
    const s = await scored(kv);
    ok(await s.reviewStart({ budget: 10 }));
    ok(await s.reviewAnswer(0, true));
    ok(await s.reviewAnswer(1, false));
    ok(await s.reviewAnswer(0, false));
    const text = await ok(s.reviewExport()).text();
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(Object.keys(lines[0]!)).toEqual(['id', 'system', 'label', 'picked', 'time', 'input']);
    expect(lines.map((l) => l.label)).toEqual([false, false]);

    const other = await scored(kv);
    const imported = ok(await other.reviewImport(new Blob([text]), 'labels.jsonl'));
    expect(imported.note).toBe('labels.jsonl: 2 rows labelled by review');
    expect(imported.state).toMatchObject({ labelled: 2 });
    // A duplicate and an unknown id: the last kept, both said.
    const extra = `${text}${JSON.stringify({ ...lines[0], label: true })}\n${JSON.stringify({ ...lines[0], id: 'nope' })}\n`;
    expect(ok(await other.reviewImport(new Blob([extra]), 'more.jsonl')).note).toBe(
      `more.jsonl: 2 rows labelled by review; 1 labelled twice (the last label kept); 1 label for ids not in the input (${String(lines[0]!.system)}/nope) left out`,
    );

    const changed = records.map((r) => ({ ...r, answer_b: `${r.answer_b}!` }));
    const third = await scored(kv, new Blob([JSON.stringify(changed)]), 'answers2.json');
    expect(await third.reviewImport(new Blob([text]), 'labels.jsonl')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/labels\.jsonl holds labels for another input \(SHA-256 [0-9a-f]{12}…\), not answers2\.json/),
    });
    // Nothing labelled there, and nothing lost here.
    expect(ok(third.reviewState())).toBeNull();
    expect(ok(other.reviewState())).toMatchObject({ labelled: 2 });
  });

  it('refits the judge threshold on the reviewed rows, saved with the run as its calibration', async () => {
    const kv = memoryStore<unknown>();
    const s = await scored(kv);
    const st = ok(await s.reviewStart({ budget: 60, judge: 'token_f1' }));
    // The person calls A's long sentences right: token F1 under-credits them.
    for (let p = 0; p < st.asked; p++) {
      const it = ok(s.reviewItem(p));
      const k = Number(it.row.id.slice(1));
      ok(await s.reviewAnswer(p, it.row.system === 'a' ? true : k % 2 === 0));
    }
    const r = ok(await s.reviewRefit());
    expect(r.refit.metric).toBe('token_f1');
    expect(r.refit).toMatchObject({ applied: true, slice: { n: 8, before: 0.875, after: 1 } });
    expect(r.refit.after).toBeLessThan(r.refit.before);
    expect(r.state.threshold).toBe(r.refit.after);
    const runId = (await s.runs())[0]!.id;
    expect((await s.runs())[0]!.calibrated).toBe(true);
    const again = newSession(kv);
    const resumed = ok(await again.resume(runId));
    expect(resumed.config.calibration!.thresholds.token_f1).toBe(r.refit.after);
  });

  it('reviews a run of one system too: one estimate, for all rows', async () => {
    const one = records.map((r) => ({ id: r.id, question: r.question, gold: r.golden_answer, candidate: r.answer_a }));
    const s = newSession();
    ok(await s.open(new Blob([JSON.stringify(one)]), 'one.json'));
    const m: Mapping = { map: {} };
    ok(await s.map(m));
    ok(await s.run(runConfig(m, METRICS)));
    const st = ok(await s.reviewStart({ budget: 10 }));
    expect(ok(s.reviewItem(0)).row.system).toBeUndefined();
    const after = ok(await s.reviewAnswer(0, true));
    expect(after.estimates).toHaveLength(1);
    expect(after.estimates[0]!).toMatchObject({ system: null, reviewed: { labelled: 1, rows: 60 } });
    expect(st.asked).toBeLessThanOrEqual(10);
    const line = JSON.parse((await ok(s.reviewExport()).text()).trim()) as Record<string, unknown>;
    expect(Object.keys(line)).toEqual(['id', 'label', 'picked', 'time', 'input']);
  });

  it('says what is wrong with a bad request, and changes nothing', async () => {
    const s = await scored();
    expect(s.reviewItem(0)).toMatchObject({ ok: false, error: 'no review is going on: start one' });
    expect(await s.reviewStart({ budget: 0 })).toMatchObject({ ok: false, error: 'review at least one row (the budget was 0)' });
    expect(await s.reviewStart({ budget: NaN })).toMatchObject({
      ok: false,
      error: 'the budget is not a number: give the number of rows to review',
    });
    expect(await s.reviewStart({ budget: null as unknown as number })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/not a number/),
    });
    expect(await s.reviewStart({ budget: 121 })).toMatchObject({ ok: false, error: 'the budget (121) is more than the 120 rows scored' });
    expect(await s.reviewStart({ budget: 5, judge: 'bleu' })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/bleu is not a metric of this run/),
    });
    ok(await s.reviewStart({ budget: 5 }));
    expect(await s.reviewAnswer(99, true)).toMatchObject({ ok: false, error: 'no row at position 99 of the review (it has 5)' });
    expect(await s.reviewUndo()).toMatchObject({ ok: false, error: 'there is no answer to take back' });
    expect(s.reviewExport()).toMatchObject({ ok: false, error: 'no row is labelled yet: nothing to export' });
    expect(await s.reviewImport(new Blob(['{"id":"zz","system":"a","label":true}\n']), 'x.jsonl')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/none of the 1 labels in x\.jsonl matches a row/),
    });
    expect(await s.reviewImport(new Blob(['nope\n']), 'y.jsonl')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/y\.jsonl, line 1 is not JSON/),
    });
  });
});
