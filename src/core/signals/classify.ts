/**
 * @file The eight taxonomy classes from text signals alone (no model): the steps, in order, and the signals
 * that decided. Used by the embedded taxonomy, and by the NLI taxonomy to override what NLI cannot see.
 *
 * 1. refusal — a non-answer that names no gold → invalid.
 * 2. polarity — a yes/no flip, a negated gold clause, a premise denial or an antonym → contradictory.
 * 3. exact — equals the first gold after SQuAD normalization; equals another gold → equivalent (shares a
 *    content word with the first gold) or alternative-correct (shares none).
 * 4. list / hedge — alternatives offered with a right and a wrong one → partial; items compared with the
 *    gold's: all → equivalent (more right items → overinclusive-valid), all plus a wrong one →
 *    overinclusive-invalid, some and nothing wrong → partial, else invalid.
 * 5. quantities — another value of the gold's quantity → invalid (overinclusive-invalid when the gold's
 *    value is there too); the gold's number without its unit, or only part of its numbers → partial; the
 *    same amount in other units counts as the gold.
 * 6. words — the gold's content words all there: nothing else → equivalent, more → overinclusive-valid;
 *    a less specific answer (part of the gold, a generic "a bird", a region, a period) → partial; else invalid.
 * Several golds: the most favourable class (severity), first gold on ties.
 * 7. WordNet (wordnet.ts) — still not correct: the candidate names a gold by a synonym (same synonym set) →
 *    equivalent (overinclusive-valid with added claims), by a broader term → partial (when that is more than the
 *    words gave); an antonym in the gold's frame → contradictory (only for an answer judged invalid). A narrower
 *    term is reported, not credited: WordNet cannot say whether the more specific claim is true ("basalt" for
 *    "igneous rock" when the type was asked), and on EVOUNA-TQ crediting it broke 13 decisions for 4 it fixed.
 * 8. final answer — a candidate that states its answer ("So the answer is X", final.ts) takes X's class when
 *    X and the whole candidate disagree on right or wrong.
 */
import { normalizeTokens } from '../text/normalize.ts';
import { SEVERITY } from '../agreement/ordinal.ts';
import type { CapClass } from '../types.ts';
import { refusal, type RefusalSignal } from './refusal.ts';
import { candidateYesNo, polarity, yesNo, type PolaritySignal } from './polarity.ts';
import { listSignal, type ListSignal } from './lists.ts';
import { compareQuantities, isNameNumber, quantities, type QuantitySignal } from './quantities.ts';
import { extraContent, extraContext, specificity, type ExtraSignal, type SpecificitySignal } from './extra.ts';
import { bareWord, contentStems, holdsAsWritten, stem, tokens, wordStemSet, writtenRun, asWritten } from './words.ts';
import { tailName } from './names.ts';
import { acronymIn, goldForms } from './aliases.ts';
import { finalAnswer } from './final.ts';
import { wordnetSignal, type WordNetSignal } from './wordnet.ts';
import type { WordNet } from '../lexicon/index.ts';
import { textMemo } from '../util/memo.ts';

export interface TextItem {
  question: string;
  golds: readonly string[];
  candidate: string;
}

export interface TextSignals {
  refusal: RefusalSignal | null;
  polarity: PolaritySignal | null;
  list: ListSignal | null;
  /** Per gold. */
  quantities: QuantitySignal[];
  extra: ExtraSignal[];
  specificity: (SpecificitySignal | null)[];
  /** What WordNet relates (wordnet.ts): looked up only for an answer the other signals do not find correct. */
  wordnet?: WordNetSignal | null;
}

export interface TextVerdict {
  cls: CapClass;
  /** Index of the gold the class is about. */
  gold: number;
  /** The signal that decided, named (refusal, polarity, exact, hedge, list, quantities, words, specificity, wordnet, final-answer). */
  signal: string;
  /** Why, in words. */
  reason: string;
  /** Another name of gold `gold` that the candidate gives (aliases.ts), when that decided. */
  form?: string;
  /** The candidate's stated final answer (final.ts), when it was judged instead of the whole candidate. */
  answer?: string;
  signals: TextSignals;
  /** The item it is about (a copy). */
  item: TextItem;
}

const squad = (s: string) => normalizeTokens(s, 'squad').join(' ');
/** A gold's SQuAD-normalized text (cached: golds recur across rows). */
const squadGold = textMemo(squad);
const q = (s: string) => `"${s.length > 50 ? `${s.slice(0, 49)}…` : s}"`;

