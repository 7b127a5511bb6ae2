import { describe, expect, it } from 'vitest';
import { scoreRows } from './scoring.ts';
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
});
