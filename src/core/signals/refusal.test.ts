import { describe, expect, it } from 'vitest';
import { refusal } from './refusal.ts';

describe('refusal', () => {
  it.each([
    "I don't know.",
    'I cannot answer that question.',
    'It depends on how you count.',
    "I'm not sure.",
    'Unknown',
    '',
    'As an AI, I have no way of knowing.',
    'This cannot be determined from the information given.',
  ])('flags the non-answer %j', (c) => expect(refusal(c)).not.toBeNull());
  it.each([
    'Paris',
    'Nobody lived there before 1500; the first settlers came later.',
    'The answer is unknowable only to those who have not read Keynes: 1936.',
    'It is not known as the Big Apple for nothing: New York.',
    'Depending on the source, 8,849 m.',
  ])('does not flag the answer %j', (c) => expect(refusal(c)).toBeNull());
  it('gives the cue of the first phrase in the list, wherever it stands', () => {
    expect(refusal("It depends, and honestly I don't know.")?.cue).toBe("I don't know");
    expect(refusal('It depends.')?.cue).toBe('It depends');
  });
});
