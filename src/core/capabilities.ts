/**
 * What model-based metrics may ask of a model host. Small on purpose: the worker (browser), onnxruntime-node
 * (CLI) and deterministic fakes (tests) all implement these, so metrics never import a model runtime.
 */
/** A probability distribution over the three NLI labels (sums to 1). */
export interface NliDistribution {
  entailment: number;
  neutral: number;
  contradiction: number;
}

export interface NliPair {
  premise: string;
  hypothesis: string;
}

export interface Nli {
  /** One distribution per pair, in order. */
  classify(pairs: NliPair[]): Promise<NliDistribution[]>;
}

export interface Ranker {
  /** Relevance of each doc to the query, in [0, 1] (sigmoid of a cross-encoder logit), in order. */
  score(query: string, docs: string[]): Promise<number[]>;
}

export interface TokenEmbeddings {
  tokens: string[];
  vectors: Float32Array[];
}

export interface Embedder {
  /** One vector per text (mean-pooled, L2-normalized unless the model says otherwise). */
  embed(texts: string[]): Promise<Float32Array[]>;
  /** Contextual vectors per token (special tokens excluded), for BERTScore. */
  embedTokens?(texts: string[]): Promise<TokenEmbeddings[]>;
}

export interface StatementItem {
  question: string;
  answer: string;
}

export interface StatementWriter {
  /** Name recorded with every statement, e.g. "rules" or a model id. */
  readonly name: string;
  write(items: StatementItem[]): Promise<string[]>;
}

/**
 * Every capability by name: what a metric may ask for (its descriptor's `needs`) and what a model host answers,
 * method by method (runtime/host.ts). A new capability, or a new method of one, is written here and answered
 * there; nothing between them names it.
 */
export interface CapabilityMap {
  nli: Nli;
  ranker: Ranker;
  embedder: Embedder;
  writer: StatementWriter;
}

export type Capability = keyof CapabilityMap;

/**
 * The capabilities available to a run; any may be missing. A run's context also carries its shared statements
 * and NLI (core/evidence.ts, RunContext), which `scoreRows` adds when missing.
 */
export type ModelContext = { [C in Capability]?: CapabilityMap[C] } & {
  /** Model id / revision / device / dtype per role, recorded in results. */
  provenance?: Record<string, unknown>;
};
