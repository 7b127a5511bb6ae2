/**
 * The monotonicity headline must not crown a metric that gives whole classes one score: on the demo set and on a
 * student's small tied file, exact match breaks no order only by ties, and the headline says so.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseTable } from '../io/parse.ts';
import { mapRows } from '../io/fields.ts';
import { LEXICAL_METRICS, createSyncMetric } from '../metrics/index.ts';
import { scoreRows } from '../scoring.ts';
import { agreementSummary } from '../report.ts';
import { taxonomyHeadline, taxonomyHeadlineText, tiedNames } from './headline.ts';
import { taxonomyTableCsv } from './table-csv.ts';
import type { CapClass, QaRow } from '../types.ts';
import { withWordNet } from '../../../test/lexicon.ts';

async function headlineOf(rows: QaRow[], names: readonly string[]) {
  const metrics = names.map((n) => createSyncMetric(n, {}, withWordNet));
  const s = agreementSummary(rows, await scoreRows(rows, metrics), metrics);
  return { s, h: taxonomyHeadline(s)! };
}

describe('taxonomyHeadline', () => {
  it('on the demo set crowns the best pairwise accuracy, not exact match, and says why exact match looks good', async () => {
    const rows = mapRows(parseTable(readFileSync('public/demo/demo-set.jsonl', 'utf8'), 'demo-set.jsonl')).rows;
    const { s, h } = await headlineOf(rows, LEXICAL_METRICS);
    const em = s.taxonomy!.exact_match!;
    expect(em.violations).toMatchObject({ count: 0, of: 27, ties: 20, weighted: 10 });
    expect(Object.values(em.hardPairs)).toEqual([0.5, 0.5, 0.5, 0.5]);
    expect(h.best).not.toBe('exact_match');
    const top = Math.max(...Object.values(s.taxonomy!).map((t) => t.pairwiseAccuracy ?? -1));
    expect(s.taxonomy![h.best]!.pairwiseAccuracy).toBe(top);
    expect(h.tieNote).toBe(
      'exact_match has no class pairs out of order only because it scores 20 of 27 pairs alike: a tie orders nothing, so it counts as half a violation here (pairwise accuracy 0.6296, every hard pair a coin flip at 0.5).',
    );
    const [first] = taxonomyHeadlineText(h);
    expect(first).toMatch(
      new RegExp(
        `^Most monotone by pairwise accuracy \\(a tie counts half\\): ${h.best} — pairwise accuracy \\d\\.\\d{4}; \\d+ of 27 class pairs out of order(, \\d+ tied)?; hard pairs Eq>Part `,
      ),
    );
  });

  it("on a student's 10-row file, exact and lexical match (no violation, all ties) are not crowned", async () => {
    const q = (question: string, gold: string, candidate: string, cls: CapClass, i: number): QaRow => ({
      row: i + 1,
      id: `s${i}`,
      question,
      golds: [gold],
      candidate,
      label: { kind: 'taxonomy', cls },
    });
    const rows = [
      q('Capital of France?', 'Paris', 'Paris', 'exact', 0),
      q('Who wrote Hamlet?', 'William Shakespeare', 'Shakespeare', 'partial', 1),
      q('Largest planet?', 'Jupiter', 'Saturn', 'invalid', 2),
      q('Boiling point of water in C?', '100', 'one hundred degrees', 'equivalent', 3),
      q('First man on the moon?', 'Neil Armstrong', 'Buzz Aldrin', 'invalid', 4),
      q('Is the Earth flat?', 'no', 'yes', 'contradictory', 5),
      q('Author of 1984?', 'George Orwell', 'Orwell', 'partial', 6),
      q('Chemical symbol for gold?', 'Au', 'Au', 'exact', 7),
      q('Longest river?', 'Nile', 'the Amazon', 'invalid', 8),
      q('Speed of light?', '299,792 km/s', '300,000 km per second', 'equivalent', 9),
    ];
    const { s, h } = await headlineOf(rows, ['exact_match', 'lexical_match', 'token_f1', 'rouge_l']);
    for (const m of ['exact_match', 'lexical_match']) {
      expect(s.taxonomy![m]!.violations.count).toBe(0);
      expect(s.taxonomy![m]!.violations.ties).toBeGreaterThan(0);
    }
    // Five classes: 10 ordered class pairs; exact match ties the 6 without exact (4 choose 2, by hand). The other
    // figures are pinned from this run.
    expect(h.best).toBe('rouge_l');
    expect(taxonomyHeadlineText(h)).toEqual([
      'Most monotone by pairwise accuracy (a tie counts half): rouge_l — pairwise accuracy 0.8077; 1 of 10 class pairs out of order, 1 tied; hard pairs Eq>Part 0.0000 (0.5 = coin flip); Eq>Part below 0.5: ordered the wrong way more often than not.',
      // Ten rows cannot tell rouge_l from the next metric (lexical_match, 0.7564): the headline says so.
      'Lead over the next metric, lexical_match: +0.0513 pairwise accuracy (95% interval -0.1736 to 0.2762): within noise; these 10 rows do not separate them.',
      'exact_match has no class pairs out of order only because it scores 6 of 10 pairs alike: a tie orders nothing, so it counts as half a violation here (pairwise accuracy 0.7051, every hard pair a coin flip at 0.5).',
    ]);
  });

  it('has no headline for binary labels', async () => {
    const rows: QaRow[] = [{ row: 1, id: 'a', question: 'q', golds: ['x'], candidate: 'x', label: { kind: 'binary', correct: true } }];
    const metrics = [createSyncMetric('exact_match')];
    expect(taxonomyHeadline(agreementSummary(rows, await scoreRows(rows, metrics), metrics))).toBeNull();
  });
});

describe('taxonomyTableCsv', () => {
  it("is the Learn table: the report's numbers, violations with ties, the crowned metric marked; it reads back", async () => {
    const rows = mapRows(parseTable(readFileSync('public/demo/demo-set.jsonl', 'utf8'), 'demo-set.jsonl')).rows;
    const { s, h } = await headlineOf(rows, LEXICAL_METRICS);
    const csv = taxonomyTableCsv(s);
    const back = parseTable(csv, 'learn.csv');
    expect(back.columns).toEqual([
      'metric',
      'n',
      'spearman',
      'kendall',
      'pairwise_accuracy',
      'violations',
      'tied',
      'of',
      'Eq>Part',
      'OV>Part',
      'OV>OI',
      'Alt>Inv',
      'most_monotone',
    ]);
    expect(back.records.map((r) => r.data.metric)).toEqual([...LEXICAL_METRICS]);
    const em = back.records.find((r) => r.data.metric === 'exact_match')!.data;
    expect(em).toMatchObject({
      violations: '0',
      tied: '20',
      of: '27',
      'Eq>Part': '0.5',
      pairwise_accuracy: String(s.taxonomy!.exact_match!.pairwiseAccuracy),
    });
    // A negative correlation stays a number, not a neutralized formula.
    const lm = back.records.find((r) => r.data.metric === 'lexical_match')!.data;
    expect(Number(lm.spearman)).toBe(s.taxonomy!.lexical_match!.spearman);
    expect(back.records.filter((r) => r.data.most_monotone === 'yes').map((r) => r.data.metric)).toEqual([h.best]);
  });

  it('names every metric tied at the best pairwise accuracy, in the headline and in the CSV, on the homework template', async () => {
    const rows = mapRows(parseTable(readFileSync('public/demo/homework-template.csv', 'utf8'), 'homework-template.csv')).rows;
    const names = [...LEXICAL_METRICS, 'pedants', 'taxonomy_text'];
    const { s, h } = await headlineOf(rows, names);
    const top = Math.max(...Object.values(s.taxonomy!).map((t) => t.pairwiseAccuracy ?? -1));
    const tied = Object.entries(s.taxonomy!)
      .filter(([, t]) => t.pairwiseAccuracy === top)
      .map(([n]) => n);
    expect(h.tied).toEqual(tied);
    for (const n of tied) expect(taxonomyHeadlineText(h)[0]).toContain(n);
    // On the template pedants and taxonomy_text tie at 0.8148: both are the most monotone.
    expect(tied).toEqual(['pedants', 'taxonomy_text']);
    expect(h.names).toBe('pedants and taxonomy_text, tied');
    const csv = taxonomyTableCsv(s).trim().split('\n').slice(1);
    expect(csv.filter((l) => l.endsWith(',yes')).map((l) => l.split(',')[0])).toEqual(tied);
  });

  it('a tie is a tie: two metrics scoring alike are both named', () => {
    expect(tiedNames(['pedants'])).toBe('pedants');
    expect(tiedNames(['pedants', 'taxonomy_text'])).toBe('pedants and taxonomy_text, tied');
    expect(tiedNames(['a', 'b', 'c'])).toBe('a, b and c, tied');
  });
});
