/**
 * @file Polarity and contradiction: whether the candidate denies what the gold asserts.
 *
 * polarity({question: 'Where is the Eiffel Tower?', golds: ['Paris'], candidate: 'The Eiffel Tower is not in Paris.'})
 * // → { kind: 'negation', cue: 'not', clause: 'The Eiffel Tower is not in Paris', gold: 0 }
 *
 * Three ways, checked in order:
 * - yes/no golds: the candidate's leading yes/no (or, without one, the negation parity of its first clause
 *   against the question's) gives the other answer.
 * - negation: the clause that carries a gold (the most of its content words) has a negation cue ("not",
 *   "n't", "never", "no longer", "cannot", "unable", …) that the question and the gold do not have (parity, so
 *   "Venus has no moons" answers "Which planet has no moons?"). Contrastive negation ("Canberra, not Sydney"),
 *   "not only", "not until" and similar fixed phrases do not count.
 * - premise denial: the answer opens by denying the question ("No, …", "No mammal …", "None …", "That's not
 *   true", "There is no …", "This is a myth") when the gold is not itself "no".
 * - antonym: the candidate (the gold-carrying clause, or the whole of a short answer) has one side of an
 *   antonym pair (antonyms.ts) whose other side is in the gold — or, failing that, in the question — and not
 *   the side it was asked about ("Plants release carbon dioxide" for "Which gas do plants absorb?").
 */
import { withoutParentheses } from '../text/parens.ts';
import { ANTONYM_PAIRS } from './antonyms.ts';
import { clausesOf, contentStems, stem, tokens, wordStemSet } from './words.ts';
import { lastMemo, textMemo } from '../util/memo.ts';
import { asciiTwin } from '../text/ascii-twin.ts';

export interface PolaritySignal {
  /** denial also covers the question's own number restated with another value (two words of context: "atomic number 2"). */
  kind: 'yes-no' | 'negation' | 'denial' | 'antonym';
  /** The word or phrase that flips the meaning. */
  cue: string;
  /** The clause it is in. */
  clause: string;
  /** Index of the gold it contradicts. */
  gold: number;
}

interface PolarityItem {
  question: string;
  golds: readonly string[];
  candidate: string;
}

const NEGATION = /\b(?:not|never|no|none|neither|nor|nothing|nobody|nowhere|cannot|unable|impossible)\b|n[’']t\b/giu;
/** Negations that do not deny the clause's claim. */
const NOT_DENIAL =
  /[,;—–(-]\s*(?:and\s+|but\s+)?not\s|\b(?:couldn[’']t|could not|can[’']t|cannot|don[’']t|do not) (?:find|know)\b|\bnot sure\b|\bnot (?:only|just|until|till|merely|least|far|unlike|un\w+|in\w+ly)\b|\bno (?:later|earlier|sooner|doubt|wonder|less|fewer)\b|\bnone other\b|\bnothing (?:but|less|short)\b|\b(?:wasn[’']t|isn[’']t|was not|is not|didn[’']t|did not) until\b|\bnot to be confused\b/giu;

/** NEGATION, for a quick test: a text with no cue at all has none once the non-denials are blanked out either. */
const ANY_NEGATION = new RegExp(NEGATION.source, 'iu');
/** The patterns every answer is tested with, each in its faster form where that reads the same (ascii-twin.ts). */
const anyNegation = asciiTwin(ANY_NEGATION);
const negation = asciiTwin(NEGATION);
const notDenial = asciiTwin(NOT_DENIAL);

/** A quoted title or phrase ("Can't Nobody Hold Me Down", “Not Fair”): its words deny nothing. */
const QUOTED = /"[^"]*"|“[^”]*”/gu;

/**
 * A text still in CSV quoting (`"Which album … ""Not Fair""?"`) as written: its doubled quotes are quotes, and the
 * outer pair is not, so the question and the answer blank the same words.
 */
function unescapeCsvQuotes(text: string): string {
  if (!text.includes('""')) return text;
  const t = text.trim();
  return (t.length > 1 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1) : t).replace(/""/g, '"');
}

/**
 * The text without its quoted spans. A clause cut from a longer quote keeps one mark: a closing one ends a quote
 * that began before the clause, an opening one starts a quote that goes on after it.
 */
