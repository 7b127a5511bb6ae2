import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../app/lib/presets.ts';
import type { NliDistribution } from '../capabilities.ts';
import { CAP_CLASSES, type ProvidedNli, type QaItem } from '../types.ts';
import { createTaxonomy } from './taxonomy.ts';
import { classScore, createTaxonomyText } from './taxonomy_text.ts';
import { createMetric, DEFAULT_METRICS, LEXICAL_METRICS } from './index.ts';
import { classifyText } from '../signals/classify.ts';
import { lexicon } from '../../../test/lexicon.ts';
import { withWordNet } from '../../../test/lexicon.ts';

const m = createTaxonomyText({ lexicon });
const score = (question: string, golds: string[], candidate: string) => m.score({ question, golds, candidate });

describe('taxonomy_text (no model)', () => {
  it.each(PRESETS.map((p) => [p.cls, p] as const))('the Playground preset for %s lands in its class', (cls, p) => {
    const r = score(p.question, p.golds, p.candidate);
    // A right answer the golds do not list is beyond the text: it is invalid here, as the preset's note says.
    const expected = cls === 'alternative-correct' ? 'invalid' : cls;
    expect(r.class).toBe(expected);
    expect(r.score).toBe(classScore(expected));
  });

  it("a name's number decides: another number of the name is invalid, the same in words equivalent", () => {
    const q = 'Which monarch?';
    expect(score(q, ['Elizabeth I'], 'Queen Elizabeth II').class).toBe('invalid');
    expect(score(q, ['Elizabeth II'], 'Elizabeth I').class).toBe('invalid');
    expect(score(q, ['John Paul II'], 'Pope John Paul I').class).toBe('invalid');
    expect(score(q, ['Henry VIII'], 'Henry the Eighth').class).toBe('equivalent');
    expect(score(q, ['Louis XIV'], 'Louis XIV of France').class).toBe('equivalent');
    expect(score(q, ['Elizabeth I'], 'Elizabeth I, not Elizabeth II').class).toBe('equivalent');
    // Another number is wrong, not a less specific answer (no specificity signal for a conflicting gold).
    expect(score(q, ['Elizabeth II'], 'Elizabeth I').details).not.toHaveProperty('specificity');
    expect(classifyText({ question: q, golds: ['Elizabeth II'], candidate: 'Elizabeth I' }, lexicon).signals.specificity).toEqual([null]);
  });

  it('the head of a gold qualified after a comma gives the answer; a part of a plain name does not', () => {
    expect(score('Which racecourse?', ['Gulfstream Park, Florida'], 'Gulfstream Park').class).toBe('equivalent');
    expect(score('Who was it?', ['Robert Kennedy, who was the US Attorney General'], 'It was Robert Kennedy.').class).toBe('equivalent');
    expect(score('Which city?', ['Bodega Bay, California'], 'Bodega').class).toBe('partial');
    // Dates after the comma, or no specificity cue at all.
    expect(score('Who?', ['Nicholas Breakspear, who was Adrian IV from 1154'], 'Adrian IV (Nicholas Breakspear)').class).toBe('equivalent');
    expect(score('What was it?', ['The Spot, or thespot.com'], 'It was The Spot.').class).toBe('equivalent');
    // A name written surname first has no head that names it.
    expect(score('Which Beach Boy?', ['Wilson, Carl', 'Carl Wilson'], 'Dennis Wilson').decision).toBe(false);
    expect(score('Who?', ['Fleming, Sir John Ambrose'], "Fleming's rule").decision).toBe(false);
    expect(score('Who painted it?', ['Leonardo da Vinci'], 'Leonardo').class).toBe('partial');
  });

  it('a gold that lost its non-ASCII letters is given by the name written with them', () => {
    const r = score('Who invented the biro?', ['Lszl Br'], 'It was invented by László Bíró.');
    expect(r.decision).toBe(true);
    expect(r.explanation).toMatch(/without its non-ASCII letters/);
    expect(score('Which opera?', ['Gtterdmmerung'], 'Götterdämmerung').class).toBe('exact');
    // Only for a gold written in ASCII, and only when that makes the answer right.
    expect(score('Which opera?', ['Götterdämmerung'], 'Siegfried, not Götterdämmerung').class).toBe('contradictory');
    expect(score('Who?', ['Lszl Br'], 'Ernő Rubik').decision).toBe(false);
  });

  it('a gold spaced otherwise in the candidate, and denied by another of its names', () => {
    expect(score('What does Sally sell?', ['Sea Shells'], 'Sally sells seashells.').class).toBe('equivalent');
    expect(score('Who wrote it?', ['ROBERTBROWNING'], 'Robert Browning wrote it.').class).toBe('equivalent');
    expect(score('Who wrote it?', ['ROBERTBROWNING'], 'Elizabeth Barrett Browning').decision).toBe(false);
    expect(score('Where are fries from?', ['Switzer land'], 'Belgium, not France or Switzerland.').class).toBe('contradictory');
    expect(score('Which country?', ['USA'], 'Not the United States.').class).toBe('contradictory');
  });

  it('a list that names every gold item, some by another name, is equivalent', () => {
    const q = 'Which four countries have the largest populations?';
    const r = score(q, ['China, India, USA, Indonesia'], 'China, India, the United States, and Indonesia.');
    expect(r.class).toBe('equivalent');
    expect(r.explanation).toMatch(/every item of the gold/);
    expect(score(q, ['China, India, USA, Indonesia'], 'China, India, the United States, and Brazil.').class).toBe('invalid');
  });

  it('a sign is part of the value: "40" is not "-40", though normalization drops the minus', () => {
    const q = 'At what temperature are Celsius and Fahrenheit equal?';
    expect(score(q, ['-40'], '40').class).toBe('invalid');
    expect(score(q, ['minus 40'], '-40').class).toBe('equivalent');
    expect(score(q, ['-40 °C'], 'Forty degrees below zero.').class).toBe('equivalent');
    expect(score(q, ['-40'], '-40').class).toBe('exact');
  });

  it('is embedded: in the default set and the no-model list', () => {
    expect(DEFAULT_METRICS).toContain('taxonomy_text');
    expect(LEXICAL_METRICS).toContain('taxonomy_text');
    expect(createMetric('taxonomy_text', {}, withWordNet).name).toBe('taxonomy_text');
  });

  it('scores classes in severity order; correct classes decide true', () => {
    const scores = CAP_CLASSES.map(classScore);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(score('What is the capital of France?', ['Paris'], 'Paris').decision).toBe(true);
    expect(score('What is the capital of France?', ['Paris'], 'Lyon').decision).toBe(false);
  });

  it('the explanation and details name the deciding signal', () => {
    const r = score('Where is the Eiffel Tower?', ['Paris'], 'The Eiffel Tower is not in Paris.');
    expect(r.explanation).toMatch(/^contradictory \(polarity\): negation "not"/);
    expect(r.details).toMatchObject({ signal: 'polarity', polarity: 'negation: not' });
    const q = score('At what temperature does water boil at sea level?', ['100 °C'], 'It boils at 212 degrees Fahrenheit.');
    expect(q.class).toBe('equivalent');
    expect(q.details).toMatchObject({ signal: 'quantities', quantities: 'same' });
  });

  it('refusals are invalid, never partial', () => {
    for (const c of ["I don't know.", 'It depends.', 'I cannot answer that.'])
      expect(score('What is the capital of France?', ['Paris'], c).class).toBe('invalid');
  });

  it('correct answers with a negation stay correct; contradictions without "not" are caught', () => {
    expect(score('Can sound travel through a vacuum?', ['No'], 'Sound cannot travel through a vacuum.').decision).toBe(true);
    expect(score('Which planet has no moons and is closest to the Sun?', ['Mercury'], 'Mercury, which has no moons.').decision).toBe(true);
    expect(score('What happens to the volume of water when it freezes?', ['It increases'], 'It decreases.').class).toBe('contradictory');
  });

  it('lists and hedges: two of three → partial, all plus a wrong one → overinclusive-invalid, X or Y → partial', () => {
    expect(score('Name the three primary colours of light.', ['red, green and blue'], 'Red and green.').class).toBe('partial');
    expect(score('Name two noble gases.', ['helium and neon'], 'Helium, neon and chlorine.').class).toBe('overinclusive-invalid');
    expect(score('What is the capital of Canada?', ['Ottawa'], 'Ottawa or Toronto.').class).toBe('partial');
  });

  it('no gold: not scored', () => {
    expect(score('Q?', [], 'x')).toMatchObject({ score: null, decision: null });
  });
});

