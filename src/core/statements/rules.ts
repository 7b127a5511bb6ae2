/**
 * Rule-based statement writer: (question, answer) → one declarative statement, e.g.
 * "When did the Titanic sink?" + "1912" → "The Titanic sank in 1912.". Deterministic, no model, no DOM or Node
 * API (pure TypeScript + compromise), thousands of items per second.
 *
 * Handles wh-questions (aux inversion and do-support undone, the answer put where the wh-phrase stood),
 * yes/no questions (yes → the affirmative, no → the negation, "X or Y?" alternatives), sentence-to-complete
 * prompts, fill-in-the-blank prompts, leading context (only the last question / blank clause is kept) and
 * answers that are already full sentences. Anything else: `The answer to "<question>" is <answer>.`
 */
import type { StatementItem, StatementWriter } from '../capabilities.ts';
import {
  BE,
  CONJ,
  DO,
  HAVE,
  MODAL,
  PREP,
  PRON,
  SUBORD,
  WH,
  type Tok,
  canBeBaseVerb,
  canBeFiniteVerb,
  canBeNoun,
  canBeParticiple,
  inflect,
  isAdjective,
  isAdverb,
  isAux,
  isDet,
  isGerund,
  isNumber,
  isPrep,
  render,
  singular,
  splitSentences,
  taggedFiniteVerb,
  toInfinitive,
  tokenize,
} from './english.ts';

const BLANK = /_{2,}|[([{<]\s*blank\s*[)\]}>]/gi;
const HAS_BLANK = /_{2,}|[([{<]\s*blank\s*[)\]}>]/i;
const INSTRUCTION =
  /^(?:please\s+)?(?:fill\s+in\s+the\s+blanks?|complete\s+(?:the|this)\s+(?:sentence|statement|phrase|blanks?)|finish\s+(?:the|this)\s+(?:sentence|statement|phrase)|continue\s+(?:the|this)\s+(?:sentence|statement))\s*[:.\-–—]?\s*/i;
const QUESTION_PREFIX = /^(?:question|q)\s*\d*\s*[:.)\-–]\s*/i;
const DISCOURSE = /^(?:and|so|but|then|also|now|ok|okay|well)\b,?\s+/i;

// ---------------------------------------------------------------- text helpers

