import { describe, expect, it } from 'vitest';
import reference from '../../../test/fixtures/squad-reference.json' with { type: 'json' };
import { createExactMatch } from './exact_match.ts';
import { createTokenF1 } from './token_f1.ts';
import { squadNormalize } from '../text/normalize.ts';

const em = createExactMatch();
const f1 = createTokenF1();

describe('SQuAD v1.1 exactness (values from the official script)', () => {
  for (const c of reference.cases) {
    it(`${JSON.stringify(c.candidate)} vs ${JSON.stringify(c.golds)}`, () => {
      const item = { question: '', golds: c.golds, candidate: c.candidate };
      expect(squadNormalize(c.candidate)).toBe(c.normalized);
      expect(em.score(item).score).toBe(c.exact_match);
      expect(f1.score(item).score).toBeCloseTo(c.token_f1, 12);
    });
  }
});

describe('token_f1 by hand', () => {
  it('counts repeated tokens and picks the best gold', () => {
    // cand [red, red, blue] vs gold [red, blue, blue]: shared = red×1 + blue×1 = 2 → P = R = 2/3.
    const r = f1.score({ question: '', golds: ['zzz', 'red blue blue'], candidate: 'red red blue' });
    expect(r.score).toBeCloseTo(2 / 3, 12);
    expect(r.details?.matched_gold).toBe('red blue blue');
    expect(r.decision).toBe(true);
  });
  it('decides with the 0.5 threshold', () => {
    // cand [paris, france, capital] vs [paris]: P = 1/3, R = 1 → F1 = 0.5.
    expect(f1.score({ question: '', golds: ['Paris'], candidate: 'Paris France capital' }).decision).toBe(true);
    expect(f1.score({ question: '', golds: ['Paris'], candidate: 'Paris, the French capital city' }).decision).toBe(false);
  });
});
