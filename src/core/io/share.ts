/**
 * Rows kept once per distinct value: a QA file usually repeats each question with its golds for every system
 * judged (EVOUNA: five answers per question, 14 golds each), and its labels are a handful of values. Rows that
 * repeat a question, a gold list or a label share one copy of it: a million EVOUNA-shaped rows (five answers per
 * question) take about half the memory. Nothing reads rows to change them (metrics, views and exports only read), so
 * sharing is invisible. The maps are emptied past a bound, so a file of all-distinct rows costs no more.
 *
 * The mapper (fields.ts) makes a row's golds and label once per distinct cell (`boundedMemo`) and shares them there,
 * so a row costs one lookup, not a gold list made, turned into a key and dropped: such copies reached V8's old
 * generation and stayed there until its next full collection — about 300 MB for a million EVOUNA rows, as V8
 * allocates arrays whose first ones all lived (the first pass over the distinct questions) straight in the old
 * generation.
 */
import type { Label } from '../types.ts';

/** Distinct values a sharing map keeps (the mapper's memos and the parser's cellKeeper) before it starts again. */
export const SHARE_BOUND = 100_000;

/** A function that hands out the first value given for each key (`value` itself when the key is new), while the bound allows. */
export function keeper<T>(): (key: string, value: T) => T {
  const seen = new Map<string, T>();
  return (key, value) => {
    const had = seen.get(key);
    if (had !== undefined) return had;
    if (seen.size >= SHARE_BOUND) seen.clear();
    seen.set(key, value);
    return value;
  };
}

/** Lists of strings kept per first element before the oldest gives way (lists that start alike are rare). */
const LIST_BUCKET = 8;

const sameList = (a: readonly string[], b: readonly string[]): boolean => {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
};

/**
 * A keeper for a parser's cells: strings and non-empty lists of strings, one copy per distinct value while the
 * bound allows. Keyed by the value itself (a string) or a list's first element, not by a key string made for
 * each cell: a million-row file spent about a third of its parsing making and hashing such keys.
 */
export function cellKeeper(): { text(s: string): string; list(a: string[]): string[] } {
  const texts = new Map<string, string>();
  const lists = new Map<string, string[][]>();
  let kept = 0;
  const room = () => {
    if (kept >= SHARE_BOUND) {
      texts.clear();
      lists.clear();
      kept = 0;
    }
    kept++;
  };
  return {
    text(s) {
      const had = texts.get(s);
      if (had !== undefined) return had;
      room();
      texts.set(s, s);
      return s;
    },
    list(a) {
      const bucket = lists.get(a[0]!);
      if (bucket) for (const b of bucket) if (sameList(a, b)) return b;
      room();
      if (!bucket) lists.set(a[0]!, [a]);
      else if (bucket.length < LIST_BUCKET) bucket.push(a);
      else bucket[kept % LIST_BUCKET] = a;
      return a;
    },
  };
}

/** Functions that hand out one copy per distinct question, gold list and label (the first one given). */
export function valueSharer(): { question: (q: string) => string; golds: (g: string[]) => string[]; label: (l: Label) => Label } {
  // One keeper each, so that questions and gold lists keep a bound apiece.
  const questions = cellKeeper();
  const golds = cellKeeper();
  const label = keeper<Label>();
  return {
    question: (q) => questions.text(q),
    golds: (g) => (g.length > 0 ? golds.list(g) : g),
    label: (l) => label(l.kind === 'binary' ? `binary:${l.correct}` : `taxonomy:${l.cls}`, l),
  };
}