function clean(s: unknown): string {
  if (s === null || s === undefined) return '';
  return String(s)
    .replace(/[\u200B-\u200D\uFEFF]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Final form: single spaces, no space before punctuation, first letter capitalised, exactly one final period. */
function finish(s: string): string {
  let out = s
    .replace(/\s+/g, ' ')
    .replace(/\s+([,;:.!?])/g, '$1')
    .replace(/,(?=[,.])/g, '')
    .trim();
  out = out.replace(/[\s.!?…;:,\-–—]+$/u, '');
  out = out.replace(/^(["'“‘([¿¡]*)(\p{Ll})/u, (_, p: string, c: string) => p + c.toUpperCase());
  return out === '' ? 'No answer was given.' : `${out}.`;
}

/** The answer as a phrase: trimmed, wrapping quotes and final punctuation removed, "It is X" → "X". */
function answerPhrase(a: string): string {
  let s = a.trim();
  const q = s.match(/^(["“'‘])(.*)(["”'’])$/u);
  if (q && q[2] && !/["“”]/.test(q[2])) s = q[2].trim();
  s = s.replace(/^(?:it|that|this|they|these|those|he|she)(?:\s+(?:is|was|are|were)|'s|’s)\s+/i, '');
  if (!/(?:\b\p{Lu}|\b(?:Dr|Mr|Mrs|Ms|St|Jr|Sr|Inc|Ltd|Co|etc|vs))\.$/u.test(s)) s = s.replace(/[.!?;:,…]+$/u, '');
  return s.trim();
}

const words = (s: string) => s.split(' ').filter((w) => w !== '');
const lower = (s: string) => s.toLowerCase();
const contentWords = (s: string) =>
  new Set(
    lower(s)
      .replace(/['’]s\b/g, '')
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 2 && !['the', 'and', 'for', 'was', 'are', 'with', 'from', 'that', 'this', 'its'].includes(w)),
  );

/** An answer that is itself a declarative sentence: three words or more, a subject, then a finite verb ("Bees make honey"). */
function isSentenceLike(a: string): boolean {
  if (words(a).length < 3) return false;
  const toks = tokenize(a);
  const first = toks[0];
  if (!first || SUBORD.has(first.norm) || PREP.has(first.norm) || polarityWord(first.norm) !== null || isAux(first)) return false;
  if (first.tags.has('Verb') && !canBeNoun(first)) return false;
  for (let i = 1; i < toks.length; i++) {
    const t = toks[i]!;
    if (taggedFiniteVerb(t) && toks[i - 1]!.norm !== 'to') return toks.slice(0, i).some((x) => canBeNoun(x));
  }
  return false;
}

/** Share of the prompt's content words the answer repeats. */
function overlap(prompt: string, answer: string): number {
  const p = contentWords(prompt);
  if (p.size === 0) return 0;
  const a = contentWords(answer);
  let n = 0;
  for (const w of p) if (a.has(w)) n++;
  return n / p.size;
}

// ---------------------------------------------------------------- yes / no answers

const YES_WORDS = new Set([
  'yes',
  'yeah',
  'yep',
  'yup',
  'yea',
  'aye',
  'true',
  'correct',
  'right',
  'indeed',
  'certainly',
  'definitely',
  'absolutely',
  'sure',
  'affirmative',
  'y',
]);
const NO_WORDS = new Set(['no', 'nope', 'nah', 'false', 'incorrect', 'wrong', 'negative', 'never', 'n']);

function polarityWord(w: string): 'yes' | 'no' | null {
  return YES_WORDS.has(w) ? 'yes' : NO_WORDS.has(w) ? 'no' : null;
}

/** "Yes", "Yes, it does.", "No, they don't", "Not at all", "It is." → yes / no; anything else → null. */
export function polarity(answer: string): 'yes' | 'no' | null {
  const s = lower(answer).replace(/[’]/g, "'").trim();
  if (/^(?:of course|definitely|certainly|absolutely|surely)?\s*not\b|^not at all\b|^of course not\b/.test(s)) return 'no';
  if (/^of course\b/.test(s)) return 'yes';
  const m = s.match(/^([a-z]+)(.*)$/s);
  if (m) {
    const p = polarityWord(m[1]!);
    const rest = m[2]!.trim();
    if (p && (rest === '' || /^[,.;:!—–-]/.test(rest) || /^(?:it|he|she|they|that|this|there|i|we|you)\b/.test(rest))) {
      if (p === 'yes' && /^,?\s*(?:not|it isn't|it is not)\b/.test(rest)) return 'no';
      return p;
    }
  }
  const short = s.match(
    /^(?:it|he|she|they|that|this|there|i|we|you)\s+(?:is|are|was|were|do|does|did|can|could|will|would|has|have|had|should|must)(n't|\s+not)?\s*[.!]?$/,
  );
  if (short) return short[1] ? 'no' : 'yes';
  return null;
}

// ---------------------------------------------------------------- phrase helpers

const MONTHS =
  'january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec';
const DAY_DATE = new RegExp(
  `\\b(?:(?:${MONTHS})\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?\\b|\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?(?:${MONTHS})\\b|monday|tuesday|wednesday|thursday|friday|saturday|sunday|\\d{1,4}[-/]\\d{1,2}[-/]\\d{1,4})`,
  'i',
);
const CLOCK = /^(?:noon|midnight|dawn|dusk|sunrise|sunset|\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.|o'clock|h)\b)/i;
const TIME_ADVERB =
  /^(?:yesterday|today|tomorrow|tonight|now|then|recently|soon|later|earlier|once|twice|always|never|every|each|last|next|this|ago|early|late|long|shortly|immediately)\b|\bago$/i;
const PLACE_ADVERB =
  /^(?:here|there|home|abroad|everywhere|nowhere|somewhere|anywhere|overseas|underground|outside|inside|upstairs|downstairs|nearby|worldwide|offshore|indoors|outdoors)\b/i;
const startsWithPrep = (a: string) =>
  PREP.has(lower(words(a)[0] ?? '')) || /^(?:circa|c\.|around|about|approximately|roughly|nearly|almost)\b/i.test(a);

function timePhrase(a: string): string {
  if (startsWithPrep(a) || TIME_ADVERB.test(a) || /^(?:when|while|as soon as|after|before)\b/i.test(a)) return a;
  if (CLOCK.test(a)) return `at ${a}`;
  if (DAY_DATE.test(a)) return `on ${a}`;
  return `in ${a}`;
}
const placePhrase = (a: string) => (startsWithPrep(a) || PLACE_ADVERB.test(a) || /^(?:where)\b/i.test(a) ? a : `in ${a}`);

function reasonPhrase(a: string): string {
  if (/^(?:because|since|as|due to|owing to|thanks to|so that|so as|in order|to|for|from)\b/i.test(a)) return a;
  const toks = tokenize(a);
  return toks.some((t, i) => i > 0 && taggedFiniteVerb(t)) ? `because ${a}` : `because of ${a}`;
}

function mannerPhrase(a: string): string {
  if (startsWithPrep(a) || /^(?:by|through|using|with|via)\b/i.test(a)) return a;
  const first = tokenize(words(a)[0] ?? '')[0];
  if (first && isGerund(first)) return `by ${a}`;
  return a;
}

/** "How many legs" + "eight" → "eight legs" (not doubled when the answer already names the thing). */
function quantityPhrase(a: string, noun: Tok[], kind: 'many' | 'much'): string {
  if (noun.length === 0) return a;
  const n = render(noun);
  const head = lower(noun[noun.length - 1]!.norm);
  const aw = lower(a);
  if (aw.includes(head) || aw.includes(singular(head))) return a;
  const aToks = words(a);
  const last = aToks[aToks.length - 1] ?? '';
  if (kind === 'much' && !/^[\d.,]+$|^(?:one|two|three|four|five|six|seven|eight|nine|ten|a lot|lots)$/i.test(last)) return `${a} of ${n}`;
  if (/^(?:one|1|a|an|a single)$/i.test(a) && noun.length === 1) return `${a} ${singular(noun[0]!.text)}`;
  return `${a} ${n}`;
}

const MEASURE = new Set(['tall', 'long', 'high', 'deep', 'wide', 'thick', 'old', 'broad']);
/** "How tall is X?" + "8,849 meters" → "8,849 meters tall"; a bare number or a non-measure adjective stays as is. */
function degreePhrase(a: string, adj: string): string {
  const ws = words(lower(a));
  const last = ws[ws.length - 1] ?? '';
  const hasNumber = /\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|hundred|thousand|million|billion)\b/i.test(a);
  if (MEASURE.has(adj) && hasNumber && !/^[\d.,]+$/.test(last) && !ws.includes(adj)) return `${a} ${adj}`;
  return a;
}

const endsWithStrandedPrep = (toks: Tok[]) => toks.length > 0 && isPrep(toks[toks.length - 1]!) && !toks[toks.length - 1]!.post;

// ---------------------------------------------------------------- noun phrases and verbs

const nounish = (t: Tok) => canBeNoun(t) || isNumber(t) || t.cap;

/** A plausible subject noun phrase (adverbs at its end are allowed and returned apart). */
function validNp(toks: Tok[]): boolean {
  if (toks.length === 0) return false;
  const first = toks[0]!;
  if (isPrep(first) || CONJ.has(first.norm) || isAux(first) || WH.has(first.norm)) return false;
  const last = toks[toks.length - 1]!;
  if (!nounish(last) || isDet(last) || isPrep(last)) return false;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    if (isAux(t) && !(t.norm === 'have' && i > 0)) return false;
    if (isPrep(t) && t.norm !== 'of') return false;
    if (
      i > 0 &&
      isDet(t) &&
      !['of', 'and'].includes(toks[i - 1]!.norm) &&
      !/['’]s$/.test(toks[i - 1]!.text) &&
      !toks[i - 1]!.tags.has('Possessive')
    )
      return false;
    if (!nounish(t) && !isDet(t) && !isAdjective(t) && !isNumber(t) && !['of', 'and', '&'].includes(t.norm) && !isGerund(t)) return false;
  }
  return true;
}

interface VerbSplit {
  subj: Tok[];
  advs: Tok[];
  verb: Tok;
  after: Tok[];
}

/**
 * After an inverted auxiliary ("did | the Titanic sink", "can | penguins fly"), where the subject ends and the main verb
 * starts. Every position whose word can be that verb form and whose prefix is a valid noun phrase is a candidate; the
 * tagger's verb reading breaks ties, then the longer subject ("a soccer match | last").
 */
function findVerb(rest: Tok[], form: 'base' | 'participle'): VerbSplit | null {
  let best: { split: VerbSplit; score: number } | null = null;
  for (let j = 1; j < rest.length; j++) {
    const t = rest[j]!;
    if (t.cap) continue;
    if (!(form === 'base' ? canBeBaseVerb(t) : canBeParticiple(t))) continue;
    let s = j;
    while (s > 0 && isAdverb(rest[s - 1]!)) s--;
    const subj = rest.slice(0, s);
    if (!validNp(subj)) continue;
    // Only the tagger's verb reading counts; otherwise the longer subject wins ("the stock market | crash",
    // "the ship | sink"), as compound subjects with an intransitive verb are the common case in questions.
    const score = t.tags.has('Verb') ? 2 : 0;
    if (!best || score >= best.score) best = { split: { subj, advs: rest.slice(s, j), verb: t, after: rest.slice(j + 1) }, score };
  }
  return best?.split ?? null;
}

type NpMode = 'wh' | 'yn';

/**
 * Where a copula question's subject ends and its predicate starts: "is | the sky | blue", "was | the Magna Carta | signed".
 * In 'wh' mode prepositional phrases and "to"-infinitives stay in the subject ("the first person to walk on the Moon").
 * Returns rest.length when the whole rest is the subject.
 */
function predicateStart(rest: Tok[], mode: NpMode): number {
  let head = false;
  for (let i = 0; i < rest.length; i++) {
    const t = rest[i]!;
    const prev = rest[i - 1];
    if (i === 0) {
      if (PRON.has(t.norm) && !isDet(t)) return 1;
      head = nounish(t) && !isDet(t) && !(isAdjective(t) && !canBeNoun(t));
      continue;
    }
    if (mode === 'wh' && (t.norm === 'to' || (head && ['who', 'which', 'that', 'whom', 'whose', 'where'].includes(t.norm))))
      return rest.length;
    if (mode === 'wh' && isPrep(t)) {
      // PPs stay in the subject, but a preposition stranded at the end belongs to the predicate ("is Kenya | in").
      if (i === rest.length - 1) return i;
      head = false;
      continue;
    }
    if (head) {
      if (isPrep(t) && t.norm === 'of') {
        head = false;
        continue;
      }
      if (isPrep(t) || t.norm === 'than' || t.norm === 'not') return i;
      if (isDet(t) && !(prev && /['’]s$/.test(prev.text))) return i;
      if ((isGerund(t) && !(mode === 'wh' && canBeNoun(t))) || isAdverb(t)) return i;
      if (t.tags.has('Verb') && !canBeNoun(t)) return i;
      if (
        (canBeParticiple(t) || isAdjective(t)) &&
        !t.cap &&
        !(canBeNoun(t) && rest[i + 1] && nounish(rest[i + 1]!) && !isDet(rest[i + 1]!))
      )
        return i;
    }
    if (nounish(t) && !isDet(t) && !(isAdjective(t) && !canBeNoun(t))) head = true;
  }
  return rest.length;
}

// ---------------------------------------------------------------- wh-questions

interface WhPhrase {
  prefix: string;
  prep: string;
  wh: string;
  noun: Tok[];
  how: 'many' | 'much' | 'adj' | 'manner' | null;
  adj: string;
  end: number;
}

function parseWh(toks: Tok[]): WhPhrase | null {
  let i = 0;
  let prefix = '';
  // "In basketball, how many …" keeps its framing phrase.
  const w = toks.findIndex((t) => WH.has(t.norm));
  if (w > 0 && /,$/.test(toks[w - 1]!.post) && !(w === 1 && isPrep(toks[0]!))) {
    prefix = render(toks.slice(0, w));
    i = w;
  }
  let prep = '';
  if (i < toks.length && isPrep(toks[i]!) && toks[i + 1] && WH.has(toks[i + 1]!.norm)) {
    prep = lower(toks[i]!.text);
    i++;
  }
  const whTok = toks[i];
  if (!whTok || !WH.has(whTok.norm)) return null;
  const wh = whTok.norm;
  i++;
  const noun: Tok[] = [];
  let how: WhPhrase['how'] = null;
  let adj = '';
  const collectNoun = () => {
    while (i < toks.length) {
      const t = toks[i]!;
      // "Which two colors | make …": a verb-like word ends the phrase only once it has a noun head.
      const headed = noun.some((x) => canBeNoun(x) && !isNumber(x) && !isDet(x));
      const next = toks[i + 1];
      const beforeAux = isAux(next) && canBeNoun(t) && !isAux(t); // "Which US state | is …"
      // "What | covers most …" vs "What animals | live …": a noun-or-verb word is the verb unless a verb follows it.
      const verbFollows = !!next && (isAux(next) || (canBeFiniteVerb(next) && !canBeNoun(next)));
      const finiteLooking = /(?:s|ed)$/.test(t.norm) || t.tags.has('PresentTense') || t.tags.has('PastTense');
      if (
        !beforeAux &&
        (isAux(t) ||
          (headed && canBeFiniteVerb(t) && !isNumber(t)) ||
          (!headed && canBeFiniteVerb(t) && (!canBeNoun(t) || (finiteLooking && !verbFollows))))
      )
        break;
      noun.push(t);
      i++;
    }
  };
  if (wh === 'how') {
    const next = toks[i];
    if (next && (next.norm === 'many' || next.norm === 'much')) {
      how = next.norm;
      i++;
      collectNoun();
    } else if (
      next &&
      !isAux(next) &&
      (isAdjective(next) || isAdverb(next) || ['far', 'long', 'fast', 'often', 'old'].includes(next.norm))
    ) {
      how = 'adj';
      adj = next.norm;
      i++;
    } else how = 'manner';
  } else if (wh === 'what' || wh === 'which' || wh === 'whose') collectNoun();
  return { prefix, prep, wh, noun, how, adj, end: i };
}

/** A plural noun phrase: coordinated ("X and Y") or headed by a plural noun ("polar bears", "the Beatles"). */
function pluralAnswer(a: string): boolean {
  if (/\s(?:and|&)\s/i.test(a)) return true;
  const toks = tokenize(a);
  const cut = toks.findIndex((t, i) => i > 0 && isPrep(t));
  const np = cut > 0 ? toks.slice(0, cut) : toks;
  const head = np[np.length - 1];
  return !!head && head.tags.has('Plural') && !head.tags.has('ProperNoun');
}

/** The plural-subject form of a 3rd-person verb: kills → kill, is → are, was → were, has → have, does → do. */
function toPlural(v: Tok): string {
  const irregular: Record<string, string> = { is: 'are', was: 'were', has: 'have', does: 'do' };
  if (irregular[v.norm]) return irregular[v.norm]!;
  if (v.tags.has('PresentTense') || /s$/.test(v.norm)) {
    const base = toInfinitive(v.norm);
    if (base && base !== v.norm && /^[\p{L}'-]+$/u.test(base)) return base;
  }
  return v.text;
}

/** The answer in the wh-phrase's own role. */
function whAnswer(p: WhPhrase, a: string, role: 'subject' | 'object' | 'adverbial' | 'bare'): string {
  let phrase = a;
  if (p.how === 'many' || p.how === 'much') phrase = quantityPhrase(a, p.noun, p.how);
  else if (p.wh === 'whose') phrase = (/['’]s?$/.test(a) ? a : `${a}'s`) + (p.noun.length ? ` ${render(p.noun)}` : '');
  if (p.prep) return startsWithPrep(phrase) ? phrase : `${p.prep} ${phrase}`;
  if (role === 'bare' || role === 'subject') return phrase;
  if (role === 'object') return timeWh(p) ? timePhrase(phrase) : phrase;
  switch (p.wh) {
    case 'when':
      return timePhrase(phrase);
    case 'where':
      return placePhrase(phrase);
    case 'why':
      return reasonPhrase(phrase);
    case 'how':
      return p.how === 'adj' ? degreePhrase(phrase, p.adj) : p.how === 'manner' ? mannerPhrase(phrase) : phrase;
    default:
      return phrase;
  }
}

const TIME_NOUNS = new Set(['year', 'month', 'day', 'date', 'century', 'decade', 'time', 'season', 'era', 'age', 'period', 'hour']);
/** "What year did …" asks when: its answer takes a time preposition ("in 1970") unless it is the subject. */
const timeWh = (p: WhPhrase) =>
  (p.wh === 'what' || p.wh === 'which') && p.noun.length > 0 && TIME_NOUNS.has(p.noun[p.noun.length - 1]!.norm);
const isAdverbialWh = (p: WhPhrase) => !!p.prep || ['when', 'where', 'why'].includes(p.wh) || p.how === 'manner' || p.how === 'adj';

function whStatement(toks: Tok[], a: string): string | null {
  const p = parseWh(toks);
  if (!p) return inSitu(toks, a);
  const k = p.end;
  const aux = toks[k];
  const pre = p.prefix ? `${p.prefix} ` : '';
  if (!aux) return null;
  const subjectCase = () => {
    if (isAdverbialWh(p)) return null;
    const verbs = toks.slice(k);
    // "What kills bacteria?" + "antibiotics" → "Antibiotics kill bacteria" (the verb agrees with a plural answer).
    const v = verbs[0];
    if (v && p.how === null && p.wh !== 'whose' && pluralAnswer(a)) verbs[0] = { ...v, text: matchFirst(toPlural(v), v.text) };
    return pre + `${whAnswer(p, a, 'subject')} ${render(verbs)}`;
  };
  if (!isAux(aux)) return subjectCase();
  let rest = toks.slice(k + 1);
  let neg = '';
  if (rest[0]?.norm === 'not') {
    neg = 'not';
    rest = rest.slice(1);
  }
  if (rest.length === 0)
    return p.wh === 'who' || p.wh === 'what' || p.wh === 'which' ? pre + `${whAnswer(p, a, 'subject')} ${render([aux])}` : null;

  if (BE.has(aux.norm)) {
    const be = lower(aux.text) + (neg ? ' not' : '');
    const first = rest[0]!;
    const npStart = isDet(first) || nounish(first) || PRON.has(first.norm);
    if (!isAdverbialWh(p) && (!npStart || (isAdjective(first) && !canBeNoun(first)) || (canBeParticiple(first) && !canBeNoun(first)))) {
      // The wh-phrase is the subject: "What planet is known as …", "How many rings are on …".
      if ((p.how === 'many' || p.how === 'much') && (first.norm === 'there' || isPrep(first))) {
        const tail = first.norm === 'there' ? rest.slice(1) : rest;
        return pre + `there ${be} ${whAnswer(p, a, 'subject')} ${render(tail)}`;
      }
      const agreeing = p.how === null && p.wh !== 'whose' && !neg && pluralAnswer(a) ? toPlural(aux) : be;
      return pre + `${whAnswer(p, a, 'subject')} ${lower(agreeing)} ${render(rest)}`;
    }
    if ((p.how === 'many' || p.how === 'much') && first.norm === 'there')
      return pre + `there ${be} ${whAnswer(p, a, 'subject')} ${render(rest.slice(1))}`;
    let split = predicateStart(rest, isAdverbialWh(p) && (p.how !== 'adj' || p.adj === 'far') ? 'yn' : 'wh');
    if (isAdverbialWh(p) && p.how !== 'adj' && !p.prep) {
      // Adverbial questions keep PPs in the subject unless a participle / adjective follows ("Where is X located").
      const whSplit = predicateStart(rest, 'wh');
      if (split < rest.length && isPrep(rest[split]!)) split = whSplit;
    }
    const subj = rest.slice(0, split);
    const pred = rest.slice(split);
    if (subj.length === 0) return null;
    if (pred.length === 0) {
      if (isAdverbialWh(p)) return pre + `${render(subj)} ${be} ${whAnswer(p, a, 'adverbial')}`;
      return pre + `${render(subj)} ${be} ${whAnswer(p, a, 'bare')}`;
    }
    if (endsWithStrandedPrep(pred) && (p.wh === 'where' || p.wh === 'when') && !p.prep)
      return pre + `${render(subj)} ${be} ${render(pred)} ${a}`;
    // "How far is the Moon | from Earth?" → the measure goes right after the verb.
    if (p.how === 'adj') return pre + `${render(subj)} ${be} ${whAnswer(p, a, 'adverbial')} ${render(pred)}`;
    return pre + `${render(subj)} ${be} ${render(pred)} ${whAnswer(p, a, isAdverbialWh(p) ? 'adverbial' : 'object')}`;
  }

  const form = HAVE.has(aux.norm) ? 'participle' : 'base';
  const split = findVerb(rest, form);
  if (!split) return HAVE.has(aux.norm) || DO.has(aux.norm) ? subjectCase() : null;
  const { subj, advs, verb, after } = split;
  let verbPhrase: string;
  if (DO.has(aux.norm)) {
    const tense = aux.norm === 'did' ? 'past' : aux.norm === 'does' ? 'present3' : 'base';
    verbPhrase = neg ? `${lower(aux.text)} not ${render(advs)} ${verb.text}` : `${render(advs)} ${inflect(verb.norm, tense)}`;
  } else {
    verbPhrase = `${neg ? (MODAL_NOT[aux.norm] ?? `${lower(aux.text)} not`) : lower(aux.text)} ${render(advs)} ${verb.text}`;
  }
  const head = pre + `${render(subj)} ${verbPhrase}`;
  const answerRole = isAdverbialWh(p) ? 'adverbial' : 'object';
  const ans = whAnswer(p, a, answerRole);
  // Where the answer goes: objects right after the verb, unless a preposition is stranded at the end.
  if (p.how === 'adj' && (['fast', 'far', 'long', 'much'].includes(p.adj) || after.some((t) => t.norm === 'be'))) {
    const beAt = after.findIndex((t) => t.norm === 'be');
    if (beAt >= 0) return `${head} ${render(after.slice(0, beAt + 1))} ${degreePhrase(a, p.adj)} ${render(after.slice(beAt + 1))}`;
    const phrase = p.adj === 'fast' && !/^(?:at|with|by)\b/i.test(a) ? `at ${a}` : a;
    return `${head} ${phrase} ${render(after)}`;
  }
  const aw = words(a);
  const v0 = verb.norm === 'do' && p.wh === 'what' ? tokenize(aw[0] ?? '')[0] : undefined;
  if (
    answerRole === 'object' &&
    v0 &&
    (v0.tags.has('Verb') || canBeBaseVerb(v0)) &&
    !isDet(v0) &&
    !PRON.has(v0.norm) &&
    (after.length === 0 || SUBORD.has(after[0]!.norm) || isPrep(after[0]!))
  ) {
    // "What did Rosa Parks do?" + "refuse to give up her seat" → the answer's verb takes the place of "do".
    const tense = aux.norm === 'did' ? 'past' : aux.norm === 'does' ? 'present3' : 'base';
    const v = v0 && DO.has(aux.norm) && !neg && canBeBaseVerb(v0) ? inflect(v0.norm, tense) : (aw[0] ?? '');
    return `${pre}${render(subj)} ${DO.has(aux.norm) ? render(advs) : verbPhrase.replace(/\s*\bdo$/, '')} ${[v, ...aw.slice(1)].join(' ')} ${render(after)}`;
  }
  if (answerRole === 'object' && NAMING.has(verbBase(verb, aux)) && after.length > 0 && validNp(after))
    return `${head} ${render(after)} ${ans}`;
  if (answerRole === 'object' && !endsWithStrandedPrep(after)) return `${head} ${ans} ${render(after)}`;
  // "Where does the name come from?" → "… comes from England" (the stranded preposition replaces "in").
  if (endsWithStrandedPrep(after) && (p.wh === 'where' || p.wh === 'when') && !p.prep) return `${head} ${render(after)} ${a}`;
  return `${head} ${render(after)} ${ans}`;
}

/** Verbs whose object is followed by a name: "What did the Romans call London?" → "… called London Londinium". */
const NAMING = new Set(['call', 'name', 'nickname', 'dub', 'title', 'consider', 'elect', 'crown', 'make', 'label', 'rename']);
const verbBase = (verb: Tok, aux: Tok) => (DO.has(aux.norm) || MODAL.has(aux.norm) ? verb.norm : verb.norm);

/** "The capital of France is what?" → the wh-word (and its noun) replaced by the answer. */
function inSitu(toks: Tok[], a: string): string | null {
  const i = toks.findIndex((t, j) => j > 0 && ['what', 'which', 'who', 'whom', 'where', 'when'].includes(t.norm));
  if (i < 0) return null;
  const wh = toks[i]!.norm;
  let j = i + 1;
  if (wh === 'what' || wh === 'which') while (j < toks.length && nounish(toks[j]!) && !isAux(toks[j]!) && !isPrep(toks[j]!)) j++;
  const phrase = wh === 'where' ? placePhrase(a) : wh === 'when' ? timePhrase(a) : a;
  return `${render(toks.slice(0, i))} ${phrase} ${render(toks.slice(j))}`;
}

// ---------------------------------------------------------------- yes/no questions

const matchFirst = (w: string, like: string) => (/^\p{Lu}/u.test(like) ? w.charAt(0).toUpperCase() + w.slice(1) : w);

const MODAL_NOT: Record<string, string> = { can: 'cannot', will: 'will not', shall: 'shall not' };
const NO_ONE: Record<string, string> = { anyone: 'no one', anybody: 'nobody', anything: 'nothing' };
const SOME_ONE: Record<string, string> = { anyone: 'someone', anybody: 'somebody', anything: 'something', any: 'some' };

function ynStatement(toks: Tok[], pol: 'yes' | 'no'): string | null {
  const aux = toks[0];
  if (!aux || !isAux(aux)) return null;
  let rest = toks.slice(1);
  let negQ = false;
  if (rest[0]?.norm === 'not') {
    negQ = true; // "Isn't the Earth round?" asks the same as "Is the Earth round?"
    rest = rest.slice(1);
  }
  if (rest.length === 0) return null;
  const a = lower(aux.text);
  const dropEver = (ts: Tok[]) => ts.filter((t) => t.norm !== 'ever');
  const hasEver = rest.some((t) => t.norm === 'ever');
  void negQ;

  const subjText = (subj: Tok[]): { text: string; negated: boolean } => {
    const f = subj[0];
    if (pol === 'no' && f && NO_ONE[f.norm]) return { text: [NO_ONE[f.norm], render(subj.slice(1))].join(' '), negated: true };
    if (pol === 'no' && f && f.norm === 'any') return { text: `no ${render(subj.slice(1))}`, negated: true };
    if (pol === 'no' && f && (f.norm === 'all' || f.norm === 'every') && subj.length > 1)
      return { text: `not ${render(subj)}`, negated: true };
    if (pol === 'yes' && f && SOME_ONE[f.norm])
      return { text: [matchFirst(SOME_ONE[f.norm]!, f.text), render(subj.slice(1))].join(' ').trim(), negated: false };
    return { text: render(subj), negated: false };
  };

  if (BE.has(aux.norm)) {
    let split = predicateStart(rest, 'yn');
    if (split >= rest.length) split = rest.length > 1 ? rest.length - 1 : rest.length;
    const subj = rest.slice(0, split);
    let pred = rest.slice(split);
    const s = subjText(subj);
    if (pol === 'yes') return `${s.text} ${a} ${render(dropEver(pred))}`;
    if (s.negated) return `${s.text} ${a} ${render(pred)}`;
    if (hasEver) {
      pred = pred.map((t) => (t.norm === 'ever' ? { ...t, text: 'never', norm: 'never' } : t));
      return `${s.text} ${a} ${render(pred)}`;
    }
    return `${s.text} ${a} not ${render(pred)}`;
  }

  const split = findVerb(rest, HAVE.has(aux.norm) ? 'participle' : 'base');
  if (!split) return null;
  const { subj, verb, after } = split;
  let advs = split.advs;
  const s = subjText(subj);
  if (DO.has(aux.norm)) {
    const tense = aux.norm === 'did' ? 'past' : aux.norm === 'does' ? 'present3' : 'base';
    if (pol === 'yes' || s.negated) return `${s.text} ${render(dropEver(advs))} ${inflect(verb.norm, tense)} ${render(after)}`;
    if (advs.some((t) => t.norm === 'ever')) {
      advs = advs.map((t) => (t.norm === 'ever' ? { ...t, text: 'never', norm: 'never' } : t));
      return `${s.text} ${render(advs)} ${inflect(verb.norm, tense)} ${render(after)}`;
    }
    return `${s.text} ${a} not ${render(advs)} ${verb.text} ${render(after)}`;
  }
  const auxWord = MODAL.has(aux.norm) || HAVE.has(aux.norm) ? a : a;
  if (pol === 'yes' || s.negated) return `${s.text} ${auxWord} ${render(dropEver(advs))} ${verb.text} ${render(after)}`;
  if (advs.some((t) => t.norm === 'ever')) {
    advs = advs.map((t) => (t.norm === 'ever' ? { ...t, text: 'never', norm: 'never' } : t));
    return `${s.text} ${auxWord} ${render(advs)} ${verb.text} ${render(after)}`;
  }
  return `${s.text} ${MODAL_NOT[aux.norm] ?? `${auxWord} not`} ${render(advs)} ${verb.text} ${render(after)}`;
}

/** "Is the Pacific or the Atlantic the larger ocean?" + "the Pacific" → the question with only the chosen alternative. */
function chooseAlternative(toks: Tok[], a: string): Tok[] | null {
  const or = toks.findIndex((t) => t.norm === 'or');
  if (or < 1) return null;
  const ans = lower(a)
    .replace(/[^\p{L}\p{N} ]/gu, '')
    .trim();
  if (!ans) return null;
  const stop = (t: Tok) => isAux(t) || isPrep(t) || CONJ.has(t.norm) || WH.has(t.norm);
  // Right alternative: from "or" to the next noun-phrase boundary; left: back to a determiner or a boundary.
  let r = or + 1;
  while (r < toks.length && !stop(toks[r]!) && !(r > or + 1 && isDet(toks[r]!))) r++;
  let l = or;
  while (l > 1 && !stop(toks[l - 1]!)) {
    l--;
    if (isDet(toks[l]!)) break;
  }
  const norm = (ts: Tok[]) => ts.map((t) => t.norm.replace(/[^\p{L}\p{N}]/gu, '')).join(' ');
  const strip = (s: string) => s.replace(/^(?:the|a|an) /, '');
  const same = (ts: Tok[]) => norm(ts) === ans || strip(norm(ts)) === strip(ans);
  // The two alternatives are taken to be parallel: the one matching the answer fixes the other's length.
  for (let m = or - l; m >= 1; m--) {
    if (same(toks.slice(or - m, or))) return [...toks.slice(0, or), ...toks.slice(Math.min(r, or + 1 + m))];
  }
  for (let m = r - or - 1; m >= 1; m--) {
    if (same(toks.slice(or + 1, or + 1 + m))) return [...toks.slice(0, Math.max(l, or - m)), ...toks.slice(or + 1)];
  }
  return null;
}

// ---------------------------------------------------------------- prompts

/** The clause to transform: the last question sentence, or the last sentence with a blank, or the last sentence. */
function pickClause(question: string): { clause: string; kind: 'blank' | 'question' | 'prompt' } {
  const q = question.replace(QUESTION_PREFIX, '');
  const sentences = splitSentences(q);
  if (HAS_BLANK.test(q)) {
    const withBlank = sentences.filter((s) => HAS_BLANK.test(s));
    return { clause: (withBlank[withBlank.length - 1] ?? q).replace(INSTRUCTION, ''), kind: 'blank' };
  }
  const asked = sentences.filter((s) => s.includes('?'));
  if (asked.length > 0) {
    let s = asked[asked.length - 1]!;
    s = s.slice(0, s.lastIndexOf('?') + 1);
    // "Based on the passage: what is …?" → the part after the last colon when that part is the question.
    const colon = s.lastIndexOf(': ');
    if (
      colon >= 0 &&
      /^(?:\w+\s+)?(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|can|could|will|would|should|has|have|had)\b/i.test(
        s.slice(colon + 2),
      )
    )
      s = s.slice(colon + 2);
    return { clause: s.replace(QUESTION_PREFIX, '').replace(DISCOURSE, ''), kind: 'question' };
  }
  const last = (sentences[sentences.length - 1] ?? q).replace(INSTRUCTION, '');
  const looksAsked =
    /^(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|can|could|will|would|should|has|have|had)\b/i.test(last);
  if (looksAsked && !/(?:\.{2,}|…|:|[-–—])\s*$/.test(last) && !/,/.test(last.split(' ').slice(0, 4).join(' ')))
    return { clause: last, kind: 'question' };
  return { clause: last, kind: 'prompt' };
}

function joinAtBoundary(before: string, ans: string): string {
  const b = words(before);
  const aw = words(ans);
  const lastB = lower(b[b.length - 1] ?? '').replace(/[^\p{L}]/gu, '');
  const firstA = lower(aw[0] ?? '');
  if (lastB && lastB === firstA && ['the', 'a', 'an', 'of', 'in', 'on', 'at', 'to', 'by', 'for', 'with', 'from'].includes(lastB))
    return `${before} ${aw.slice(1).join(' ')}`;
  return `${before} ${ans}`;
}

const TRUE_FALSE =
  /^(?:true\s+or\s+false|t\s*\/\s*f|(?:is\s+(?:this|the\s+following)\s+(?:statement\s+)?(?:true|correct)(?:\s+or\s+false)?))\s*[:?.\-–—]\s*/i;
const IMPERATIVE = /^(?:please\s+)?(?:name|give|state|identify|list|provide|define|specify|write|tell me)\b/i;

function completeStatement(clause: string, a: string, rawAnswer: string): string | null {
  let prompt = clause.replace(INSTRUCTION, '').trim();
  if (!/\p{L}/u.test(prompt)) return null;
  const trueFalse = TRUE_FALSE.test(prompt);
  prompt = prompt.replace(TRUE_FALSE, '').trim();
  const pol = polarity(rawAnswer);
  const finished = /[.!]$/.test(prompt) && !/(?:\.{2,}|…)$/.test(prompt);
  if (pol && (finished || trueFalse)) return pol === 'yes' ? prompt : negateDeclarative(prompt);
  if (pol) return null;
  // A finished sentence is not a prompt to complete; imperatives ("Name the capital of France.") are.
  if (finished) return imperative(prompt, a);
  const label = /:\s*$/.test(prompt);
  prompt = prompt.replace(/(?:\s*(?:\.{2,}|…|:|[-–—]+|_+))+$/u, '').trim();
  if (prompt === '') return null;
  if (lower(a).startsWith(lower(prompt)) || (isSentenceLike(a) && overlap(prompt, a) >= 0.5)) return a;
  if (IMPERATIVE.test(prompt)) return imperative(prompt, a);
  const toks = tokenize(prompt);
  // "The capital of Germany is what" — a wh-phrase ending the prompt is asked in place.
  // (Not "when" / "where": ending a prompt they introduce the clause to complete — "Ice melts when".)
  const whAt = toks.findIndex((t, j) => j > 0 && ['what', 'who', 'whom', 'which'].includes(t.norm));
  if (whAt > 0 && toks.slice(whAt + 1).every((t) => nounish(t) && !isAux(t) && !isPrep(t))) return inSitu(toks, a);
  // "The first American president:" — a label without a verb reads as "<label> is <answer>".
  // "The capital of Italy" + "Rome" likewise, when the prompt does not stop on a word that needs a continuation.
  const last = toks[toks.length - 1];
  const open = !last || isPrep(last) || isDet(last) || CONJ.has(last.norm) || SUBORD.has(last.norm) || isAux(last) || last.tags.has('Verb');
  const nounPhrase = !toks.some(
    (t, i) => i > 0 && (taggedFiniteVerb(t) || t.tags.has('Verb') || (SUBORD.has(t.norm) && t.norm !== 'of') || CONJ.has(t.norm)),
  );
  if ((label || (!open && nounPhrase)) && !toks.some((t, i) => i > 0 && taggedFiniteVerb(t)))
    return `${prompt} ${pluralHead(toks) ? 'are' : 'is'} ${a}`;
  return joinAtBoundary(prompt, a);
}

/** Head noun of a noun phrase: the last noun before the first preposition. */
function pluralHead(toks: Tok[]): boolean {
  const cut = toks.findIndex((t, i) => i > 0 && isPrep(t));
  const np = cut > 0 ? toks.slice(0, cut) : toks;
  const head = [...np].reverse().find((t) => canBeNoun(t));
  return !!head && head.tags.has('Plural');
}

/** "The Earth is flat." → "The Earth is not flat."; "The Earth orbits the Sun." → "The Earth does not orbit the Sun.". */
function negateDeclarative(sentence: string): string | null {
  const toks = tokenize(sentence.replace(/[.!\s]+$/, ''));
  for (let i = 1; i < toks.length; i++) {
    const t = toks[i]!;
    if (!validNp(toks.slice(0, i))) continue;
    if (isAux(t)) {
      const neg = t.norm === 'can' ? 'cannot' : `${t.text} not`;
      return `${render(toks.slice(0, i))} ${neg} ${render(toks.slice(i + 1))}`;
    }
    if (t.tags.has('Verb') && !t.tags.has('Gerund')) {
      const past = t.tags.has('PastTense');
      const base = toInfinitive(t.norm);
      const aux = past ? 'did' : /s$/.test(t.norm) && base !== t.norm ? 'does' : 'do';
      return `${render(toks.slice(0, i))} ${aux} not ${base} ${render(toks.slice(i + 1))}`;
    }
  }
  return null;
}

/** "Name the capital of France." + "Paris" → "The capital of France is Paris." */
function imperative(prompt: string, a: string): string | null {
  const m = prompt
    .replace(/[.!:\s]+$/, '')
    .match(/^(?:please\s+)?(?:name|give|state|identify|list|provide|define|specify|write|tell me)\s+(.+)$/i);
  if (!m) return null;
  const np = m[1]!;
  return `${np} ${pluralHead(tokenize(np)) ? 'are' : 'is'} ${a}`;
}

function blankStatement(clause: string, a: string): string {
  const text = clause.replace(INSTRUCTION, '').trim();
  const known = text.replace(BLANK, ' ');
  if (isSentenceLike(a) && overlap(known, a) >= 0.5) return a;
  const count = (text.match(BLANK) ?? []).length;
  const parts = count > 1 ? a.split(/\s*(?:,|;|\/|\band\b)\s*/).filter((x) => x !== '') : [];
  let n = 0;
  return text.replace(BLANK, (_m, offset: number) => {
    let fill = parts.length === count ? parts[n]! : a;
    n++;
    const before = words(text.slice(0, offset));
    const after = words(text.slice(offset + _m.length));
    const prev = lower(before[before.length - 1] ?? '');
    const fw = words(fill);
    if (fw.length > 1 && lower(fw[0]!) === prev && ['the', 'a', 'an'].includes(prev)) fill = fw.slice(1).join(' ');
    const next = lower((after[0] ?? '').replace(/[^\p{L}\p{N}]/gu, ''));
    const fw2 = words(fill);
    if (fw2.length > 1 && next && lower(fw2[fw2.length - 1]!) === next) fill = fw2.slice(0, -1).join(' ');
    return ` ${fill} `;
  });
}

/** "Who's the author …" → "Who is …", "Who's won …" → "Who has won …" (compromise resolves these only when fully tagging). */
function expandS(s: string): string {
  return s.replace(/\b(who|what|where|when|how|why|which|there|here|that|it|he|she)['’]s\s+(\S+)/gi, (_m, w: string, next: string) =>
    /^(?:been|got|gotten|won|had|done|made|seen|written|taken|given|become|gone|[a-z]+ed)$/i.test(next)
      ? `${w} has ${next}`
      : `${w} is ${next}`,
  );
}

// ---------------------------------------------------------------- entry point

/** One declarative statement for a (question, answer) pair. Never throws. */
export function writeStatement(question: string, answer: string): string {
  try {
    return finish(write(clean(question), clean(answer)));
  } catch {
    const q = clean(question);
    const a = answerPhrase(clean(answer));
    return finish(q && a ? `The answer to "${q}" is ${a}` : a || (q ? `No answer was given to "${q}"` : ''));
  }
}

function write(q: string, answer: string): string {
  // A statement is one sentence: of a multi-sentence answer ("Paris. It is also the largest city.") keep the first.
  const sentences = answer.length > 0 && /[.!?]\s+\S/.test(answer) ? splitSentences(answer) : [];
  const rawAnswer = sentences.length > 1 ? sentences[0]! : answer;
  const a = answerPhrase(rawAnswer);
  if (!q && !a) return 'No question or answer was given';
  if (!a) return `No answer was given to "${q}"`;
  if (!q) return isSentenceLike(rawAnswer) ? rawAnswer : `The answer is ${a}`;
  const { clause, kind } = pickClause(q);
  const fallback = () => `The answer to "${clause}" is ${a}`;

  if (kind === 'blank') return blankStatement(clause, a);
  if (kind === 'prompt') return completeStatement(clause, a, rawAnswer) ?? fallback();

  const body = expandS(clause.replace(/[?\s]+$/, ''));
  const toks = tokenize(body);
  if (toks.length === 0) return fallback();
  const first = toks[0]!;
  const pol = polarity(rawAnswer);

  if (isAux(first) && !WH.has(first.norm)) {
    if (pol) return ynStatement(toks, pol) ?? fallback();
    const alt = chooseAlternative(toks, a);
    if (alt) return ynStatement(alt, 'yes') ?? fallback();
    if (isSentenceLike(a)) return a;
    return fallback();
  }
  if (pol && words(a).length <= 3) return fallback();
  if (isSentenceLike(a)) return a;
  return whStatement(toks, a) ?? fallback();
}

export function createRuleWriter(): StatementWriter {
  return {
    name: 'rules',
    write: async (items: StatementItem[]) => items.map((it) => writeStatement(it?.question, it?.answer)),
  };
}
