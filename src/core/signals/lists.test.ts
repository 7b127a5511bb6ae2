import { describe, expect, it } from 'vitest';
import { listItems, listSignal } from './lists.ts';

describe('hedging and lists', () => {
  it('alternatives joined by "or" are a hedge, unless the question offers the choice', () => {
    expect(listSignal('What is the capital of Canada?', ['Ottawa'], 'Ottawa or Toronto.')).toMatchObject({
      kind: 'hedge',
      correct: ['Ottawa'],
      wrong: ['Toronto'],
    });
    expect(listSignal('What is the capital of Canada?', ['Ottawa'], 'It could be Toronto, Montreal or Ottawa.')?.kind).toBe('hedge');
    expect(listSignal('Is a whale a fish or a mammal?', ['mammal'], 'A mammal or a fish.')).toBeNull();
  });
  it('lists are compared item by item', () => {
    expect(listSignal('Name the three primary colours of light.', ['red, green and blue'], 'Red and green.')).toMatchObject({
      kind: 'list',
      covered: 2 / 3,
      wrong: [],
    });
    expect(listSignal('Name two noble gases.', ['helium and neon'], 'Helium, neon and chlorine.')).toMatchObject({
      covered: 1,
      wrong: ['chlorine'],
    });
    expect(listSignal('Name two noble gases.', ['helium and neon'], 'Neon and helium.')).toMatchObject({ covered: 1, wrong: [] });
  });
  it('a gold\'s items by their other names; a gold listed with commas alone; an item that starts with "the"', () => {
    const q = 'Which four countries have the largest populations?';
    expect(listSignal(q, ['China, India, USA, Indonesia'], 'China, India, the United States, and Indonesia')).toMatchObject({
      items: ['China', 'India', 'United States', 'Indonesia'],
      covered: 1,
      wrong: [],
    });
    expect(listSignal(q, ['China, India, USA, Indonesia'], 'China, India and Brazil')).toMatchObject({ covered: 0.5, wrong: ['Brazil'] });
    // Only a gold's three or more comma-joined parts are items; a candidate's are not ("Lyon, France, Europe").
    expect(listItems('Washington, D.C.', true)).toBeNull();
    expect(listItems('Lyon, France, Europe')).toBeNull();
    // An appositive inside a list is no item.
    expect(listItems('Mercury, the smallest planet, and Venus')).toBeNull();
  });
  it('an appositive or a clause is not a list', () => {
    expect(listItems('William Shakespeare, the English playwright who also wrote Macbeth')).toBeNull();
    expect(listItems('Paris')).toBeNull();
    expect(listItems('The platypus lays eggs and nurses its young with milk from skin patches.')).toBeNull();
  });

  it('a name the question writes, a participle phrase and a range are not cut into items', () => {
    // The title is the question's: one name, not "Pride" and "Prejudice".
    expect(listSignal('Who wrote Pride and Prejudice?', ['Jane Austen'], 'Pride and Prejudice, first published in 1813')).toBeNull();
    expect(listItems('Pride and Prejudice')?.items).toEqual(['Pride', 'Prejudice']);
    // A participle phrase after a comma is a tail, not an item: the title's items match the gold's.
    expect(listSignal('Which novel?', ['Pride and Prejudice'], 'Pride and Prejudice, first published in 1813')).toMatchObject({
      wrong: [],
      covered: 1,
    });
    expect(listItems('Mercury and Venus, named after Roman gods')?.items).toEqual(['Mercury', 'Venus']);
    // A range is one item.
    expect(listItems('Between 1914 and 1925')).toBeNull();
    expect(listItems('Michelangelo, between 1508 and 1512')).toBeNull();
    // A question's "X and Y" elsewhere does not keep another answer's list whole.
    expect(listSignal('Who wrote Pride and Prejudice?', ['Jane Austen'], 'Austen and Brontë')?.items).toEqual(['Austen', 'Brontë']);
  });
});
