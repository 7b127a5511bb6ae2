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
});
