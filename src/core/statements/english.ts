/**
 * The English-language knowledge the rule statement writer uses, all from `compromise` (pure JS, no download):
 * its sentence splitter, tokenizer (contractions expanded: "don't" → do + not), POS tags (lexicon + pre-tagger), its lexicon
 * and "switches" (the words it knows to be ambiguous, e.g. sink = Noun|Verb), and its verb / noun inflectors.
 * Only closed-class words (auxiliaries, determiners, prepositions, pronouns, wh-words) are listed by hand below.
 */
import nlp from 'compromise';

interface CompromiseTerm {
  text: string;
  pre: string;
  post: string;
  normal: string;
  implicit?: string;
  tags: Set<string>;
}
interface VerbForms {
  Infinitive?: string;
  PastTense?: string;
  PresentTense?: string;
  Gerund?: string;
  Participle?: string;
}
interface CompromiseInternals {
  world: object;
  lexicon: Record<string, string | string[]>;
  switches: Record<string, string>;
  splitSentences(text: string, world: object): string[];
  conjugate(infinitive: string, model: object): VerbForms;
  toInfinitive(verb: string, model: object, tense?: string): string;
  toSingular(noun: string, model: object): string;
  model: object;
}

// compromise's world/model/methods are untyped internals, read by path.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Untyped = any;

const internals: CompromiseInternals = (() => {
  const world = nlp.world() as { methods: Untyped; model: Untyped };
  const model = nlp.model() as Untyped;
  const methods = nlp.methods() as Untyped;
  return {
    world,
    model,
    lexicon: model.one.lexicon,
    switches: model.two.switches,
    splitSentences: methods.one.tokenize.splitSentences,
    conjugate: methods.two.transform.verb.conjugate,
    toInfinitive: methods.two.transform.verb.toInfinitive,
    toSingular: methods.two.transform.noun.toSingular,
  };
})();

export interface Tok {
  /** The word as written (a contraction's halves are expanded: "Don't" → "Do", "not"). */
  text: string;
  /** Punctuation before / after the word (no whitespace). */
  pre: string;
  post: string;
  /** Lowercase form, for lookups. */
  norm: string;
  tags: ReadonlySet<string>;
  /** No space follows (hyphenated compounds: "Moby-" + "Dick"). */
  glue: boolean;
  /** Starts with an uppercase letter. */
  cap: boolean;
}

/** Sentences of a text, by compromise's splitter (abbreviations such as "Dr." or "U.S." do not end one). */
export function splitSentences(text: string): string[] {
  try {
    return internals
      .splitSentences(text, internals.world)
      .map((s) => s.trim())
      .filter((s) => s !== '');
  } catch {
    return [text];
  }
}

function matchCase(word: string, like: string): string {
  return /^\p{Lu}/u.test(like) ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}

/** Tokens of a text with compromise's contextual tags (all sentences flattened). */
export function tokenize(text: string): Tok[] {
  const out: Tok[] = [];
  // The lexicon and compromise's pre-tagger (suffix, neighbour and case rules) only: its later contextual pass is
  // ~4x slower and tuned to declaratives — it tags inverted questions worse ("do plants release" → plants=Verb).
  const doc = nlp.tokenize(text) as unknown as { compute(hooks: string[]): void; docs: CompromiseTerm[][] };
  doc.compute(['lexicon', 'preTagger']);
  const docs = doc.docs;
  for (const sentence of docs) {
    for (const t of sentence) {
      const word = t.implicit ? (t.text ? matchCase(t.implicit, t.text) : t.implicit) : t.text;
      if (word === '' && (t.pre + t.post).trim() === '') continue;
      const post = t.implicit && t.text ? '' : t.post.replace(/\s+/g, '');
      out.push({
        text: word,
        pre: t.pre.replace(/\s+/g, ''),
        post,
        norm: (t.implicit ?? t.normal ?? word).toLowerCase() || word.toLowerCase(),
        tags: t.tags,
        glue: t.post !== '' && !/\s/.test(t.post) && /[-–/]$/.test(t.post),
        cap: /^\p{Lu}/u.test(word),
      });
    }
  }
  return out;
}

/** Renders tokens back to text (single spaces, punctuation kept where it was). */
export function render(toks: readonly Tok[]): string {
  let s = '';
  toks.forEach((t, i) => {
    s += t.pre + t.text + t.post;
    if (i < toks.length - 1 && !t.glue) s += ' ';
  });
  return s;
}

