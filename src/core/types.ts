/** Shared data types of the Verity core. Pure data: no DOM, no models. */
import type { Capability, ModelContext, NliDistribution } from './capabilities.ts';

/** The eight ordered correctness classes of the CAP taxonomy. */
export const CAP_CLASSES = [
  'exact',
  'equivalent',
  'alternative-correct',
  'overinclusive-valid',
  'partial',
  'overinclusive-invalid',
  'invalid',
  'contradictory',
] as const;
export type CapClass = (typeof CAP_CLASSES)[number];

/** A human label: binary correct/incorrect, or one of the eight classes. */
export type Label = { kind: 'binary'; correct: boolean } | { kind: 'taxonomy'; cls: CapClass };

/** NLI probabilities computed elsewhere for one gold answer (input field `nli`, one entry per gold, in order). */
export interface ProvidedNli {
  goldToCandidate: NliDistribution;
  candidateToGold: NliDistribution;
}

/** The entailment-hierarchy set (Yao & Barbosa): which direction(s) of entailment hold. */
export type EntailmentSet = 'superior' | 'inferior' | 'equivalent' | 'incorrect';

/** One question-answer pair to judge, as the metrics see it. */
export interface QaItem {
  question: string;
  /** Gold answers; a metric takes the best-matching one. */
  golds: string[];
  /** The answer to judge ('' when the input had none). */
  candidate: string;
  /** Multiple-choice options (A-VERT). */
  choices?: string[];
  /** Known wrong answers (A-VERT). */
  wrongAnswers?: string[];
  /** NLI probabilities supplied with the input, one entry per gold (validated on input). */
  nli?: ProvidedNli[];
  /** Statements supplied with the input. */
  statements?: { gold: string[]; candidate: string };
}

/** One parsed input row. */
export interface QaRow extends QaItem {
  /** 1-based row number in the input file (data rows, header excluded). */
  row: number;
  /** The input's id, or the row number as a string when the input has none. */
  id: string;
  label?: Label;
  /** The raw label value as written in the input. */
  rawLabel?: string;
  /** The input's other columns (those the mapping did not use), kept for exports to join back. */
  extra?: Record<string, unknown>;
}

/** What a metric says about one item. */
export interface MetricResult {
  /** In [0, 1]; null when the metric does not apply to the item. */
  score: number | null;
  /** score >= threshold; null when the metric does not apply. */
  decision: boolean | null;
  /** Short human-readable reason: which gold matched, which rule fired, or why it does not apply. */
  explanation: string;
  /** Structured detail for explanations in the UI (matched gold, sub-scores…). */
  details?: Record<string, unknown>;
  /** taxonomy: the predicted class. */
  class?: CapClass;
  /** hierarchy: the entailment set. */
  set?: EntailmentSet;
}

/** The short card every metric carries (shown by the CLI and the Learn page). */
export interface MetricCard {
  what: string;
  formula: string;
  defaults: string;
  limits: string;
  citation: string;
}

/** A metric that scores items synchronously with no model. */
export interface Metric {
  readonly name: string;
  readonly card: MetricCard;
  /** Decision threshold in use: decision = score >= threshold. */
  readonly threshold: number;
  /**
   * `use` 'scores': the caller keeps the score, decision, class and set alone (a scoring pool that drops the rest),
   * so a metric may leave its explanation empty and its details out; the result's other fields stay the same.
   */
  score(item: QaItem, use?: ResultUse): MetricResult;
}

/** What a caller keeps of a metric's result: all of it, or the scores (score, decision, class, set) alone. */
export type ResultUse = 'full' | 'scores';

/** A metric that scores batches asynchronously with model capabilities (or probabilities given in the input). */
export interface BatchMetric {
  readonly name: string;
  readonly card: MetricCard;
  readonly threshold: number;
  /** Capabilities it uses when the row does not carry what it needs. */
  readonly needs: readonly Capability[];
  scoreBatch(items: readonly QaItem[], ctx: ModelContext): Promise<MetricResult[]>;
}

export type AnyMetric = Metric | BatchMetric;
export const isBatchMetric = (m: AnyMetric): m is BatchMetric => 'scoreBatch' in m;

/**
 * What went wrong, for a surface to word for its own user (the CLI adds its flags, the app points at its
 * controls). The message is complete and plain on its own, and never names a CLI flag or an app control.
 * - `missing-column`: details `{ field, expected: string[], columns: string[], headerLine?: number }`
 * - `unknown-column`: details `{ field, column, columns: string[] }` (a column chosen for a field is not in the file)
 * - `no-records`: details `{ errors: number }` (nothing could be read), `empty-file`, `not-a-table`
 * - `encoding`: details `{ encoding: 'utf-16le' | 'utf-16be' }` when a file cannot be read in that encoding
 * - `bad-option`: a malformed option value (details name it); `other`: anything else.
 * - `not-ready`: asked for what the state does not allow yet (nothing scored, no review going, no file open)
 * - `busy`: asked for what a run going on does not allow (cancel it first)
 * - `bad-labels`: a label file that does not belong to the rows (another input, no labels, a malformed line)
 * - `saved-run`: a saved run that cannot be read back whole (parts gone, another file, a damaged record)
 * - `unavailable`: what the work needs is not there (storage, the model worker, a scoring worker that stopped)
 * - `network`, `bad-response`: a model download that failed on the way, or was answered with something unusable
 * The model host's codes (runtime/messages.ts HostErrorCode, the same names across the worker boundary as data):
 * - `unsupported-model`: the runtime cannot use the model for its role; `not-found`: the model or a file of it is not
 *   there; `invalid-spec`: the id, revision or path is not acceptable (`../`, a typo'd folder, a file that is not a
 *   regular file); `load-failed`, `canary-failed`: it did not load, or failed its check; `inference-failed`: a call
 *   on a loaded model failed; `not-loaded`: no model of that role is loaded; `quota`: storage is full
 */
export type VerityErrorCode =
  | 'missing-column'
  | 'unknown-column'
  | 'unknown-system-column'
  | 'no-records'
  | 'empty-file'
  | 'not-a-table'
  | 'encoding'
  | 'bad-option'
  | 'not-ready'
  | 'busy'
  | 'bad-labels'
  | 'saved-run'
  | 'unavailable'
  | 'network'
  | 'bad-response'
  | 'too-nested'
  | 'too-many-classes'
  | 'unsupported-model'
  | 'not-found'
  | 'invalid-spec'
  | 'load-failed'
  | 'canary-failed'
  | 'inference-failed'
  | 'not-loaded'
  | 'quota'
  | 'other';

export class VerityError extends Error {
  constructor(
    message: string,
    /** 'usage' → exit 1, 'input' → exit 2, 'output' (the results cannot be written) → exit 4 in the CLI. */
    readonly kind: 'usage' | 'input' | 'output',
    readonly code: VerityErrorCode = 'other',
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = 'VerityError';
  }
}
