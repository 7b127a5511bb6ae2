import { describe, expect, it } from 'vitest';
import { pageOf } from './router.svelte.ts';

describe('pageOf', () => {
  const anchors = new Set(['main', 'learn-metric-bleu']);
  const has = (id: string) => anchors.has(id);
  it('reads routes, with or without the slash and with a query', () => {
    expect(pageOf('#/learn', has)).toBe('learn');
    expect(pageOf('#models', has)).toBe('models');
    expect(pageOf('#/playground?x=1', has)).toBe('playground');
    expect(pageOf('', has)).toBe('score');
    expect(pageOf('#/nowhere', has)).toBe('score');
  });
  it('an in-page anchor (the skip link’s #main) is no route: the open page stays', () => {
    expect(pageOf('#main', has)).toBeNull();
    expect(pageOf('#learn-metric-bleu', has)).toBeNull();
    // An unknown word that is not an anchor either still falls back to the Score page.
    expect(pageOf('#nothing', has)).toBe('score');
  });
});
