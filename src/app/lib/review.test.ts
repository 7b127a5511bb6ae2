/** The review panel's keys and default budget. */
import { describe, expect, it } from 'vitest';
import { answerForKey, defaultBudget } from './review.svelte.ts';

describe('answerForKey', () => {
  it('maps c/y, w/n, s, u/Backspace, arrows, and 1–8 only when the run has classes', () => {
    expect(['c', 'C', 'y', 'w', 'n', 's', 'u', 'Backspace', 'ArrowLeft', 'ArrowRight'].map((k) => answerForKey(k, false))).toEqual([
      true,
      true,
      true,
      false,
      false,
      'skip',
      'undo',
      'undo',
      'prev',
      'next',
    ]);
    expect(answerForKey('1', true)).toBe('exact');
    expect(answerForKey('8', true)).toBe('contradictory');
    expect(answerForKey('1', false)).toBeNull();
    expect(answerForKey('9', true)).toBeNull();
    expect(answerForKey('x', true)).toBeNull();
  });
});

describe('defaultBudget', () => {
  it("is 10% of the rows' worth of questions, or 20 questions (every row, when fewer) for a small run", () => {
    expect([5, 60, 199, 200, 1_000_000].map(defaultBudget)).toEqual(['5', '20', '20', '10%', '10%']);
  });
});
