/**
 * The app's label memory: every answer given in a review remembered (an answer taken back forgotten), offered to
 * the next review of the file with how much of it it judges; a review started with it never asks those answers,
 * counts them as judged (a census, π = 1) and exports them as known lines, which another run imports back (a file
 * short of them refused); the memory exported for the CLI and forgotten on request.
 */
import { describe, expect, it } from 'vitest';
import { memoryStore } from '../runtime/idb-cache.ts';
import { newSession, ok, runConfig } from '../../test/session.ts';
import type { Mapping } from './api.ts';
import { reviewAnswers } from '../../test/review-answers.ts';
import { parseReviewLabels } from '../core/review/labels.ts';
import { lineVerdict, verdictKey } from '../core/review/memory.ts';
import { VerdictStore } from './verdicts.ts';

const blob = () => new Blob([JSON.stringify(reviewAnswers(60))]);
const mapping: Mapping = { map: { question: 'question', gold: 'golden_answer' }, goldSep: '', systems: { wide: true } };

async function scored(verdicts: VerdictStore) {
  const s = newSession(memoryStore<unknown>(), { verdicts });
  ok(await s.open(blob(), 'answers.json'));
  ok(await s.map(mapping));
  ok(await s.run(runConfig(mapping, ['exact_match', 'token_f1', 'pedants'])));
  return s;
}

/** The person: system a's answers are right, b's right on even questions. */
const truth = (system: string | undefined, id: string) => system === 'a' || Number(id.slice(1)) % 2 === 0;

