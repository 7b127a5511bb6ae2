/**
 * `f` cached by its argument (a string by value, an object by identity), in a map that starts again once it holds
 * `max` entries: golds, questions and units recur across a file's rows, and the bound keeps a 10^6-row run's memory
 * flat. Callers must not mutate what it returns (the same object is handed out again).
 */
export function boundedMemo<K, T>(f: (s: K) => T, max = 20_000): (s: K) => T {
  const cache = new Map<K, T>();
  return (s) => {
    let out = cache.get(s);
    if (out === undefined) {
      out = f(s);
      if (cache.size >= max) cache.clear();
      cache.set(s, out);
    }
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
