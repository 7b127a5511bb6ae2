/**
 * @file Extra content and specificity: what a candidate says beyond the part that matches a gold, and
 * whether it is a less specific answer than the gold.
 *
 * extraContent('Who wrote Hamlet?', 'William Shakespeare', 'William Shakespeare, who also wrote Macbeth.')
 * // → { coverage: 1, extra: ['macbeth'], restates: false, clauses: [] }
 * specificity('Where is the Louvre?', 'Paris', 'Somewhere in Europe.') // → { kind: 'region', cue: 'europe' }
 */
import { clausesOf, contentStems, coverage, stem, tokens } from './words.ts';
import { lastMemo, textMemo } from '../util/memo.ts';
import { tailName } from './names.ts';
import { asciiTwin } from '../text/ascii-twin.ts';

export interface ExtraSignal {
  /** Share of the gold's content words in the candidate. */
  coverage: number;
  /** Content words beyond the gold and the question (stems): the candidate's added claims. */
  extra: readonly string[];
  /** The candidate adds nothing but words of the question (a restatement around the gold). */
  restates: boolean;
  /** Clauses that carry none of the gold. */
  clauses: readonly string[];
}

/** Hedging and filler words that add no claim. */
const FILLER = new Set(
  'course actually approximately about around roughly nearly almost exactly precisely certainly definitely probably likely believe think correct right answer famous famously well true yes no ' +
    // light verbs and nouns of restatement, honorifics and state forms: no claim of their own
    'use uses used make makes made take takes taken call calls occur occurs occurring naturally located situated found material substance thing one ones sir dame saint mount mt republic federal federative kingdom official officially'
      .split(' ')
      .map(stem),
);

/** What extraContent reads from the question and the candidate, computed once for every gold. */
export interface ExtraContext {
  questionStems: ReadonlySet<string>;
  /** First five letters of the question's longer stems. */
  questionPrefixes: ReadonlySet<string>;
  /** The candidate's distinct content stems that are not filler or question words. */
  candidateNew: readonly string[];
  candidateSet: ReadonlySet<string>;
  clauses: readonly { text: string; stems: readonly string[] }[];
  /** The clauses' texts (what a gold found in no clause gets: shared, not copied). */
  clauseTexts: readonly string[];
  /** The first five letters of candidateNew's longer stems. */
  candidateNewPrefixes: ReadonlySet<string>;
  /** The first five letters of each of candidateNew's stems, or null for a shorter one (read once per gold). */
  candidateNewHeads: readonly (string | null)[];
  /** Every clause's stems together. */
  clauseStems: ReadonlySet<string>;
}

/** The question's stems and prefixes, kept for the last question (the rows of a question are often together). */
const questionSide = lastMemo((question: string) => {
  const stems = new Set(contentStems(question));
  return { stems, prefixes: new Set([...stems].filter((t) => t.length >= 5).map((t) => t.slice(0, 5))) as ReadonlySet<string> };
});

/** "One of them" says no more than the items it refers to (in its faster form where that reads the same: ascii-twin.ts). */
const oneOf = asciiTwin(/\bone of (?:them|those|these|the)\b/giu);

export function extraContext(question: string, candidate: string): ExtraContext {
  const { stems: questionStems, prefixes: questionPrefixes } = questionSide(question);
  const cand = contentStems(candidate.replace(oneOf(candidate), ' '));
  const candidateSet = new Set(cand);
  // The set's order is the stems' first places: the same list as the distinct stems, filtered.
  const candidateNew: string[] = [];
  const heads: (string | null)[] = [];
  const candidateNewPrefixes = new Set<string>();
  for (const t of candidateSet) {
    const head = t.length >= 5 ? t.slice(0, 5) : null;
    if (questionStems.has(t) || FILLER.has(t) || (head !== null && questionPrefixes.has(head))) continue;
    candidateNew.push(t);
    heads.push(head);
    if (head !== null) candidateNewPrefixes.add(head);
  }
  const clauseTexts = clausesOf(candidate);
  const clauses = clauseTexts.map((text) => ({ text, stems: contentStems(text) }));
  const clauseStems = new Set<string>();
  for (const c of clauses) for (const t of c.stems) clauseStems.add(t);
  return {
    questionStems,
    questionPrefixes,
    candidateNew,
    candidateSet,
    clauses,
    clauseTexts,
    candidateNewPrefixes,
    candidateNewHeads: heads,
    clauseStems,
  };
}

