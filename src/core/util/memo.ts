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
  let cache = new Map<unknown, T>();
  let old = new Map<unknown, T>();
  return (a) => {
    const k = keyOf === undefined ? a : keyOf(a);
    let out = cache.get(k);
    if (out !== undefined || cache.has(k)) return out as T;
    out = old.has(k) ? (old.get(k) as T) : f(a);
    if (cache.size >= max) {
      old = cache;
      cache = new Map();
    }
    cache.set(k, out);
    return out;
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
