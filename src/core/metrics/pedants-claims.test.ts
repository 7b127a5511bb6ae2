/**
 * pedants' reasons against their rows: every claim of every reason checked (pedants-claims.ts checkClaim) over
 * every corpus the tests have — the demo set and its comparison, the fixtures, EVOUNA-TQ where it is present, the
 * examples a lecturer's walk found false before, and generated rows — with none false; and the checker itself
 * finds a planted false claim of every kind.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createPedants } from './pedants.ts';
import { checkClaim, renderClaims, type PedantsClaim } from './pedants-claims.ts';
import { lexicon } from '../../../test/lexicon.ts';
import { ADVERSARIAL_PIECES } from '../text/adversarial.ts';
import type { QaItem } from '../types.ts';
import { corpusItems, itOnEvouna } from '../../../test/corpora.ts';

const pedants = createPedants({ lexicon });

/** The false claims in a corpus's reasons: row, claim and what is not so. */
function falseClaims(items: readonly QaItem[]): string[] {
  const out: string[] = [];
  for (const item of items) {
    const r = pedants.score(item);
    const claims = (r.details as { claims?: PedantsClaim[] } | undefined)?.claims;
    if (!claims) continue;
    // The reason is its claims, written in one place.
    expect(r.explanation.endsWith(renderClaims(claims))).toBe(true);
    for (const c of claims) {
      const wrong = checkClaim(item, claims, c);
      if (wrong) out.push(`${JSON.stringify(item.candidate)} / ${JSON.stringify(item.golds)}: ${c.kind}: ${wrong}`);
    }
  }
  return out;
}

/** What a lecturer's walk found false in the reasons before they were claims. */
const WALK: [string, string, string][] = [
  ['What animal lays eggs?', 'platypus', 'Ornithorhynchus anatinus'],
  ['Which element has atomic number 11?', 'Sodium', 'Na (atomic number 11)'],
  ['What share?', '20%', '19%'],
  ['What share?', '20%', '20'],
  ['Which colours?', 'red and green', 'Green and red.'],
  ['When?', 'March 1995', 'March 18, 1995'],
  ['What do they do in winter?', 'flying south', 'they fly south'],
  ['How many people?', 'about 2.1 million', '2,100,000'],
  ['How many people?', '2,100,000', 'about 2.1 million'],
  ['How many legs?', '8', 'eight'],
  ['At what temperature does water boil?', '100 °C', '212 °F'],
  ['At what temperature does water boil?', '100 °C', '373.15 K'],
  ['At what temperature does water boil?', '100 °C', '100 °C (212 °F)'],
  ['Which novel?', 'Pride and Prejudice', 'Pride and Prejudice, first published in 1813'],
  ['How does he run?', 'running quickly', 'he runs quick'],
  ['Is it Lyon?', 'Paris', 'Not Lyon, but Paris.'],
  ['Who discovered X-rays?', 'Wilhelm Röntgen', 'Rontgen, who isnt French'],
];

describe("pedants' reasons say only what holds of their row", () => {
  it('on the demo set, its comparison, the fixtures and the walk’s examples', () => {
    const items = [...corpusItems(), ...WALK.map(([question, gold, candidate]) => ({ question, golds: [gold], candidate }))];
    expect(items.length).toBeGreaterThan(300);
    expect(falseClaims(items)).toEqual([]);
  });

  it('on generated rows of awkward text (300 runs)', () => {
    const piece = fc.constantFrom(
      ...ADVERSARIAL_PIECES,
      'Paris',
      '20%',
      '1,000',
      'the',
      'not',
      'and',
      'March 1995',
      '°C',
      'Na',
      '2.1 million',
      '2,100,000',
      'eight',
      'about',
      'one hundred',
      '°F',
    );
    const text = fc.array(piece, { minLength: 1, maxLength: 8 }).map((p) => p.join(' '));
    fc.assert(
      fc.property(text, fc.array(text, { minLength: 1, maxLength: 3 }), (candidate, golds) => {
        expect(falseClaims([{ question: 'What is it?', golds, candidate }])).toEqual([]);
      }),
      { numRuns: 300, seed: 68 },
    );
  });

  itOnEvouna("pedants' claims", (rows) => expect(falseClaims(rows).slice(0, 20)).toEqual([]));
});

describe('the claim checker', () => {
  const item = { question: 'What share?', golds: ['20%'], candidate: 'It is 19% of it' };
  const planted: PedantsClaim[] = [
    { kind: 'final-answer', text: 'So 20%' },
    { kind: 'refusal', cue: 'I cannot say' },
    { kind: 'polarity', polarity: 'negation', cue: 'never', words: 'never' },
    { kind: 'holds', text: '20%', gold: '20%' },
    { kind: 'holds', text: 'twenty-one', gold: '20%', via: 'alias' },
    { kind: 'overlap', text: '20%', f1: 0.8, shared: [{ word: 'percent', from: '19%' }] },
    { kind: 'overlap', text: '20%', f1: 0.33, shared: [{ word: 'it' }] },
    { kind: 'numbers-in', gold: '20%', numbers: ['20'] },
    { kind: 'numbers-not-in', numbers: ['20'] },
    { kind: 'quantity', answer: '20 %', gold: '20 %', goldText: '20%' },
    { kind: 'list-wrong', list: 'list', items: ['20%'] },
    { kind: 'less-specific', gold: '19%' },
  ];
  it('finds a planted false claim of every kind it checks', () => {
    for (const c of planted) expect(checkClaim(item, [c], c), c.kind).not.toBeNull();
    expect(checkClaim({ ...item, candidate: '20%' }, [], { kind: 'holds-none' })).not.toBeNull();
    expect(checkClaim({ ...item, candidate: 'the 20%' }, [], { kind: 'less-specific', gold: '20%' })).not.toBeNull();
  });
  it('passes the true ones', () => {
    const claims: PedantsClaim[] = [
      { kind: 'holds-none' },
      { kind: 'overlap', text: '20%', f1: 0.25, shared: [{ word: 'percent', from: '19%' }] },
      { kind: 'numbers-not-in', numbers: ['19'] },
      { kind: 'quantity', answer: '19 %', gold: '20 %', goldText: '20%' },
    ];
    for (const c of claims) expect(checkClaim(item, claims, c), c.kind).toBeNull();
  });
});
