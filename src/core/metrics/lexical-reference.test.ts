import { describe, expect, it } from 'vitest';
import reference from '../../../test/fixtures/lexical-reference.json' with { type: 'json' };
import { createBleu, fsum, lowerSplit } from './bleu.ts';
import { createRougeL } from './rouge_l.ts';
import { createMeteor, type SynonymSource } from './meteor.ts';
import type { Metric, QaItem } from '../types.ts';
import { lexicon } from '../../../test/lexicon.ts';

const bleu = createBleu();
const bleu1 = createBleu({ smoothing: 'method1' });
const rouge = createRougeL();
const rougeStem = createRougeL({ useStemmer: true });
const meteor = createMeteor({ lexicon });

/** Within 1e-9 absolutely and, for the tiny unsmoothed BLEU values (~1e-78…1e-231), within 1e-9 relatively. */
function close(actual: number | null, expected: number) {
  expect(actual).not.toBeNull();
  const a = actual as number;
  expect(Math.abs(a - expected)).toBeLessThanOrEqual(1e-9);
  if (expected !== 0) expect(Math.abs(a - expected) / Math.abs(expected)).toBeLessThanOrEqual(1e-9);
  else expect(a).toBe(0);
}

const item = (golds: string[], candidate: string): QaItem => ({ question: '', golds, candidate });

describe(`lexical metrics vs nltk ${reference.nltk_version} / rouge-score (test/fixtures/lexical-reference.json)`, () => {
  for (const c of reference.cases) {
    it(`${c.id}: ${JSON.stringify(c.candidate)} vs ${JSON.stringify(c.golds)}`, () => {
      const it = item(c.golds, c.candidate);
      const b = bleu.score(it);
      close(b.score, c.bleu.score);
      close(bleu1.score(it).score, c.bleu.score_method1);
      if (c.bleu.hyp_length > 0) {
        expect(b.details?.precisions).toEqual(c.bleu.precisions);
        expect(b.details?.closest_ref_length).toBe(c.bleu.closest_ref_length);
        close(b.details?.brevity_penalty as number, c.bleu.brevity_penalty);
      }

      const r = rouge.score(it);
      close(r.score, c.rouge_l.fmeasure);
      if (r.details) {
        expect(r.details.matched_gold_index).toBe(c.rouge_l.best_index);
        close(r.details.precision as number, c.rouge_l.precision);
        close(r.details.recall as number, c.rouge_l.recall);
      }
      close(rougeStem.score(it).score, c.rouge_l_stem.fmeasure);

      const m = meteor.score(it);
      close(m.score, c.meteor.score);
      if (m.details) {
        (m.details.per_gold as number[]).forEach((s, i) => close(s, c.meteor.per_gold[i]!));
        expect(m.details.matched_gold_index).toBe(c.meteor.best_index);
      }
      for (const res of [b, r, m]) expect(res.explanation.length).toBeGreaterThan(0);
    });
  }
});

describe('METEOR synonym stage (stub WordNet table, as in the reference script)', () => {
  const table = reference.synonyms as Record<string, string[]>;
  for (const c of reference.synonym_cases) {
    it(c.id, () => {
      const calls: string[] = [];
      const synonyms: SynonymSource = (w) => (calls.push(w), table[w] ?? []);
      const m = createMeteor({ lexicon: null, synonyms }).score(item(c.golds, c.candidate));
      close(m.score, c.meteor.score);
      // Same words, same order as nltk's wordnet.synsets calls: stems of leftover hypothesis words.
      expect(calls).toEqual(c.meteor.synset_calls);
    });
  }
  it('matches synonyms only against stemmed reference words (nltk quirk)', () => {
    const meteorSyn = createMeteor({ lexicon: null, synonyms: (w) => table[w] ?? [] });
    // 'large' arrives as 'larg' → {large, big} contains the gold's 'big'.
    expect(meteorSyn.score(item(['the big car'], 'the large house')).details?.synonym).toBe(1);
    // 'car' → {…, automobile}, but the gold word is compared as its stem 'automobil': no match.
    const m = meteorSyn.score(item(['an automobile was parked'], 'a car was parked'));
    expect(m.details?.synonym).toBe(0);
    expect(m.explanation).toContain('0 synonym');
  });
});

