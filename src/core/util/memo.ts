/**
 * `f` cached by its argument (a string by value, an object by identity). Golds, questions and units recur across a
 * file's rows — a TriviaQA question's 14 golds come back for every system that answered it — so the cache holds
 * two generations of up to `max` entries each: when the current one fills, it becomes the old one (the one before
 * is dropped), and a hit in the old generation moves back to the current. The working set survives a rotation
 * (a single map emptied when full dropped every entry at once, and a file with more distinct golds than its bound
 * computed each of them again on every row), and a 10^6-row run's memory stays bounded. Callers must not mutate
 * what it returns (the same object is handed out again). `keyOf`: the cache key of an argument, where arguments
 * that differ give the same result (f is then called with the first of them).
 */
export function boundedMemo<A, T>(f: (a: A) => T, max = 50_000, keyOf?: (a: A) => unknown): (a: A) => T {
  const entries = new Generations<unknown, T>(max);
  return keyOf === undefined ? (a) => entries.get(a, f, a) : (a) => entries.get(keyOf(a), f, a);
}

/**
 * Two generations of up to `max` entries each (see boundedMemo): when the current one fills it becomes the old one
 * and the one before is dropped, so what is in use survives and memory stays bounded.
 */
export class Generations<K, V> {
  private cache = new Map<K, V>();
  private old = new Map<K, V>();
  constructor(private readonly max: number) {}

  /** The entry for `k`: from either generation (an old one moves to the current), else `make(arg)`, kept. */
  get<A>(k: K, make: (a: A) => V, arg: A): V {
    let out = this.cache.get(k);
    if (out !== undefined || this.cache.has(k)) return out as V;
    out = this.old.has(k) ? (this.old.get(k) as V) : make(arg);
    this.set(k, out);
    return out;
  }

  /** The entry for `k` if either generation has it (an old one moves to the current); undefined if not. */
  find(k: K): V | undefined {
    const out = this.cache.get(k);
    if (out !== undefined || !this.old.has(k)) return out;
    const v = this.old.get(k) as V;
    this.set(k, v);
    return v;
  }

  /** Keeps `v` for `k` in the current generation. */
  set(k: K, v: V): void {
    if (this.cache.size >= this.max && !this.cache.has(k)) {
      this.old = this.cache;
      this.cache = new Map();
    }
    this.cache.set(k, v);
  }
}

/**
 * A boundedMemo of `f` for each owner (a lexicon: one cache per lexicon, shared by every caller that uses it;
 * tests load more than one), made on first use.
 */
export function memoPer<O extends object, T>(f: (owner: O, s: string) => T): (owner: O) => (s: string) => T {
  const by = new WeakMap<O, (s: string) => T>();
  return (owner) => {
    let m = by.get(owner);
    if (!m) by.set(owner, (m = boundedMemo((s: string) => f(owner, s))));
    return m;
  };
}

/**
 * `f` of the last argument only: the signals ask again for the same candidate or question once per gold of a row,
 * and a row's metrics run before the next row's, so one entry catches them all and never grows. `same` compares
 * arguments (by value for strings).
 */
export function lastMemo<K, T>(
  f: (k: K) => T,
  same: (a: K, b: K) => boolean = Object.is,
  /** What is kept to compare the next argument with (a copy, for an argument its caller might change). */
  keep: (k: K) => K = (k) => k,
): (k: K) => T {
  let key: { k: K; v: T } | null = null;
  return (k) => {
    if (key === null || !same(key.k, k)) key = { k: keep(k), v: f(k) };
    return key.v;
  };
}

/** A result of undefined, in a text's record (where undefined says "not yet asked"). */
const UNDEFINED = Symbol('undefined');
const newRecord = (): unknown[] => [];

/**
 * A family of per-text memos sharing one record per text (two generations of up to `max` texts, as boundedMemo
 * keeps). A row asks a dozen analyses of each of its golds: with a map per analysis each ask reached a different
 * large table (a processor cache miss each, ~135 ns at 50,000 entries against ~22 for a table in cache); with one
 * record per text the first ask brings the text's record in and the others find it there.
 */
export function textMemos(max: number): <T>(f: (s: string) => T, keyOf?: (s: string) => string) => (s: string) => T {
  const records = new Generations<string, unknown[]>(max);
  let slots = 0;
  return <T>(f: (s: string) => T, keyOf?: (s: string) => string) => {
    const slot = slots++;
    return (s: string): T => {
      const r = records.get(keyOf === undefined ? s : keyOf(s), newRecord, undefined);
      const v = r[slot];
      if (v !== undefined) return (v === UNDEFINED ? undefined : v) as T;
      const out = f(s);
      r[slot] = out === undefined ? UNDEFINED : out;
      return out;
    };
  };
}

/**
 * `f` cached by text, in the record of that text shared by every textMemo (up to 100,000 texts in each of two
 * generations). `keyOf`, as for boundedMemo. Callers must not mutate what it returns.
 */
export const textMemo = textMemos(100_000);
