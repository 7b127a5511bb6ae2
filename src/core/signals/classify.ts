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
import { quotableCue, refusal, type RefusalSignal } from './refusal.ts';
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
import type { TextClaim } from './claims.ts';

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
  /** Why: typed claims about the row (claims.ts renders them; empty when the caller did not ask for a reason). */
  claims: TextClaim[];
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
  const claim = (sharesFirst: boolean): TextClaim[] => [
    { kind: 'equals', gold: item.golds[k]!, index: k, first: item.golds[0]!, sharesFirst },
  ];
  if (k === 0) return { cls: 'exact', gold: 0, signal: 'exact', claims: claim(true) };
  const first = contentStems(item.golds[0]!);
  const shares = contentStems(item.candidate).some((t) => first.some((f) => f === t || (t.length >= 5 && f.slice(0, 5) === t.slice(0, 5))));
  return { cls: shares ? 'equivalent' : 'alternative-correct', gold: k, signal: 'exact', claims: claim(shares) };
}

/** A list's verdict, except "all items and nothing else", which the word step refines (extra claims after the list). */
function listStep(l: ListSignal): Step | null {
  if (l.kind === 'hedge') {
    if (l.correct.length && l.wrong.length)
      return { cls: 'partial', gold: l.gold, signal: 'hedge', claims: [{ kind: 'hedge', items: l.items, wrong: l.wrong }] };
    return null;
  }
  if (l.covered === 1 && l.wrong.length === 0) return null;
  if (l.covered === 1)
    return { cls: 'overinclusive-invalid', gold: l.gold, signal: 'list', claims: [{ kind: 'list-plus-wrong', wrong: l.wrong }] };
  if (l.covered > 0 && l.wrong.length === 0)
    return { cls: 'partial', gold: l.gold, signal: 'list', claims: [{ kind: 'list-part', correct: l.correct, share: l.covered }] };
  if (l.correct.length === 0) return null;
  return { cls: 'invalid', gold: l.gold, signal: 'list', claims: [{ kind: 'list-mixed', correct: l.correct, wrong: l.wrong }] };
}

/**
 * The candidate's words as written for what a signal found (stems of normalized tokens): "Texas" for "texa", "isn't"
 * for "isnt", "Röntgen" for "rontgen", "first" for "1st". Said in a reader's words, each quoted, since the reader sees
 * the answer, not the stems the signals compare.
 */
function asWrittenWords(found: readonly string[], candidate: string): string[] {
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
    // A number read from several words ("8600000" of "8.6 million") is shown as those words; a piece of a written
    // number ("45" of "45,000") as the number.
    const shown =
      k >= 0
        ? written[k]!
        : (writtenRun([f], candidate) ?? (/^\d/.test(f) ? whole.find((w) => w.split(/[^\p{L}\p{N}]+/u).includes(f)) : undefined) ?? f);
    if (!out.includes(shown)) out.push(shown);
  }
  return out;
}

/** Whether the candidate's words hold the gold's, in order and as read (number words as digits). */
const holdsInOrder = (candidate: string, gold: string): boolean =>
  ` ${tokens(candidate).join(' ')} `.includes(` ${tokens(gold).join(' ')} `);

/** A quantity as `text` writes it ("six" for 6, "2%" for "2 %"), or as read where no run of its words reads so. */
const said = (read: string, text: string): string => writtenRun(tokens(read), text) ?? asWritten(read, text);
/** Whether `said` found the quantity written in `text` (else the claim gives it as read: "21 million" of "twenty-first million"). */
const asRead = (value: string, text: string): boolean => !text.toLowerCase().includes(value.toLowerCase());
/** A quantity of the answer for a claim: as written, or as read where the answer writes it in no run of words. */
function answerValue(q: { text: string }, candidate: string): { value: string; asRead: boolean } {
  const value = said(q.text, candidate);
  return { value, asRead: asRead(value, candidate) };
}

