/**
 * pedants' reason as typed claims: each says one checkable thing about the row — which text the answer was read
 * as, which gold (or which other name of one) it holds word for word, its word overlap with the best gold and the
 * words they share, which numbers it and the gold give — with the values it rests on. `renderClaims` writes them as
 * the reason (the one place they become prose); `checkClaim` tests one against the row from the row alone, so a
 * corpus can be checked for reasons that say what is not so (pedants-claims.test.ts runs it over every corpus the
 * tests have).
 */
import type { CapClass, QaItem } from '../types.ts';
import { normalizeTokens } from '../text/normalize.ts';
import { quote, round } from './common.ts';
import { isNumberToken } from './pedants-features.ts';
import { holdsAsWritten } from '../signals/words.ts';

export type PedantsClaim =
  /** The candidate's stated final answer ("So the answer is X") was read instead of the whole. */
  | { kind: 'final-answer'; text: string }
  /** A non-answer: the phrase that declines, or '' for an answer with no letter or digit. */
  | { kind: 'refusal'; cue: string }
  /** What flips the meaning: the signal's cue, and the answer's words that show it when the answer has them. */
  | { kind: 'polarity'; polarity: string; cue: string; words?: string }
  /**
   * The answer holds `text` word for word: a gold, or (`via`) another name of gold `gold` the signals found; or, with
   * `as`, holds it as read but writes it otherwise ("2.1 million" for "2,100,000": number words and units read alike).
   */
  | { kind: 'holds'; text: string; gold: string; via?: 'wordnet' | 'alias'; as?: string }
  | { kind: 'holds-none' }
  /**
   * Word overlap with `text` (the words as read: lower case, numbers as digits, units spelled out), F1 of the shared
   * multiset, and the shared words: each as read, and the answer's word it was read from when that is written otherwise.
   */
  | { kind: 'overlap'; text: string; f1: number; shared: { word: string; from?: string }[] }
  /** Words of the answer spelled close to a gold's (Levenshtein similarity ≥ 0.8), where they are not the same word. */
  | { kind: 'spelling'; pairs: { answer: string; gold: string }[] }
  /** Every number of `gold` is among the answer's. */
  | { kind: 'numbers-in'; gold: string; numbers: string[] }
  /** The answer's numbers, none of them any gold's. */
  | { kind: 'numbers-not-in'; numbers: string[] }
  /** A quantity of the gold's kind with another value: each as read ("19 %", "6" for "six"), and the gold it is in. */
  | { kind: 'quantity'; answer: string; gold: string; goldText: string }
  /** Items of the answer read as a list (or hedge) that match no gold's item. */
  | { kind: 'list-wrong'; list: 'list' | 'hedge'; items: string[] }
  | { kind: 'less-specific'; gold: string }
  /** The text signals' class (taxonomy_text's), and whether the other features outweighed it in the decision. */
  | { kind: 'text-signals'; cls: CapClass; outweighed: boolean };

const numbered = (xs: readonly string[]) => xs.join(', ');

