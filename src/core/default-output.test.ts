/**
 * The embedded default metrics' output, pinned: a fixed mixed set (EVOUNA TriviaQA answers from ../shared, the
 * taxonomy development set, the demo set and edge cases) scored with every default metric, written as JSONL with
 * every metric's details, and hashed. Any change to a score, decision, class, explanation or detail changes the
 * hash: speed work on the scorers (shared normalisation, shared text signals, workers) must leave it as it is.
 * The hash was computed before that work (commit 0985d77), and changed on purpose since: the WordNet signals and
 * METEOR's synonym stage, with pedants retrained on its new features; the demo set's gen-06-exact rewritten to equal
 * its first gold; pedants' reason written from typed claims (its scores and decisions the same on every EVOUNA row)
 * and taxonomy_text's added words quoted as written.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadEvouna, evounaPath, repoRoot, EVOUNA_NEEDED } from '../../scripts/evouna.ts';
import { createSyncMetric, DEFAULT_METRICS } from './metrics/index.ts';
import { scoreRow, scoreRows } from './scoring.ts';
import { outputRecord } from './records.ts';
import type { MetricResult, QaRow } from './types.ts';
import { withWordNet } from '../../test/lexicon.ts';

/** `path` is relative to the repository, so ids (and the hash) do not depend on where the checkout is. */
function jsonl(path: string): QaRow[] {
  return readFileSync(`${repoRoot}/${path}`, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line, i) => {
      const o = JSON.parse(line) as { id?: string; question: string; gold: string[]; candidate: string };
      return { row: i + 1, id: o.id ?? `${path}:${i}`, question: o.question, golds: o.gold, candidate: o.candidate };
    });
}

const EDGE: QaRow[] = [
  { row: 1, id: 'no-gold', question: 'Who?', golds: [], candidate: 'Nobody' },
  { row: 2, id: 'empty-cand', question: 'Who wrote Hamlet?', golds: ['Shakespeare'], candidate: '' },
  {
    row: 3,
    id: 'unicode',
    question: 'Qui a écrit « Les Misérables » ?',
    golds: ['Victor Hugo'],
    candidate: 'C’était Victor Hugo — en 1862.',
  },
  {
    row: 4,
    id: 'numbers',
    question: 'How tall?',
    golds: ['8,848 m', 'twenty nine thousand feet'],
    candidate: 'About 29,032 ft (8848 metres)',
  },
  { row: 5, id: 'too-long', question: 'Long?', golds: ['x'], candidate: 'x '.repeat(60_000) },
  { row: 6, id: 'negation', question: 'Where is the Eiffel Tower?', golds: ['Paris'], candidate: 'The Eiffel Tower is not in Paris.' },
  { row: 7, id: 'hedge', question: 'Which planet is largest?', golds: ['Jupiter'], candidate: 'Either Saturn or Jupiter, I think.' },
  { row: 8, id: 'empty-golds', question: 'What?', golds: ['', 'the'], candidate: 'the' },
];

function mixedSet(): QaRow[] {
  const evouna = loadEvouna()
    .filter((_, i) => i % 2 === 0)
    .map((e, i): QaRow => ({ row: i + 1, id: `tq${i}`, question: e.question, golds: e.golds, candidate: e.candidate }));
  return [
    ...evouna,
    ...jsonl('test/fixtures/taxonomy-dev.jsonl'),
    ...jsonl('public/demo/demo-set.jsonl'),
    ...jsonl('test/fixtures/labelled-small.jsonl'),
    ...EDGE,
  ];
}

const PINNED = {
  rows: 5701,
  sha256: '87c76b9d009499ff7bd1f32d0ba5f859f6f6eedbce8179905bd8c36260c715a6',
};

if (!existsSync(evounaPath())) console.log(`skipped: default metrics output on EVOUNA (pinned) ${EVOUNA_NEEDED}`);
describe.skipIf(!existsSync(evounaPath()))('default metrics output on EVOUNA (pinned)', () => {
  it('scores the fixed mixed set exactly as before, details included', async () => {
    const rows = mixedSet();
    const metrics = DEFAULT_METRICS.map((n) => createSyncMetric(n, {}, withWordNet));
    const all = new Set(DEFAULT_METRICS);
    const results = await scoreRows(rows, metrics);
    const text = rows.map((r, i) => `${JSON.stringify(outputRecord(r, results[i]!, all))}\n`).join('');
    // Each metric alone on a row gives what it gives in the set (no state carried between metrics or rows).
    const alone = rows.slice(0, 300).flatMap((r) => metrics.map((m) => JSON.stringify(scoreRow(r, [m])[m.name])));
    const together = results.slice(0, 300).flatMap((res) => metrics.map((m) => JSON.stringify(res[m.name])));
    expect(alone).toEqual(together);
    expect({ rows: rows.length, sha256: createHash('sha256').update(text).digest('hex') }).toEqual(PINNED);
  }, 600_000);

  it('asked for scores alone (a scoring pool), gives the same scores, decisions and classes', () => {
    const metrics = DEFAULT_METRICS.map((n) => createSyncMetric(n, {}, withWordNet));
    const all = new Set(DEFAULT_METRICS);
    const pick = (r: MetricResult) => ({ score: r.score, decision: r.decision, class: r.class, set: r.set });
    const rows = mixedSet();
    const before = rows.map((row) => scoreRow(row, metrics));
    let lean = 0;
    rows.forEach((row, i) => {
      const scores = scoreRow(row, metrics, all);
      // Full right after scores-only on the same row: as before (nothing left short is reused).
      const full = scoreRow(row, metrics);
      expect(JSON.stringify(full), row.id).toBe(JSON.stringify(before[i]));
      for (const m of DEFAULT_METRICS) {
        expect(pick(scores[m]!), `${row.id} ${m}`).toEqual(pick(full[m]!));
        if (scores[m]!.explanation === '' && full[m]!.explanation !== '') lean++;
      }
    });
    // pedants and taxonomy_text leave their explanations out: the work a pool drops is not done.
    expect(lean).toBeGreaterThan(5000);
  }, 600_000);
});
