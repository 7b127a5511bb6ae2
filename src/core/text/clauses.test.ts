import { describe, expect, it } from 'vitest';
import { splitClauses } from './clauses.ts';

describe('splitClauses', () => {
  it.each([
    ['Paris', ['Paris']],
    ['Paris.', ['Paris']],
    ['', []],
    ['  ...  ', []],
    ['Paris, and it is in Germany.', ['Paris', 'it is in Germany']],
    ['Paris, but not Lyon, AND also Nice', ['Paris', 'not Lyon', 'also Nice']],
    ['Sandwiches and crisps, bread and butter', ['Sandwiches and crisps, bread and butter']],
    ['Paris, andorra', ['Paris, andorra']],
    ['It is Paris. It is big; really! Sure? Yes', ['It is Paris', 'It is big', 'really', 'Sure', 'Yes']],
    ['It has 2.1 million people.', ['It has 2.1 million people']],
    ['J. K. Rowling wrote it in the U.S. in 1997.', ['J. K. Rowling wrote it in the U.S. in 1997']],
    ['Dr. Smith and Mr. Jones, e.g. both. Then more', ['Dr. Smith and Mr. Jones, e.g. both', 'Then more']],
    ['Wait... it was Rome', ['Wait', 'it was Rome']],
    ['Yahoo!Inc is a company', ['Yahoo!Inc is a company']],
    ['It is 50%.', ['It is 50%']],
  ])('%j → %j', (text, clauses) => {
    expect(splitClauses(text)).toEqual(clauses);
  });
});
