import { describe, expect, it } from 'vitest';
import { withoutParentheses } from './parens.ts';

describe('withoutParentheses', () => {
  it('drops each innermost parenthesised part with the space around it', () => {
    expect(withoutParentheses('Paris (France)')).toBe('Paris ');
    expect(withoutParentheses('The Bard (of Avon)  wrote it')).toBe('The Bard wrote it');
    expect(withoutParentheses('a (b) c (d) e')).toBe('a c e');
    expect(withoutParentheses('(only)')).toBe(' ');
    expect(withoutParentheses('(a (b) c)')).toBe('(a c)');
    expect(withoutParentheses('no parens')).toBe('no parens');
    expect(withoutParentheses('open ( never closed')).toBe('open ( never closed');
  });

  it('texts at the length limit that the regular expressions took seconds on (their cost: bench/pathological.ts)', () => {
    expect(withoutParentheses('('.repeat(99_000))).toBe('('.repeat(99_000));
    expect(withoutParentheses(`a${' '.repeat(99_000)}(b)`)).toBe('a ');
    expect(withoutParentheses('()'.repeat(49_500))).toBe(' ');
    expect(withoutParentheses(`${'('.repeat(49_000)}x${')'.repeat(49_000)}`)).toBe(`${'('.repeat(48_999)} ${')'.repeat(48_999)}`);
  });
});
