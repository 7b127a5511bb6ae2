/** A Playground example survives the round trip through the address, whatever its text holds. */
import { describe, expect, it } from 'vitest';
import { exampleFromHash, exampleHash, type SharedExample } from './share.ts';
import { PRESETS } from './presets.ts';
import { pageOf } from './router.svelte.ts';

describe('exampleHash / exampleFromHash', () => {
  it('every preset, and text with the URL syntax, accents, emoji and newlines inside, come back as they were', () => {
    const odd: SharedExample = {
      question: 'What is 2+2? & what about a=b #hash %20 ?',
      golds: ['4', 'four & more', 'vier ü', '😀 / |'],
      candidate: 'It is\nfour',
      choices: [],
    };
    for (const e of [...PRESETS.map((p) => ({ question: p.question, golds: p.golds, candidate: p.candidate, choices: p.choices })), odd]) {
      const h = exampleHash(e);
      expect(h.startsWith('#/playground?')).toBe(true);
      expect(exampleFromHash(h)).toEqual(e);
      // The router opens the Playground for it.
      expect(pageOf(h)).toBe('playground');
    }
  });

  it('a plain Playground link, or another page, holds no example', () => {
    expect(exampleFromHash('#/playground')).toBeNull();
    expect(exampleFromHash('#/playground?')).toBeNull();
    expect(exampleFromHash('#/score?q=x')).toBeNull();
    expect(exampleFromHash('')).toBeNull();
  });

  it('a hand-written link with only a question and a gold opens with an empty candidate', () => {
    expect(exampleFromHash('#/playground?q=Who%20wrote%20Hamlet%3F&g=Shakespeare')).toEqual({
      question: 'Who wrote Hamlet?',
      golds: ['Shakespeare'],
      candidate: '',
      choices: [],
    });
  });
});