/** One claim in words. */
function render(c: PedantsClaim): string {
  switch (c.kind) {
    case 'final-answer':
      return `read as its final answer ${quote(c.text)}`;
    case 'refusal':
      return c.cue ? `a non-answer ("${c.cue}")` : 'a non-answer (no letter or digit)';
    case 'polarity':
      return c.words !== undefined
        ? `${c.polarity} "${c.words}"${
            c.cue !== c.words
              ? ` (${c.cue
                  .slice(c.words.length)
                  .replace(/^\s*\(|\)$/g, '')
                  .trim()})`
              : ''
          } contradicts the gold`
        : `${c.polarity} (${c.cue}) contradicts the gold`;
    case 'holds':
      if (c.as !== undefined) return `holds gold ${quote(c.text)} as ${quote(c.as)} (numbers and units read alike)`;
      return c.via
        ? `holds ${quote(c.text)}, ${c.via === 'wordnet' ? 'a WordNet synonym' : 'another name'} of gold ${quote(c.gold)}, word for word`
        : `holds gold ${quote(c.text)} word for word`;
    case 'holds-none':
      return 'holds no gold word for word';
    case 'overlap':
      return `word overlap with ${quote(c.text)} F1 ${round(c.f1, 2)} (${c.shared.length ? `shares ${c.shared.map((w) => (w.from ? `"${w.word}" (read from "${w.from}")` : `"${w.word}"`)).join(', ')}` : 'no word shared'})`;
    case 'spelling':
      return `spelled close to the gold's words: ${c.pairs.map((x) => `"${x.answer}" for "${x.gold}"`).join(', ')}`;
    case 'numbers-in':
      return `gives the gold's ${c.numbers.length === 1 ? 'number' : 'numbers'} ${numbered(c.numbers)}`;
    case 'numbers-not-in':
      return `its ${c.numbers.length === 1 ? 'number' : 'numbers'} ${numbered(c.numbers)} ${c.numbers.length === 1 ? 'is' : 'are'} no gold's`;
    case 'quantity':
      return `another value of the gold's quantity: reads ${c.answer} where gold ${quote(c.goldText)} reads ${c.gold}`;
    case 'list-wrong':
      return `read as a ${c.list}: ${c.items.map((w) => `"${w}"`).join(', ')} ${c.items.length === 1 ? 'matches' : 'match'} no gold`;
    case 'less-specific':
      return `less specific than gold ${quote(c.gold)}`;
    case 'text-signals':
      return `text signals: ${c.cls}${c.outweighed ? ', outweighed by the other features' : ''}`;
  }
}

export const renderClaims = (claims: readonly PedantsClaim[]): string => claims.map(render).join(', ');

const tokens = (s: string) => normalizeTokens(s, 'numeric');
const padded = (s: string) => ` ${tokens(s).join(' ')} `;
const lower = (s: string) => s.toLowerCase();

/** Edit distance, plainly (the checker's own: pedants' features compute it with early exits). */
function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/** Whether `text` reads as `quantity` does: every number of the quantity among the text's words as read. */
export function readsAs(text: string, quantity: string): boolean {
  const read = tokens(text);
  const numbers = tokens(quantity).filter(isNumberToken);
  return numbers.length > 0 && numbers.every((n) => read.includes(n));
}

/**
 * Whether a claim holds of the row, from the row alone: null when it does, else what is not so. `read` is the text
 * the claims are about (the final answer when one was read, else the candidate).
 */
