import { describe, expect, it } from 'vitest';
import { polarity } from './polarity.ts';

const p = (question: string, gold: string, candidate: string) => polarity({ question, golds: [gold], candidate });

describe('polarity', () => {
  it('negation scoped to the clause that carries the gold', () => {
    expect(p('Where is the Eiffel Tower?', 'The Eiffel Tower is in Paris', 'The Eiffel Tower is not in Paris')).toMatchObject({
      kind: 'negation',
      cue: 'not',
    });
    expect(p('Which is the largest planet?', 'Jupiter', "It isn't Jupiter.")?.kind).toBe('negation');
    expect(
      p('Who discovered penicillin?', 'Alexander Fleming', 'Alexander Fleming never discovered penicillin; it was Florey.')?.kind,
    ).toBe('negation');
    expect(p('What is the capital of Turkey?', 'Ankara', 'Ankara is no longer the capital; Istanbul is.')?.kind).toBe('negation');
  });
  it('correct answers that merely contain a negation are not flagged', () => {
    expect(p('Can sound travel through a vacuum?', 'No', 'Sound cannot travel through a vacuum.')).toBeNull();
    expect(p('Which planet has no moons?', 'Venus', 'Venus has no moons.')).toBeNull();
    expect(p('What is the capital of Australia?', 'Canberra', 'Canberra, not Sydney.')).toBeNull();
    expect(p('When did humans first land on the Moon?', '1969', "It wasn't until 1969 that humans landed on the Moon.")).toBeNull();
    expect(p('Which metal is liquid at room temperature?', 'Mercury', 'Mercury, which is not a solid at room temperature.')).toBeNull();
  });
  it('a parenthesised "not" denies the gold it carries, and only that', () => {
    expect(p('Where is the Eiffel Tower?', 'Paris', 'Lyon (not Paris)')).toMatchObject({ kind: 'negation', cue: 'not' });
    expect(p('How many legs does a spider have?', '8', 'Six. (Not eight.)')).toMatchObject({ kind: 'negation', cue: 'Not' });
    expect(p('When was the neutron discovered?', '1932', '1934 (not 1932)')?.kind).toBe('negation');
    expect(p('Where is the Eiffel Tower?', 'Paris', 'Paris (not Lyon)')).toBeNull();
  });
  it('a negation in a quoted title or lyric, a refusal, or a correction in parentheses denies nothing', () => {
    expect(
      p("Who is featured on Puff Daddy's Can't Hold Me Down?", 'Mase', 'Mase is featured on Puff Daddy\'s "Can\'t Nobody Hold Me Down."'),
    ).toBeNull();
    // The question still in CSV quoting, the answer's quote split across clauses.
    expect(
      p(
        '"According to the song lyrics where can ""you check out any time you like, but you can never leave""?"',
        'Hotel California',
        'According to the song lyrics, you can "check out any time you like, but you can never leave" in the song "Hotel California".',
      ),
    ).toBeNull();
    expect(
      p(
        'Which scientist discovered the neutron in 1934?',
        'James Chadwick',
        'The neutron was discovered in 1932 (not 1934) by James Chadwick.',
      ),
    ).toBeNull();
    expect(p('Which 1993 film won Oscars?', 'The Piano', "I couldn't find the 1993 film; perhaps The Piano.")).toBeNull();
    // The question asks with a negation: the answer's leading "not" agrees with it.
    expect(p('In Gremlins, what should you not expose a Mogwai to?', 'Bright light', 'Not to bright light.')).toBeNull();
    // A gold that is itself "none" is not denied by "no countries".
    expect(p('How many countries border the Sargasso Sea?', 'None', 'The Sargasso Sea is bordered by no countries.')).toBeNull();
  });
  it('a name that starts with false or no is no yes/no gold', () => {
    expect(p('What is the name of the spider in the news?', 'False widow', 'The false widow spider.')).toBeNull();
    expect(p('Is taphephobia the fear of losing teeth?', 'False (disambiguation)', 'Yes, it is.')?.kind).toBe('yes-no');
  });
  it('yes/no golds: the other answer is a contradiction', () => {
    expect(p('Is a tomato a fruit?', 'Yes', 'No, it is a vegetable.')?.kind).toBe('yes-no');
    expect(p('Can sound travel through a vacuum?', 'No', 'Yes, sound travels through a vacuum.')?.kind).toBe('yes-no');
    expect(p('Is a tomato a fruit?', 'Yes', 'Yes, botanically it is a fruit.')).toBeNull();
  });
  it('premise denial', () => {
    expect(p('Name a mammal that lays eggs.', 'platypus', 'No mammal lays eggs; even the platypus gives birth to live young.')?.kind).toBe(
      'denial',
    );
    expect(p('Who was the first woman on the Moon?', 'No woman has walked on the Moon', 'No woman has walked on the Moon yet.')).toBeNull();
    expect(p('What did Einstein win the Nobel Prize for?', 'the photoelectric effect', "That's a myth; he never won it.")?.kind).toMatch(
      /denial|negation/,
    );
  });
  it('antonyms against the gold and the question, without "not"', () => {
    expect(p('What happens to the volume of water when it freezes?', 'It increases', 'It decreases.')).toMatchObject({
      kind: 'antonym',
      cue: 'decreases (vs increase)'.replace('decreases', 'decrease'),
    });
    expect(
      p('Which gas do plants absorb during photosynthesis?', 'carbon dioxide', 'Plants release carbon dioxide during photosynthesis.')
        ?.kind,
    ).toBe('antonym');
    expect(p('Do like magnetic poles attract or repel?', 'repel', 'They attract each other.')?.kind).toBe('antonym');
    expect(
      p('Which gas do plants absorb during photosynthesis?', 'carbon dioxide', 'Plants absorb carbon dioxide and release oxygen.'),
    ).toBeNull();
    expect(p('Which continent is Egypt in?', 'Africa', 'North Africa.')).toBeNull();
  });
});
