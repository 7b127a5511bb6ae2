/**
 * Every explanation is true to a reader (a lecturer's cases, "Who wrote Hamlet?", gold "William Shakespeare"
 * unless said): the tokens that failed and why, a synonym named as one, the words an answer adds as written, a gold
 * quoted as written, the features that outweigh the text signals, and the extra claims text cannot check.
 */
import { describe, expect, it } from 'vitest';
import { createSyncMetric } from './metrics/index.ts';
import type { QaItem } from './types.ts';
import { withWordNet } from '../../test/lexicon.ts';

const Q = 'Who wrote Hamlet?';
const explain = (metric: string, candidate: string, golds = ['William Shakespeare'], question = Q) =>
  createSyncMetric(metric, {}, withWordNet).score({ question, golds, candidate } as QaItem).explanation;

describe('explanations', () => {
  it("say which tokens failed and why, where punctuation stays on a word (nltk's whitespace tokens)", () => {
    const long = 'Shakespeare, who also wrote Macbeth and invented the telephone';
    expect(explain('bleu', long)).toContain(
      'BLEU 0: no token in common with any gold; "shakespeare," ≠ "shakespeare": tokens are split on spaces only, so punctuation stays on the word;',
    );
    expect(explain('meteor', long)).toBe(
      'METEOR 0: no token of the candidate aligns with any gold. "shakespeare," ≠ "shakespeare": tokens are split on spaces only, so punctuation stays on the word.',
    );
    expect(explain('meteor', 'William Shakespeare.')).toMatch(
      /^METEOR 0\.2500 vs gold "William Shakespeare": .* "shakespeare\." ≠ "shakespeare": tokens are split on spaces only, so punctuation stays on the word\.$/,
    );
  });

  it('name a WordNet synonym as a synonym, not as a gold', () => {
    expect(explain('pedants', 'the Bard of Avon')).toMatch(
      /holds "Bard of Avon", a WordNet synonym of gold "William Shakespeare", word for word/,
    );
  });

  it("name the gold words an answer spells otherwise, as each writes them (pedants' spelling feature)", () => {
    expect(explain('pedants', 'Wiliam Shakespere')).toMatch(
      /spelled close to the gold's words: "Wiliam" for "William", "Shakespere" for "Shakespeare"/,
    );
  });

  it('show the words an answer adds as written, all of them up to eight', () => {
    expect(explain('taxonomy_text', 'Paris, Texas', ['Paris'], 'Where?')).toMatch(/\(adds "Texas"\)/);
    expect(explain('taxonomy_text', 'Shakespeare wrote it in 1601, though some say Marlowe')).toMatch(
      /adds "1601", "though", "some", "say", "Marlowe"\)/,
    );
    // As written, not as read: number words, ordinals, apostrophes, diacritics and hyphens kept.
    expect(explain('taxonomy_text', 'The ostrich, the first and fifth highest-pitch bird', ['Ostrich'], 'Which bird?')).toMatch(
      /adds "first", "fifth", "highest-pitch"\)/,
    );
    expect(explain('taxonomy_text', "Röntgen, who isn't French", ['Wilhelm Röntgen'], 'Who discovered X-rays?')).toMatch(
      /adds "isn't", "French"\)/,
    );
    expect(explain('taxonomy_text', 'Istanbul, with over 15 million people', ['Istanbul'], 'Which city?')).toMatch(/"15 million"/);
  });

  it('quote a gold as written when another value contradicts it', () => {
    expect(explain('taxonomy_text', 'April 14, 1912', ['April 15, 1912'], 'When did the Titanic sink?')).toBe(
      'invalid (quantities): "14" is another value than the gold "April 15, 1912" gives',
    );
  });

  it('say why no n-gram matched only where one could: BLEU on answers or golds shorter than the n-gram', () => {
    expect(explain('bleu', 'Paris', ['Paris'])).toContain('a 1-word candidate has no 2-gram to match, so ≈0 as in nltk');
    expect(explain('bleu', 'Paris France', ['Paris'])).toContain('no gold has a 2-gram to match (the longest has 1 word)');
    expect(explain('bleu', 'The city of Paris', ['Paris is a city'])).toContain('no matching 2-gram');
  });

  it("give METEOR's fragmentation penalty, which halves a perfect one-word match", () => {
    expect(explain('meteor', 'Paris', ['Paris'])).toContain('Fmean=1.0000 × (1 − fragmentation penalty 0.5000)');
    expect(explain('meteor', 'Paris', ['Paris'])).toMatch(/^METEOR 0\.5000 /);
  });

  it('say when the other features outweigh the text signals', () => {
    expect(explain('pedants', 'Wiliam Shakespere')).toMatch(/text signals: invalid, outweighed by the other features$/);
    expect(explain('pedants', 'Marlowe')).toMatch(/text signals: invalid$/);
  });

  it('say that the extra claims of an over-inclusive answer are not checked', () => {
    expect(explain('taxonomy_text', 'Shakespeare, who also wrote Macbeth and invented the telephone')).toBe(
      'overinclusive-valid (words): names "William Shakespeare" by the surname (adds "Macbeth", "invented", "telephone"); extra claims not checked (text only)',
    );
  });
});
