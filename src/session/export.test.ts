import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { toCsv } from '../core/io/export.ts';
import type { RowResults } from '../core/scoring.ts';
import type { QaRow } from '../core/types.ts';
import { csvParts } from './export.ts';
import { ResultTable } from '../core/result-table.ts';

const row = (i: number): QaRow => ({ id: `r${i}`, question: `q${i}`, golds: [`g${i}`], candidate: `c${i}` }) as QaRow;
const res: RowResults = { exact_match: { score: 1, decision: true, explanation: 'same' } } as RowResults;
/** The same exact_match result for each of n rows, as the session keeps results. */
const sameResults = (n: number) =>
  ResultTable.of(
    Array.from({ length: n }, () => res),
    ['exact_match'],
  );

describe('csvParts', () => {
  it('records with their own columns (a system, input columns that differ between files): every batch has the same columns', async () => {
    const rows = Array.from({ length: 5 }, (_, i) => row(i));
    // Row 3 (second batch of 2) has a column no earlier row has; rows 0-1 lack "team".
    const record = (i: number): Record<string, unknown> => ({
      system: i % 2 ? 'b' : 'a',
      id: rows[i]!.id,
      question: rows[i]!.question,
      gold: rows[i]!.golds,
      candidate: rows[i]!.candidate,
      label: null,
      metrics: { exact_match: { score: 1, decision: true, explanation: 'same' } },
      ...(i >= 2 ? { team: `t${i}` } : {}),
      ...(i === 3 ? { late: { n: 3 } } : {}),
    });
    const input = {
      rows,
      results: sameResults(rows.length),
      metricNames: ['exact_match'],
      detailed: new Set<string>(),
      run: { x: 1 },
      record,
    };
    const batched = (await csvParts({ ...input, batch: 2 })).join('');
    const whole = (await csvParts({ ...input, batch: 100 })).join('');
    expect(batched).toBe(whole);
    const t = Papa.parse<Record<string, string>>(whole, { header: true, skipEmptyLines: true });
    expect(t.meta.fields).toEqual([
      'system',
      'id',
      'question',
      'gold',
      'candidate',
      'label',
      'exact_match.score',
      'exact_match.decision',
      'exact_match.explanation',
      'team',
      'late',
      'verity_run',
    ]);
    expect(t.data.map((r) => [r.system, r.team, r.late])).toEqual([
      ['a', '', ''],
      ['b', '', ''],
      ['a', 't2', ''],
      ['b', 't3', '{"n":3}'],
      ['a', 't4', ''],
    ]);
    // The run configuration once, in the first row, in every batching.
    expect(t.data.map((r) => r.verity_run)).toEqual(['{"x":1}', '', '', '', '']);
  });

  it('with recordKeys, the pass that gathers the columns makes no record (each record is made once, for its batch)', async () => {
    const rows = Array.from({ length: 5 }, (_, i) => row(i));
    const made: number[] = [];
    const base = (i: number): Record<string, unknown> => ({
      system: 'a',
      id: rows[i]!.id,
      question: rows[i]!.question,
      gold: rows[i]!.golds,
      candidate: rows[i]!.candidate,
      label: null,
      ...(i === 3 ? { late: 1 } : {}),
    });
    const record = (i: number) => (
      made.push(i),
      { ...base(i), metrics: { exact_match: { score: 1, decision: true, explanation: 'same' } } }
    );
    const input = {
      rows,
      results: sameResults(rows.length),
      metricNames: ['exact_match'],
      detailed: new Set<string>(),
      run: {},
      record,
      batch: 2,
    };
    const keyed = (await csvParts({ ...input, recordKeys: (i: number) => [...Object.keys(base(i)), 'metrics'] })).join('');
    expect(made).toEqual([0, 1, 2, 3, 4]);
    made.length = 0;
    expect(keyed).toBe((await csvParts(input)).join(''));
    expect(made).toEqual([0, 1, 2, 3, 4, 0, 1, 2, 3, 4]);
  });

  it('plain records keep the columns they always had', () => {
    const rec = { id: 'x', question: 'q', gold: ['g'], candidate: 'c', label: null, metrics: {} };
    expect(toCsv([rec], []).split('\n')[0]).toBe('id,question,gold,candidate,label');
  });
});

describe("the Score page's CSV", () => {
  it("writes each row's golds with the separator the input used, and reads back to the same golds", async () => {
    const { newSession, ok, runConfig } = await import('../../test/session.ts');
    const csv = 'id,question,answers,candidate\n1,Capital of France?,Paris | City of Light,Paris\n2,Symbol for gold?,Au,Au\n';
    const s = newSession();
    ok(await s.open(new Blob([csv]), 'golds.csv'));
    const mapping = { map: { question: 'question', gold: 'answers', candidate: 'candidate' }, goldSep: '|' };
    ok(await s.map(mapping));
    ok(await s.run(runConfig(mapping, ['exact_match'])));
    const out = Papa.parse<Record<string, string>>(await ok(await s.exportFile('csv')).text(), { header: true, skipEmptyLines: true });
    expect(out.data.map((r) => r.gold)).toEqual(['Paris | City of Light', 'Au']);
    const again = newSession();
    ok(await again.open(new Blob([Papa.unparse(out.data)]), 'again.csv'));
    ok(await again.map({ map: { question: 'question', gold: 'gold', candidate: 'candidate' }, goldSep: '|' }));
    ok(await again.run(runConfig({ map: { question: 'question', gold: 'gold', candidate: 'candidate' }, goldSep: '|' }, ['exact_match'])));
    const back = (await ok(await again.exportFile('jsonl')).text())
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => (JSON.parse(l) as { gold: string[] }).gold);
    expect(back).toEqual([['Paris', 'City of Light'], ['Au']]);
  });
});
