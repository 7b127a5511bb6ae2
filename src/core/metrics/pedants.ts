/**
 * @file PEDANTS-style learned answer-correctness classifier that needs no download: tf-idf unigrams over
 * "[CLS] candidate [SEP] gold [SEP] question" plus agreement features (token F1/P/R, containment, fuzzy and
 * character overlap, numeric agreement, lengths) and the taxonomy's text signals (polarity flip, refusal,
 * quantity conflict or missing unit, wrong list or hedge items, less specific, the signals' class), combined
 * by logistic regression. The weights
 * (pedants-model.json, < 1 MB) come from `npm run train:pedants`.
 *
 * pedants({question: 'What is the fastest animal on two legs?', golds: ['Ostrich'], candidate: 'The ostrich.'})
 * // → { score: 0.999…, decision: true, explanation: 'P(correct)=0.999 (threshold 0.465); holds gold "Ostrich" word for word, …' }
 * The reason is a list of typed claims (pedants-claims.ts), each checkable against the row.
 */
import type { WordNet } from '../lexicon/index.ts';
import { CORRECT_CLASSES } from '../correctness.ts';
import type { Metric, MetricCard, QaItem, ResultUse } from '../types.ts';
import { analyze, DENSE_FEATURES, isNumberToken, signalPrior, similarSpelling, tfidf, type Analysis } from './pedants-features.ts';
import { round } from './common.ts';
import { readsAs, renderClaims, type PedantsClaim } from './pedants-claims.ts';
import { quotableCue } from '../signals/refusal.ts';
import { normalizeTokens } from '../text/normalize.ts';
import { asWritten, bareWord, holdsAsWritten, writtenRun } from '../signals/words.ts';
import { sigmoid } from '../agreement/logistic.ts';
import modelJson from './pedants-model.json' with { type: 'json' };
import { thresholdOption, type LexicalDescriptor } from './descriptor.ts';

const QUANTITY_CONFLICT = DENSE_FEATURES.indexOf('quantity_conflict');
const LESS_SPECIFIC = DENSE_FEATURES.indexOf('less_specific');
const NUMBERS_AGREE = DENSE_FEATURES.indexOf('numbers_agree');
const NUMBERS_CONFLICT = DENSE_FEATURES.indexOf('numbers_conflict');

/** Shared tokens as the answer writes them: the word itself, or the token and the word it was read from ("degrees" of "°F"). */
function written(found: readonly string[], text: string): { word: string; from?: string }[] {
  const words = text.match(/[^\s]+/g) ?? [];
  const read = words.map((w) => normalizeTokens(w, 'numeric'));
  return found.map((t) => {
    const k = read.findIndex((r) => r.includes(t));
    // A token read from several words together ("2100000" from "2.1 million"): the words it came from.
    if (k < 0) {
      const span = writtenRun([t], text);
      return span ? { word: t, from: span } : { word: t };
    }
    const bare = bareWord(words[k]!);
    // One word read as one token is shown as written ("Na"); else the token, and the word it came from.
    if (read[k]!.length === 1 && bare.toLowerCase() === t) return { word: bare };
    return { word: t, from: bare || words[k]! };
  });
}

/** A polarity signal as a claim: its cue, and the words of the answer that show it ("south" of "south (vs north)"). */
function polarityClaim(polarity: string, cue: string, candidate: string): PedantsClaim {
  const words = cue.replace(/\s*\([^)]*\)$/, '');
  return { kind: 'polarity', polarity, cue, ...(words && candidate.toLowerCase().includes(words.toLowerCase()) ? { words } : {}) };
}

