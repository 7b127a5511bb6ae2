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
