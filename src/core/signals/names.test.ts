import { describe, expect, it } from 'vitest';
import { isPerson, tailName } from './names.ts';
import { classifyText } from './classify.ts';
import { lexicon } from '../../../test/lexicon.ts';

const cls = (question: string, gold: string, candidate: string) => classifyText({ question, golds: [gold], candidate }, lexicon).cls;

describe('tailName: a person named by the end of the name', () => {
  it('the surname, with its particles, alone or after initials that fit', () => {
    expect(tailName('Who painted the Mona Lisa?', 'Leonardo da Vinci', 'Da Vinci')).toEqual({ extra: [] });
    expect(tailName('Who painted it?', 'Vincent van Gogh', 'Van Gogh')).toEqual({ extra: [] });
    expect(tailName('Who is the author?', 'J. K. Rowling', 'JK Rowling')).toEqual({ extra: [] });
    expect(tailName('Who painted it?', 'Joseph Turner', 'The British painter J.M.W. Turner.')).toEqual({ extra: ['british', 'painter'] });
    // Words of the question are no extra claim.
    expect(tailName('Who wrote it?', 'Charles Dickens', 'Dickens wrote it.')).toEqual({ extra: [] });
    expect(tailName('Who discovered penicillin?', 'Alexander Fleming', 'Yes, Fleming, in 1928.')).toEqual({ extra: ['yes', '1928'] });
  });
  it('not another person of that surname, nor initials that do not fit, nor a tail the question says', () => {
    expect(tailName('Who was the first president?', 'George Washington', 'Martha Washington')).toBeNull();
    expect(tailName('Who is the author?', 'J. K. Rowling', 'T. Rowling')).toBeNull();
    // The other person is passed over, not taken for the gold's: a later mention still names it.
    expect(tailName('Who was the first president?', 'George Washington', 'Not Martha Washington: Washington.')).toEqual({
      extra: ['not', 'martha'],
    });
    // The longest tail wherever it ends, though the surname came earlier alone.
    expect(tailName('Who painted the Mona Lisa?', 'Leonardo da Vinci', 'Not Vinci the town: da Vinci painted it.')).toEqual({
      extra: ['not', 'town'],
    });
    expect(tailName('Who wrote it?', 'Charles John Dickens', 'Dickens? John Dickens, surely.')).toEqual({ extra: ['surely'] });
    expect(tailName('What would Kevin Scale have been called?', 'William Scale', 'The Kelvin Scale.')).toBeNull();
    // No person: "York" is not "New York".
    expect(tailName('Which city?', 'New York', 'York')).toBeNull();
  });
  it('isPerson reads names compromise only half tags: leading initials, a particle before the surname', () => {
    expect([isPerson('J. K. Rowling'), isPerson('Leonardo da Vinci'), isPerson('Alexander Fleming')]).toEqual([true, true, true]);
    expect([isPerson('New York'), isPerson('Dallas Cowboys'), isPerson('Red Sea')]).toEqual([false, false, false]);
  });
  it('in the taxonomy: equivalent alone, overinclusive-valid with more, invalid for another person', () => {
    expect(cls('Who painted the Mona Lisa?', 'Leonardo da Vinci', 'Da Vinci')).toBe('equivalent');
    expect(cls('Who is the author?', 'J. K. Rowling', 'JK Rowling')).toBe('equivalent');
    expect(cls('Who painted The Battle of Trafalgar?', 'Joseph Turner', 'It was painted by the British artist J. M. W. Turner.')).toBe(
      'overinclusive-valid',
    );
    expect(cls('Who was the first president?', 'George Washington', 'Martha Washington')).toBe('invalid');
    // The first name alone is still less specific.
    expect(cls('Who painted The Starry Night?', 'Vincent van Gogh', 'Vincent')).toBe('partial');
  });
});