/** All signals of an item. */
export function textSignals(item: TextItem): TextSignals {
  const candQ = quantities(item.candidate);
  const ctx = extraContext(item.question, item.candidate);
  const qs = item.golds.map((g) => compareQuantities(g, item.candidate, candQ));
  return {
    refusal: refusal(item.candidate),
    polarity: polarity(item),
    list: listSignal(item.question, item.golds, item.candidate),
    quantities: qs,
    extra: item.golds.map((g) => extraContent(item.question, g, item.candidate, ctx)),
    // Another value of the gold's quantity is wrong, not less specific ("Elizabeth I" is not part of "Elizabeth II").
    specificity: item.golds.map((g, k) => (qs[k]!.relation === 'conflict' ? null : specificity(item.question, g, item.candidate))),
  };
}

type Step = Omit<TextVerdict, 'signals' | 'item'>;

function exactStep(item: TextItem, s: TextSignals): Step | null {
  const c = squad(item.candidate);
  if (!c) return null;
  const k = item.golds.findIndex((g) => squadGold(g) === c);
  // Normalization drops a sign: "40" is not "-40".
  if (k < 0 || s.quantities[k]!.relation === 'conflict') return null;
  if (k === 0) return { cls: 'exact', gold: 0, signal: 'exact', reason: `equals gold ${q(item.golds[0]!)} after normalization` };
  const first = contentStems(item.golds[0]!);
  const shares = contentStems(item.candidate).some((t) => first.some((f) => f === t || (t.length >= 5 && f.slice(0, 5) === t.slice(0, 5))));
  return shares
    ? {
        cls: 'equivalent',
        gold: k,
        signal: 'exact',
        reason: `equals gold #${k + 1} ${q(item.golds[k]!)}, which shares words with the first gold`,
      }
    : {
        cls: 'alternative-correct',
        gold: k,
        signal: 'exact',
        reason: `equals gold #${k + 1} ${q(item.golds[k]!)}, an alternative to the first gold ${q(item.golds[0]!)}`,
      };
}

/** A list's verdict, except "all items and nothing else", which the word step refines (extra claims after the list). */
function listStep(l: ListSignal): Step | null {
  const items = (xs: string[]) => xs.map(q).join(', ');
  if (l.kind === 'hedge') {
    if (l.correct.length && l.wrong.length)
      return { cls: 'partial', gold: l.gold, signal: 'hedge', reason: `hedges between ${items(l.items)}: ${items(l.wrong)} wrong` };
    return null;
  }
  if (l.covered === 1 && l.wrong.length === 0) return null;
  if (l.covered === 1)
    return { cls: 'overinclusive-invalid', gold: l.gold, signal: 'list', reason: `names every gold item plus wrong ${items(l.wrong)}` };
  if (l.covered > 0 && l.wrong.length === 0)
    return {
      cls: 'partial',
      gold: l.gold,
      signal: 'list',
      reason: `names ${items(l.correct)}: ${Math.round(l.covered * 100)}% of the gold's items`,
    };
  if (l.correct.length === 0) return null;
  return {
    cls: 'invalid',
    gold: l.gold,
    signal: 'list',
    reason: `names ${items(l.correct)} but also wrong ${items(l.wrong)}, and misses gold items`,
  };
}

/** How many added words a reason names before "…". */
const ADDED_SHOWN = 8;

/**
 * The candidate's words as written for what a signal found (stems of normalized tokens): "Texas" for "texa", "isn't"
 * for "isnt", "Röntgen" for "rontgen", "first" for "1st". Said in a reader's words, each quoted, since the reader sees
 * the answer, not the stems the signals compare.
 */
function quotedAsWritten(found: readonly string[], candidate: string): string {
  const raw = candidate.match(/\S+/g) ?? [];
  const whole = raw.map(bareWord).filter(Boolean);
  // The parts of a joined word ("time" of "three-time", "U" of "U.S") come after the whole words, for what only they give.
  const written = [...whole, ...whole.flatMap((w) => (/[-–—/.]/.test(w) ? w.split(/[-–—/.]+/).filter(Boolean) : []))];
  // Each written word's tokens as the signals read them (lower case, number words as digits), and their stems, once.
  const read = written.map((w) => {
    const t = tokens(w);
    return new Set([...t, ...t.map(stem)]);
  });
  const out: string[] = [];
  for (const f of found) {
    const k = read.findIndex((r) => r.has(f));
    // A number read from several words ("8600000" of "8.6 million") is shown as those words.
    const shown = k >= 0 ? written[k]! : (writtenRun([f], candidate) ?? f);
    if (!out.includes(shown)) out.push(shown);
  }
  const quoted = out.map((w) => `"${w}"`);
  return quoted.length > ADDED_SHOWN ? `${quoted.slice(0, ADDED_SHOWN).join(', ')}, …` : quoted.join(', ');
}

