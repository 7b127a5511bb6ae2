/** The --map option's parsing (CLI wording: the flag is named in its errors). */
import { describe, expect, it } from 'vitest';
import { VerityError } from '../core/types.ts';
import { parseMapSpec } from './options.ts';

const usage = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(VerityError);
    expect((e as VerityError).kind).toBe('usage');
    return (e as Error).message;
  }
  throw new Error('no error');
};

describe('--map', () => {
  it('parses field=column pairs (field case-insensitive, spaces trimmed, column kept verbatim)', () => {
    expect(parseMapSpec('candidate=answer_gpt4,label=judge_gpt4')).toEqual({ candidate: 'answer_gpt4', label: 'judge_gpt4' });
    expect(parseMapSpec(' Candidate = Answer GPT4 , LABEL=judge ,')).toEqual({ candidate: 'Answer GPT4', label: 'judge' });
    // Only the first "=" separates.
    expect(parseMapSpec('candidate=a=b')).toEqual({ candidate: 'a=b' });
  });
  it('usage errors: unknown field, malformed pair', () => {
    expect(usage(() => parseMapSpec('bogus=x'))).toMatch(/unknown field "bogus"/);
    for (const bad of ['candidate', '=answer', 'candidate=', 'candidate= ', ' = '])
      expect(usage(() => parseMapSpec(bad))).toMatch(/--map expects field=column pairs/);
  });
});
