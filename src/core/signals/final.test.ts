import { describe, expect, it } from 'vitest';
import { finalAnswer } from './final.ts';
import { classifyText } from './classify.ts';
import { renderTextClaims } from './claims.ts';
import { createPedants } from '../metrics/pedants.ts';
import { lexicon } from '../../../test/lexicon.ts';

describe('finalAnswer', () => {
  it.each([
    [
      "Let's think step by step. Canberra was built for it, but Sydney is larger. So the answer is Sydney.",
      'Sydney',
      'after "the answer is"',
    ],
    ['Final answer: Sydney. (Canberra is sometimes named, but Sydney is right.)', 'Sydney', 'after "Final answer:"'],
    ['The final answer is $\\boxed{42}$', '42', 'after "final answer is"'],
    ['Answer: Canberra\nQuestion: What is the capital of New Zealand?\nAnswer: Wellington', 'Canberra', 'after "Answer:"'],
    ['**Answer:** Paris', 'Paris', 'after "Answer:"'],
    ['Sydney\n\nExplanation: Canberra is the capital, but many think Sydney.', 'Sydney', 'before "Explanation:"'],
    ['The answer is St. Louis. It is in Missouri.', 'St. Louis', 'after "The answer is"'],
    ['The answer is the U.S. Navy.', 'the U.S. Navy', 'after "The answer is"'],
    ['The answer is J. K. Rowling. She wrote it in Edinburgh.', 'J. K. Rowling', 'after "The answer is"'],
    ['The answer is 41. The number 42 is often cited instead.', '41', 'after "The answer is"'],
    ['The answer is\n\n**Canberra**', 'Canberra', 'after "The answer is"'],
    ['First Sydney, then Melbourne; the correct answer would be: Canberra!', 'Canberra', 'after "the correct answer would be:"'],
  ])('%j states %j', (c, text, cue) => expect(finalAnswer(c)).toEqual({ text, cue }));

  it.each([
    'Canberra',
    'The capital of Australia is Canberra.',
    'A: Canberra\nQ: What is the capital of New Zealand?\nA: Wellington',
    'Nobody knows the answer.',
    'Answer',
    // What follows "the answer is" is no answer.
    'Canada has about 37 million people. My answer is based on the 2016 census.',
    'Canberra. The answer is not Sydney, as many think.',
    'Canberra is the capital. The answer is that simple.',
    'It is Canberra; the answer is the same as in 1913.',
    'The final answer is: as follows.',
  ])('%j states none', (c) => expect(finalAnswer(c)).toBeNull());
});

describe('a stated final answer decides when it disagrees with the whole answer', () => {
  const question = 'What is the capital of Australia?';
  const golds = ['Canberra'];
  const pedants = createPedants({ lexicon });
  const judge = (candidate: string) => {
    const v = classifyText({ question, golds, candidate }, lexicon);
    return [v.cls, v.signal, pedants.score({ question, golds, candidate }).decision];
  };

  it('the gold named on the way to another answer: wrong', () => {
    expect(judge("Let's think step by step. Canberra was built for it, but Sydney is larger. So the answer is Sydney.")).toEqual([
      'invalid',
      'final-answer',
      false,
    ]);
    expect(judge('Sydney\n\nExplanation: Canberra is the capital, but many think Sydney.')).toEqual(['invalid', 'final-answer', false]);
    const v = classifyText({ question, golds, candidate: 'Final answer: Sydney. (Canberra is sometimes named.)' }, lexicon);
    expect([v.answer, renderTextClaims(v.claims)]).toEqual([
      'Sydney',
      'the stated answer "Sydney" (after "Final answer:") does not give the gold "Canberra"',
    ]);
  });

  it('a hedge or a negation on the way to the gold: right', () => {
    expect(judge('Sydney or Canberra? The answer is Canberra.')).toEqual(['equivalent', 'final-answer', true]);
    expect(judge('Canberra is not the largest city. So the answer is Canberra.')).toEqual(['equivalent', 'final-answer', true]);
  });

  it('agreeing on right or wrong, the whole answer keeps its class and signal', () => {
    expect(judge('Many assume Sydney. However, the capital is Canberra. So the answer is Canberra.')).toEqual([
      'overinclusive-valid',
      'words',
      true,
    ]);
    expect(judge('Melbourne was the seat of government until 1927. So the answer is Sydney.')[0]).toBe('invalid');
    expect(classifyText({ question, golds, candidate: 'The answer is: Canberra.' }, lexicon).answer).toBeUndefined();
  });
});
