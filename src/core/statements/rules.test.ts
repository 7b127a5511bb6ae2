import { describe, expect, it } from 'vitest';
import { createRuleWriter, polarity, writeStatement } from './rules.ts';
import { evaluate, loadCases } from '../../../scripts/eval-statements.ts';

/** Checked by hand: each is the statement a person would write. */
const EXAMPLES: [question: string, answer: string, statement: string][] = [
  // the brief's examples
  ['What gas do plants release during photosynthesis?', 'oxygen', 'Plants release oxygen during photosynthesis.'],
  ['When did the Titanic sink?', '1912', 'The Titanic sank in 1912.'],
  ['Who wrote Hamlet?', 'Shakespeare', 'Shakespeare wrote Hamlet.'],
  ['What is the capital of France?', 'Paris', 'The capital of France is Paris.'],
  ['How many legs does a spider have?', 'eight', 'A spider has eight legs.'],
  ['Where is the Eiffel Tower?', 'Paris', 'The Eiffel Tower is in Paris.'],
  ['Is the Earth flat?', 'no', 'The Earth is not flat.'],
  ['Does water boil at 100 °C at sea level?', 'yes', 'Water boils at 100 °C at sea level.'],
  ['Does water boil at 100 °C at sea level?', 'Yes, it does.', 'Water boils at 100 °C at sea level.'],
  ['The sun is responsible for', 'the water cycle', 'The sun is responsible for the water cycle.'],
  ['The sun is responsible for…', 'the water cycle', 'The sun is responsible for the water cycle.'],
  ['Light bends when it passes from air into ___ at an angle.', 'water', 'Light bends when it passes from air into water at an angle.'],
  ['Light bends when it passes from air into ____ at an angle.', 'water', 'Light bends when it passes from air into water at an angle.'],
  ['Light bends when it passes from air into _____ at an angle.', 'water', 'Light bends when it passes from air into water at an angle.'],
  ['Light bends when it passes from air into (blank) at an angle.', 'water', 'Light bends when it passes from air into water at an angle.'],
  ['Light bends when it passes from air into [blank] at an angle.', 'water', 'Light bends when it passes from air into water at an angle.'],
  // wh-questions
  ['Who was Hamlet written by?', 'Shakespeare', 'Hamlet was written by Shakespeare.'],
  ['What is the Eiffel Tower made of?', 'iron', 'The Eiffel Tower is made of iron.'],
  ['Whom did Jane Eyre marry?', 'Mr. Rochester', 'Jane Eyre married Mr. Rochester.'],
  ['How far is the Moon from Earth?', '384,400 km', 'The Moon is 384,400 km from Earth.'],
  ['When is Christmas celebrated?', 'December 25', 'Christmas is celebrated on December 25.'],
  ['When does the sun set?', '7 pm', 'The sun sets at 7 pm.'],
  ['How old is the universe?', 'about 13.8 billion years', 'The universe is about 13.8 billion years old.'],
  ["Who's the author of Dune?", 'Frank Herbert', 'The author of Dune is Frank Herbert.'],
  ['what year did the beatles break up', '1970', 'The beatles broke up in 1970.'],
  ['where does the last name smith come from', 'England', 'The last name smith comes from England.'],
  ['What did the Romans call London?', 'Londinium', 'The Romans called London Londinium.'],
  ['How many continents are there?', 'seven', 'There are seven continents.'],
  ['Paris is the capital of which country?', 'France', 'Paris is the capital of France.'],
  ['Why is the sky blue?', 'because air scatters blue light', 'The sky is blue because air scatters blue light.'],
  ['What kills bacteria?', 'antibiotics', 'Antibiotics kill bacteria.'],
  ['What is red and round?', 'strawberries', 'Strawberries are red and round.'],
  ['What covers most of the planet?', 'water', 'Water covers most of the planet.'],
  ['What should you do if you cut yourself?', 'clean the wound', 'You should clean the wound if you cut yourself.'],
  [
    'Marie Curie was a physicist. She was born in Warsaw. In which year did she win her first Nobel Prize?',
    '1903',
    'She won her first Nobel Prize in 1903.',
  ],
  // long / sentence answers
  ['Who invented the telephone?', 'It was Alexander Graham Bell.', 'Alexander Graham Bell invented the telephone.'],
  ['What is the capital of France?', 'Paris. It is also the largest city.', 'The capital of France is Paris.'],
  ['Who wrote Hamlet?', '  William Shakespeare wrote Hamlet around 1600  ', 'William Shakespeare wrote Hamlet around 1600.'],
  // yes / no
  ['Did anyone survive the Titanic?', 'yes', 'Someone survived the Titanic.'],
  ['Has anyone walked on Mars?', 'no', 'No one has walked on Mars.'],
  ['Have you ever been to Paris?', 'no', 'You have never been to Paris.'],
  ['Is the Sun hot or cold?', 'hot', 'The Sun is hot.'],
  ["Isn't the Earth round?", 'yes', 'The Earth is round.'],
  ["Don't cats like water?", "No, they don't.", 'Cats do not like water.'],
  ['Do all birds fly?', 'No, some birds like ostriches cannot fly.', 'Not all birds fly.'],
  ['Can penguins fly?', 'Nope.', 'Penguins cannot fly.'],
  ['Is coffee a drink?', 'maybe', 'The answer to "Is coffee a drink?" is maybe.'],
  // sentence-to-complete
  ['True or false: The Earth orbits the Sun.', 'false', 'The Earth does not orbit the Sun.'],
  ['The first American president:', 'George Washington', 'The first American president is George Washington.'],
  ['Name the largest planet in the solar system.', 'Jupiter', 'The largest planet in the solar system is Jupiter.'],
  ['The longest river in Africa is the', 'the Nile', 'The longest river in Africa is the Nile.'],
  ['Complete the sentence: The heart pumps', 'blood.', 'The heart pumps blood.'],
  // blanks
  [
    'Einstein developed the theory of ___ and won the Nobel Prize for the ___ effect.',
    'relativity, photoelectric',
    'Einstein developed the theory of relativity and won the Nobel Prize for the photoelectric effect.',
  ],
  ['The ___ Ocean lies between Africa and Australia.', 'Indian Ocean', 'The Indian Ocean lies between Africa and Australia.'],
  ['Fill in the blank: ___ is the largest planet.', 'Jupiter', 'Jupiter is the largest planet.'],
  // fallback
  ['🦄 🌈?', '✨', 'The answer to "🦄 🌈?" is ✨.'],
];

