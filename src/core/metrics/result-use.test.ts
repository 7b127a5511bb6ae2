import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lexicon } from '../../../test/lexicon.ts';
import { mapRows } from '../io/fields.ts';
import { parseTable } from '../io/parse.ts';
import type { MetricResult, QaItem } from '../types.ts';
import { createSyncMetric, LEXICAL_METRICS } from './index.ts';

/** The development set's rows, and a few edge cases (no gold, an empty gold, an empty answer). */
const rows: QaItem[] = [
  ...mapRows(
    parseTable(readFileSync(new URL('../../../test/fixtures/taxonomy-dev.jsonl', import.meta.url)), 'taxonomy-dev.jsonl'),
  ).rows.map(({ question, golds, candidate }) => ({ question, golds, candidate })),
  { question: 'Who?', golds: [], candidate: 'Nobody' },
  { question: 'Who?', golds: ['', '...'], candidate: 'Nobody' },
  { question: 'Who?', golds: ['Ada Lovelace'], candidate: '' },
];

/** What a scores-only caller keeps (a scoring pool's packer). */
const kept = (r: MetricResult) => ({ score: r.score, decision: r.decision, class: r.class, set: r.set });

describe("a metric asked for scores alone ('scores')", () => {
  // Thresholds other than the default too: a calibrated threshold wraps the metric.
  it.each(LEXICAL_METRICS.flatMap((name) => [[name, undefined] as const, [name, 0.3] as const]))(
    '%s (threshold %s) gives the scores its full result gives',
    (name, threshold) => {
      const m = createSyncMetric(name, threshold === undefined ? {} : { thresholds: { [name]: threshold } }, { lexicon });
      for (const row of rows) expect(kept(m.score(row, 'scores')), `${name}: ${row.candidate}`).toEqual(kept(m.score(row, 'full')));
    },
  );
});