function blankQuotes(text: string): string {
  const t = text.replace(QUOTED, ' ');
  const m = /["“”]/u.exec(t);
  if (!m) return t;
  const closing = m[0] === '”' || (m[0] === '"' && /^(?:\s|[.,;:!?]|$)/u.test(t.slice(m.index + 1)));
  return closing ? t.slice(m.index + 1) : t.slice(0, m.index);
}

/** Negation cues in a text, without the ones that do not deny. */
function negations(text: string): string[] {
  if (!anyNegation(text).test(text)) return [];
  const blanked = blankQuotes(unescapeCsvQuotes(text));
  const cleaned = blanked.replace(notDenial(blanked), ' ');
  return [...cleaned.matchAll(negation(cleaned))].map((m) => m[0].toLowerCase());
}

/** The question's negation cues, counted (kept for the last question: a row asks twice, and its question's rows are often together). */
const questionNegations = lastMemo((question: string) => negations(question).length);

const YES_NO_QUESTION = /^(?:is|are|was|were|do|does|did|can|could|has|have|had|will|would|should|shall|may|must)\b/iu;
const YES = new Set(['yes', 'yeah', 'yep', 'true', 'correct', 'indeed']);
const NO = new Set(['no', 'nope', 'false', 'incorrect']);
/** "yes" / "no" for a yes/no gold, else null (cached: a row asks it of each of its golds, and golds recur). */
export const yesNo: (text: string) => 'yes' | 'no' | null = textMemo((text: string) => {
  const bare = withoutParentheses(text).trim();
  const t = tokens(bare);
  // "Yes", "No, it is not"; not a name that starts with the word ("False widow").
  if (t.length === 0 || t.length > 3 || (t.length > 1 && !/^\p{L}+\s*[,.;:!—–-]/u.test(bare))) return null;
  if (YES.has(t[0]!)) return 'yes';
  if (NO.has(t[0]!)) return 'no';
  return null;
});

const DENIAL =
  /^(?:no[,.!;:—–-]|no\s+(?!doubt\b|later\b|earlier\b|one\s+knows)\w+|none\b|neither\b|nothing\b|nobody\b|(?:that|this|it)(?:'s|’s| is| was) (?:not (?:true|correct|right|the case)|false|incorrect|a (?:myth|misconception|common misconception))|(?:there|it) (?:is|are|was|were) no\b|(?:there|it) (?:isn[’']t|aren[’']t|wasn[’']t|weren[’']t)\b(?!\s+until\b)|actually,? (?:no|none)\b|contrary to popular belief\b)/iu;

/** Stem → the stems of its opposites, with the words for the explanation. */
const OPPOSITES = new Map<string, { other: string; word: string; otherWord: string }[]>();
for (const [a, b] of ANTONYM_PAIRS) {
  for (const [x, y] of [
    [a, b],
    [b, a],
  ] as const) {
    const list = OPPOSITES.get(stem(x)) ?? [];
    list.push({ other: stem(y), word: x, otherWord: y });
    OPPOSITES.set(stem(x), list);
  }
}

type Opposites = { stem: string; ops: { other: string; word: string; otherWord: string }[] }[];

/** The clause's stems that have an opposite, in order (most clauses have none, and then no source is read). */
function withOpposites(clauseStems: ReadonlySet<string>): Opposites {
  const out: Opposites = [];
  for (const s of clauseStems) {
    const ops = OPPOSITES.get(s);
    if (ops) out.push({ stem: s, ops });
  }
  return out;
}

/** A word of the clause whose opposite is in the source, while neither has the other's side. */
function antonymIn(clause: Opposites, clauseStems: ReadonlySet<string>, source: ReadonlySet<string>): { cue: string } | null {
  for (const { stem: s, ops } of clause) {
    if (source.has(s)) continue;
    for (const o of ops) if (source.has(o.other) && !clauseStems.has(o.other)) return { cue: `${o.word} (vs ${o.otherWord})` };
  }
  return null;
}

const NEGATOR = new Set([
  'not',
  'no',
  'never',
  'nt',
  'isnt',
  'arent',
  'wasnt',
  'werent',
  'dont',
  'doesnt',
  'didnt',
  'cannot',
  'cant',
  'neither',
  'nor',
]);
/** Stems of a text's words, leaving out those within three words after a negation ("not a solid" affirms no solid). */
function affirmedStems(text: string): Set<string> {
  const ts = tokens(text);
  const out = new Set<string>();
  let negatedUntil = -1;
  ts.forEach((t, i) => {
    if (NEGATOR.has(t)) negatedUntil = i + 3;
    else if (i > negatedUntil) out.add(stem(t));
  });
  return out;
}

/** The yes/no answer a candidate gives to a yes/no question: its leading word, else its first clause's negation parity against the question's. */
export function candidateYesNo(question: string, candidate: string): 'yes' | 'no' | null {
  const first = clausesOf(candidate)[0];
  if (!first) return null;
  const lead = yesNo(first.split(/\s+/)[0]!);
  if (lead) return lead;
  return (negations(first).length + questionNegations(question)) % 2 === 0 ? 'yes' : 'no';
}

const QUESTION_DIGIT = /\d/;
/** Where a clause's scope ends: commas, dashes, parentheses, a relative pronoun. */
const scopeCut = asciiTwin(/\s*[,—–()]\s*|\s+(?=(?:which|who|whom|whose|where|although|though|while|whereas)\b)/iu);

/**
 * The question's numbers with two words of context ("atomic number 1"), each with the pattern that finds the same
 * context with a number in an answer (kept for the last question: a row asks once, and its question's rows are
 * often together).
 */
const questionNumbers = lastMemo((question: string): { text: string; value: string; context: RegExp }[] =>
  QUESTION_DIGIT.test(question)
    ? [...question.matchAll(/(\p{L}{3,}\s+\p{L}{3,})\s+(\d[\d,.]*)(?![\d'’s])/gu)].map((m) => ({
        text: m[0],
        value: m[2]!.replace(/[,.]$/, ''),
        context: new RegExp(`\\b${m[1]}\\s+(\\d[\\d,.]*)(?![\\d'’s])`, 'iu'),
      }))
    : [],
);

/**
 * What a clause read as a yes says: a yes with negations in it names them, one cancelling the other (the question's,
 * or the clause's own); "no negation" only where the clause has no negation word ("X, not Y" contrasts: "yes").
 */
function yesCue(clause: string, negs: readonly string[], qNeg: number): string {
  if (negs.length) return `${negs[0]} (and ${qNeg ? "the question's negation" : 'another negation'})`;
  return anyNegation(clause).test(clause) ? 'yes' : 'no negation';
}

/** The way the candidate contradicts a gold, or null. */
export function polarity(item: PolarityItem): PolaritySignal | null {
  const clauses = clausesOf(item.candidate);
  if (clauses.length === 0) return null;
  const qNeg = questionNegations(item.question);
  const goldStems = item.golds.map((g) => contentStems(g));

  // Yes/no golds, for a question shaped as one ("Is …?", "Can …?") or a first gold that is yes or no.
  const yesNoQuestion = YES_NO_QUESTION.test(item.question.trim()) || (item.golds[0] !== undefined && yesNo(item.golds[0]) !== null);
  for (let k = 0; k < item.golds.length && yesNoQuestion; k++) {
    const want = yesNo(item.golds[k]!);
    if (!want) continue;
    const lead = yesNo(clauses[0]!.split(/\s+/).slice(0, 1).join(' '));
    const negs = negations(clauses[0]!);
    let got: 'yes' | 'no';
    if (lead) got = lead;
    else got = (negs.length + qNeg) % 2 === 0 ? 'yes' : 'no';
    if (got !== want)
      return {
        kind: 'yes-no',
        cue: lead ?? (got === 'no' ? (negs[0] ?? 'no') : yesCue(clauses[0]!, negs, qNeg)),
        clause: clauses[0]!,
        gold: k,
      };
    return null;
  }

  // The clause carrying each gold; negation parity against the question and that gold.
  let carrier: { clause: string; gold: number; cov: number } | null = null;
  clauses.forEach((clause) => {
    const cs = new Set(contentStems(clause));
    goldStems.forEach((g, k) => {
      if (g.length === 0) return;
      let n = 0;
      for (const s of g) if (cs.has(s)) n++;
      const cov = n / g.length;
      if (cov > 0 && (!carrier || cov > carrier.cov)) carrier = { clause, gold: k, cov };
    });
  });
  const found = carrier as { clause: string; gold: number; cov: number } | null;
  let scopeText: string | null = null;
  if (found) {
    // Scope: the part of the clause (cut at commas, dashes, parentheses and relative pronouns) that carries the
    // gold, so "Mercury, which is not a solid" does not negate "Mercury", and "Lyon (not Paris)" negates "Paris".
    const goldSet = new Set(goldStems[found.gold]!);
    const parts = found.clause.split(scopeCut(found.clause)).filter(Boolean);
    let scope = parts[0]!;
    let most = -1;
    for (const part of parts) {
      const n = contentStems(part).filter((t) => goldSet.has(t)).length;
      if (n > most) [scope, most] = [part, n];
    }
    scopeText = scope;
    // "five sides, not six": the contrastive "not" denies the gold it carries.
    const denied = /^(?:but\s+)?(?:not|never)\b/iu.exec(scope);
    // (Unless the question asks with a negation: "you should not … what?" — "not expose him to bright light".)
    if (denied && most > 0 && qNeg === 0) return { kind: 'negation', cue: denied[0], clause: found.clause, gold: found.gold };
    const neg = negations(scope);
    const gNeg = negations(item.golds[found.gold]!).length;
    if (neg.length > 0 && (neg.length + qNeg + gNeg) % 2 === 1)
      return { kind: 'negation', cue: neg[0]!, clause: found.clause, gold: found.gold };
  }

  // No clause carries a gold: a clause that restates the question (half its content words or more) and
  // negates it denies the premise ("The Earth does not orbit the Sun" for "How long does the Earth take to orbit the Sun?").
  const negativeGold = item.golds.some((g) => /^\s*(?:no|none|nothing|nobody|neither|never)\b/i.test(g));
  if (!found && !negativeGold) {
    const qs = new Set(contentStems(item.question));
    for (const clause of clauses) {
      const cs = contentStems(clause);
      const shared = cs.filter((t) => qs.has(t)).length;
      const neg = negations(clause);
      if (shared >= 2 && shared >= cs.length / 2 && neg.length > 0 && (neg.length + qNeg) % 2 === 1)
        return { kind: 'denial', cue: neg[0]!, clause, gold: 0 };
    }
  }

  // The question's own number restated with another value: "Hydrogen has atomic number 2" for "… atomic number 1?".
  // Two words of context, and no decade ("the 30s") or date on either side.
  // (The pattern needs a digit: most questions have none.)
  for (const n of questionNumbers(item.question)) {
    const other = n.context.exec(item.candidate);
    if (other && other[1]!.replace(/[,.]$/, '') !== n.value) {
      const clause = clauses.find((c) => c.includes(other[0])) ?? clauses[0]!;
      return { kind: 'denial', cue: `${other[0]} (the question says ${n.text})`, clause, gold: found?.gold ?? 0 };
    }
  }

  // Premise denial at the start of the answer.
  const denial = DENIAL.exec(item.candidate.trim());
  if (denial && qNeg === 0 && !negativeGold) return { kind: 'denial', cue: denial[0].trim(), clause: clauses[0]!, gold: found?.gold ?? 0 };

  // Antonyms: in the gold-carrying clause (or a short answer as a whole) against the gold, then the question.
  const target = scopeText ?? (clauses.length === 1 ? clauses[0]! : null);
  if (target) {
    const cs = affirmedStems(target);
    const ops = withOpposites(cs);
    if (ops.length > 0) {
      for (let k = 0; k < item.golds.length; k++) {
        const hit = antonymIn(ops, cs, wordStemSet(item.golds[k]!));
        if (hit) return { kind: 'antonym', cue: hit.cue, clause: target, gold: k };
      }
      const hit = antonymIn(ops, cs, wordStemSet(item.question));
      if (hit) return { kind: 'antonym', cue: hit.cue, clause: target, gold: found?.gold ?? 0 };
    }
  }
  return null;
}