describe('taxonomy with NLI: decisive text signals override NLI, naming the signal', () => {
  const d = (entailment: number, neutral: number, contradiction: number): NliDistribution => ({ entailment, neutral, contradiction });
  const ENT = d(0.9, 0.1, 0);
  const both: ProvidedNli = { goldToCandidate: ENT, candidateToGold: ENT };
  const it_ = (golds: string[], candidate: string, nli: ProvidedNli[]): QaItem => ({
    question: 'Where is the Eiffel Tower?',
    golds,
    candidate,
    nli,
  });

  it('a negated gold that NLI calls equivalent → contradictory', async () => {
    const [r] = await createTaxonomy({ lexicon }).scoreBatch([it_(['Paris'], 'It is not in Paris.', [both])], {});
    expect(r!.class).toBe('contradictory');
    expect(r!.explanation).toMatch(/^contradictory by text signal polarity .* over NLI's equivalent/);
    expect(r!.details).toMatchObject({ nli_class: 'equivalent', text_signals: { signal: 'polarity' } });
  });

  it('no decisive signal: NLI decides, and the text signals are in the details', async () => {
    const [r] = await createTaxonomy({ lexicon }).scoreBatch([it_(['Paris'], 'It is in Paris.', [both])], {});
    expect(r!.class).toBe('equivalent');
    expect(r!.details).toMatchObject({ text_signals: { class: 'equivalent' } });
  });
});
