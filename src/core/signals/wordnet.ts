/**
 * @file What WordNet 3.0 knows about a gold and a candidate the candidate names the gold by another
 * lemma of the same synonym set ("cattle" / "cow", "Red Planet" / "Mars", "Balaenoptera musculus" / "blue
 * whale"); by a broader term, a hypernym ("fruit" for "oranges", "one of the monotremes" for "platypus"); by a
 * narrower one, a hyponym ("poodle" for "dog"); or says the antonym of the gold's word in the gold's frame ("cold"
 * for "hot", "the South Pole" for "the North Pole"). Silent without a lexicon (the caller's `wn`, core/lexicon).
 *
 * Terms are found as WordNet spells lemmas: lowercase words joined by "_", base forms by morphy (exception lists
 * and detachment rules). A candidate's terms are its longest n-grams (up to four words) WordNet holds, leaving out
 * function words and the question's own terms; a gold is looked up whole.
 */
import { lastMemo, memoPer, textMemo } from '../util/memo.ts';
import type { WnPos, WordNet } from '../lexicon/index.ts';
import { POS_LIST as ALL_POS } from '../lexicon/wordnet.ts';
import { FUNCTION_WORDS } from './words.ts';
/** What the signal reads of a row (classify.ts's TextItem). */
interface TextItem {
  question: string;
  golds: readonly string[];
  candidate: string;
}

export type WordNetRelation = 'synonym' | 'narrower' | 'broader' | 'antonym';

export interface WordNetSignal {
  relation: WordNetRelation;
  /** The gold it is about. */
  gold: number;
  /** The gold's term and the candidate's, as written (lowercase). */
  goldTerm: string;
  candidateTerm: string;
  /** Hypernym steps between them (narrower, broader). */
  steps?: number;
}

/**
 * Nouns only: a factual answer names a thing, and the synonym sets of adjectives and verbs join words too loosely
 * for it ("first" and "maiden" share one).
 */
const TERM_POS: readonly WnPos[] = ['n'];
/** Hypernym steps that still make a broader or narrower answer ("fruit" is three above "orange"). */
const MAX_STEPS = 6;
/** Synsets this near the root (entity 0, physical entity 1, object 2, whole 3, living thing 4) are no answer. */
const MIN_BROAD_DEPTH = 5;
const MAX_NGRAM = 4;
/** Longer candidates are read for terms only in their first words (an essay is judged by other signals). */
const MAX_WORDS = 40;

