/**
 * @file Hedging and lists: an answer that offers several alternatives when one is asked for ("Paris or
 * Lyon", "either X or Y", "it could be X, Y or Z"), and list answers compared item by item with the golds.
 *
 * listSignal('Name two noble gases.', ['helium and neon'], 'Helium, neon and chlorine.')
 * // → { kind: 'list', items: ['Helium', 'neon', 'chlorine'], correct: ['Helium', 'neon'], wrong: ['chlorine'], covered: 1, … }
 */
import { contentStems } from './words.ts';

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

const LEAD = /^(?:(?:i think|i believe|probably|possibly|perhaps|maybe|likely|either|it(?:'s|’s| is)|it (?:could|might|may) be|they(?:'re|’re| are)|the answers? (?:is|are|would be)|answer:)\s*)+/iu;
/** Items are noun phrases, not clauses. */
const MAX_ITEM_WORDS = 4;

/** The first sentence of an answer split into coordinated items, or null when it is not a list of two or more. */
export function listItems(text: string): { items: string[]; hedge: boolean } | null {
  const first = text.trim().split(/(?<=[^A-Z]\.)\s|[;:!?—–(]|\s-\s/u)[0]!.replace(/\.$/, '').trim();
  const hedgeCue = /^(?:either|possibly|perhaps|maybe|it (?:could|might|may) be)\b/i.test(first);
  const body = first.replace(LEAD, '');
  const hasOr = /\s(?:or)\s/i.test(body);
  const hasAnd = /\s(?:and|&)\s/i.test(body);
  if (!hasOr && !hasAnd) return null;
  const items = body
    .split(/,\s*(?:and|or|&)\s+|\s+(?:and|or|&)\s+|,\s*/iu)
    .map((x) => x.replace(/^(?:the|a|an)\s+/i, '').trim())
    .filter(Boolean);
  if (items.length < 2 || items.some((x) => x.split(/\s+/).length > MAX_ITEM_WORDS)) return null;
  return { items, hedge: hasOr || hedgeCue };
}

/** Whether a candidate item names a gold item: every content word of one is in the other. */
function sameItem(a: readonly string[], b: readonly string[]): boolean {
  if (a.length === 0 || b.length === 0) return false;
  const sa = new Set(a);
  const sb = new Set(b);
  return a.every((x) => sb.has(x)) || b.every((x) => sa.has(x));
}

/** The hedge or list reading of a candidate against the golds, or null when the candidate is not a list. */
export function listSignal(question: string, golds: readonly string[], candidate: string): ListSignal | null {
  const cand = listItems(candidate);
  if (!cand) return null;
  // A choice question ("Is it X or Y?") answered with both names is a restatement, not a hedge.
  if (cand.hedge && /\sor\s/i.test(question)) return null;
  const goldItems = golds.map((g) => (listItems(g)?.items ?? [g]).map(contentStems));
  const all = goldItems.flat();
  const stems = cand.items.map(contentStems);
  const correct = cand.items.filter((_, i) => all.some((g) => sameItem(stems[i]!, g)));
  const wrong = cand.items.filter((_, i) => !all.some((g) => sameItem(stems[i]!, g)));
  let covered = 0;
  let gold = 0;
  goldItems.forEach((items, k) => {
    const share = items.filter((g) => stems.some((c) => sameItem(c, g))).length / items.length;
    if (share > covered) [covered, gold] = [share, k];
  });
  return { kind: cand.hedge ? 'hedge' : 'list', items: cand.items, correct, wrong, covered, gold };
}
