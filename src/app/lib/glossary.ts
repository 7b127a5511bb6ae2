/**
 * The terms the pages use, one line each: shown on the Learn page (#/learn?term=KEY scrolls to one) and as the
 * title of every Term link where a page uses the word.
 */
export const GLOSSARY = {
  bp: {
    term: 'BP (brevity penalty)',
    line: "BLEU's factor for a candidate shorter than the closest gold: exp(1 − gold length / candidate length) when shorter, else 1.",
  },
  logit: {
    term: 'logit',
    line: 'The log-odds of a probability, ln(p / (1 − p)): 0 is p = 0.5; a logistic regression (PEDANTS, NLI+lexical) adds its features’ weighted values in logits.',
  },
  spearman: {
    term: 'Spearman ρ',
    line: 'Rank correlation between two orderings (here score and class severity): 1 = same order, 0 = unrelated, −1 = reversed.',
  },
  kendall: {
    term: 'Kendall τ-b',
    line: 'Rank correlation from pairs: (agreeing − disagreeing pairs), scaled so ties in either ordering are allowed; 1 = same order.',
  },
  pairwise: {
    term: 'pairwise accuracy',
    line: 'Of all pairs of answers from different classes, the share the metric orders the human way; a pair scored alike counts half.',
  },
  mcc: {
    term: 'MCC (Matthews correlation)',
    line: 'Correlation between the metric’s correct/incorrect calls and the human labels, from the whole confusion matrix: 1 = perfect, 0 = chance, fair when one label is rare.',
  },
  kappa: {
    term: 'Cohen’s κ',
    line: 'Agreement between the metric’s calls and the human labels beyond what chance agreement at their rates would give: 1 = perfect, 0 = chance.',
  },
  auc: {
    term: 'ROC-AUC',
    line: 'The chance that a correct answer scores above an incorrect one (ties count half), over every threshold at once: 0.5 = coin flip, 1 = perfect.',
  },
  bootstrap: {
    term: 'bootstrap interval',
    line: 'The range a figure takes over many resamples of the rows drawn with replacement: a 95% interval holds the true value in about 95 of 100 such studies.',
  },
  'hard-pairs': {
    term: 'hard pairs',
    line: 'Neighbouring classes that are easy to confuse (Eq>Part, OV>Part, OV>OI, Alt>Inv): the chance an answer of the first outscores one of the second; 0.5 = coin flip.',
  },
} as const satisfies Record<string, { term: string; line: string }>;

export type GlossaryKey = keyof typeof GLOSSARY;

/** How each term is written in running text (a metric's card, an explanation). */
const IN_TEXT: Record<GlossaryKey, RegExp> = {
  bp: /\bBP\b|brevity penalty/,
  logit: /\blogits?\b/i,
  spearman: /Spearman|ρ/,
  kendall: /Kendall|τ/,
  pairwise: /pairwise (ranking )?accuracy/i,
  mcc: /\bMCC\b|Matthews/,
  kappa: /κ|\bkappa\b/i,
  auc: /\bAUC\b/,
  bootstrap: /bootstrap/i,
  'hard-pairs': /hard pairs?/i,
};

/** The glossary terms a text uses, in the glossary's order. */
export function termsIn(text: string): GlossaryKey[] {
  return (Object.keys(GLOSSARY) as GlossaryKey[]).filter((k) => IN_TEXT[k].test(text));
}

/** The link to a term's line on the Learn page. */
export const termHref = (key: GlossaryKey): string => `#/learn?term=${key}`;

/** The term a Learn link names (`#/learn?term=mcc`), or null. */
export function termOf(hash: string): GlossaryKey | null {
  const m = /^#\/?learn\?(.*)$/.exec(hash);
  const key = m ? new URLSearchParams(m[1]).get('term') : null;
  return key && Object.hasOwn(GLOSSARY, key) ? (key as GlossaryKey) : null;
}