/** Whether the candidate's words hold the gold's, in order and as read (number words as digits). */
const holdsInOrder = (candidate: string, gold: string): boolean =>
  ` ${tokens(candidate).join(' ')} `.includes(` ${tokens(gold).join(' ')} `);

/**
 * What flips the meaning, as the answer has it: the cue in its clause where the clause writes the cue ("not" in "not
 * Paris"); else what the clause is read as ("False" reads as "no"; "Tooth decay", with no negation, as a yes).
 */
function polarityWords(p: { kind: string; cue: string; clause: string }): string {
  const word = p.cue.replace(/\s*\([^)]*\)$/, '').replace(/[.,;:]+$/, '');
  if (p.clause.toLowerCase().includes(word.toLowerCase())) return `${p.kind} ${q(p.cue)} in ${q(p.clause)}`;
  if (p.cue === 'no negation') return `${p.kind}: ${q(p.clause)}, with no negation, reads as a yes and`;
  return `${p.kind}: ${q(p.clause)} reads as ${q(p.cue)} and`;
}

/** A quantity as `text` writes it ("six" for 6, "2%" for "2 %"), or as read where no run of its words reads so. */
const said = (read: string, text: string): string => writtenRun(tokens(read), text) ?? asWritten(read, text);

/** " (adds …)": the extra words as written, for a reason (built only for the reason that is given). */
const addsWords = (ex: ExtraSignal, candidate: string): string =>
  ex.extra.length ? ` (adds ${quotedAsWritten(ex.extra, candidate)})` : '';

/** "Voight, John", "Fleming, Sir John Ambrose": a name written surname first (its head is only the surname). */
function invertedName(head: string, tail: string, golds: readonly string[]): boolean {
  if (/^(?:sir|dame|lord|lady|dr|mr|mrs|ms|st|saint|king|queen|prince|princess)\b/i.test(tail.trim())) return true;
  const turned = flat(`${tail} ${head}`);
  return golds.some((g) => flatGold(g) === turned);
}
const flat = (t: string) => t.toLowerCase().replace(/\s+/g, ' ').trim();
/** A gold, flat (cached: asked of every gold of a row, and golds recur). */
const flatGold = textMemo(flat);
/** A gold's head and qualifier around its one comma ("Gulfstream Park", "Florida"), or null (cached, as above). */
const commaParts = textMemo((gold: string): readonly [string, string] | null => {
  const m = /^([^,]+),\s*([^,]+)$/.exec(gold);
  return m ? [m[1]!, m[2]!] : null;
});