describe('rule statement writer', () => {
  it.each(EXAMPLES)('%s + %s', (question, answer, statement) => {
    expect(writeStatement(question, answer)).toBe(statement);
  });

  it('is the StatementWriter named "rules" and keeps order', async () => {
    const writer = createRuleWriter();
    expect(writer.name).toBe('rules');
    const items = EXAMPLES.slice(0, 6).map(([question, answer]) => ({ question, answer }));
    expect(await writer.write(items)).toEqual(EXAMPLES.slice(0, 6).map(([, , s]) => s));
    expect(await writer.write([])).toEqual([]);
  });

  it('reads yes / no answers', () => {
    for (const y of ['yes', 'Yes.', 'Yes, it does.', 'yep', 'Yes, botanically it is.', 'Of course', 'It is.', 'True'])
      expect(polarity(y)).toBe('yes');
    for (const n of ['no', 'No.', "No, they don't.", 'nope', 'Not at all', "It isn't.", 'False', 'Definitely not'])
      expect(polarity(n)).toBe('no');
    for (const x of ['No one knows', 'Paris', 'yesterday', 'nobody', 'maybe', '']) expect(polarity(x)).toBeNull();
  });

  it('never throws and always returns one capitalised sentence with exactly one final period', async () => {
    const long = 'Water covers most of the planet. '.repeat(150) + 'What covers most of the planet?';
    const odd: [unknown, unknown][] = [
      ['', ''],
      ['', 'Paris'],
      ['What is the capital of France?', ''],
      ['   ', '\n\t'],
      ['?', '?'],
      ['???', 'yes'],
      ['🦄🌈', '🦄'],
      ['What is 🦄?', '🦄'],
      ['x'.repeat(5000), 'y'],
      [long, 'water'],
      ['word '.repeat(1000), 'ok'],
      ['what is the capital of france', 'paris'],
      ['Is it?', 'no'],
      ['Why?', 'because'],
      ['Who', 'me'],
      ['.', '.'],
      ['"', '"'],
      ['___', ''],
      ['(blank)', 'x'],
      ['The sun is responsible for', '...'],
      [null, undefined],
      [42, 7],
      ['Does', 'no'],
      ['How many?', '3'],
      ['Which of these is a fruit: apple or stone?', 'apple'],
      ['Ñandú?', 'sí'],
    ];
    const writer = createRuleWriter();
    const out = await writer.write(odd.map(([question, answer]) => ({ question, answer }) as never));
    expect(out).toHaveLength(odd.length);
    for (const s of out) {
      expect(typeof s).toBe('string');
      expect(s.trim()).toBe(s);
      expect(s).not.toMatch(/\s{2,}/);
      expect(s).toMatch(/[^.]\.$/);
      expect(s.length).toBeGreaterThan(1);
    }
    expect(writeStatement('', '')).toBe('No question or answer was given.');
    expect(writeStatement('', 'Paris')).toBe('The answer is Paris.');
    expect(writeStatement('What is the capital of France?', '')).toBe('No answer was given to "What is the capital of France?".');
    expect(writeStatement(long, 'water')).toBe('Water covers most of the planet.');
    expect(writeStatement('what is the capital of france', 'Paris')).toBe('The capital of france is Paris.');
  });

  it('is deterministic (same output twice, alone or in a batch)', async () => {
    const cases = loadCases();
    const items = cases.map((c) => ({ question: c.question, answer: c.answer }));
    const a = await createRuleWriter().write(items);
    const b = await createRuleWriter().write([...items].reverse());
    expect([...b].reverse()).toEqual(a);
    expect(items.slice(0, 20).map((it) => writeStatement(it.question, it.answer))).toEqual(a.slice(0, 20));
  });
});

describe('hand-written statement set (test/fixtures/statements.jsonl)', () => {
  const cases = loadCases();
  const { summary } = evaluate(cases);

  it('is balanced and large enough', () => {
    expect(cases.length).toBeGreaterThanOrEqual(160);
    for (const type of ['wh', 'yesno', 'complete', 'blank'] as const)
      expect(cases.filter((c) => c.type === type).length).toBeGreaterThanOrEqual(35);
    expect(new Set(cases.map((c) => c.subject)).size).toBeGreaterThanOrEqual(6);
  });

  // Measured with compromise 14.17.0: BLEU all 0.9906 (wh 0.9838, yesno 0.9810, complete 1.0, blank 1.0),
  // EM 1.000. Floors are those minus 0.02 (EM minus 0.05) so a regression fails.
  it.each([
    ['all', 0.9706, 0.95],
    ['wh', 0.9638, 0.95],
    ['yesno', 0.961, 0.95],
    ['complete', 0.98, 0.95],
    ['blank', 0.98, 0.95],
  ] as const)('%s: mean BLEU ≥ %s, exact match ≥ %s', (type, bleuFloor, emFloor) => {
    expect(summary[type]!.bleu).toBeGreaterThanOrEqual(bleuFloor);
    expect(summary[type]!.em).toBeGreaterThanOrEqual(emFloor);
  });
});
