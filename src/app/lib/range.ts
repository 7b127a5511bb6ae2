/**
 * `[0, 1, …, length - 1]` without allocating it: a read-only array stand-in for the virtual list's `data`.
 * virtua reads only `length` and `[i]`, so a table of 10^6 rows costs O(1) per refresh on the page's thread
 * instead of building (and collecting) a million-element array every second while results stream in.
 */
export function indexRange(length: number): readonly number[] {
  if (!Number.isSafeInteger(length) || length < 0) throw new RangeError(`indexRange: bad length ${length}`);
  return new Proxy([] as number[], {
    get(target, key, receiver) {
      if (key === 'length') return length;
      if (typeof key === 'string') {
        const i = Number(key);
        if (Number.isInteger(i) && i >= 0 && String(i) === key) return i < length ? i : undefined;
      }
      return Reflect.get(target, key, receiver) as unknown;
    },
    has(target, key) {
      if (typeof key === 'string') {
        const i = Number(key);
        if (Number.isInteger(i) && i >= 0 && String(i) === key) return i < length;
      }
      return Reflect.has(target, key);
    },
    set() {
      return false;
    },
  });
}

/** One page of a long view: which positions the list shows. `page` is clamped to the pages that exist. */
export interface TableWindow {
  page: number;
  pages: number;
  start: number;
  count: number;
}

export function tableWindow(length: number, page: number, size: number): TableWindow {
  const pages = Math.max(1, Math.ceil(length / size));
  const p = Math.min(Math.max(0, Math.floor(page)), pages - 1);
  const start = p * size;
  return { page: p, pages, start, count: Math.max(0, Math.min(size, length - start)) };
}
