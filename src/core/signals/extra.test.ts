import { describe, expect, it } from 'vitest';
import { extraContent, specificity } from './extra.ts';

describe('extra content', () => {
  it('separates added claims from a restated question', () => {
    expect(extraContent('What is the capital of France?', 'Paris', 'The capital of France is Paris.')).toMatchObject({
      coverage: 1,
      extra: [],
      restates: true,
    });
    const e = extraContent('Who wrote Hamlet?', 'William Shakespeare', 'William Shakespeare. He also wrote Macbeth.');
    expect(e.coverage).toBe(1);
    expect(e.extra).toContain('macbeth');
    expect(e.clauses).toEqual(['He also wrote Macbeth']);
    expect(extraContent('Who painted the Mona Lisa?', 'Leonardo da Vinci', 'Leonardo DiCaprio')).toMatchObject({ extra: ['dicaprio'] });
  });
});

describe('specificity', () => {
  it('finds less specific answers', () => {
    expect(specificity('Which flightless bird lives in Antarctica?', 'emperor penguin', 'A bird.')?.kind).toBe('generic');
    expect(specificity('Where is the Louvre?', 'Paris', 'Somewhere in Europe.')?.kind).toBe('region');
    expect(specificity('When did the Titanic sink?', 'April 15, 1912', 'In the 1910s.')?.kind).toBe('period');
    expect(specificity('When did the Titanic sink?', 'April 15, 1912', 'The early 20th century.')?.kind).toBe('period');
    expect(specificity('Who painted The Starry Night?', 'Vincent van Gogh', 'Vincent')?.kind).toBe('part');
  });
  it('is silent on specific, different or surname answers', () => {
    expect(specificity('Who wrote Hamlet?', 'William Shakespeare', 'Shakespeare')).toBeNull();
    expect(specificity('Where is the Louvre?', 'Paris', 'London')).toBeNull();
    expect(specificity('When did the Titanic sink?', 'April 15, 1912', 'In the 1920s.')).toBeNull();
    expect(specificity('Which continent is Kenya in?', 'Africa', 'Africa')).toBeNull();
  });
});