/** The reason's claims, from what decided (pedants-claims.ts): each about the text and gold it names. */
function pedantsClaims(item: QaItem, a: Analysis, correct: boolean): PedantsClaim[] {
  const v = a.verdict;
  const s = v.signals;
  const read = v.answer ?? item.candidate;
  // Held as read but not as written ("2.1 million" for "2,100,000"): the claim names what the answer wrote.
  const writtenAs = (text: string) => {
    if (holdsAsWritten(read, text)) return {};
    const as = writtenRun(normalizeTokens(text, 'numeric'), read);
    return as ? { as } : {};
  };
  const goldOf = (k: number): PedantsClaim & { kind: 'holds' } =>
    k < item.golds.length
      ? { kind: 'holds', text: item.golds[k]!, gold: item.golds[k]!, ...writtenAs(item.golds[k]!) }
      : {
          kind: 'holds',
          text: asWritten(a.goldTexts[k]!, read),
          gold: item.golds[v.gold] ?? item.golds[0]!,
          via: v.signal === 'wordnet' ? 'wordnet' : 'alias',
        };
  const left = [...a.bestTokens];
  const shared: string[] = [];
  for (const t of a.candTokens) {
    const k = left.indexOf(t);
    if (k < 0) continue;
    left.splice(k, 1);
    if (!shared.includes(t)) shared.push(t);
  }
  const candNumbers = [...new Set(a.candTokens.filter(isNumberToken))];
  // Gold words the answer spells otherwise (the fuzzy coverage feature's evidence), each with the answer's word.
  const pairs: { answer: string; gold: string }[] = [];
  for (const g of a.bestTokens) {
    if (a.candTokens.includes(g)) continue;
    const w = a.candTokens.find((t) => t !== g && similarSpelling(t, g));
    if (w && !pairs.some((x) => x.gold === g)) pairs.push({ answer: written([w], read)[0]!.word, gold: written([g], a.bestGold)[0]!.word });
  }
  // The conflict as read, where each side's number is among its text's words as read (a gold misread — "Forty-Fifth"
  // read as 40 — is no fact to state).
  let quantity: (PedantsClaim & { kind: 'quantity' }) | null = null;
  for (let k = 0; k < s.quantities.length && !quantity; k++) {
    const x = s.quantities[k]!;
    if (!(x.relation === 'conflict' || x.relation === 'extra-conflict') || !x.at || !readsAs(read, x.at.text)) continue;
    const g = x.gold.find((gq) => readsAs(item.golds[k]!, gq.text));
    if (g) quantity = { kind: 'quantity', answer: x.at.text, gold: g.text, goldText: item.golds[k]! };
  }
  // An answer that is a gold is no less specific than the golds, whatever one gold's signal says.
  const isGold = item.golds.some((g) => normalizeTokens(g, 'numeric').join(' ') === normalizeTokens(read, 'numeric').join(' '));
  const specific = isGold ? -1 : s.specificity.findIndex(Boolean);
  return [
    ...(v.answer !== undefined ? [{ kind: 'final-answer', text: v.answer } as const] : []),
    ...(s.refusal ? [{ kind: 'refusal', cue: quotableCue(s.refusal) } as const] : []),
    ...(s.polarity ? [polarityClaim(s.polarity.kind, s.polarity.cue, item.candidate)] : []),
    a.held >= 0 ? goldOf(a.held) : ({ kind: 'holds-none' } as const),
    { kind: 'overlap', text: a.bestIsForm ? asWritten(a.bestGold, read) : a.bestGold, f1: a.dense[0]!, shared: written(shared, read) },
    ...(pairs.length ? [{ kind: 'spelling', pairs } as const] : []),
    ...(a.dense[NUMBERS_AGREE] ? [{ kind: 'numbers-in', gold: a.bestGold, numbers: a.bestTokens.filter(isNumberToken) } as const] : []),
    ...(a.dense[NUMBERS_CONFLICT] ? [{ kind: 'numbers-not-in', numbers: candNumbers } as const] : []),
    ...(a.dense[QUANTITY_CONFLICT] && quantity ? [quantity] : []),
    ...(s.list?.wrong.length ? [{ kind: 'list-wrong', list: s.list.kind, items: s.list.wrong } as const] : []),
    ...(a.dense[LESS_SPECIFIC] && specific >= 0 ? [{ kind: 'less-specific', gold: item.golds[specific]! } as const] : []),
    // The text signals' class and the decision can disagree: the other features outweigh them then.
    { kind: 'text-signals', cls: v.cls, outweighed: CORRECT_CLASSES.has(v.cls) !== correct },
  ];
}

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
      const claims = pedantsClaims(item, a, p >= threshold);
      return {
        score: p,
        decision: p >= threshold,
        explanation: `P(correct)=${round(p)} (threshold ${round(threshold)}); ${renderClaims(claims)}`,
        details: { matched_gold: a.bestGold, logit: z, contributions, claims },
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