// ---- closed classes (hand-listed: small, fixed sets) ----
export const BE = new Set(['is', 'are', 'was', 'were', 'am']);
export const DO = new Set(['do', 'does', 'did']);
export const HAVE = new Set(['has', 'have', 'had']);
export const MODAL = new Set(['can', 'could', 'will', 'would', 'shall', 'should', 'may', 'might', 'must']);
export const WH = new Set(['what', 'which', 'who', 'whom', 'whose', 'when', 'where', 'why', 'how']);
export const DET = new Set([
  'the',
  'a',
  'an',
  'this',
  'that',
  'these',
  'those',
  'some',
  'any',
  'every',
  'each',
  'no',
  'another',
  'either',
  'neither',
  'my',
  'your',
  'his',
  'her',
  'its',
  'our',
  'their',
]);
export const PREP = new Set([
  'in',
  'on',
  'at',
  'by',
  'for',
  'with',
  'from',
  'to',
  'of',
  'about',
  'into',
  'onto',
  'over',
  'under',
  'through',
  'during',
  'before',
  'after',
  'since',
  'until',
  'till',
  'between',
  'among',
  'against',
  'across',
  'along',
  'around',
  'behind',
  'beyond',
  'near',
  'without',
  'within',
  'upon',
  'toward',
  'towards',
  'like',
  'than',
  'via',
  'per',
  'above',
  'below',
  'beneath',
  'beside',
  'besides',
  'inside',
  'outside',
  'throughout',
  'off',
  'up',
  'down',
  'out',
  'past',
]);
export const PRON = new Set([
  'i',
  'you',
  'he',
  'she',
  'it',
  'we',
  'they',
  'me',
  'him',
  'us',
  'them',
  'there',
  'anyone',
  'anybody',
  'anything',
  'someone',
  'somebody',
  'something',
  'everyone',
  'everybody',
  'everything',
  'nobody',
  'nothing',
  'one',
  'this',
  'that',
]);
export const CONJ = new Set(['and', 'or', 'but', 'nor', 'yet', 'so']);
export const SUBORD = new Set([
  'because',
  'since',
  'as',
  'when',
  'while',
  'if',
  'unless',
  'although',
  'though',
  'whereas',
  'that',
  'which',
  'who',
  'whom',
  'whose',
  'where',
  'why',
  'how',
  'what',
  'to',
  'so',
  'and',
  'or',
  'but',
  'after',
  'before',
  'until',
  'once',
]);

export const isAux = (t: Tok | undefined): boolean => !!t && (BE.has(t.norm) || DO.has(t.norm) || HAVE.has(t.norm) || MODAL.has(t.norm));
const closed = (n: string) => DET.has(n) || PREP.has(n) || CONJ.has(n) || WH.has(n) || BE.has(n) || MODAL.has(n);

function lex(n: string): string[] {
  const v = internals.lexicon[n];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}
const sw = (n: string): string => internals.switches[n] ?? '';
const has = (t: Tok, ...tags: string[]) => tags.some((g) => t.tags.has(g));

export const isNumber = (t: Tok): boolean => has(t, 'Value', 'NumericValue', 'Cardinal') || /^\d/.test(t.text);
export const isDet = (t: Tok): boolean => DET.has(t.norm) || (t.tags.has('Determiner') && !PRON.has(t.norm));
export const isPrep = (t: Tok): boolean => PREP.has(t.norm);

/** Could be (part of) a noun phrase head: noun, name, pronoun, number, or an unknown word. */
export function canBeNoun(t: Tok): boolean {
  if (PRON.has(t.norm) || isNumber(t)) return true;
  if (PREDICATIVE.has(t.norm) || ['less', 'more', 'very', 'too', 'quite', 'much', 'not'].includes(t.norm)) return false;
  if (closed(t.norm) || DO.has(t.norm) || HAVE.has(t.norm)) return false;
  if (has(t, 'Noun', 'ProperNoun', 'Pronoun', 'Acronym', 'Possessive', 'Unit')) return true;
  if (/Noun|Plural|Actor|Person|Place|Unit|Date/.test(sw(t.norm))) return true;
  const l = lex(t.norm);
  if (l.length === 0) return !has(t, 'Adverb', 'Preposition', 'Conjunction', 'Determiner');
  return l.some((g) =>
    /Noun|Singular|Plural|Uncountable|Name|Person|Place|City|Country|Region|Organization|Actor|Unit|Demonym|Currency|Acronym/.test(g),
  );
}

/** Words that only occur as predicates ("is worth", "was born", "are alive"); the lexicon tags some as nouns. */
const PREDICATIVE = new Set([
  'worth',
  'born',
  'able',
  'unable',
  'aware',
  'afraid',
  'alive',
  'alone',
  'asleep',
  'awake',
  'alike',
  'responsible',
  'due',
]);

