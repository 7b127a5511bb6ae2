import { describe, expect, it } from 'vitest';
import { analyze, DENSE_FEATURES } from './pedants-features.ts';
import { normalizeTokens } from '../text/normalize.ts';
import type { QaItem } from '../types.ts';
import { lexicon } from '../../../test/lexicon.ts';

const TRI = DENSE_FEATURES.indexOf('char_trigram_jaccard');

/** The feature by its definition: the best Jaccard over golds of the padded strings' trigram sets, as text. */
function reference(item: QaItem): number {
  const grams = (s: string) => {
    const t = ` ${normalizeTokens(s, 'numeric').join(' ')} `;
    const out = new Set<string>();
    for (let i = 0; i + 3 <= t.length; i++) out.add(t.slice(i, i + 3));
    return out;
  };
  const c = grams(item.candidate);
  let best = 0;
  for (const gold of item.golds) {
    if (normalizeTokens(gold, 'numeric').length === 0) continue;
    const g = grams(gold);
    const inter = [...c].filter((x) => g.has(x)).length;
    best = Math.max(best, inter / (c.size + g.size - inter));
  }
  return best;
}

const items: QaItem[] = [
  { question: 'Who wrote Hamlet?', golds: ['William Shakespeare', 'Shakespeare'], candidate: 'It was William Shakespear.' },
  // Characters outside ASCII make trigrams kept as text, beside the integer ones.
  { question: 'Who painted Guernica?', golds: ['Pablo Picasso'], candidate: 'Pablo Ruiz Picasso – the Málaga-born painter' },
  { question: 'Which city?', golds: ['São Paulo', 'Sao Paulo'], candidate: 'São Paulo' },
  // Longer than the reused table at first: it grows.
  {
    question: 'What is it?',
    golds: ['the quick brown fox'],
    candidate: Array.from({ length: 60 }, (_, i) => `word${i} quick brown fox ${i * 7}`).join(' '),
  },
  { question: 'Nothing?', golds: ['Paris'], candidate: '' },
  { question: 'Only the gold?', golds: ['Paris'], candidate: 'Paris' },
];

describe('pedants features: character-trigram Jaccard', () => {
  it('equals the Jaccard of trigram sets built as text', () => {
    for (const item of items) expect(analyze(item, lexicon).dense[TRI], item.candidate.slice(0, 40)).toBeCloseTo(reference(item), 12);
  });

  it('does not depend on the rows scored before (the buffers are reused)', () => {
    const first = items.map((i) => analyze(i, lexicon).dense[TRI]);
    const again = [...items]
      .reverse()
      .map((i) => analyze({ ...i }, lexicon).dense[TRI])
      .reverse();
    expect(again).toEqual(first);
  });
});
