import { describe, expect, it } from 'vitest';
import { scoreRows, type RowResults } from './scoring.ts';
import type { Metric, QaItem, ResultUse } from './types.ts';

/** A metric that records what each call asked for. */
function recording(name: string) {
  const uses: (ResultUse | undefined)[] = [];
  const metric: Metric = {
    name,
    card: { what: '', formula: '', defaults: '', limits: '', citation: '' },
    threshold: 0.5,
    score: (_item: QaItem, use?: ResultUse) => (uses.push(use), { score: 1, decision: true, explanation: use === 'scores' ? '' : 'why' }),
  };
  return { metric, uses };
}

describe('scoreRows', () => {
  const rows: QaItem[] = [
    { question: 'Q?', golds: ['a'], candidate: 'a' },
    { question: 'Q?', golds: ['b'], candidate: 'c' },
  ];

  it('asks the metrics named in scoresOnly for their scores alone, the others for everything', async () => {
    const lean = recording('lean');
    const full = recording('full');
    const out = await scoreRows(rows, [lean.metric, full.metric], {}, { scoresOnly: new Set(['lean']) });
    expect(lean.uses).toEqual(['scores', 'scores']);
    expect(full.uses).toEqual(['full', 'full']);
    expect(out.map((r) => [r.lean!.explanation, r.full!.explanation])).toEqual([
      ['', 'why'],
      ['', 'why'],
    ]);
  });

  it('asks for everything by default', async () => {
    const m = recording('m');
    await scoreRows(rows, [m.metric], {});
    expect(m.uses).toEqual(['full', 'full']);
  });

  it('hands scoreSync up to eight batches at a time, and keeps their results in row order', async () => {
    const many: QaItem[] = Array.from({ length: 50 }, (_, i) => ({ question: 'Q?', golds: ['a'], candidate: `c${i}` }));
    let open = 0;
    let most = 0;
    const calls: string[] = [];
    // Batches finish out of order: later ones first.
    const scoreSync = async (batch: QaItem[]): Promise<RowResults[]> => {
      calls.push(batch[0]!.candidate);
      most = Math.max(most, ++open);
      await new Promise((r) => setTimeout(r, 20 - Number(batch[0]!.candidate.slice(1)) / 5));
      open--;
      return batch.map((r) => ({ m: { score: Number(r.candidate.slice(1)), decision: true, explanation: '' } }));
    };
    const out = await scoreRows(many, [recording('m').metric], {}, { batchSize: 3, scoreSync });
    expect(out.map((r) => r.m!.score)).toEqual(many.map((_, i) => i));
    expect(calls).toHaveLength(17);
    expect(most).toBe(8);
  });
});
