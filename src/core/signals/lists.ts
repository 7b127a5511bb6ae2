/**
 * @file Hedging and lists: an answer that offers several alternatives when one is asked for ("Paris or
 * Lyon", "either X or Y", "it could be X, Y or Z"), and list answers compared item by item with the golds.
 *
 * listSignal('Name two noble gases.', ['helium and neon'], 'Helium, neon and chlorine.')
 * // → { kind: 'list', items: ['Helium', 'neon', 'chlorine'], correct: ['Helium', 'neon'], wrong: ['chlorine'], covered: 1, … }
 */
import { contentStems } from './words.ts';
import { textMemo } from '../util/memo.ts';
import { asciiTwin } from '../text/ascii-twin.ts';
import { goldForms } from './aliases.ts';

export interface ListSignal {
  /** hedge: alternatives joined by "or"; list: items joined by "and" or commas. */
  kind: 'hedge' | 'list';
  items: string[];
  /** Items that match an item of some gold. */
  correct: string[];
  wrong: string[];
  /** Best share of one gold's items that the candidate names (2 of 3 → 0.667). */
  covered: number;
  /** The gold with that share. */
  gold: number;
}

const LEAD =
  /^(?:(?:i think|i believe|probably|possibly|perhaps|maybe|likely|either|it(?:'s|’s| is)|it (?:could|might|may) be|they(?:'re|’re| are)|the answers? (?:is|are|would be)|answer:|(?:the )?(?:two|three|four|five|\d+)(?: \w+)? (?:are|were))\s*)+/iu;
/**
 * Where an appositive or relative clause starts after a list: "Mercury and Venus, both of which …", or a participle
 * phrase: "Pride and Prejudice, first published in 1813", "…, written by Austen".
 */
