/**
 * taxonomy_text: the eight-class taxonomy with no model at all, from the text signals (src/core/signals/):
 * refusals, polarity (negation, antonyms, premise denial), quantities and units, hedges and lists, extra
 * content and specificity, and a stated final answer. Scored by class (the middle of the class's uniform 1/8 bin), embedded and instant.
 * The model taxonomy (taxonomy.ts) lets the decisive signals override NLI.
 */
import type { WordNet } from '../lexicon/index.ts';
import { classifyText, type TextVerdict } from '../signals/classify.ts';
import { renderTextClaims } from '../signals/claims.ts';
import { CAP_CLASSES, type CapClass, type Metric, type MetricCard, type MetricResult, type QaItem, type ResultUse } from '../types.ts';
import { round } from './common.ts';
import { thresholdOption, type LexicalDescriptor } from './descriptor.ts';

export const textCard: MetricCard = {
  what: 'Sorts each answer into one of the eight correctness classes from text signals alone, with no download: refusals, negation and antonyms, numbers and units, hedges and lists, extra content, specificity, and what WordNet 3.0 knows (synonyms, broader terms, antonyms).',
  formula:
    "In order: refusal → invalid; polarity flip (negated gold clause, yes/no flip, premise denial, antonym) → contradictory; equals the first gold → exact (another gold → equivalent or alternative-correct); hedge with a wrong alternative → partial; list item by item (all + wrong → overinclusive-invalid, some → partial); quantities converted by unit (other value → invalid, gold + other value → overinclusive-invalid, no unit or a range → partial); gold words all there → equivalent, plus added claims → overinclusive-valid; less specific → partial; still not correct: a WordNet synonym of a gold (same synonym set: “cattle” for “cow”, “Red Planet” for “Mars”) → equivalent, a broader term (a hypernym: “fruit” for “oranges”) → partial, the gold's antonym in its frame → contradictory; else invalid. An answer that states its final answer (“So the answer is X”, “Final answer: X”, “Answer: X” opening a line, a first line before “Explanation:”) takes the class of that answer when the two disagree on right or wrong (a gold named only on the way is not the answer). Score = middle of the class's uniform 1/8 bin.",
  defaults:
    'No parameters. Score: exact 0.9375, equivalent 0.8125, alternative-correct 0.6875, overinclusive-valid 0.5625, partial 0.4375, overinclusive-invalid 0.3125, invalid 0.1875, contradictory 0.0625; correct (score ≥ 0.5) = exact, equivalent, alternative-correct, overinclusive-valid.',
  limits:
    'Reads text, not the world: a false added claim ("Canberra, the largest city") stays overinclusive-valid unless it contradicts a number, an antonym or a list; aliases WordNet does not hold ("Hg" for mercury) are invalid. A narrower term ("basalt" for "igneous rock") is named in the explanation but not credited: WordNet cannot tell whether the more specific claim is true. WordNet knows common nouns and well-known names, not most people or recent things. English only. Tuned on the project\'s own development set (test/fixtures/taxonomy-dev.jsonl).',
  citation:
    'Classes from CAP (EMNLP 2026 submission, OpenReview QaUpgKM18R); synonym sets, hypernyms and antonyms from Princeton WordNet 3.0 (Miller 1995; licence in lexicon/wordnet-3.0.LICENSE), curated antonym pairs from WordNet 3.1; units by js-quantities. Compare Li et al., 2024, PEDANTS, for rule features of answer equivalence.',
};

/** The score of a class in the text taxonomy: the middle of its uniform bin (exact highest). */
export function classScore(cls: CapClass): number {
  const i = CAP_CLASSES.indexOf(cls);
  return 1 - (i + 0.5) / CAP_CLASSES.length;
}

/** The details a text verdict shows: the deciding signal first, then every signal that fired. */
export function verdictDetails(v: TextVerdict): Record<string, unknown> {
  return addVerdictDetails({}, v);
}

/** verdictDetails(v) written into `out` (after what it already has), with no object in between. */
function addVerdictDetails(out: Record<string, unknown>, v: TextVerdict): Record<string, unknown> {
  const s = v.signals;
  out.signal = v.signal;
  if (v.answer !== undefined) out.stated_answer = v.answer;
  if (s.refusal) out.refusal = s.refusal.cue;
  if (s.polarity) out.polarity = `${s.polarity.kind}: ${s.polarity.cue}`;
  if (s.list) out[s.list.kind] = `${s.list.correct.length} right, ${s.list.wrong.length} wrong of ${s.list.items.length}`;
  const qs = s.quantities[v.gold];
  if (qs && qs.relation !== 'none') out.quantities = `${qs.relation}${qs.at ? ` (${qs.at.text})` : ''}`;
  const ex = s.extra[v.gold];
  if (ex) out.gold_coverage = round(ex.coverage);
  if (ex?.extra.length) out.extra_words = ex.extra.join(' ');
  const sp = s.specificity[v.gold];
  if (sp) out.specificity = `${sp.kind}: ${sp.cue}`;
  return out;
}

/** The taxonomy with no model: text signals only (see the file comment). A threshold other than 0.5 moves the decision off the class line. */
export function createTaxonomyText(options: { threshold?: number; lexicon: WordNet | null }): Metric {
  const threshold = options.threshold ?? 0.5;
  return {
    name: 'taxonomy_text',
    card: textCard,
    threshold,
    score(item: QaItem, use: ResultUse = 'full'): MetricResult {
      if (item.golds.length === 0) return { score: null, decision: null, explanation: 'no gold answer' };
      const v = classifyText(item, options.lexicon, use === 'full');
      const score = classScore(v.cls);
      if (use === 'scores') return { score, decision: score >= threshold, class: v.cls, explanation: '' };
      return {
        score,
        decision: score >= threshold,
        class: v.cls,
        // Text shows that something was added, not whether it is true.
        explanation: `${v.cls} (${v.signal}): ${renderTextClaims(v.claims)}${v.cls === 'overinclusive-valid' ? '; extra claims not checked (text only)' : ''}`,
        details: Object.assign(addVerdictDetails({ class: v.cls }, v), { chosen_gold: item.golds[v.gold], chosen_gold_index: v.gold }),
      };
    },
  };
}

export const descriptor: LexicalDescriptor = {
  name: 'taxonomy_text',
  family: 'lexical',
  card: textCard,
  default: true,
  classes: true,
  needsLexicon: true,
  create: (s, name = 'taxonomy_text', lexicon = null) => createTaxonomyText({ ...thresholdOption(s, name), lexicon }),
  examples: [
    {
      item: { question: 'Where is the Eiffel Tower?', golds: ['Paris'], candidate: 'The Eiffel Tower is not in Paris.' },
      expected: { score: 0.0625, decision: false },
    },
    {
      item: { question: 'At what temperature does water boil at sea level?', golds: ['100 °C'], candidate: '212 °F' },
      expected: { score: 0.8125, decision: true },
    },
  ],
};
