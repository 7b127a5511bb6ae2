/**
 * @file PEDANTS-style learned answer-correctness classifier that needs no download: tf-idf unigrams over
 * "[CLS] candidate [SEP] gold [SEP] question" plus agreement features (token F1/P/R, containment, fuzzy and
 * character overlap, numeric agreement, lengths) and the taxonomy's text signals (polarity flip, refusal,
 * quantity conflict or missing unit, wrong list or hedge items, less specific, the signals' class), combined
 * by logistic regression. The weights
 * (pedants-model.json, < 1 MB) come from `npm run train:pedants`.
 *
 * pedants({question: 'What is the fastest animal on two legs?', golds: ['Ostrich'], candidate: 'The ostrich.'})
 * // → { score: 0.999…, decision: true, explanation: 'P(correct)=0.999 (threshold 0.425); best gold "Ostrich": contains the gold, …' }
 */
import type { WordNet } from '../lexicon/index.ts';
import { CORRECT_CLASSES } from '../correctness.ts';
import type { Metric, MetricCard, QaItem, ResultUse } from '../types.ts';
import { analyze, DENSE_FEATURES, signalPrior, tfidf } from './pedants-features.ts';
import { quote, round } from './common.ts';
import { sigmoid } from '../agreement/logistic.ts';
import modelJson from './pedants-model.json' with { type: 'json' };
import { thresholdOption, type LexicalDescriptor } from './descriptor.ts';

const QUANTITY_CONFLICT = DENSE_FEATURES.indexOf('quantity_conflict');
const LESS_SPECIFIC = DENSE_FEATURES.indexOf('less_specific');
/** Every feature's key, to copy (one shape for every row's contributions). */
const FEATURE_KEYS: Readonly<Record<string, number>> = Object.fromEntries(DENSE_FEATURES.map((f) => [f, 0]));

export interface PedantsModel {
  version: 1;
  dense: { names: string[]; mean: number[]; std: number[]; weights: number[] };
  tfidf: { vocab: string[]; idf: number[]; weights: number[] };
  bias: number;
  threshold: number;
  training: Record<string, unknown>;
}

export const card: MetricCard = {
  what: 'A small learned judge (logistic regression) of whether the candidate means the same as a gold answer.',
  formula:
    'P(correct) = σ(w·[standardized agreement features ; tf-idf("[CLS] cand [SEP] gold [SEP] question")] + b + prior), where prior = −6 for a clear contradiction or another number of the gold\'s name ("Elizabeth I" for "Elizabeth II"), which the training data has too few of to teach, else 0. When taxonomy_text judged a stated final answer ("So the answer is X") instead of the whole candidate, cand is X.',
  defaults:
    "Verity's own weights, not the papers': trained on EVOUNA TriviaQA's human judgments (Wang et al., 2023; 80% of its questions, figures on the other 20% in the model file), so it knows that set's five systems and answer styles best. Threshold chosen for MCC by cross-validation.",
  limits:
    'Trained on one dataset in English; other datasets and answer styles will differ. Cannot check facts beyond the gold answers and what WordNet 3.0 knows (a synonym, broader or narrower term, an antonym are features).',
  citation:
    'Two papers. Li, Mondal, Liang, Nghiem & Boyd-Graber, 2024: PEDANTS: Cheap but Effective and Interpretable Answer Equivalence, Findings of EMNLP 2024. Li, Mondal, Liang, Nghiem & Boyd-Graber, 2024: CFMatch: Aligning Automated Answer Equivalence Evaluation with Expert Judgments for Open-Domain Question Answering, arXiv:2401.13170. Training data: Wang et al., 2023, Evaluating Open-QA Evaluation (EVOUNA), NeurIPS Datasets and Benchmarks.',
};

function validate(m: PedantsModel): PedantsModel {
  const d = DENSE_FEATURES.length;
  const ok =
    m.version === 1 &&
    m.dense.names.join() === DENSE_FEATURES.join() &&
    m.dense.mean.length === d &&
    m.dense.std.length === d &&
    m.dense.weights.length === d &&
    m.tfidf.vocab.length === m.tfidf.idf.length &&
    m.tfidf.vocab.length === m.tfidf.weights.length;
  if (!ok) throw new Error('pedants-model.json does not match the feature set: run `npm run train:pedants`');
  return m;
}

