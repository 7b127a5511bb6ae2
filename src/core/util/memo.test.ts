import { describe, expect, it } from 'vitest';
import { boundedMemo, lastMemo, memoPer, textMemos } from './memo.ts';

describe('boundedMemo', () => {
  it('computes a string once, hands out the same value, and keeps two generations past its bound', () => {
    const calls: string[] = [];
    const f = boundedMemo((s: string) => {
      calls.push(s);
      return { s };
    }, 2);
    const a = f('a');
    expect(f('a')).toBe(a);
    f('b');
    expect(calls).toEqual(['a', 'b']);
    f('c'); // the current generation held 2: it becomes the old one, "c" starts the new one
    expect(f('a')).toBe(a); // found in the old generation, not computed again
    expect(calls).toEqual(['a', 'b', 'c']);
    f('d'); // {c, a} becomes old; {b} is dropped
    f('b');
    expect(calls).toEqual(['a', 'b', 'c', 'd', 'b']);
  });

  it('caches null results too (an unknown unit), not only objects', () => {
    let n = 0;
    const f = boundedMemo(() => (n++, null));
    f('x');
    f('x');
    expect(n).toBe(1);
  });

  it('objects by identity: an equal but other object is computed again; a throw is not kept', () => {
    const calls: unknown[] = [];
    const f = boundedMemo((k: string[]) => {
      calls.push(k);
      if (k.length === 0) throw new Error('empty');
      return k.join();
    });
    const a = ['x'];
    f(a);
    f(a);
    f(['x']);
    expect(() => f([])).toThrow('empty');
    expect(() => f([])).toThrow('empty');
    expect(calls).toEqual([a, ['x'], [], []]);
  });

  it('by `keyOf`: arguments with one key share an entry, computed from the first of them', () => {
    const calls: string[] = [];
    const f = boundedMemo(
      (s: string) => (calls.push(s), s.toLowerCase()),
      undefined,
      (s) => s.replace(/\.$/, ''),
    );
    expect(f('Paris.')).toBe('paris.');
    expect(f('Paris')).toBe('paris.');
    expect(f('Rome')).toBe('rome');
    expect(calls).toEqual(['Paris.', 'Rome']);
  });
});

describe('lastMemo', () => {
  it('computes again only when the argument changes, and keeps what `keep` copies', () => {
    let calls = 0;
    const f = lastMemo((s: string) => (calls++, s.length));
    expect([f('ab'), f('ab'), f('abc'), f('ab')]).toEqual([2, 2, 3, 2]);
    expect(calls).toBe(3);
    const golds = ['a'];
    let n = 0;
    const g = lastMemo(
      (x: string[]) => (n++, x.join()),
      (a, b) => a.length === b.length && a.every((v, i) => v === b[i]),
      (x) => [...x],
    );
    g(golds);
    golds.push('b');
    // Changed in place: seen as a new argument because a copy was kept.
    expect(g(golds)).toBe('a,b');
    expect(n).toBe(2);
  });
});

describe('textMemos', () => {
  it('keeps each memo its own result in the one record of a text, undefined included', () => {
    const memo = textMemos(10);
    const calls: string[] = [];
    const upper = memo((s) => (calls.push(`upper ${s}`), s.toUpperCase()));
    const length = memo((s) => (calls.push(`length ${s}`), s.length));
    const nothing = memo((s) => void calls.push(`nothing ${s}`));
    expect([upper('ab'), length('ab'), upper('ab'), length('ab')]).toEqual(['AB', 2, 'AB', 2]);
    expect([nothing('ab'), nothing('ab')]).toEqual([undefined, undefined]);
    expect(calls).toEqual(['upper ab', 'length ab', 'nothing ab']);
  });

  it('keeps two generations of texts past its bound, and a key function as boundedMemo does', () => {
    const memo = textMemos(2);
    const calls: string[] = [];
    const f = memo(
      (s) => (calls.push(s), { s }),
      (s) => s.replace(/\.$/, ''),
    );
    const a = f('a.');
    expect(f('a')).toBe(a);
    f('b');
    f('c'); // {a, b} becomes the old generation
    expect(f('a')).toBe(a);
    f('d'); // {c, a} becomes old; {b} is dropped
    f('b');
    expect(calls).toEqual(['a.', 'b', 'c', 'd', 'b']);
  });
});

describe('memoPer', () => {
  it('keeps one cache per owner, each computing a string once', () => {
    const calls: string[] = [];
    const per = memoPer((o: { name: string }, s: string) => (calls.push(`${o.name} ${s}`), `${o.name}:${s}`));
    const a = { name: 'a' };
    const b = { name: 'b' };
    expect(per(a)).toBe(per(a));
    expect([per(a)('x'), per(a)('x'), per(b)('x'), per(b)('x')]).toEqual(['a:x', 'a:x', 'b:x', 'b:x']);
    expect(calls).toEqual(['a x', 'b x']);
  });
});
