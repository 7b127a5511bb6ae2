/** The glossary: one line per term the pages use, found where the pages use it, reachable by link. */
import { describe, expect, it } from 'vitest';
import { GLOSSARY, termHref, termOf, termsIn, type GlossaryKey } from './glossary.ts';
import { createSyncMetric, SUPPORTED_METRICS } from '../../core/metrics/index.ts';
import { pageOf } from './router.svelte.ts';
import { withWordNet } from '../../../test/lexicon.ts';

describe('glossary', () => {
  it('has the terms the issue names, one line each', () => {
    for (const k of ['bp', 'logit', 'kendall', 'mcc', 'kappa', 'auc', 'bootstrap'] as GlossaryKey[]) expect(GLOSSARY[k]).toBeDefined();
    for (const g of Object.values(GLOSSARY)) {
      expect(g.line).not.toContain('\n');
      expect(g.line.length).toBeLessThan(200);
    }
  });

  it('a term link opens the Learn page at that term; anything else names none', () => {
    for (const k of Object.keys(GLOSSARY) as GlossaryKey[]) {
      expect(pageOf(termHref(k))).toBe('learn');
      expect(termOf(termHref(k))).toBe(k);
    }
    expect(termOf('#/learn')).toBeNull();
    expect(termOf('#/learn?term=constructor')).toBeNull();
    expect(termOf('#/score?term=mcc')).toBeNull();
  });

  it("finds the terms in the metrics' cards, explanations and details: BLEU's BP, PEDANTS' logit", () => {
    const bleu = createSyncMetric('bleu').score({ question: 'q', golds: ['the cat sat'], candidate: 'the cat' });
    expect(termsIn(bleu.explanation)).toContain('bp');
    const card = (name: string) => {
      const d = SUPPORTED_METRICS.find((m) => m.name === name)!;
      return `${d.card.what} ${d.card.formula} ${d.card.defaults} ${d.card.limits}`;
    };
    expect(termsIn(card('bleu'))).toContain('bp');
    // PEDANTS shows its logit among the details the Playground lists.
    const pedants = createSyncMetric('pedants', {}, withWordNet).score({
      question: 'Who wrote Hamlet?',
      golds: ['William Shakespeare'],
      candidate: 'Shakespeare',
    });
    expect(termsIn(Object.keys(pedants.details ?? {}).join(' '))).toContain('logit');
    expect(termsIn(card('pedants'))).not.toContain('bp');
    expect(termsIn('Accuracy and recall only')).toEqual([]);
    expect(termsIn('MCC with a 95% bootstrap interval; AUC and κ')).toEqual(['mcc', 'kappa', 'auc', 'bootstrap']);
  });
});
