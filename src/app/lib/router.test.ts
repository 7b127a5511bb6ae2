import { describe, expect, it } from 'vitest';
import { badLinkNote, pageOf } from './router.svelte.ts';

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
    // A page's anchor opened afresh (a footnote link after a reload): that page.
    expect(pageOf('#learn-cap-citation')).toBe('learn');
    expect(pageOf('#learn-cap-citation', (id) => id === 'learn-cap-citation')).toBeNull();
  });
  it('a hash that is not valid percent-encoding opens the Score page with a note, and never throws', () => {
    for (const bad of ['#%', '#%E0%A4%A', '#/%zz', '#main%']) expect(() => pageOf(bad, has)).not.toThrow();
    expect(pageOf('#%', has)).toBe('score');
    expect(pageOf('#%E0%A4%A', has)).toBe('score');
    expect(badLinkNote('#%E0%A4%A')).toMatch(/could not be read \(#%E0%A4%A\), so the Score page is open/);
    expect(badLinkNote('#/learn')).toBeNull();
    expect(badLinkNote('')).toBeNull();
  });
});