export interface PedantsOptions {
  threshold?: number;
  model?: PedantsModel;
  /** WordNet, for the WordNet features and the text signals' relations; null runs without it. */
  lexicon: WordNet | null;
}

export function createPedants(options: PedantsOptions): Metric {
  const model = validate(options.model ?? (modelJson as PedantsModel));
  const threshold = options.threshold ?? model.threshold;
  const index = new Map(model.tfidf.vocab.map((t, i) => [t, i] as const));
  return {
    name: 'pedants',
    card,
    threshold,
    score(item: QaItem, use: ResultUse = 'full') {
      if (item.golds.length === 0) return { score: 0, decision: 0 >= threshold, explanation: 'no gold answer' };
      const a = analyze(item, options.lexicon, use === 'full');
      // Contributions in feature order, then the prior, then the words (the logit sums them in that order); the
      // prior's and the words' keys are added after the features', so the key order is the same every row. A
      // caller that keeps the scores alone gets the same sum without the record.
      const contributions: Record<string, number> | null = use === 'full' ? { ...FEATURE_KEYS } : null;
      let sum = 0;
      for (let j = 0; j < DENSE_FEATURES.length; j++) {
        const c = ((a.dense[j]! - model.dense.mean[j]!) / model.dense.std[j]!) * model.dense.weights[j]!;
        if (contributions) contributions[DENSE_FEATURES[j]!] = c;
        sum += c;
      }
      const sp = tfidf(a.textTokens, index, model.tfidf.idf);
      let words = 0;
      sp.idx.forEach((k, i) => (words += sp.val[i]! * model.tfidf.weights[k]!));
      const prior = signalPrior(a.verdict);
      if (prior) {
        if (contributions) contributions[prior.name] = prior.logit;
        sum += prior.logit;
      }
      const z = model.bias + sum + words;
      const p = sigmoid(z);
      if (!contributions) return { score: p, decision: p >= threshold, explanation: '' };
      contributions.words = words;
      const [f1, , , , , containsGold, , , fuzzy, , , numbersAgree, numbersConflict] = a.dense;
      const s = a.verdict.signals;
      const facts = [
        ...(s.refusal ? [`a non-answer ("${s.refusal.cue}")`] : []),
        ...(s.polarity ? [`${s.polarity.kind} "${s.polarity.cue}" contradicts the gold`] : []),
        containsGold ? 'contains the gold' : 'does not contain the gold',
        `token F1 ${round(f1!, 2)}`,
        `fuzzy gold coverage ${round(fuzzy!, 2)}`,
        ...(numbersAgree ? ['numbers agree'] : []),
        ...(numbersConflict ? ['numbers conflict'] : []),
        ...(a.dense[QUANTITY_CONFLICT] ? ["another value of the gold's quantity"] : []),
        ...(s.list?.wrong.length ? [`${s.list.kind} with wrong ${s.list.wrong.map((w) => `"${w}"`).join(', ')}`] : []),
        ...(a.dense[LESS_SPECIFIC] ? ['less specific than the gold'] : []),
        // The text signals' class and the decision can disagree: the other features outweigh them then.
        `text signals: ${a.verdict.cls}${CORRECT_CLASSES.has(a.verdict.cls) !== p >= threshold ? ', outweighed by the other features' : ''}`,
      ];
      const best = a.bestIsForm
        ? `best match ${quote(a.bestGold)}, ${a.verdict.signal === 'wordnet' ? 'a WordNet synonym' : 'another name'} of gold ${quote(item.golds[a.verdict.gold] ?? item.golds[0]!)}`
        : `best gold ${quote(a.bestGold)}`;
      return {
        score: p,
        decision: p >= threshold,
        explanation: `P(correct)=${round(p)} (threshold ${round(threshold)}); ${best}: ${facts.join(', ')}`,
        details: { matched_gold: a.bestGold, logit: z, contributions },
      };
    },
  };
}

export const descriptor: LexicalDescriptor = {
  name: 'pedants',
  family: 'lexical',
  card,
  default: true,
  needsLexicon: true,
  create: (s, name = 'pedants', lexicon = null) => createPedants({ ...thresholdOption(s, name), lexicon }),
  examples: [
    {
      item: { question: 'What is the fastest animal on two legs?', golds: ['Ostrich'], candidate: 'The ostrich.' },
      expected: { score: 0.999, decision: true },
    },
  ],
};