/** What extraContent and specificity read from one gold alone. */
interface GoldSide {
  stems: string[];
  set: ReadonlySet<string>;
  /** First five letters of the longer stems. */
  prefixes: ReadonlySet<string>;
  prefixList: readonly string[];
  years: number[];
}
/** A gold's side (cached: the rows of a question share its golds). Callers must not mutate it. */
const goldSide = textMemo((gold: string): GoldSide => {
  const stems = contentStems(gold);
  const prefixes = new Set(stems.filter((t) => t.length >= 5).map((t) => t.slice(0, 5)));
  return { stems, set: new Set(stems), prefixes, prefixList: [...prefixes], years: years(gold) };
});

export function extraContent(
  question: string,
  gold: string,
  candidate: string,
  ctx: ExtraContext = extraContext(question, candidate),
): ExtraSignal {
  // Called for every gold of every row: loops and shared arrays rather than closures and copies keep the scoring
  // workers' allocation (and their collector's share of the cores) down.
  const side = goldSide(gold);
  const gs = side.set;
  const cov = coverage(side.stems, ctx.candidateSet);
  // A word that shares its first five letters with a word of the question or gold restates it ("photosynthesize").
  // (Most golds share no stem with the candidate, nor a prefix with its new words, and then every one stays.)
  const extra =
    cov > 0 || someIn(side.prefixList, ctx.candidateNewPrefixes)
      ? beyondGold(ctx.candidateNew, ctx.candidateNewHeads, side)
      : ctx.candidateNew;
  let restates = false;
  if (extra.length === 0) for (const t of ctx.candidateSet) if (ctx.questionStems.has(t) && !gs.has(t)) restates = true;
  const clauses = someIn(side.stems, ctx.clauseStems) ? clausesWithout(ctx.clauses, gs) : ctx.clauseTexts;
  return { coverage: cov, extra, restates, clauses };
}

/** Whether some item of `xs` is in `set`. */
function someIn<T>(xs: readonly T[], set: ReadonlySet<T>): boolean {
  for (const x of xs) if (set.has(x)) return true;
  return false;
}

/** The stems that are neither the gold's nor share its first five letters with one of the gold's longer stems. */
function beyondGold(stems: readonly string[], heads: readonly (string | null)[], side: GoldSide): string[] {
  const out: string[] = [];
  for (let i = 0; i < stems.length; i++) {
    const t = stems[i]!;
    const h = heads[i]!;
    if (!side.set.has(t) && !(h !== null && side.prefixes.has(h))) out.push(t);
  }
  return out;
}

/** The texts of the clauses that carry none of the gold's stems. */
function clausesWithout(clauses: ExtraContext['clauses'], gold: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const c of clauses) if (!someIn(c.stems, gold)) out.push(c.text);
  return out;
}

export interface SpecificitySignal {
  /** generic: "a bird" for "penguin"; region: "in Europe" for "Paris"; period: "the 1910s" for 1912; part: some of the gold's words only. */
  kind: 'generic' | 'region' | 'period' | 'part';
  cue: string;
}

const REGIONS = new Set([
  'europe',
  'asia',
  'africa',
  'america',
  'americas',
  'oceania',
  'antarctica',
  'australasia',
  'eurasia',
  'scandinavia',
  'caribbean',
  'balkans',
  'mediterranean',
  'middle east',
  'far east',
  'east asia',
  'south asia',
  'southeast asia',
  'central asia',
  'latin america',
  'north america',
  'south america',
  'central america',
  'western europe',
  'eastern europe',
  'northern europe',
  'southern europe',
  'central europe',
  'west africa',
  'east africa',
  'north africa',
  'southern africa',
  'sub-saharan africa',
  'pacific',
  'atlantic',
  'northern hemisphere',
  'southern hemisphere',
]);
const GENERIC =
  /^(?:(?:it(?:'s|’s| is| was)|they(?:'re|’re| are| were)|probably|possibly)\s+)?(?:a|an|some|one of the|a type of|a kind of|a sort of|a form of|a species of|a member of the)\s+([\p{L}\s-]+)$/iu;

