/**
 * Full-sentence answers: an answer that already is a sentence answering the question is its own
 * statement, and no statement stitches the question's words onto a sentence ("Plants release Plants release
 * oxygen."). The set is the project's own, written for this test: LLM-style answers of three words and more.
 */
import { describe, expect, it } from 'vitest';
import { writeStatement } from './rules.ts';

const SENTENCES: [question: string, answer: string][] = [
  ['What gas do plants release?', 'Plants release oxygen.'],
  ['What do bees make?', 'Bees make honey.'],
  ['Who wrote Hamlet?', 'Shakespeare wrote it.'],
  ['Who wrote Hamlet?', 'Hamlet was written by William Shakespeare.'],
  ['What is the capital of France?', 'The capital of France is Paris.'],
  ['How many legs does a spider have?', 'A spider has eight legs.'],
  ['When did the Titanic sink?', 'The Titanic sank in 1912.'],
  ['Which planet is the largest?', 'Jupiter is the largest planet in the solar system.'],
  ['What does a caterpillar turn into?', 'Caterpillars turn into butterflies.'],
  ['Who discovered penicillin?', 'Alexander Fleming discovered penicillin in 1928.'],
  ['What language is spoken in Brazil?', 'Brazilians speak Portuguese.'],
  ['Where do penguins live?', 'Most penguins live in the Southern Hemisphere.'],
  ['What do cows eat?', 'Cows eat grass.'],
  ['Who painted the Mona Lisa?', 'Leonardo da Vinci painted it.'],
  ['How long does the Earth take to orbit the Sun?', 'The Earth takes about 365 days to orbit the Sun.'],
  ['What is water made of?', 'Water is made of hydrogen and oxygen.'],
  ['Which metal is liquid at room temperature?', 'Mercury is liquid at room temperature.'],
  ['What did the Wright brothers invent?', 'They invented the first successful airplane.'],
  ['Why is the sky blue?', 'Air scatters blue light more than red light.'],
  ['What causes tides?', 'The Moon causes tides.'],
];

const PHRASES: [question: string, answer: string, statement: string][] = [
  ['What gas do plants release?', 'oxygen', 'Plants release oxygen.'],
  ['Who wrote Hamlet?', 'Shakespeare', 'Shakespeare wrote Hamlet.'],
  ['When did the Titanic sink?', '1912', 'The Titanic sank in 1912.'],
];

/** A word sequence said twice in a row ("plants release plants release"): stitched, not English. */
const stutter = (s: string) => /\b(\w+(?: \w+)*) \1\b/i.exec(s.toLowerCase().replace(/[^\w\s]/g, ''))?.[0] ?? null;

describe('full-sentence answers', () => {
  it.each(SENTENCES)('%s — %s is its own statement', (question, answer) => {
    expect(writeStatement(question, answer)).toBe(answer);
  });

  it('short answers still become sentences with the question, and no statement stutters', () => {
    for (const [question, answer, statement] of PHRASES) expect(writeStatement(question, answer)).toBe(statement);
    for (const [question, answer] of [...SENTENCES, ...PHRASES]) {
      const s = writeStatement(question, answer);
      expect(stutter(s), s).toBeNull();
      expect(s).toMatch(/^\p{Lu}.*\.$/u);
    }
  });
});
