/** METEOR, reproducing nltk 3.8 `meteor_score(references, hypothesis)` (nltk/translate/meteor_score.py). */
import type { Metric, MetricCard, MetricResult, QaItem } from '../types.ts';
import { gluedPunctuation, quote } from './common.ts';
import { porterStem } from '../text/porter.ts';
import { lowerSplit } from './bleu.ts';
import { thresholdOption, type LexicalDescriptor } from './descriptor.ts';
import type { WordNet } from '../lexicon/index.ts';
import { memoPer } from '../util/memo.ts';

/** Stand-in for nltk's WordNet: returns the lemma names of all synsets of a word. */
export type SynonymSource = (word: string) => Iterable<string>;

type Enum = [index: number, word: string][];
type Pair = [hyp: number, ref: number];

/** nltk _match_enums: hypothesis words from last to first, each taking the last equal reference word; matched entries are removed. */
function matchEnums(hyp: Enum, ref: Enum): Pair[] {
  const out: Pair[] = [];
  for (let i = hyp.length - 1; i >= 0; i--) {
    for (let j = ref.length - 1; j >= 0; j--) {
      if (hyp[i]![1] === ref[j]![1]) {
        out.push([hyp[i]![0], ref[j]![0]]);
        hyp.splice(i, 1);
        ref.splice(j, 1);
        break;
      }
    }
  }
  return out;
}

/** nltk _enum_wordnetsyn_match. The words here are already Porter stems (nltk passes the stem stage's leftovers on). */
function synonymMatch(hyp: Enum, ref: Enum, synonyms: SynonymSource): Pair[] {
  const out: Pair[] = [];
  for (let i = hyp.length - 1; i >= 0; i--) {
    const word = hyp[i]![1];
    const syns = new Set<string>([word]);
    for (const name of synonyms(word)) if (!name.includes('_')) syns.add(name); // nltk drops multi-word lemmas
    for (let j = ref.length - 1; j >= 0; j--) {
      if (syns.has(ref[j]![1])) {
        out.push([hyp[i]![0], ref[j]![0]]);
        hyp.splice(i, 1);
        ref.splice(j, 1);
        break;
      }
    }
  }
  return out;
}

/** nltk _count_chunks over matches sorted by hypothesis index. */
function countChunks(m: Pair[]): number {
  let chunks = 1;
  for (let i = 0; i < m.length - 1; i++) if (!(m[i + 1]![0] === m[i]![0] + 1 && m[i + 1]![1] === m[i]![1] + 1)) chunks++;
  return chunks;
}

export interface MeteorDetails {
  score: number;
  matches: number;
  exact: number;
  stem: number;
  synonym: number;
  chunks: number;
  precision: number;
  recall: number;
  fmean: number;
  penalty: number;
}

const none: SynonymSource = () => [];

/**
 * nltk's `wordnet.synsets(word)` lemma names from a lexicon, cached per word and lexicon (METEOR asks each
 * hypothesis word once per gold: TriviaQA rows have 14; the METEOR instances built with one lexicon share it).
 */
const wordnetSynonyms: (wn: WordNet) => SynonymSource = memoPer((wn: WordNet, word: string) =>
  wn.synsets(word).flatMap((s) => wn.lemmaNames(s)),
);

/** nltk single_meteor_score on token lists (alpha 0.9, beta 3, gamma 0.5); 0 where nltk hits ZeroDivisionError. */
export function singleMeteor(ref: string[], hyp: string[], synonyms: SynonymSource = none): MeteorDetails {
  let h: Enum = hyp.map((w, i) => [i, w]);
  let r: Enum = ref.map((w, i) => [i, w]);
  const exact = matchEnums(h, r);
  h = h.map(([i, w]) => [i, porterStem(w)]);
  r = r.map(([i, w]) => [i, porterStem(w)]);
  const stem = matchEnums(h, r);
  const syn = synonymMatch(h, r, synonyms);
  const matches = [...exact, ...stem, ...syn].sort((a, b) => a[0] - b[0]);
  const m = matches.length;
  const base = { matches: m, exact: exact.length, stem: stem.length, synonym: syn.length };
  if (m === 0 || hyp.length === 0 || ref.length === 0) {
    return { ...base, score: 0, chunks: 0, precision: 0, recall: 0, fmean: 0, penalty: 0 };
  }
  const alpha = 0.9;
  const precision = m / hyp.length;
  const recall = m / ref.length;
  const fmean = (precision * recall) / (alpha * precision + (1 - alpha) * recall);
  const chunks = countChunks(matches);
  const penalty = 0.5 * (chunks / m) ** 3;
  return { ...base, score: (1 - penalty) * fmean, chunks, precision, recall, fmean, penalty };
}