/** `why`: build the reason (the caller builds it for the chosen gold only: a row has 14 golds on average in TriviaQA). */
function goldStep(item: TextItem, s: TextSignals, k: number, why: boolean): Step {
  const gold = item.golds[k]!;
  const qs = s.quantities[k]!;
  const ex = s.extra[k]!;
  const sp = s.specificity[k]!;
  if (qs.relation === 'conflict') {
    // A name's number is the name's identity: "Elizabeth II" does not also give "Elizabeth I" by its words; nor
    // does "40" give "-40" (the words match once the sign is dropped).
    const both =
      qs.gold.every((g) => qs.candidate.some((c) => c !== qs.at && c.kind === g.kind && c.value === g.value)) ||
      (ex.coverage === 1 && !isNameNumber(qs.at!) && !qs.gold.some((g) => g.value === -qs.at!.value));
    return both
      ? {
          cls: 'overinclusive-invalid',
          gold: k,
          signal: 'quantities',
          reason: why ? `gives the gold's value and also ${q(said(qs.at!.text, item.candidate))}, another value of the same quantity` : '',
        }
      : {
          cls: 'invalid',
          gold: k,
          signal: 'quantities',
          reason: why ? `${q(said(qs.at!.text, item.candidate))} is another value than the gold ${q(gold)} gives` : '',
        };
  }
  if (qs.relation === 'extra-conflict')
    return {
      cls: 'overinclusive-invalid',
      gold: k,
      signal: 'quantities',
      reason: why
        ? `gives the gold's ${q(qs.gold.map((x) => said(x.text, gold)).join(', '))} but also ${q(said(qs.at!.text, item.candidate))}, another amount of it`
        : '',
    };
  if (qs.relation === 'range')
    return {
      cls: 'partial',
      gold: k,
      signal: 'quantities',
      reason: why ? `${q(said(qs.at!.text, item.candidate))} holds the gold's ${q(gold)} but is less specific` : '',
    };
  if (qs.relation === 'missing-unit')
    return {
      cls: 'partial',
      gold: k,
      signal: 'quantities',
      reason: why ? `${q(said(qs.at!.text, item.candidate))} lacks the gold's unit (${q(gold)})` : '',
    };
  const numbersMatch = qs.relation === 'same';
  if (numbersMatch || ex.coverage === 1) {
    // "contains" only where the answer holds the gold as written; the same quantity where it is read alike ("2.1
    // million" for "2,100,000").
    const how =
      numbersMatch && ex.coverage < 1
        ? `the same quantity as the gold ${q(gold)}`
        : holdsAsWritten(item.candidate, gold)
          ? `contains the gold ${q(gold)}`
          : numbersMatch && holdsInOrder(item.candidate, gold)
            ? `the same quantity as the gold ${q(gold)}`
            : `has every word of the gold ${q(gold)} (in another order or form)`;
    // Number-word and unit differences are not extra claims when the quantities match.
    // A month is a date's claim, not a unit.
    const extra = numbersMatch
      ? ex.extra.filter((t) => !/^\d/.test(t) && !qs.candidate.some((c) => c.kind !== 'month' && c.text.includes(t)))
      : ex.extra;
    if (extra.length === 0 || (numbersMatch && ex.clauses.length === 0 && extra.length <= 2))
      return {
        cls: 'equivalent',
        gold: k,
        signal: numbersMatch ? 'quantities' : 'words',
        reason: why ? `${how}${ex.restates ? ', restating the question' : ''} and adds no claim` : '',
      };
    return {
      cls: 'overinclusive-valid',
      gold: k,
      signal: 'words',
      reason: why ? `${how}${addsWords(ex, item.candidate)}; no added claim conflicts` : '',
    };
  }
  // "Gulfstream Park" for "Gulfstream Park, Florida": the head of a gold whose comma adds a qualifier (a place, an
  // aside, dates) gives the answer.
  const parts = commaParts(gold);
  if (parts) {
    const [head, qualifier] = parts;
    const stems = contentStems(head);
    const said = wordStemSet(item.candidate);
    // The name test last: it compares with every gold, and this runs for every gold of the row.
    if (stems.length > 0 && stems.every((t) => said.has(t)) && !invertedName(head, qualifier, item.golds))
      return ex.extra.length === 0
        ? { cls: 'equivalent', gold: k, signal: 'words', reason: why ? `gives ${q(head)}, the gold ${q(gold)} before its qualifier` : '' }
        : {
            cls: 'overinclusive-valid',
            gold: k,
            signal: 'words',
            reason: why ? `gives ${q(head)}, the gold ${q(gold)} before its qualifier${addsWords(ex, item.candidate)}` : '',
          };
  }
  if (qs.relation === 'fewer')
    return { cls: 'partial', gold: k, signal: 'quantities', reason: why ? `gives only part of the gold's numbers (${q(gold)})` : '' };
  if (sp)
    return {
      cls: 'partial',
      gold: k,
      signal: 'specificity',
      reason: why ? `less specific than ${q(gold)} (${sp.kind}: ${q(sp.cue)})` : '',
    };
  const named = ex.coverage > 0 ? tailName(item.question, gold, item.candidate) : null;
  if (named)
    return named.extra.length === 0
      ? { cls: 'equivalent', gold: k, signal: 'words', reason: why ? `names ${q(gold)} by the surname` : '' }
      : {
          cls: 'overinclusive-valid',
          gold: k,
          signal: 'words',
          reason: why ? `names ${q(gold)} by the surname (adds ${quotedAsWritten(named.extra, item.candidate)})` : '',
        };
  if (ex.coverage > 0)
    return {
      cls: 'invalid',
      gold: k,
      signal: 'words',
      reason: why
        ? `shares the stems of ${Math.round(ex.coverage * 100)}% of the gold ${q(gold)}'s words but says something else${addsWords(ex, item.candidate)}`
        : '',
    };
  return { cls: 'invalid', gold: k, signal: 'words', reason: why ? `does not give the gold ${q(gold)}` : '' };
}