/** Lowercase words (apostrophe-s dropped, punctuation split off). */
const words = (s: string): string[] =>
  s
    .toLowerCase()
    .replace(/['’]s\b/g, '')
    .split(/[^\p{L}\p{N}'-]+/u)
    .map((w) => w.replace(/^['-]+|['-]+$/g, ''))
    .filter(Boolean);

const ARTICLES = new Set(['a', 'an', 'the']);
const stripArticle = (ws: string[]): string[] => (ws.length > 1 && ARTICLES.has(ws[0]!) ? ws.slice(1) : ws);

interface Term {
  text: string;
  /** The words of `text`. */
  words: readonly string[];
  synsets: number[];
}

function termOf(wn: WordNet, ws: readonly string[]): Term | null {
  const synsets = wn.synsets(ws.join('_'), TERM_POS);
  return synsets.length ? { text: ws.join(' '), words: ws, synsets } : null;
}

/**
 * A gold's term, with the senses of its plural where WordNet lists the plural as a lemma of its own: "cows" is a
 * lemma of the synset {cattle, cows, kine, oxen}, which "cow" alone (morphy gives no plural) does not reach.
 */
function goldTerm(wn: WordNet, ws: readonly string[]): Term | null {
  const t = termOf(wn, ws);
  if (!t) return null;
  const key = ws.join('_');
  const plural = [...wn.synsets(`${key}s`, ['n']), ...(/(?:s|x|z|ch|sh)$/.test(key) ? wn.synsets(`${key}es`, ['n']) : [])].filter((s) =>
    wn.lemmaNames(s).some((n) => n.toLowerCase() === `${key}s` || n.toLowerCase() === `${key}es`),
  );
  return { text: t.text, words: t.words, synsets: [...new Set([...t.synsets, ...plural])] };
}

/**
 * The candidate's terms: greedy longest n-grams WordNet holds, not function words, not the question's words, not a
 * single letter ("v" is a lemma of five), and not part of a longer name: a word beside the term that WordNet does
 * not know at all ("Leonardo" in "Leonardo DiCaprio"). Case plays no part (an answer in capitals reads the same).
 */
function candidateTerms(wn: WordNet, candidate: string, asked: ReadonlySet<string>): Term[] {
  const ws = words(candidate).slice(0, MAX_WORDS);
  const unknownName = (i: number) =>
    i >= 0 && i < ws.length && !FUNCTION_WORDS.has(ws[i]!) && !/^\d/.test(ws[i]!) && wn.synsets(ws[i]!).length === 0;
  const out: Term[] = [];
  for (let i = 0; i < ws.length;) {
    let found: Term | null = null;
    let n = Math.min(MAX_NGRAM, ws.length - i);
    for (; n >= 1 && !found; n--) {
      const gram = ws.slice(i, i + n);
      if (gram.every((w) => FUNCTION_WORDS.has(w) || asked.has(w)) || /^\d/.test(gram[0]!) || (n === 1 && gram[0]!.length < 2)) continue;
      found = termOf(wn, gram);
    }
    if (found) {
      const end = i + n + 1;
      if (!unknownName(i - 1) && !unknownName(end)) out.push(found);
      i = end;
    } else i++;
  }
  return out;
}

/** A synset of `a` that is a hypernym of one of `b`'s within MAX_STEPS, and the steps (fewest first). */
function above(wn: WordNet, a: readonly number[], b: readonly number[], minDepth: number): number | null {
  let best: number | null = null;
  for (const broad of a) {
    if (wn.depth(broad) < minDepth) continue;
    for (const narrow of b) {
      const d = wn.hypernymDistance(narrow, broad, MAX_STEPS);
      if (d !== null && (best === null || d < best)) best = d;
    }
  }
  return best;
}

const shares = (a: readonly number[], b: readonly number[]) => a.some((s) => b.includes(s));

/**
 * A word's base forms (any part of speech) and the lowercase names WordNet gives as antonyms of its senses' lemmas
 * named by those forms: once per word (short golds and answers bring the same words back on every row).
 */
const wordSide = memoPer((wn: WordNet, w: string): { forms: ReadonlySet<string>; antonyms: ReadonlySet<string> } => {
  const forms = new Set([w, ...ALL_POS.flatMap((p) => wn.morphy(w, p))]);
  const antonyms = new Set<string>();
  for (const s of wn.synsets(w))
    for (const name of wn.lemmaNames(s))
      if (forms.has(name.toLowerCase())) for (const x of wn.antonyms(s, name)) antonyms.add(x.name.toLowerCase());
  return { forms, antonyms };
});

/** Whether WordNet holds `a` and `b` as antonyms (any part of speech, by base forms). */
function antonymous(wn: WordNet, a: string, b: string): boolean {
  if (a === b) return false;
  const side = wordSide(wn);
  const { antonyms } = side(a);
  if (antonyms.size === 0) return false;
  for (const f of side(b).forms) if (antonyms.has(f)) return true;
  return false;
}

/** A question's words (kept for the last question: the rows of a question are often together). */
const askedWords = lastMemo((question: string): ReadonlySet<string> => new Set(words(question)));

/** A text's words without a leading article (cached: golds recur across rows). Callers must not mutate it. */
const framedWords = textMemo((s: string): readonly string[] => stripArticle(words(s)));
/** The last candidate's words without a leading article, and how many are content words (asked once per gold). */
const candidateFrame = lastMemo((candidate: string) => {
  const ws = stripArticle(words(candidate));
  return { words: ws as readonly string[], content: ws.filter((w) => !FUNCTION_WORDS.has(w)).length };
});

/**
 * The gold's words with one of them replaced by its antonym, somewhere in a short candidate: "cold" for "hot",
 * "the South Pole" for "the North Pole". The other words must be the gold's, in order.
 */
function antonymFrame(wn: WordNet, gold: string, candidate: string): { goldWord: string; candidateWord: string } | null {
  const g = framedWords(gold);
  const { words: c, content } = candidateFrame(candidate);
  if (g.length === 0 || g.length > 6 || content > g.length + 3) return null;
  for (let at = 0; at + g.length <= c.length; at++) {
    let diff = -1;
    let ok = true;
    for (let i = 0; i < g.length && ok; i++) {
      if (c[at + i] === g[i]) continue;
      if (diff >= 0) ok = false;
      else diff = i;
    }
    if (ok && diff >= 0 && antonymous(wn, g[diff]!, c[at + diff]!)) return { goldWord: g[diff]!, candidateWord: c[at + diff]! };
  }
  return null;
}

/**
 * A gold's term, once per gold text and lexicon: golds recur on every row of their question (every system's), and
 * looking each up again — its plural's senses too — was a tenth of the default set's time.
 */
const goldTerms = memoPer((wn: WordNet, gold: string): (Term & { wordSet: ReadonlySet<string> }) | null => {
  const gw = stripArticle(words(gold));
  // A number is the quantity signals' to judge ("v" and "5" share WordNet's synonym set of five).
  const t = gw.some((w) => /^\d/.test(w)) ? null : goldTerm(wn, gw);
  return t && { ...t, wordSet: new Set(t.words) };
});

const RANK: Record<WordNetRelation, number> = { synonym: 3, narrower: 2, broader: 1, antonym: 0 };

/**
 * The most favourable WordNet relation between the candidate and any gold (synonym, then narrower, then broader),
 * else an antonym in the gold's frame; null when none, or without a lexicon (`wn` null).
 */
export function wordnetSignal(item: TextItem, wn: WordNet | null): WordNetSignal | null {
  if (!wn || item.golds.length === 0) return null;
  // The candidate's terms only once a gold has one (many rows' golds have none in WordNet).
  let terms: Term[] | null = null;
  const termsOf = (): Term[] => (terms ??= candidateTerms(wn, item.candidate, askedWords(item.question)));
  const found: { best: WordNetSignal | null } = { best: null };
  const offer = (s: WordNetSignal) => {
    const b = found.best;
    if (!b || RANK[s.relation] > RANK[b.relation] || (s.relation === b.relation && (s.steps ?? 0) < (b.steps ?? 0))) found.best = s;
  };
  const goldTermOf = goldTerms(wn);
  item.golds.forEach((gold, k) => {
    const g = goldTermOf(gold);
    if (g) {
      for (const t of termsOf()) {
        // The gold's own words, or some of them ("Leonardo" of "Leonardo da Vinci"): the word signals judge those.
        if (t.words.every((w) => g.wordSet.has(w))) continue;
        if (shares(g.synsets, t.synsets)) {
          offer({
            relation: 'synonym',
            gold: k,
            goldTerm: g.text,
            candidateTerm: t.text,
          });
          continue;
        }
        const narrower = above(wn, g.synsets, t.synsets, 0);
        if (narrower !== null) {
          offer({
            relation: 'narrower',
            gold: k,
            goldTerm: g.text,
            candidateTerm: t.text,
            steps: narrower,
          });
          continue;
        }
        const broader = above(wn, t.synsets, g.synsets, MIN_BROAD_DEPTH);
        // A broader term beside a specific other one ("the largest mammal is the elephant") names that one.
        if (broader !== null && !termsOf().some((o) => o !== t && o.text !== g.text && above(wn, t.synsets, o.synsets, 0) !== null))
          offer({
            relation: 'broader',
            gold: k,
            goldTerm: g.text,
            candidateTerm: t.text,
            steps: broader,
          });
      }
    }
    if (!found.best) {
      const a = antonymFrame(wn, gold, item.candidate);
      if (a)
        offer({
          relation: 'antonym',
          gold: k,
          goldTerm: a.goldWord,
          candidateTerm: a.candidateWord,
        });
    }
  });
  return found.best;
}