const TAIL =
  /,\s*(?:which|who|whose|where|both|all|each|neither|with|from|because|since|as|one|two|three|a|an|the|plus|along)\b.*$|,\s*(?:(?:first|originally|later|also|once|now)\s+)?[a-z]+(?:ed|en|wn|orn|ung|ilt|eld|ade|ought|ote)\s+(?:in|by|on|at|from|as|for|to|with|under|after|about|into|over)\b.*$|\s+[—–(].*$/iu;
/** Items that name nothing ("something else", "others"): not wrong, just missing. */
const VAGUE = /^(?:something(?: else)?|others?|etc\.?|more|and so on|many more|some (?:others|more))$/iu;
/** A word that makes an item a clause ("it is lovely"), not a noun phrase. */
const CLAUSE_WORD = /\b(?:is|are|was|were|be|been|has|have|had|does|do|did|can|will|would|it|they|he|she|we|i)\b/iu;
/** Where items part: commas, "and", "or", "&". */
const ITEM_CUT = /,\s*(?:and|or|&)\s+|\s+(?:and|or|&)\s+|,\s*/iu;
/** The patterns every answer's first sentence meets, each in its faster form where that reads the same (ascii-twin.ts). */
const lead = asciiTwin(LEAD);
const tail = asciiTwin(TAIL);
const clauseWord = asciiTwin(CLAUSE_WORD);
const itemCut = asciiTwin(ITEM_CUT);
/** Items are noun phrases, not clauses. */
const MAX_ITEM_WORDS = 4;

/**
 * The first sentence of an answer split into coordinated items, or null when it is not a list of two or more.
 * `whole`: texts (the question) whose "X and Y" / "X or Y" is one name where the answer writes it too ("Pride and
 * Prejudice" in "Who wrote Pride and Prejudice?"): not cut there. Nor is a range ("between 1508 and 1512").
 */
export function listItems(text: string, commas = false, whole: readonly string[] = []): { items: string[]; hedge: boolean } | null {
  const t = keepWhole(text.trim(), whole);
  // The text before the first sentence end (a split's first piece, with no list of the others made).
  const end = SENTENCE_END.exec(t);
  const first = (end ? t.slice(0, end.index) : t).replace(/\.$/, '').trim();
  const found = itemsOf(first, commas);
  return found && { ...found, items: found.items.map((x) => x.replaceAll(JOIN, ' ')) };
}

/** Stands for a space inside a name kept whole (a private-use character: no answer's text is cut at it). */
const JOIN = '\uE000';
const CONJOINED = /([\p{L}\p{N}'’.-]+)(\s+)(and|or|&)(\s+)([\p{L}\p{N}'’-]+)/giu;

/** `text` with the spaces of each "X and Y" that one of `whole` writes joined, so that no item cut falls there. */
function keepWhole(text: string, whole: readonly string[]): string {
  if (!/\s(?:and|or|&)\s/i.test(text)) return text;
  const within = whole.map((w) => ` ${w.toLowerCase().replace(/[^\p{L}\p{N}&'’-]+/gu, ' ')} `);
  const joined = text.replace(RANGE, (m: string) => m.replace(/\s+/g, JOIN));
  if (!within.length) return joined;
  return joined.replace(CONJOINED, (m: string, a: string, _s1: string, c: string, _s2: string, b: string) =>
    within.some((w) => w.includes(` ${a.toLowerCase()} ${c.toLowerCase()} ${b.toLowerCase()} `)) ? `${a}${JOIN}${c}${JOIN}${b}` : m,
  );
}
/** A range, one item: "between 1508 and 1512". */
const RANGE = /\bbetween\s+\S+\s+and\s+\S+/giu;
/** Where an answer's first sentence ends: a full stop after a lower-case word, a stop, a colon, a dash, a bracket. */
const SENTENCE_END = /(?<=[^A-Z]\.)\s|[;:!?—–(]|\s-\s/u;

/** `commas`: three or more items joined by commas alone are a list too (a gold's "China, India, USA, Indonesia"). */
function itemsOf(first: string, commas = false): { items: string[]; hedge: boolean } | null {
  const hedgeCue = /^(?:either|possibly|perhaps|maybe|it (?:could|might|may) be)\b/i.test(first);
  // Cut an appositive or relative tail, unless that cuts a list of names itself ("China, India, the United States,
  // and Indonesia": ", the" starts an item there).
  const conj = (t: string) => /\s(?:or|and|&)\s/i.test(t);
  const tailless = first.replace(tail(first), '');
  const cut = tailless.replace(lead(tailless), '');
  const whole = first.replace(lead(first), '');
  const body = conj(cut) || !conj(whole) ? cut : whole;
  const hasOr = /\s(?:or)\s/i.test(body);
  const hasAnd = /\s(?:and|&)\s/i.test(body);
  if (!hasOr && !hasAnd && !(commas && (body.match(/,/g)?.length ?? 0) >= 2)) return null;
  const items = body
    .split(itemCut(body))
    .map((x) => x.replace(/^(?:the|a|an)\s+/i, '').trim())
    .filter(Boolean);
  if (items.length < 2 || items.some((x) => x.split(/\s+/).length > MAX_ITEM_WORDS || clauseWord(x).test(x))) return null;
  // Kept whole, a list of names only: "Mercury, the smallest planet, and Venus" is two items and an appositive.
  if (body !== cut && items.some((x) => !/^[\p{Lu}\d]/u.test(x))) return null;
  return { items, hedge: hasOr || hedgeCue };
}

/** Stems that agree up to a plural ending Porter keeps apart ("gas" / "gase"). */
const near = (x: string, y: string) =>
  x === y || (Math.min(x.length, y.length) >= 2 && (x.startsWith(y) || y.startsWith(x)) && Math.abs(x.length - y.length) <= 1);
/** Whether a candidate item names a gold item: every content word of one is in the other. */
function sameItem(a: readonly string[], b: readonly string[]): boolean {
  if (a.length === 0 || b.length === 0) return false;
  return a.every((x) => b.some((y) => near(x, y))) || b.every((y) => a.some((x) => near(x, y)));
}

/**
 * A gold's items, each as the content stems of its names: the item and its other names (aliases.ts: "USA" is also
 * "the United States"). Cached: golds recur across rows.
 */
const goldItemStems = textMemo((g: string): string[][][] =>
  (listItems(g, true)?.items ?? [g]).map((item) => [item, ...goldForms(item)].map(contentStems).filter((x) => x.length > 0)),
);
/** Whether a candidate item names a gold item by one of its names. */
const namesItem = (c: readonly string[], names: readonly string[][]) => names.some((n) => sameItem(c, n));

/** The hedge or list reading of a candidate against the golds, or null when the candidate is not a list. */
export function listSignal(question: string, golds: readonly string[], candidate: string): ListSignal | null {
  // Only the question's names are kept whole: a gold's "Zen and the Art of …" is matched item by item as it always was.
  const cand = listItems(candidate, false, [question]);
  if (!cand) return null;
  // A choice question ("Is it X or Y?") answered with both names is a restatement, not a hedge.
  if (cand.hedge && /\sor\s/i.test(question)) return null;
  const goldItems = golds.map(goldItemStems);
  const all = goldItems.flat();
  const stems = cand.items.map(contentStems);
  const correct = cand.items.filter((_, i) => all.some((g) => namesItem(stems[i]!, g)));
  const wrong = cand.items.filter((x, i) => !all.some((g) => namesItem(stems[i]!, g)) && !VAGUE.test(x));
  let covered = 0;
  let gold = 0;
  goldItems.forEach((items, k) => {
    const share = items.filter((g) => stems.some((c) => namesItem(c, g))).length / items.length;
    if (share > covered) [covered, gold] = [share, k];
  });
  return { kind: cand.hedge ? 'hedge' : 'list', items: cand.items, correct, wrong, covered, gold };
}