/** The extra words as written, for a reason (built only for the reason that is given). */
const addsWords = (ex: ExtraSignal, candidate: string): string[] => (ex.extra.length ? asWrittenWords(ex.extra, candidate) : []);
const flip = (p: PolaritySignal) => ({ kind: p.kind, cue: p.cue, clause: p.clause });

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
  const claims = (build: () => TextClaim): TextClaim[] => (why ? [build()] : []);
  const qs = s.quantities[k]!;
  const ex = s.extra[k]!;
  const sp = s.specificity[k]!;
  if (qs.relation === 'conflict') {
    // A name's number is the name's identity: "Elizabeth II" does not also give "Elizabeth I" by its words; nor
    // does "40" give "-40" (the words match once the sign is dropped).
    const both =
      qs.gold.every((g) => qs.candidate.some((c) => c !== qs.at && c.kind === g.kind && c.value === g.value)) ||
      (ex.coverage === 1 && !isNameNumber(qs.at!) && !qs.gold.some((g) => g.value === -qs.at!.value));
    return {
      cls: both ? 'overinclusive-invalid' : 'invalid',
      gold: k,
      signal: 'quantities',
      claims: claims(() => ({ kind: 'other-value', ...answerValue(qs.at!, item.candidate), gold, alsoGold: both })),
    };
  }
  if (qs.relation === 'extra-conflict')
    return {
      cls: 'overinclusive-invalid',
      gold: k,
      signal: 'quantities',
      claims: claims(() => {
        const goldValues = qs.gold.map((x) => said(x.text, gold));
        return {
          kind: 'other-amount',
          goldValues,
          goldAsRead: goldValues.some((v) => asRead(v, gold)),
          ...answerValue(qs.at!, item.candidate),
        };
      }),
    };
  if (qs.relation === 'range' || qs.relation === 'missing-unit')
    return {
      cls: 'partial',
      gold: k,
      signal: 'quantities',
      claims: claims(() => ({ kind: qs.relation === 'range' ? 'range' : 'unit-missing', ...answerValue(qs.at!, item.candidate), gold })),
    };
  const numbersMatch = qs.relation === 'same';
  if (numbersMatch || ex.coverage === 1) {
    // "contains" only where the answer holds the gold as written; the same quantity where it is read alike ("2.1
    // million" for "2,100,000").
    const how = (): 'contains' | 'same-quantity' | 'every-word' =>
      numbersMatch && ex.coverage < 1
        ? 'same-quantity'
        : holdsAsWritten(item.candidate, gold)
          ? 'contains'
          : numbersMatch && holdsInOrder(item.candidate, gold)
            ? 'same-quantity'
            : 'every-word';
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
        claims: claims(() => ({ kind: 'holds', how: how(), gold, restates: ex.restates, adds: [] })),
      };
    return {
      cls: 'overinclusive-valid',
      gold: k,
      signal: 'words',
      claims: claims(() => ({ kind: 'holds', how: how(), gold, restates: ex.restates, adds: addsWords(ex, item.candidate) })),
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
      return {
        cls: ex.extra.length === 0 ? 'equivalent' : 'overinclusive-valid',
        gold: k,
        signal: 'words',
        claims: claims(() => ({ kind: 'head', head, gold, adds: addsWords(ex, item.candidate) })),
      };
  }
  if (qs.relation === 'fewer')
    return { cls: 'partial', gold: k, signal: 'quantities', claims: claims(() => ({ kind: 'numbers-part', gold })) };
  if (sp)
    return {
      cls: 'partial',
      gold: k,
      signal: 'specificity',
      claims: claims(() => ({ kind: 'less-specific', gold, how: sp.kind, cue: sp.cue })),
    };
  const named = ex.coverage > 0 ? tailName(item.question, gold, item.candidate) : null;
  if (named)
    return {
      cls: named.extra.length === 0 ? 'equivalent' : 'overinclusive-valid',
      gold: k,
      signal: 'words',
      claims: claims(() => ({ kind: 'surname', gold, adds: asWrittenWords(named.extra, item.candidate) })),
    };
  if (ex.coverage > 0)
    return {
      cls: 'invalid',
      gold: k,
      signal: 'words',
      claims: claims(() => ({ kind: 'shares-stems', percent: Math.round(ex.coverage * 100), gold, adds: addsWords(ex, item.candidate) })),
    };
  return {
    cls: 'invalid',
    gold: k,
    signal: 'words',
    claims: claims(() => ({ kind: 'misses', gold, empty: contentStems(gold).length === 0 })),
  };
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
      return { cls: 'contradictory', gold: k, signal: 'polarity', claims: [{ kind: 'denies', flip: flip(p), gold, named }], form: named };
    const ex = extraContent(item.question, named, item.candidate);
    return {
      cls: ex.extra.length === 0 ? 'equivalent' : 'overinclusive-valid',
      gold: k,
      signal: 'words',
      claims: [{ kind: 'form', form: named, gold, adds: addsWords(ex, item.candidate) }],
      form: named,
    };
  }
  return null;
}

