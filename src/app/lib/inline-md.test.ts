import { describe, expect, it } from 'vitest';
import { inlineMarkdown } from './inline-md.ts';

describe('inline Markdown of metric cards', () => {
  it('code, strong, emphasis and http(s) links become pieces; the rest stays text', () => {
    expect(
      inlineMarkdown('Official SQuAD normalization (`squad`); **not** *meaning*, see [the paper](https://arxiv.org/abs/1606.05250).'),
    ).toEqual([
      { kind: 'text', text: 'Official SQuAD normalization (' },
      { kind: 'code', text: 'squad' },
      { kind: 'text', text: '); ' },
      { kind: 'strong', text: 'not' },
      { kind: 'text', text: ' ' },
      { kind: 'em', text: 'meaning' },
      { kind: 'text', text: ', see ' },
      { kind: 'link', text: 'the paper', href: 'https://arxiv.org/abs/1606.05250' },
      { kind: 'text', text: '.' },
    ]);
  });

  it('markup and other link schemes stay text; a lone asterisk or a product is no emphasis', () => {
    expect(inlineMarkdown('<b>x</b> [y](javascript:alert(1)) 2 * 3 * 4')).toEqual([
      { kind: 'text', text: '<b>x</b> [y](javascript:alert(1)) 2 * 3 * 4' },
    ]);
    expect(inlineMarkdown('')).toEqual([]);
  });
});