export function isAdjective(t: Tok): boolean {
  if (closed(t.norm)) return false;
  if (PREDICATIVE.has(t.norm)) return true;
  return (
    has(t, 'Adjective', 'Comparative', 'Superlative', 'Comparable') ||
    sw(t.norm).startsWith('Adj') ||
    lex(t.norm).some((g) => /Adjective|Comparative|Superlative/.test(g))
  );
}

export function isAdverb(t: Tok): boolean {
  if (closed(t.norm) || PRON.has(t.norm)) return false;
  if (['less', 'more', 'most', 'least', 'very', 'too', 'quite', 'so', 'much'].includes(t.norm)) return true;
  if (
    [
      'not',
      'never',
      'ever',
      'still',
      'also',
      'already',
      'always',
      'often',
      'usually',
      'sometimes',
      'really',
      'first',
      'just',
      'only',
      'even',
      'actually',
      'typically',
      'generally',
      'normally',
    ].includes(t.norm)
  )
    return true;
  return t.tags.has('Adverb') || (/ly$/.test(t.norm) && !canBeNoun(t) && !lex(t.norm).includes('Adjective'));
}

/** Could be the bare (infinitive) form of a verb: "sink", "have", "last" — not "plants", "walked". */
export function canBeBaseVerb(t: Tok): boolean {
  const n = t.norm;
  if (['be', 'have', 'do', 'like'].includes(n)) return true;
  if (closed(n) || PRON.has(n) || isNumber(t) || DO.has(n) || HAVE.has(n) || n === 'not') return false;
  if (t.tags.has('Infinitive')) return true;
  if (/^(Noun\|Verb|Adj\|Present|Actor\|Verb|Person\|Verb)$/.test(sw(n))) return true;
  const l = lex(n);
  if (l.some((g) => g === 'Infinitive')) return true;
  if (l.length === 0 && t.tags.has('Verb') && !has(t, 'PastTense', 'Gerund', 'Participle') && !/s$/.test(n)) return true;
  // An irregular verb the lexicon knows only through its past form ("sink" → "sank").
  if (l.length === 0 || l.some((g) => /Singular|Adjective/.test(g))) {
    const past = conjugate(n).PastTense;
    if (past && past !== n + 'ed' && past !== n + 'd' && lex(past).includes('PastTense')) return true;
  }
  return false;
}

/** Could be a past participle ("signed", "known", "written", "held"). */
export function canBeParticiple(t: Tok): boolean {
  const n = t.norm;
  if (closed(n) || PRON.has(n) || isNumber(t)) return false;
  if (has(t, 'PastTense', 'Participle')) return true;
  if (sw(n) === 'Adj|Past') return true;
  if (lex(n).some((g) => g === 'PastTense' || g === 'Participle')) return true;
  return /(ed|en|wn)$/.test(n) && !canBeNoun(t);
}

export const isGerund = (t: Tok): boolean =>
  t.tags.has('Gerund') || (/ing$/.test(t.norm) && t.norm.length > 4 && !lex(t.norm).some((g) => /Singular|Noun/.test(g)));

/** Could be a finite verb (present or past) — used to find where a wh-phrase ends ("Which river | flows …"). */
export function canBeFiniteVerb(t: Tok): boolean {
  const n = t.norm;
  if (t.cap || closed(n) || PRON.has(n) || isNumber(t)) return false;
  if (isAux(t)) return true;
  if (has(t, 'PastTense', 'PresentTense')) return true;
  if (/Verb|Present|Past/.test(sw(n))) return true;
  return lex(n).some((g) => /PastTense|PresentTense|Infinitive/.test(g));
}

/** A finite verb as the tagger reads a declarative sentence (for "is this answer a sentence?"). */
export const taggedFiniteVerb = (t: Tok): boolean =>
  isAux(t) || (t.tags.has('Verb') && !has(t, 'Gerund', 'Participle') && !(t.tags.has('Infinitive') && !t.tags.has('PresentTense')));

export function conjugate(infinitive: string): VerbForms {
  try {
    return internals.conjugate(infinitive, internals.model) ?? {};
  } catch {
    return {};
  }
}

/** The verb form that follows do / does / did in a declarative: "sink" + did → "sank". */
export function inflect(base: string, tense: 'past' | 'present3' | 'base'): string {
  if (tense === 'base') return base;
  if (base === 'be') return tense === 'past' ? 'was' : 'is';
  const forms = conjugate(base);
  const out = tense === 'past' ? forms.PastTense : forms.PresentTense;
  return out && /^[\p{L}'-]+$/u.test(out) ? out : base;
}

export function toInfinitive(verb: string): string {
  try {
    return internals.toInfinitive(verb, internals.model) || verb;
  } catch {
    return verb;
  }
}

export function singular(noun: string): string {
  try {
    return internals.toSingular(noun, internals.model) || noun;
  } catch {
    return noun;
  }
}