describe('hand-checked values', () => {
  it('BLEU: identical 6-token answer is 1; unsmoothed short answer is nltk-tiny, not 0', () => {
    expect(bleu.score(item(['the cat sat on the mat'], 'The cat sat on the mat')).score).toBe(1);
    // "paris" vs "paris": p1 = 1/1, p2..p4 = 0/1 → nltk uses sys.float_info.min for each zero order.
    const tiny = Math.exp(0.75 * Math.log(2.2250738585072014e-308));
    close(bleu.score(item(['Paris'], 'Paris')).score, tiny);
    expect(bleu.score(item(['Paris'], 'Paris')).decision).toBe(false);
    close(bleu1.score(item(['Paris'], 'Paris')).score, 0.1 ** 0.75);
  });
  it('BLEU: brevity penalty uses the closest gold length, shorter on ties', () => {
    // 12 tokens, golds of 13 and 2 tokens → r = 13, BP = exp(1 − 13/12) (nltk doc: 0.9200…).
    const r = bleu.score(item(['a b c d e f g h i j k l m', 'x y'], 'a b c d e f g h i j k l'));
    expect(r.details?.closest_ref_length).toBe(13);
    close(r.details?.brevity_penalty as number, Math.exp(1 - 13 / 12));
    // 3 tokens, golds of 2 and 4 → tie at distance 1 → 2 → c > r → BP = 1.
    expect(bleu.score(item(['a b', 'a b c d'], 'a b c')).details?.closest_ref_length).toBe(2);
  });
  it('BLEU: fsum and Python-style whitespace split', () => {
    expect(fsum([1e100, 1, -1e100])).toBe(1);
    expect(fsum(Array(10).fill(0.1))).toBe(1);
    expect(lowerSplit('\u00a0New\u2003YORK\x1ccity\ufeff ')).toEqual(['new', 'york', 'city\ufeff']);
  });
  it('ROUGE-L: LCS by hand and best gold', () => {
    // gold [a b c d], cand [a c x]: LCS 2, P = 2/3, R = 1/2 → F = 4/7.
    const r = rouge.score(item(['zzz', 'A-b c, d'], 'a c x'));
    close(r.score, 4 / 7);
    expect(r.details?.matched_gold).toBe('A-b c, d');
    expect(r.decision).toBe(true);
  });
  it('METEOR: running vs runs match on the stem; penalty for one chunk of one word', () => {
    // m = 1, P = R = 1, Fmean = 1, penalty = 0.5·(1/1)³ → 0.5.
    const m = meteor.score(item(['running'], 'runs'));
    close(m.score, 0.5);
    expect(m.details?.stem).toBe(1);
    expect(m.decision).toBe(true);
  });
  it('empty candidate or no gold → 0 with a reason, never NaN or a throw', () => {
    const metrics: Metric[] = [bleu, bleu1, rouge, rougeStem, meteor];
    for (const mt of metrics) {
      for (const it of [item(['Paris'], ''), item(['Paris'], '  \n'), item([], 'Paris'), item([''], 'Paris')]) {
        const r = mt.score(it);
        expect(r.score).toBe(0);
        expect(r.decision).toBe(false);
        expect(r.explanation).not.toBe('');
      }
    }
  });
  it('names, default thresholds and cards', () => {
    expect([bleu.name, rouge.name, meteor.name]).toEqual(['bleu', 'rouge_l', 'meteor']);
    expect([bleu.threshold, rouge.threshold, meteor.threshold]).toEqual([0.25, 0.5, 0.5]);
    expect(createBleu({ threshold: 0.1 }).threshold).toBe(0.1);
    for (const mt of [bleu, rouge, meteor]) {
      for (const v of Object.values(mt.card)) expect(v.length).toBeGreaterThan(10);
      expect(mt.card.defaults).toContain(String(mt.threshold));
    }
  });
});