export function checkClaim(item: QaItem, claims: readonly PedantsClaim[], c: PedantsClaim): string | null {
  const final = claims.find((x) => x.kind === 'final-answer');
  const read = final?.kind === 'final-answer' ? final.text : item.candidate;
  const inRead = (text: string) => padded(read).includes(padded(text));
  switch (c.kind) {
    case 'final-answer':
      return lower(item.candidate).includes(lower(c.text)) ? null : `the answer has no "${c.text}"`;
    case 'refusal':
      if (!c.cue) return /[\p{L}\p{N}]/u.test(item.candidate) ? 'the answer has a letter or digit' : null;
      return lower(item.candidate).includes(lower(c.cue)) ? null : `the answer has no "${c.cue}"`;
    case 'polarity':
      if (c.words === undefined) return null;
      return lower(item.candidate).includes(lower(c.words)) ? null : `the answer has no "${c.words}"`;
    case 'holds': {
      if (c.as !== undefined) {
        if (!lower(read).includes(lower(c.as))) return `the answer has no "${c.as}"`;
        if (!padded(c.as).includes(padded(c.text))) return `"${c.as}" does not read as "${c.text}"`;
        if (holdsAsWritten(read, c.text)) return `the answer holds "${c.text}" word for word`;
      } else if (!holdsAsWritten(read, c.text)) return `the answer does not hold "${c.text}" word for word`;
      if (!item.golds.includes(c.gold)) return `"${c.gold}" is not a gold`;
      if (!c.via && c.text !== c.gold) return `"${c.text}" is not the gold "${c.gold}"`;
      if (c.via && c.text === c.gold) return `"${c.text}" is the gold itself, not another name of it`;
      return null;
    }
    case 'holds-none': {
      const held = item.golds.find((g) => tokens(g).length > 0 && inRead(g));
      return held === undefined ? null : `the answer holds gold "${held}" word for word`;
    }
    case 'overlap': {
      const a = tokens(read);
      const g = tokens(c.text);
      const left = [...g];
      let same = 0;
      const shared = new Set<string>();
      for (const t of a) {
        const k = left.indexOf(t);
        if (k < 0) continue;
        left.splice(k, 1);
        same++;
        shared.add(t);
      }
      const f1 = same === 0 ? 0 : (2 * (same / a.length) * (same / g.length)) / (same / a.length + same / g.length);
      if (round(f1, 2) !== round(c.f1, 2)) return `word overlap F1 with "${c.text}" is ${round(f1, 2)}, not ${round(c.f1, 2)}`;
      const named = new Set(c.shared.map((w) => (w.from ? w.word : (tokens(w.word)[0] ?? lower(w.word)))));
      if ([...shared].some((t) => !named.has(t)) || [...named].some((t) => !shared.has(t)))
        return `the words shared with "${c.text}" are ${[...shared].join(', ') || 'none'}, not ${[...named].join(', ') || 'none'}`;
      for (const w of c.shared) {
        const as = w.from ?? w.word;
        if (!lower(read).includes(lower(as))) return `the answer has no "${as}"`;
        if (!tokens(as).includes(lower(w.word)) && !tokens(as).includes(tokens(w.word)[0] ?? ''))
          return `"${as}" is not read as "${w.word}"`;
      }
      return null;
    }
    case 'spelling': {
      const a = tokens(read);
      const g = item.golds.flatMap(tokens);
      for (const x of c.pairs) {
        if (!a.includes(lower(x.answer))) return `the answer has no "${x.answer}"`;
        if (!g.includes(lower(x.gold))) return `no gold has "${x.gold}"`;
        const d = levenshtein(lower(x.answer), lower(x.gold));
        if (d === 0 || 1 - d / Math.max(x.answer.length, x.gold.length) < 0.8) return `"${x.answer}" is not spelled close to "${x.gold}"`;
      }
      return null;
    }
    case 'numbers-in': {
      const a = tokens(read);
      const g = tokens(c.gold);
      if (!item.golds.includes(c.gold) && !claims.some((x) => x.kind === 'holds' && x.text === c.gold)) return `"${c.gold}" is not a gold`;
      const goldNumbers = g.filter(isNumberToken);
      if (goldNumbers.length === 0 || goldNumbers.join() !== c.numbers.map((n) => tokens(n).join(' ')).join())
        return `the gold's numbers are ${goldNumbers.join(', ') || 'none'}`;
      return goldNumbers.every((n) => a.includes(n)) ? null : `the answer lacks some of ${goldNumbers.join(', ')}`;
    }
    case 'numbers-not-in': {
      const a = tokens(read).filter(isNumberToken);
      const golds = item.golds.flatMap((g) => tokens(g).filter(isNumberToken));
      if (c.numbers.some((n) => !a.includes(n))) return `the answer does not give ${c.numbers.join(', ')}`;
      const shared = c.numbers.filter((n) => golds.includes(n));
      return shared.length ? `${shared.join(', ')} is a gold's number` : null;
    }
    case 'quantity': {
      if (!readsAs(read, c.answer)) return `the answer does not read ${c.answer}`;
      if (!item.golds.includes(c.goldText)) return `"${c.goldText}" is not a gold`;
      if (!readsAs(c.goldText, c.gold)) return `"${c.goldText}" does not read ${c.gold}`;
      // The values as read, signs kept ("1" is not "-1", which the words as read would make alike).
      const bare = (x: string) => x.replace(/\s+/g, '').toLowerCase();
      return bare(c.answer) === bare(c.gold) ? `${c.answer} is the gold's ${c.gold}` : null;
    }
    case 'list-wrong': {
      for (const w of c.items) {
        if (!lower(read).includes(lower(w))) return `the answer has no "${w}"`;
        const t = tokens(w).join(' ');
        if (item.golds.some((g) => tokens(g).join(' ') === t)) return `"${w}" is a gold`;
      }
      return null;
    }
    case 'less-specific':
      if (!item.golds.includes(c.gold)) return `"${c.gold}" is not a gold`;
      return tokens(read).join(' ') === tokens(c.gold).join(' ') ? `the answer is the gold "${c.gold}"` : null;
    case 'text-signals':
      return null;
  }
}