export interface MeteorOptions {
  threshold?: number;
  /** WordNet 3.0, for the synonym stage; null runs without it (exact and stem stages only). */
  lexicon: WordNet | null;
  /** Synonyms of a word (nltk: lemma names of wordnet.synsets(word)), asked with the Porter stem of each hypothesis word left after the exact and stem stages. Default: from `lexicon`. */
  synonyms?: SynonymSource;
}

export const card: MetricCard = {
  what: 'METEOR: unigram alignment of candidate and gold by exact word, then Porter stem, then WordNet synonym, with a word-order penalty; best gold wins (nltk 3.8 meteor_score with WordNet 3.0).',
  formula:
    'P = m/|candidate|, R = m/|gold|, Fmean = PR/(0.9P + 0.1R), penalty = 0.5·(chunks/m)³, score = (1 − penalty)·Fmean; max over golds. ' +
    'Tokens: lowercase, split on whitespace (Python s.lower().split()).',
  defaults:
    'threshold 0.5; alpha 0.9, beta 3, gamma 0.5; synonyms from WordNet 3.0 (the bundled lexicon, as nltk reads it: morphy base forms, every sense, single-word lemma names).',
  limits:
    'Like nltk, WordNet is asked about Porter stems ("larg" for "large"), so many synonyms are missed exactly as nltk misses them. ' +
    'Punctuation stays glued to words ("paris." ≠ "paris"). Meaning is not checked: a negation with shared words scores high. ' +
    'The alignment grows faster than the text: two answers near the 100,000-character limit take over a second.',
  citation:
    'Banerjee & Lavie 2005; Lavie & Agarwal 2007, METEOR (ACL WMT); reproduces nltk 3.8 nltk.translate.meteor_score with PorterStemmer (NLTK_EXTENSIONS).',
};

export function createMeteor(options: MeteorOptions): Metric {
  const threshold = options.threshold ?? 0.5;
  const synonyms = options.synonyms ?? (options.lexicon ? wordnetSynonyms(options.lexicon) : none);
  return {
    name: 'meteor',
    card,
    threshold,
    score(item: QaItem): MetricResult {
      if (item.golds.length === 0) return { score: 0, decision: 0 >= threshold, explanation: 'No gold answer to compare with.' };
      const hyp = lowerSplit(item.candidate);
      if (hyp.length === 0) return { score: 0, decision: 0 >= threshold, explanation: 'Empty candidate.' };
      let best = -1;
      let bd: MeteorDetails | undefined;
      const perGold = item.golds.map((g, i) => {
        const d = singleMeteor(lowerSplit(g), hyp, synonyms);
        if (!bd || d.score > bd.score) [best, bd] = [i, d]; // Python max(): first maximum
        return d.score;
      });
      const d = bd!;
      const gold = item.golds[best]!;
      const stages = `${d.exact} exact, ${d.stem} stem, ${d.synonym} synonym`;
      const glued = gluedPunctuation(hyp, item.golds.map(lowerSplit));
      return {
        score: d.score,
        decision: d.score >= threshold,
        explanation:
          (d.matches === 0
            ? `METEOR 0: no token of the candidate aligns with any gold.`
            : `METEOR ${d.score.toFixed(4)} vs gold ${quote(gold)}: ${d.matches} aligned words (${stages}) in ${d.chunks} chunk(s), P=${d.precision.toFixed(3)} R=${d.recall.toFixed(3)}, Fmean=${d.fmean.toFixed(4)} × (1 − fragmentation penalty ${d.penalty.toFixed(4)})${d.chunks === 1 && d.matches === 1 ? ' (one aligned word is one chunk of one: the penalty halves it)' : ''}.`) +
          (glued ? ` ${glued}.` : ''),
        details: { matched_gold: gold, matched_gold_index: best, ...d, per_gold: perGold },
      };
    },
  };
}

export const descriptor: LexicalDescriptor = {
  name: 'meteor',
  family: 'lexical',
  card,
  needsLexicon: true,
  create: (s, name = 'meteor', lexicon = null) => createMeteor({ ...thresholdOption(s, name), lexicon }),
  examples: [
    {
      item: {
        question: 'Where is the Eiffel Tower?',
        golds: ['The Eiffel Tower is in Paris, France.'],
        candidate: 'The Eiffel Tower is in Paris.',
      },
      expected: { score: 0.722, decision: true },
    },
  ],
};
