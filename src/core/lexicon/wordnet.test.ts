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

  it('answers from its caches what a fresh walk of the hypernym graph gives, for every limit', () => {
    // The walk as it was before the caches: breadth first from `narrow`, `broad` counted when first reached.
    const walk = (narrow: number, broad: number, limit: number): number | null => {
      let frontier = [narrow];
      const seen = new Set(frontier);
      for (let step = 1; step <= limit && frontier.length; step++) {
        const next: number[] = [];
        for (const x of frontier)
          for (const h of wn.hypernyms(x)) {
            if (h === broad) return step;
            if (!seen.has(h)) {
              seen.add(h);
              next.push(h);
            }
          }
        frontier = next;
      }
      return null;
    };
    let seed = 11;
    const pick = () => (seed = (seed * 48271) % 2147483647) % wn.size;
    let reached = 0;
    for (let i = 0; i < 300; i++) {
      const narrow = pick();
      // Its ancestors (some several steps up), a random synset and itself.
      const up = [...new Set([...wn.hypernyms(narrow), ...wn.hypernyms(narrow).flatMap((h) => wn.hypernyms(h))])];
      for (const broad of [...up, pick(), narrow])
        for (const limit of [0, 1, 2, 6, 12]) {
          const want = walk(narrow, broad, limit);
          if (want !== null) reached++;
          expect(wn.hypernymDistance(narrow, broad, limit), `${narrow} → ${broad} within ${limit}`).toBe(want);
          // Asked again: now answered from the cache.
          expect(wn.hypernymDistance(narrow, broad, limit)).toBe(want);
        }
    }
    expect(reached).toBeGreaterThan(300);
    // The same word under other parts of speech is another entry.
    expect(wn.synsets('cold', ['n'])).not.toEqual(wn.synsets('cold', ['a']));
    expect(wn.synsets('Cold', ['n'])).toEqual(wn.synsets('cold', ['n']));
    expect(wn.synsets('cold')).toEqual([
      ...wn.synsets('cold', ['n']),
      ...wn.synsets('cold', ['v']),
      ...wn.synsets('cold', ['a']),
      ...wn.synsets('cold', ['r']),
    ]);
  });
});
