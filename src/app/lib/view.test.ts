import { describe, expect, it } from 'vitest';
import { classSources, describeFilters, emptyViewReason } from './view.ts';

describe('classSources', () => {
  it('offers the class filter only when classes exist: class-name labels or a class-predicting metric', () => {
    expect(classSources('binary', [])).toEqual([]);
    expect(classSources(null, [])).toEqual([]);
    expect(classSources('binary', ['taxonomy'])).toEqual(['taxonomy']);
    expect(classSources('taxonomy', [])).toEqual(['label']);
    expect(classSources('mixed', ['taxonomy'])).toEqual(['label', 'taxonomy']);
    // The embedded taxonomy_text gives classes too.
    expect(classSources('binary', ['taxonomy_text', 'taxonomy'])).toEqual(['taxonomy_text', 'taxonomy']);
  });
});

describe('emptyViewReason', () => {
  it('is null while rows are shown', () => {
    expect(emptyViewReason({ search: 'x' }, 3, 10)).toBeNull();
  });
  it('names every active filter and the number scored', () => {
    const q = { search: ' oxygen ', cls: 'partial', decision: { metric: 'exact_match', value: null }, disagreeWith: 'pedants' } as const;
    expect(describeFilters(q)).toEqual([
      'search “oxygen”',
      'class partial (human label)',
      'exact_match: not scored',
      'pedants disagrees with the label',
    ]);
    expect(emptyViewReason(q, 0, 1200)).toBe(
      'No row matches search “oxygen” and class partial (human label) and exact_match: not scored and pedants disagrees with the label (of 1,200 scored).',
    );
    expect(describeFilters({ cls: 'exact', classBy: 'taxonomy', decision: { metric: 'bleu', value: false } })).toEqual([
      'class exact (by taxonomy)',
      'bleu: incorrect',
    ]);
  });
  it('says so when nothing is scored, or when no filter explains the empty view', () => {
    expect(emptyViewReason({}, 0, 0)).toBe('No row has been scored yet.');
    expect(emptyViewReason({ sort: { key: 'row', dir: 'asc' } }, 0, 5)).toBe('None of the 5 scored rows can be shown.');
  });
});