describe('the label memory in the app', () => {
  it('remembers each answer, and the next review of the file leaves those out, counts them and exports them', async () => {
    const verdicts = new VerdictStore(memoryStore<unknown>());
    const first = await scored(verdicts);
    ok(await first.review.start({ budget: 20 }));
    for (let p = 0; p < 20; p++) {
      const it = ok(first.review.item(p));
      ok(await first.review.answer(p, truth(it.rows[0]!.system, it.row.id)));
    }
    expect((await verdicts.all()).length).toBe(20);
    // An answer taken back is forgotten; given again, remembered.
    ok(await first.review.undo());
    expect((await verdicts.all()).length).toBe(19);
    const last = ok(first.review.item(19));
    ok(await first.review.answer(19, truth(last.rows[0]!.system, last.row.id)));
    const remembered = new Set((await verdicts.all()).map((v) => verdictKey(v)));
    expect(remembered.size).toBe(20);

    // Another run of the same file: the memory judges those 20 answers and every row that gave them.
    const second = await scored(verdicts);
    const offer = ok(await second.review.memory());
    expect(offer).toMatchObject({ verdicts: 20, groups: 20 });
    const st = ok(await second.review.start({ budget: 15, known: true }));
    expect(st.known).toBe(offer.rows);
    expect(st.groups).toBe(110);
    for (let p = 0; p < st.asked; p++) {
      const it = ok(second.review.item(p));
      expect(remembered.has(verdictKey(it.row)), `question ${p + 1} was judged before`).toBe(false);
      ok(await second.review.answer(p, truth(it.rows[0]!.system, it.row.id)));
    }
    // Counted as judged, outside the draw's sample, in every system's estimate.
    const after = ok(await second.review.state())!;
    const outsideSample = after.estimates.reduce((n, e) => n + (e.system !== null ? e.reviewed!.labelled - e.reviewed!.sampled : 0), 0);
    expect(outsideSample).toBe(offer.rows);
    const reviewFile = ok(second.review.exportLabels());
    const file = parseReviewLabels(await reviewFile.text());
    expect(file.ok && file.value.design?.known).toBe(offer.rows);
    expect(file.ok && file.value.labels.filter((l) => l.known).length).toBe(offer.rows);
    // Imported into another run of the file (another browser): the same review, its known verdicts and answers.
    const third = await scored(new VerdictStore(memoryStore<unknown>()));
    const imported = ok(await third.review.importLabels(reviewFile, 'answers.review.jsonl')).state;
    expect(imported).toMatchObject({ known: offer.rows, asked: after.asked, labelled: after.labelled });
    expect(imported.estimates.map((e) => e.reviewed?.value)).toEqual(after.estimates.map((e) => e.reviewed?.value));
    // A file that lost a known line is a cut file: refused.
    const cut = (await reviewFile.text())
      .split('\n')
      .filter((l, k, all) => !(l.includes('"known":true') && k === all.findIndex((x) => x.includes('"known":true'))));
    const fourth = await scored(new VerdictStore(memoryStore<unknown>()));
    const refused = await fourth.review.importLabels(new Blob([cut.join('\n')]), 'cut.jsonl');
    expect(refused.ok || refused.error.message).toMatch(/holds the known lines of only/);

    // Exported for the CLI's --known, every verdict with what it judged; then forgotten.
    const lines = (await ok(await second.review.exportVerdicts()).text()).trim().split('\n');
    const exported = lines.map((l) => lineVerdict(JSON.parse(l) as Record<string, unknown>));
    expect(exported.every((v) => v !== null)).toBe(true);
    const keys = new Set(exported.map((v) => verdictKey(v!)));
    expect([...remembered].every((k) => keys.has(k))).toBe(true);
    expect(lines.length).toBe(20 + 15);
    ok(await second.review.forgetVerdicts());
    expect(ok(await second.review.memory())).toMatchObject({ verdicts: 0, groups: 0, rows: 0 });
  });

  it('keeps each project apart: offered, exported and forgotten per project; verdicts kept before projects are the default one', async () => {
    const kv = memoryStore<unknown>();
    const verdicts = new VerdictStore(kv);
    const first = await scored(verdicts);
    ok(await first.review.start({ budget: 12, project: ' squad-v2 ', reviewer: ' ana ' }));
    for (let p = 0; p < 12; p++) {
      const it = ok(first.review.item(p));
      ok(await first.review.answer(p, truth(it.rows[0]!.system, it.row.id)));
    }
    expect(ok(await first.review.state())!).toMatchObject({ project: 'squad-v2', reviewer: 'ana' });
    // Who answered goes with every answer exported and remembered.
    const exported = (await ok(first.review.exportLabels()).text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { label: unknown; reviewer?: string });
    expect(exported.filter((l) => l.label !== null).every((l) => l.reviewer === 'ana')).toBe(true);
    expect((await verdicts.all('squad-v2')).every((v) => v.reviewer === 'ana')).toBe(true);
    // A verdict kept before projects existed: under the answer's key alone, with no project.
    const old = (await verdicts.all('squad-v2'))[0]!;
    const bare = { question: old.question, golds: old.golds, candidate: old.candidate, label: old.label };
    await kv.set(verdictKey(bare), { ...bare, time: '2020-01-01T00:00:00.000Z' });

    const second = await scored(verdicts);
    const inProject = ok(await second.review.memory('squad-v2'));
    expect(inProject).toMatchObject({ project: 'squad-v2', verdicts: 12, groups: 12 });
    expect(inProject.projects.map((p) => [p.name, p.verdicts])).toEqual([
      ['squad-v2', 12],
      ['default', 1],
    ]);
    // Another project is offered nothing of squad-v2's; the default one only its own verdict.
    expect(ok(await second.review.memory('other'))).toMatchObject({ project: 'other', verdicts: 0, groups: 0 });
    expect(ok(await second.review.memory())).toMatchObject({ project: 'default', verdicts: 1, groups: 1 });
    const st = ok(await second.review.start({ budget: 5, known: true, project: 'other' }));
    expect(st).toMatchObject({ known: 0, project: 'other' });
    ok(await second.review.discard());

    const lines = (await ok(await second.review.exportVerdicts('squad-v2')).text()).trim().split('\n');
    expect(lines).toHaveLength(12);
    expect(lines.every((l) => (JSON.parse(l) as { project: string }).project === 'squad-v2')).toBe(true);
    // Read back as a label file, a line keeps its project.
    expect(lineVerdict(JSON.parse(lines[0]!) as Record<string, unknown>)?.project).toBe('squad-v2');
    ok(await second.review.forgetVerdicts('default'));
    expect((await verdicts.all()).length).toBe(12);
    ok(await second.review.forgetVerdicts('squad-v2'));
    expect((await verdicts.all()).length).toBe(0);
  });
});
