import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createPedants, type PedantsModel } from './pedants.ts';
import modelJson from './pedants-model.json' with { type: 'json' };
import { lexicon } from '../../../test/lexicon.ts';

const pedants = createPedants({ lexicon });
const dev = readFileSync(new URL('../../../test/fixtures/taxonomy-dev.jsonl', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { question: string; gold: string[]; candidate: string; label: string });

describe('pedants with the text signals', () => {
  it('no longer calls clear contradictions correct', () => {
    const r = pedants.score({
      question: 'Where is the Eiffel Tower?',
      golds: ['The Eiffel Tower is in Paris'],
      candidate: 'The Eiffel Tower is not in Paris',
    });
    expect(r.decision).toBe(false);
    expect(r.explanation).toMatch(/negation "not" contradicts the gold/);
    expect(r.details).toMatchObject({ contributions: { polarity_prior: -6 } });
    const flips = [
      { question: 'What happens to the volume of water when it freezes?', golds: ['It increases'], candidate: 'It decreases.' },
      { question: 'Is a tomato botanically a fruit?', golds: ['Yes'], candidate: 'No, a tomato is a vegetable.' },
    ];
    for (const f of flips) expect(pedants.score(f).decision, f.candidate).toBe(false);
  });

  it("calls another number of the gold's name wrong, and the same number right", () => {
    const q = 'Who was the British monarch in 1960?';
    const r = pedants.score({ question: q, golds: ['Elizabeth II'], candidate: 'Elizabeth I' });
    expect(r.decision).toBe(false);
    expect(r.details).toMatchObject({ contributions: { name_number_prior: -6 } });
    expect(pedants.score({ question: q, golds: ['Elizabeth II'], candidate: 'Queen Elizabeth the Second' }).decision).toBe(true);
  });

  it('still accepts correct answers that contain a negation', () => {
    expect(
      pedants.score({
        question: 'Which planet has no moons and is closest to the Sun?',
        golds: ['Mercury'],
        candidate: 'Mercury, which has no moons.',
      }).decision,
    ).toBe(true);
  });

  it("calls at most a quarter of the development set's contradictory answers correct", () => {
    const rows = dev.filter((r) => r.label === 'contradictory');
    const accepted = rows.filter((r) => pedants.score({ question: r.question, golds: r.gold, candidate: r.candidate }).decision).length;
    expect(accepted / rows.length).toBeLessThanOrEqual(0.25);
  });

  it('is no worse on held-out EVOUNA-TQ questions than before the signals (MCC 0.8347)', () => {
    const held = (modelJson as PedantsModel).training.held_out as { pedants: { mcc: number } };
    expect(held.pedants.mcc).toBeGreaterThanOrEqual(0.8347);
  });
});

describe("pedants' card", () => {
  it('cites PEDANTS and CFMatch as two papers, and says its weights were trained on EVOUNA TriviaQA', async () => {
    const { card } = await import('./pedants.ts');
    expect(card.citation).toMatch(/Two papers\./);
    expect(card.citation).toMatch(/PEDANTS: Cheap but Effective and Interpretable Answer Equivalence, Findings of EMNLP 2024/);
    expect(card.citation).toMatch(/CFMatch: Aligning Automated Answer Equivalence Evaluation .* arXiv:2401\.13170/);
    expect(card.defaults).toMatch(/trained on EVOUNA TriviaQA/);
  });
});