/** Year(s) in a gold: four-digit numbers from 1000 to 2099. */
const years = (s: string) => (/\d/.test(s) ? [...s.matchAll(/\b(1\d{3}|20\d{2})\b/g)].map((m) => Number(m[1])) : []);

/** What specificity reads from the candidate alone, kept for the last candidate (it is asked once per gold). */
const candidateSide = lastMemo((candidate: string) => {
  const c = candidate.trim().replace(/[.!]+$/, '');
  const low = c.toLowerCase();
  const place = low
    .replace(/^(?:it(?:'s|’s| is)\s+)?(?:somewhere\s+)?(?:in|on)?\s*(?:the\s+)?/, '')
    .replace(/^(?:continent of|region of)\s+/, '');
  const cStems = contentStems(c);
  return { c, low, cStems, cStemSet: new Set(cStems) as ReadonlySet<string>, cYears: years(c), generic: GENERIC.exec(c), place };
});

const NONE: readonly string[] = [];

/** How a candidate is a less specific answer than the gold, or null. */
export function specificity(question: string, gold: string, candidate: string): SpecificitySignal | null {
  // Called for every gold of every row: no closures here (a closure over these locals is an allocation a call).
  const side = candidateSide(candidate);
  const { cStems, cStemSet } = side;
  const { stems: gStems, set: gSet, years: ys } = goldSide(gold);
  const shared = someIn(gStems, cStemSet) ? onlyIn(cStems, gSet) : NONE;

  if (ys.length) {
    const period = periodOf(side.low, side.cYears, ys);
    if (period) return period;
  }
  // "A nucleic acid" for "deoxyribonucleic acid": an indefinite phrase whose only gold word is the gold's head.
  const generic = side.generic;
  if (generic && generic[1]!.trim().split(/\s+/).length <= 8 && allEqual(shared, gStems.at(-1)))
    return { kind: 'generic', cue: generic[0] };
  if (shared.length === 0) {
    // "In Europe", "somewhere in Asia", "Europe".
    if (REGIONS.has(side.place) && !someIn(tokens(gold), REGIONS)) return { kind: 'region', cue: side.place };
    return null;
  }
  // Some of the gold's words and nothing else: "1912" for "April 15, 1912" (a surname alone names the person).
  if (shared.length < gSet.size && allIn(cStems, gSet)) {
    if (tailName(question, gold, candidate)) return null;
    return { kind: 'part', cue: side.c };
  }
  return null;
}

/** A period that contains one of the gold's years, when the candidate gives none of them: "the 1910s", "the early 20th century", "the 1900s". */
function periodOf(low: string, cYears: readonly number[], ys: readonly number[]): SpecificitySignal | null {
  if (cYears.some((y) => ys.includes(y))) return null;
  const decade = /\b(1\d|20)(\d)0s\b/.exec(low);
  if (decade && ys.some((y) => Math.floor(y / 10) === Number(decade[1]! + decade[2]!))) return { kind: 'period', cue: decade[0] };
  const century = /\b(\d{1,2})(?:st|nd|rd|th)[\s-]century\b/.exec(low);
  if (century && ys.some((y) => Math.floor((y - 1) / 100) + 1 === Number(century[1]))) return { kind: 'period', cue: century[0] };
  const hundreds = /\b(1\d|20)00s\b/.exec(low);
  if (hundreds && ys.some((y) => Math.floor(y / 100) === Number(hundreds[1]))) return { kind: 'period', cue: hundreds[0] };
  return null;
}

/** The items of `xs` that are in `set`, in order. */
function onlyIn(xs: readonly string[], set: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const x of xs) if (set.has(x)) out.push(x);
  return out;
}

/** Whether every item of `xs` is in `set`. */
function allIn(xs: readonly string[], set: ReadonlySet<string>): boolean {
  for (const x of xs) if (!set.has(x)) return false;
  return true;
}

/** Whether every item of `xs` is `v`. */
function allEqual(xs: readonly string[], v: string | undefined): boolean {
  for (const x of xs) if (x !== v) return false;
  return true;
}