/** Whether `text` has `form` as written, as a word of its own (a sentence's full stop may follow). */
function writtenAs(form: string, text: string): boolean {
  const at = text.indexOf(form);
  if (at < 0) return false;
  const before = at === 0 ? ' ' : text[at - 1]!;
  const after = text.slice(at + form.length);
  return /[\s("“'‘]/u.test(before) && /^(?:$|[\s,;:!?)"”'’]|\.(?:\s|$))/u.test(after);
}

/**
 * The gold written with other spacing in the candidate: "Sea Shells" as "seashells", "ROBERTBROWNING" as "Robert
 * Browning" (the candidate's words, joined). Only for joined forms of six letters or more.
 */
function spacedAs(gold: string, candidate: string): string | null {
  const key = spacedKey(gold);
  if (!key) return null;
  const c = normalizeTokens(candidate, 'numeric');
  const j = key.joined;
  if (key.words > 1) return c.includes(j) ? j : null;
  // Only a word that starts the joined form is worth a concatenation (this runs for every gold of a wrong answer).
  for (let i = 0; i + 1 < c.length; i++) {
    const a = c[i]!;
    if (a.length >= j.length || !j.startsWith(a)) continue;
    const ab = a + c[i + 1]!;
    if (ab === j) return `${a} ${c[i + 1]!}`;
    if (i + 2 < c.length && ab.length < j.length && ab + c[i + 2]! === j) return `${a} ${c[i + 1]!} ${c[i + 2]!}`;
  }
  return null;
}

/** A gold's words joined, when spacedAs looks for it: six letters or more, from at most three words (cached). */
const spacedKey = textMemo((gold: string): { joined: string; words: number } | null => {
  const g = normalizeTokens(gold, 'numeric');
  const joined = g.join('');
  return joined.length >= 6 && g.length <= 3 && /^[a-z]+$/.test(joined) ? { joined, words: g.length } : null;
});

/** The candidate gives a gold by another of its names: a form of it (goldForms), its acronym either way, or other spacing. */
function formStep(item: TextItem): Step | null {
  const said = wordStemSet(item.candidate);
  const asked = wordStemSet(item.question);
  /** All of the form's words are in the candidate, and not all in the question ("PDF" in "What does PDF stand for…"). */
  const gives = (f: string | null): f is string => {
    if (f === null) return false;
    const stems = contentStems(f);
    // A form with no content word ("US", "U.S.": the word "us") only as written, in capitals.
    if (stems.length === 0) return /^(?:\p{Lu}\.?){2,}$/u.test(f) && writtenAs(f, item.candidate) && !writtenAs(f, item.question);
    return stems.every((t) => said.has(t)) && !stems.every((t) => asked.has(t));
  };
  for (let k = 0; k < item.golds.length; k++) {
    const gold = item.golds[k]!;
    const named =
      goldForms(gold).find(gives) ?? [acronymIn(gold, item.candidate)].find(gives) ?? spacedAs(gold, item.candidate) ?? undefined;
    if (named === undefined) continue;
    // Denied by that name ("Belgium, not Switzerland" for "Switzer land"): polarity saw only the gold as written.
    const p = polarity({ question: item.question, golds: [named], candidate: item.candidate });
    if (p)
      return {
        cls: 'contradictory',
        gold: k,
        signal: 'polarity',
        reason: `${polarityWords(p)} denies ${q(named)}, the gold ${q(gold)}`,
        form: named,
      };
    const ex = extraContent(item.question, named, item.candidate);
    const how = `${q(named)} names the gold ${q(gold)}`;
    return ex.extra.length === 0
      ? { cls: 'equivalent', gold: k, signal: 'words', reason: `${how} and adds no claim`, form: named }
      : {
          cls: 'overinclusive-valid',
          gold: k,
          signal: 'words',
          reason: `${how}${addsWords(ex, item.candidate)}; no added claim conflicts`,
          form: named,
        };
  }
  return null;
}

/** The class a WordNet relation gives (wordnet.ts), with its reason; none for a narrower term (see step 7 above). */
function wordnetStep(item: TextItem, w: WordNetSignal): Step | null {
  const base = { gold: w.gold, signal: 'wordnet', reason: w.reason };
  if (w.relation === 'antonym') return { ...base, cls: 'contradictory' };
  if (w.relation === 'broader') return { ...base, cls: 'partial', reason: `${w.reason}: less specific than the gold` };
  if (w.relation === 'narrower') return null;
  // A synonym is another name of the gold (the form pedants reads as one more gold).
  const ex = extraContent(item.question, w.candidateTerm, item.candidate);
  return ex.extra.length === 0
    ? { ...base, form: w.candidateTerm, cls: 'equivalent', reason: `${w.reason}, and adds no claim` }
    : {
        ...base,
        form: w.candidateTerm,
        cls: 'overinclusive-valid',
        reason: `${w.reason}${addsWords(ex, item.candidate)}; no added claim conflicts`,
      };
}

/** A yes/no gold answered the same way: equivalent, or overinclusive-valid with claims beyond the question. */
function yesNoStep(item: TextItem, s: TextSignals): Step | null {
  const k = item.golds.findIndex((g) => yesNo(g) !== null);
  if (k < 0 || candidateYesNo(item.question, item.candidate) !== yesNo(item.golds[k]!)) return null;
  const ex = s.extra[k]!;
  return ex.extra.length === 0
    ? {
        cls: 'equivalent',
        gold: k,
        signal: 'polarity',
        reason: `answers ${q(item.golds[k]!)}${ex.restates ? ', restating the question' : ''}`,
      }
    : {
        cls: 'overinclusive-valid',
        gold: k,
        signal: 'polarity',
        reason: `answers ${q(item.golds[k]!)} and adds ${quotedAsWritten(ex.extra, item.candidate)}`,
      };
}

/**
 * The last verdict: the app and the CLI run every metric on a row before the next row, so pedants and
 * taxonomy_text share one analysis. Only the last item is kept (no growth, and a benchmark that cycles rows
 * gets no cache hits); it is checked by content, so a changed item is analysed afresh.
 */
const sameItem = (a: TextItem, b: TextItem) =>
  a.candidate === b.candidate &&
  a.question === b.question &&
  a.golds.length === b.golds.length &&
  a.golds.every((g, i) => g === b.golds[i]);

let lastVerdict: { wn: WordNet | null; explain: boolean; verdict: TextVerdict } | null = null;

/**
 * The class of an item from text signals alone; WordNet's relations join them when a lexicon is given. `explain`
 * false: the reason may be left short (a caller that keeps the class alone); everything else is the same. The
 * verdict's item, a copy, is also what the next call is compared with (callers must not change it).
 */
export function classifyText(item: TextItem, wn: WordNet | null, explain = true): TextVerdict {
  const last = lastVerdict;
  if (last && last.wn === wn && last.explain === explain && sameItem(last.verdict.item, item)) return last.verdict;
  const verdict = {
    ...classifyStated(item, wn, explain),
    item: { question: item.question, golds: [...item.golds], candidate: item.candidate },
  };
  lastVerdict = { wn, explain, verdict };
  return verdict;
}

const isCorrect = (c: CapClass) => SEVERITY[c] >= SEVERITY['overinclusive-valid'];

/**
 * The candidate's class, or its stated final answer's (final.ts) when the two disagree on right or wrong: a
 * step-by-step answer that names the gold on its way to another answer is wrong, and one that rejects a wrong
 * guess on its way to the gold is right.
 */
function classifyStated(item: TextItem, wn: WordNet | null, explain: boolean): Omit<TextVerdict, 'item'> {
  const whole = asciiGold(item, classifyFresh(item, wn, explain), wn, explain);
  const stated = finalAnswer(item.candidate);
  if (!stated) return whole;
  const own = classifyFresh({ ...item, candidate: stated.text }, wn, explain);
  if (isCorrect(own.cls) === isCorrect(whole.cls)) return whole;
  return {
    ...own,
    // Equal to a gold, but inside a longer text.
    cls: own.cls === 'exact' ? 'equivalent' : own.cls,
    signal: 'final-answer',
    reason: `the stated answer ${q(stated.text)} (${stated.cue}) ${own.reason}`,
    signals: whole.signals,
    answer: stated.text,
  };
}

const NON_ASCII_LETTER = /(?![\x00-\x7f])\p{L}/gu;

/**
 * A gold that lost its non-ASCII letters on the way ("Lszl Br" for "László Bíró", "Beyonc"; EVOUNA's golds have
 * such): when the candidate is wrong as written but right once its own non-ASCII letters go the same way, and
 * the gold it then gives is plain ASCII, the candidate gives that gold.
 */
function asciiGold(item: TextItem, whole: Omit<TextVerdict, 'item'>, wn: WordNet | null, explain: boolean): Omit<TextVerdict, 'item'> {
  if (isCorrect(whole.cls) || !/[^\x00-\x7f]/.test(item.candidate)) return whole;
  const stripped = item.candidate.normalize('NFC').replace(NON_ASCII_LETTER, '');
  if (stripped === item.candidate) return whole;
  const alt = classifyFresh({ ...item, candidate: stripped }, wn, explain);
  if (!isCorrect(alt.cls) || /[^\x00-\x7f]/.test(item.golds[alt.gold] ?? '')) return whole;
  return { ...alt, reason: `${alt.reason} (read without its non-ASCII letters, as the gold is written)` };
}

function classifyFresh(item: TextItem, wn: WordNet | null, explain: boolean): Omit<TextVerdict, 'item'> {
  const signals = textSignals(item);
  const done = (st: Step): Omit<TextVerdict, 'item'> => ({ ...st, signals });
  if (item.golds.length === 0) return done({ cls: 'invalid', gold: 0, signal: 'words', reason: 'no gold answer' });
  const anyGold = signals.extra.some((e) => e.coverage > 0) || signals.quantities.some((x) => x.relation === 'same');
  if (signals.refusal && !anyGold)
    return done({ cls: 'invalid', gold: 0, signal: 'refusal', reason: `a non-answer (${q(signals.refusal.cue)})` });
  const p = signals.polarity;
  if (p)
    return done({
      cls: 'contradictory',
      gold: p.gold,
      signal: 'polarity',
      reason: `${polarityWords(p)} denies gold ${q(item.golds[p.gold]!)}`,
    });
  const exact = exactStep(item, signals);
  if (exact) return done(exact);
  const list = signals.list ? listStep(signals.list) : null;
  if (list) return done(list);
  const yn = yesNoStep(item, signals);
  if (yn) return done(yn);
  let bestK = 0;
  let bestSeverity = -Infinity;
  // A gold's step is at most equivalent, and a later gold must do strictly better to be chosen: once one gold is
  // equivalent, the others cannot change the verdict (their person-name test is the costliest signal of a new gold).
  for (let k = 0; k < item.golds.length && bestSeverity < SEVERITY.equivalent; k++) {
    const severity = SEVERITY[goldStep(item, signals, k, false).cls];
    if (severity > bestSeverity) {
      bestK = k;
      bestSeverity = severity;
    }
  }
  // Not correct by any gold as written: perhaps by another name of one (aliases.ts), or of its list's items.
  const l = signals.list;
  const allItems =
    l && l.kind === 'list' && l.covered === 1 && l.wrong.length === 0
      ? ({
          cls: 'equivalent',
          gold: l.gold,
          signal: 'list',
          reason: `names every item of the gold ${q(item.golds[l.gold]!)}, some by another name`,
        } as const)
      : null;
  const named = bestSeverity < SEVERITY['overinclusive-valid'] ? (formStep(item) ?? allItems) : null;
  let b = named ?? goldStep(item, signals, bestK, explain);
  if (!named && SEVERITY[b.cls] < SEVERITY['overinclusive-valid']) {
    const w = (signals.wordnet = wordnetSignal(item, wn));
    const lex = w ? wordnetStep(item, w) : null;
    // An antonym only overturns an answer judged wrong; the other relations, a less favourable class.
    if (lex && (lex.cls === 'contradictory' ? b.cls === 'invalid' : SEVERITY[lex.cls] > SEVERITY[b.cls])) b = lex;
  }
  if (b.cls === 'equivalent' && b.gold > 0) {
    const first = new Set(contentStems(item.golds[0]!));
    // The first gold's quantity in other units is the same answer, not an alternative.
    if (!contentStems(item.candidate).some((t) => first.has(t)) && signals.quantities[0]!.relation !== 'same')
      return done({
        ...b,
        cls: 'alternative-correct',
        reason: `${b.reason}; gold #${b.gold + 1}, an alternative to the first gold ${q(item.golds[0]!)}`,
      });
  }
  return done(b);
}