/** The class a WordNet relation gives (wordnet.ts), with its reason; none for a narrower term (see step 7 above). */
function wordnetStep(item: TextItem, w: WordNetSignal): Step | null {
  if (w.relation === 'narrower') return null;
  const claim = { kind: 'wordnet', relation: w.relation, term: w.candidateTerm, goldTerm: w.goldTerm } as const;
  const base = { gold: w.gold, signal: 'wordnet' };
  if (w.relation === 'antonym') return { ...base, cls: 'contradictory', claims: [claim] };
  if (w.relation === 'broader') return { ...base, cls: 'partial', claims: [{ ...claim, steps: w.steps }] };
  // A synonym is another name of the gold (the form pedants reads as one more gold).
  const ex = extraContent(item.question, w.candidateTerm, item.candidate);
  return {
    ...base,
    form: w.candidateTerm,
    cls: ex.extra.length === 0 ? 'equivalent' : 'overinclusive-valid',
    claims: [{ ...claim, adds: addsWords(ex, item.candidate) }],
  };
}

/** A yes/no gold answered the same way: equivalent, or overinclusive-valid with claims beyond the question. */
function yesNoStep(item: TextItem, s: TextSignals): Step | null {
  const k = item.golds.findIndex((g) => yesNo(g) !== null);
  if (k < 0 || candidateYesNo(item.question, item.candidate) !== yesNo(item.golds[k]!)) return null;
  const ex = s.extra[k]!;
  return {
    cls: ex.extra.length === 0 ? 'equivalent' : 'overinclusive-valid',
    gold: k,
    signal: 'polarity',
    claims: [{ kind: 'answers', gold: item.golds[k]!, restates: ex.restates, adds: addsWords(ex, item.candidate) }],
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
    claims: [{ kind: 'stated', text: stated.text, cue: stated.cue }, ...own.claims],
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
  return { ...alt, claims: [...alt.claims, { kind: 'ascii' }] };
}

function classifyFresh(item: TextItem, wn: WordNet | null, explain: boolean): Omit<TextVerdict, 'item'> {
  const signals = textSignals(item);
  const done = (st: Step): Omit<TextVerdict, 'item'> => ({ ...st, signals });
  if (item.golds.length === 0) return done({ cls: 'invalid', gold: 0, signal: 'words', claims: [{ kind: 'no-gold' }] });
  const anyGold = signals.extra.some((e) => e.coverage > 0) || signals.quantities.some((x) => x.relation === 'same');
  if (signals.refusal && !anyGold)
    return done({
      cls: 'invalid',
      gold: 0,
      signal: 'refusal',
      claims: [{ kind: 'refusal', cue: quotableCue(signals.refusal) }],
    });
  const p = signals.polarity;
  if (p)
    return done({
      cls: 'contradictory',
      gold: p.gold,
      signal: 'polarity',
      claims: [{ kind: 'denies', flip: flip(p), gold: item.golds[p.gold]! }],
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
          claims: [{ kind: 'list-by-name', gold: item.golds[l.gold]! }],
        } satisfies Step)
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
        claims: b.claims.length ? [...b.claims, { kind: 'alternative', index: b.gold, first: item.golds[0]! }] : [],
      });
  }
  return done(b);
}
