/**
 * The lexicon against nltk 3.8 reading WordNet 3.0 (test/fixtures/wordnet-reference.json, written by
 * scripts/reference/wordnet_reference.py): synsets in sense order with their lemma names, morphy's base forms,
 * and METEOR's synonym stage.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import reference from '../../../test/fixtures/wordnet-reference.json' with { type: 'json' };
import { nodeLexicon } from '../../runtime/lexicon-node.ts';
import { createMeteor } from '../metrics/meteor.ts';
import type { WordNet, WnPos } from './wordnet.ts';

let wn: WordNet;
beforeAll(() => {
  wn = nodeLexicon();
});

describe(`the WordNet lexicon vs nltk ${reference.nltk_version} with WordNet ${reference.wordnet_version}`, () => {
  it('gives every word the synsets nltk gives, in the same order, with the same lemma names', () => {
    for (const [word, synsets] of Object.entries(reference.synsets))
      expect(
        wn.synsets(word).map((s) => wn.lemmaNames(s)),
        word,
      ).toEqual(synsets);
  });

  it("gives morphy's base forms", () => {
    for (const m of reference.morphy) expect(wn.morphy(m.form, m.pos as WnPos), `${m.form}/${m.pos}`).toEqual(m.bases);
  });

  it("gives METEOR nltk's meteor_score with WordNet's synonyms", () => {
    const meteor = createMeteor({ lexicon: wn });
    for (const c of reference.meteor)
      expect(
        meteor.score({ question: '', golds: c.golds, candidate: c.candidate }).score,
        `${c.golds.join(' / ')} ← ${c.candidate}`,
      ).toBeCloseTo(c.meteor, 12);
  });

  it('knows hypernyms, depth and antonyms', () => {
    const [platypus] = wn.synsets('platypus', ['n']);
    const [monotreme] = wn.synsets('monotreme', ['n']);
    expect(wn.hypernymDistance(platypus!, monotreme!)).toBe(1);
    expect(wn.hypernymDistance(monotreme!, platypus!)).toBeNull();
    const [entity] = wn.synsets('entity', ['n']);
    expect(wn.depth(entity!)).toBe(0);
    const hot = wn.synsets('hot', ['a'])[0]!;
    expect(wn.antonyms(hot).map((a) => a.name)).toEqual(['cold']);
  });
});
