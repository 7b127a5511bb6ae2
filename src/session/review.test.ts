/**
 * A run's review in the scoring session: each distinct answer asked once for every system that gave it, answers
 * and undo saved with the run (a new session on the same storage resumes it), a label for one system's row apart,
 * two tabs answering at once without losing an answer, the export read back by the CLI's reader and imported into
 * another run of the same input (refused for another), the comparison's estimate equal to the panel's, the refit
 * saved as the run's calibration, and clear errors for bad requests.
 */
import { describe, expect, it } from 'vitest';
import { memoryStore } from '../runtime/idb-cache.ts';
import { newSession, ok, refusal, runConfig } from '../../test/session.ts';
import type { Mapping } from './api.ts';
import { reviewAnswers } from '../../test/review-answers.ts';
import { SHEET_COLUMNS, parseReviewSheet } from '../core/review/sheet.ts';
import { parseReviewLabels } from '../core/review/labels.ts';

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

/** The person: system a's answers are right, b's right on even questions. */
const truth = (system: string | undefined, id: string) => system === 'a' || Number(id.slice(1)) % 2 === 0;

describe('the review', () => {
  it('asks each distinct answer once, records answers and undo, and a new session on the same storage resumes it', async () => {
    const kv = memoryStore<unknown>();
    const s = await scored(kv);
    expect(ok(await s.review.state())).toBeNull();
    const st = ok(await s.review.start({ budget: 12 }));
    // 120 rows, 10 questions (q0, q6, …) answered alike by both systems: 110 distinct answers.
    expect(st).toMatchObject({
      judge: 'pedants',
      budget: 12,
      asked: 12,
      groups: 110,
      answered: 0,
      next: 0,
      classes: false,
      canUndo: false,
    });
    const items = Array.from({ length: 12 }, (_, p) => ok(s.review.item(p)));
    expect(new Set(items.map((i) => `${i.row.id}`)).size).toBeGreaterThan(0);
    for (const it of items) {
      expect(it.rows.length).toBeGreaterThanOrEqual(1);
      if (it.rows.length === 2) expect(it.rows.map((r) => r.system).sort()).toEqual(['a', 'b']);
    }
    expect(st.rows).toBe(items.reduce((n, i) => n + i.rows.length, 0));
    expect(items[0]!.judge.metric).toBe('pedants');
    expect(items[0]!.why).toMatch(/the judge is wrong here with probability/);
    ok(await s.review.answer(0, true));
    ok(await s.review.answer(1, false));
    ok(await s.review.answer(2, 'skip'));
    let now = ok(await s.review.undo());
    expect(now).toMatchObject({ answered: 2, labelled: 2, skipped: 0, next: 2, inEstimate: 2, canUndo: true });
    now = ok(await s.review.answer(1, true));
    expect(now).toMatchObject({ answered: 2, labelled: 2, next: 2 });
    expect(ok(s.review.item(1)).answer).toBe(true);
    // An answer after an unanswered question waits for it.
    now = ok(await s.review.answer(5, true));
    expect(now).toMatchObject({ inEstimate: 2, waiting: 1 });

    const runId = (await s.runs())[0]!.id;
    const again = newSession(kv);
    ok(await again.resume(runId));
    expect(ok(await again.review.state())).toMatchObject({ answered: 3, labelled: 3, next: 2, budget: 12 });
    expect(ok(again.review.item(0)).answer).toBe(true);
    expect(await again.review.start({ budget: 5 })).toMatchObject(refusal(/a review with 5 answers is going on/));
    ok(await again.review.discard());
    expect(ok(await again.review.state())).toBeNull();
    expect(ok(await again.review.start({ budget: '5%' })).budget).toBe(6);
  });

  it('labels one system apart from its group, and counts the conflict', async () => {
    const s = await scored();
    const st = ok(await s.review.start({ budget: '100%' }));
    const p = Array.from({ length: st.asked }, (_, k) => k).find((k) => ok(s.review.item(k)).rows.length === 2)!;
    ok(await s.review.answer(p, true));
    const b = ok(s.review.item(p)).rows.find((r) => r.system === 'b')!;
    const now = ok(await s.review.answer(p, false, b.index));
    expect(now.conflicts).toBe(1);
    expect(ok(s.review.item(p)).rows.find((r) => r.system === 'b')!.own).toBe(false);
    const line = (await ok(s.review.exportLabels()).text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { order: number; label: unknown; rows?: { system: string; label?: boolean }[] })
      .find((l) => l.order === p + 1)!;
    expect(line.label).toBe(true);
    expect(line.rows!.find((r) => r.system === 'b')!.label).toBe(false);
    expect(await s.review.answer(p, true, 99_999)).toMatchObject(refusal(/not one of the rows/));
  });

  it('keeps the answers of two tabs answering the same run at once', async () => {
    const kv = memoryStore<unknown>();
    const s = await scored(kv);
    ok(await s.review.start({ budget: 10 }));
    const runId = (await s.runs())[0]!.id;
    const other = newSession(kv);
    ok(await other.resume(runId));
    // Each tab answers without having seen the other's answers since it loaded.
    ok(await s.review.answer(0, true));
    ok(await other.review.answer(1, false));
    ok(await s.review.answer(2, true));
    ok(await other.review.answer(3, true));
    ok(await s.review.answer(4, false));
    const third = newSession(kv);
    ok(await third.resume(runId));
    expect(ok(await third.review.state())).toMatchObject({ answered: 5, labelled: 5 });
    expect(ok(await s.review.state())).toMatchObject({ answered: 5 });
  });

  it('draws the questions after the answers again at a refit, keeps what was answered, and exports a file that reads back', async () => {
    const kv = memoryStore<unknown>();
    const s = await scored(kv);
    ok(await s.review.start({ budget: 70 }));
    const before = Array.from({ length: 70 }, (_, p) => ok(s.review.item(p)).row.id + ok(s.review.item(p)).row.system);
    const runId = (await s.runs())[0]!.id;
    // A second tab, loaded before the redraw, answers a question past the answers in order (it waits there).
    const other = newSession(kv);
    ok(await other.resume(runId));
    let p = 0;
    const epochs = () =>
      (ok(s.review.exportLabels()) as Blob).text().then((t) =>
        t
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { sample?: { epoch: number } }),
      );
    for (; p < 45; p++) {
      const it = ok(s.review.item(p));
      ok(await s.review.answer(p, truth(it.row.system, it.row.id)));
    }
    const after = Array.from({ length: 70 }, (_, k) => ok(s.review.item(k)).row.id + ok(s.review.item(k)).row.system);
    // 45 answers in order (about 50 rows, both kinds): the rest was drawn again; the answered part stays.
    expect(after.slice(0, 45)).toEqual(before.slice(0, 45));
    expect(after.slice(45)).not.toEqual(before.slice(45));
    expect(ok(await s.review.state())).toMatchObject({ drawnAgain: 45 });
    const lines = await epochs();
    expect(lines.slice(0, 45).every((l) => (l.sample?.epoch ?? 0) === 0)).toBe(true);
    expect(lines.slice(45, 70).every((l) => l.sample?.epoch === 1)).toBe(true);
    const text = await ok(s.review.exportLabels()).text();
    const parsed = parseReviewLabels(text);
    expect(parsed.ok && parsed.value.design!.sequence.answered).toBe(45);
    // The estimate reads the new epoch's probabilities once its questions are answered.
    for (; p < 55; p++) {
      const it = ok(s.review.item(p));
      ok(await s.review.answer(p, truth(it.row.system, it.row.id)));
    }
    expect(ok(await s.review.state())).toMatchObject({ inEstimate: 55 });
    // The other tab, loaded before the redraw, answers what it shows as question 61: that question is no longer
    // asked there, so the answer is refused with why (never put on the new question 61); looked at again, it is taken.
    const k = after.findIndex((x, j) => j >= 55 && x !== before[j]);
    expect(await other.review.answer(k, true)).toMatchObject(refusal(/drawn again in another tab/));
    expect(ok(other.review.item(k)).row.id + ok(other.review.item(k)).row.system).toBe(after[k]);
    ok(await other.review.answer(k, true));
    const third = newSession(kv);
    ok(await third.resume(runId));
    expect(ok(await third.review.state())).toMatchObject({ inEstimate: k === 55 ? 56 : 55, answered: 56 });
    expect(Array.from({ length: 70 }, (_, k) => ok(third.review.item(k)).row.id + ok(third.review.item(k)).row.system)).toEqual(after);
  });

  it('keeps a run whose answers were given in another tab after this one listed it, until the person confirms them', async () => {
    const kv = memoryStore<unknown>();
    const s = await scored(kv);
    const runId = (await s.runs())[0]!.id;
    // This tab listed the run before any answer: it shows none.
    expect((await s.runs())[0]!.answers).toBe(0);
    const other = newSession(kv);
    ok(await other.resume(runId));
    ok(await other.review.start({ budget: 10 }));
    ok(await other.review.answer(0, true));
    ok(await other.review.answer(1, false));
    expect(await s.deleteRun(runId, 0)).toEqual({ deleted: false, answers: 2 });
    expect((await s.runs()).map((r) => [r.id, r.answers])).toEqual([[runId, 2]]);
    expect(await s.deleteRun(runId, 2)).toEqual({ deleted: true, answers: 2 });
    expect(await s.runs()).toEqual([]);
  });

  it("folds the answers into the comparison: one estimate per system, the panel's and the comparison's alike", async () => {
    const s = await scored();
    const st = ok(await s.review.start({ budget: 40 }));
    expect(ok(s.review.judgeErrors())).toBeNull();
    for (let p = 0; p < st.asked; p++) {
      const it = ok(s.review.item(p));
      ok(await s.review.answer(p, truth(it.row.system, it.row.id)));
    }
    const rep = ok(await s.compare.report()).report;
    const board = rep.leaderboard.metrics.find((m) => m.metric === 'pedants')!;
    expect(board).toMatchObject({ rankedBy: 'reviewed', reference: 'pedants' });
    expect(board.entries.every((e) => e.reviewed && e.reviewed.labelled > 0 && e.human === null)).toBe(true);
    expect(rep.paired.metrics.map((m) => m.metric)).toEqual([...METRICS, 'reviewed']);
    const state = ok(await s.review.state())!;
    expect(state.estimates.map((e) => e.system).sort()).toEqual(['a', 'b']);
    for (const e of state.estimates) expect(e.reviewed!.value).toBe(board.entries.find((x) => x.system === e.system)!.reviewed!.value);
    expect(state.stop.line).toMatch(/Each accuracy is known to ±/);
    expect(state.stop.pairs).toBe(1);
    // What the answers say about the judge: the panel's figures are the comparison's.
    const judge = ok(s.review.judgeErrors());
    expect(judge).not.toBeNull();
    expect(judge).toEqual(rep.judge);
    expect(judge!.systems.map((x) => x.system).sort()).toEqual(['a', 'b']);
  });

  it('exports the review as a label file the CLI reads, imports it into another run of the same input, refuses another input', async () => {
    const kv = memoryStore<unknown>();
    const s = await scored(kv);
    ok(await s.review.start({ budget: 10 }));
    ok(await s.review.answer(0, true));
    ok(await s.review.answer(1, false));
    ok(await s.review.answer(0, false));
    const text = await ok(s.review.exportLabels()).text();
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(10);
    expect(lines.slice(0, 3).map((l) => l.label)).toEqual([false, false, null]);
    expect(Object.keys(lines[0]!)).toEqual(
      expect.arrayContaining(['order', 'id', 'system', 'question', 'golds', 'candidate', 'sample', 'design', 'input', 'label']),
    );
    const parsed = parseReviewLabels(text);
    expect(parsed.ok && parsed.value.design).toMatchObject({ asked: 10, groups: 110, judge: 'pedants' });

    const other = await scored(kv);
    const imported = ok(await other.review.importLabels(new Blob([text]), 'labels.jsonl'));
    expect(imported.note).toMatch(/^labels\.jsonl: 2 answers added \(\d+ rows labelled by review\)$/);
    expect(imported.state).toMatchObject({ asked: 10, answered: 2, labelled: 2, inEstimate: 2 });
    // The same file again: nothing is added twice, and the note says so.
    const again = ok(await other.review.importLabels(new Blob([text]), 'labels.jsonl'));
    expect(again.note).toMatch(/^labels\.jsonl: nothing new: all 2 answers were already in this review/);
    expect(again.state).toMatchObject({ answered: 2, labelled: 2 });
    // A review settled between reviewers (verity agreement --settle): the note says how its questions were settled.
    const settled = lines.map((l, k) =>
      k === 0 ? { ...l, settled: 'adjudicated' } : k === 1 ? { ...l, label: null, unsettled: true } : l,
    );
    const fourth = await scored(kv);
    const read = ok(await fourth.review.importLabels(new Blob([settled.map((l) => JSON.stringify(l)).join('\n')]), 'settled.jsonl'));
    expect(read.note).toContain(
      '2 questions were judged by two or more reviewers: 0 agreed, 1 settled by an adjudicator, 0 by the majority, 1 unsettled and left unanswered',
    );
    expect(read.state).toMatchObject({ answered: 1, inEstimate: 1 });
    // The same design: the review goes on where it was, and the estimate equals the first run's.
    const before = ok(await s.review.state())!.estimates.map((e) => e.reviewed?.value);
    expect(imported.state.estimates.map((e) => e.reviewed?.value)).toEqual(before);

    const changed = records.map((r) => ({ ...r, answer_b: `${r.answer_b}!` }));
    const third = await scored(kv, new Blob([JSON.stringify(changed)]), 'answers2.json');
    expect(await third.review.importLabels(new Blob([text]), 'labels.jsonl')).toMatchObject(
      refusal(/labels\.jsonl holds labels for another input \(SHA-256 [0-9a-f]{12}…\), not answers2\.json/),
    );
    expect(ok(await third.review.state())).toBeNull();
    expect(ok(await other.review.state())).toMatchObject({ labelled: 2 });
    // Plain labels without a system, for a run of two systems: said precisely.
    expect(
      await third.review.importLabels(new Blob(['{"id":"q1","label":true}\r{"id":"q2","label":false}\r']), 'plain.jsonl'),
    ).toMatchObject(refusal(/plain\.jsonl: 2 of its 2 labels name no "system", and the input has 2 systems/));
  });

  it('exports the review as a spreadsheet that reads and imports as its JSONL form does', async () => {
    const kv = memoryStore<unknown>();
    const s = await scored(kv);
    ok(await s.review.start({ budget: 10 }));
    ok(await s.review.answer(0, true));
    ok(await s.review.answer(1, 'partial'));
    const [jsonl, csv] = await Promise.all([ok(s.review.exportLabels('jsonl')).text(), ok(s.review.exportLabels('csv')).text()]);
    expect(csv.split('\n')[0]).toBe(SHEET_COLUMNS.join(','));
    expect(parseReviewSheet(csv, 'f')).toEqual(parseReviewLabels(jsonl, 'f'));
    const states = [];
    for (const [text, name] of [
      [csv, 'labels.csv'],
      [jsonl, 'labels.jsonl'],
    ] as const) {
      const other = await scored(kv);
      states.push(ok(await other.review.importLabels(new Blob([text]), name)).state);
    }
    expect(states[0]).toMatchObject({ asked: 10, answered: 2, labelled: 2 });
    expect(states[0]).toEqual(states[1]);
  });

  it('refits the judge threshold on the reviewed rows, saved with the run as its calibration', async () => {
    const kv = memoryStore<unknown>();
    const s = await scored(kv);
    const st = ok(await s.review.start({ budget: '100%', judge: 'token_f1' }));
    // The person calls a's long sentences right: token F1 under-credits them.
    for (let p = 0; p < st.asked; p++) {
      const it = ok(s.review.item(p));
      ok(await s.review.answer(p, truth(it.row.system, it.row.id)));
    }
    const r = ok(await s.review.refit());
    expect(r.refit.metric).toBe('token_f1');
    expect(r.refit.applied).toBe(true);
    expect(r.refit.slice.after!).toBeGreaterThan(r.refit.slice.before!);
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
    const st = ok(await s.review.start({ budget: 10 }));
    expect(st.asked).toBe(10);
    expect(ok(s.review.item(0)).row.system).toBeUndefined();
    const after = ok(await s.review.answer(0, true));
    expect(after.estimates).toHaveLength(1);
    expect(after.estimates[0]!).toMatchObject({ system: null, reviewed: { labelled: 1, rows: 60 } });
    const line = JSON.parse((await ok(s.review.exportLabels()).text()).split('\n')[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({ order: 1, label: true });
    expect(line.system).toBeUndefined();
  });

  it('says what is wrong with a bad request, and changes nothing', async () => {
    const s = await scored();
    expect(s.review.item(0)).toMatchObject(refusal('no review is going on: start one'));
    expect(await s.review.start({ budget: 0 })).toMatchObject(refusal('the budget 0: ask at least one question'));
    expect(await s.review.start({ budget: NaN })).toMatchObject(refusal(/not a number of questions/));
    expect(await s.review.start({ budget: null as unknown as number })).toMatchObject(refusal(/not a number/));
    expect(await s.review.start({ budget: 5, judge: 'bleu' })).toMatchObject(refusal(/bleu is not a metric of this run/));
    ok(await s.review.start({ budget: 5 }));
    expect(await s.review.answer(99, true)).toMatchObject(refusal('no question at position 99 of the review (it has 5)'));
    expect(await s.review.undo()).toMatchObject(refusal('there is no answer to take back'));
    expect(s.review.exportLabels()).toMatchObject(refusal('no question is answered yet: nothing to export'));
    expect(await s.review.importLabels(new Blob(['{"id":"zz","system":"a","label":true}\n']), 'x.jsonl')).toMatchObject(
      refusal(/none of the 1 labels in x\.jsonl matches a row/),
    );
    // A file of one endless line: read as a stream, stopped at the first line no label line can be.
    expect(
      await s.review.importLabels(new Blob(['{"id":"q1","system":"a","label":true}\n', 'x'.repeat(9 << 20)]), 'huge.jsonl'),
    ).toMatchObject(refusal(/huge\.jsonl, line 2 is longer than 8,388,608 characters/));
    expect(await s.review.importLabels(new Blob(['nope\n']), 'y.jsonl')).toMatchObject(refusal(/y\.jsonl, line 1 is not JSON/));
  });

  it('draws for the mean over a split column, says so, exports it, and an import of the file keeps it', async () => {
    // A "part" column: questions 0–9 small, the other 50 big.
    const parted = () => new Blob([JSON.stringify(records.map((r, i) => ({ ...r, part: i < 10 ? 'small' : 'big' })))]);
    const s = await scored(memoryStore<unknown>(), parted(), 'parted.json');
    expect(ok(s.review.splitColumns())).toContain('part');
    expect(await s.review.start({ budget: 12, split: 'nope' })).toMatchObject(
      refusal(/^split by nope: row 1 has no value there; the columns not mapped to a field are .*part/),
    );
    const st = ok(await s.review.start({ budget: 12, split: 'part' }));
    expect(st.split).toBe('part');
    for (let p = 0; p < 4; p++) {
      const it = ok(s.review.item(p));
      ok(await s.review.answer(p, truth(it.row.system, it.row.id)));
    }
    const text = await ok(s.review.exportLabels()).text();
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { design?: { split?: string } });
    expect(lines.filter((l) => l.design).every((l) => l.design!.split === 'part')).toBe(true);
    // The CLI's reader reads the split back; another run of the file takes the review with it.
    const parsed = parseReviewLabels(text);
    expect(parsed.ok && parsed.value.design).toMatchObject({ split: 'part' });
    const other = await scored(memoryStore<unknown>(), parted(), 'parted.json');
    ok(await other.review.importLabels(new Blob([text]), 'review.jsonl'));
    expect(ok(await other.review.state())).toMatchObject({ split: 'part', answered: 4 });
  });
});
