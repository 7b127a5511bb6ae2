/** Registry entries → load specs (with their canaries), shared by the worker and Node. */
import type { Canary, ModelSpec } from './messages.ts';
import type { RegistryEntry, Role } from './registry.ts';

/**
 * Canaries for real models: clear-cut inputs whose right answer any working model of the role gets, checked
 * after every load so a device or quantization that silently breaks the model is refused. (Exact reference
 * numbers exist only for the project's own test models, which could be run here.)
 */
export const ROLE_CANARIES: Record<Role, Canary | undefined> = {
  nli: {
    kind: 'nli-labels',
    minProb: 0.5,
    pairs: [
      { premise: 'A man is playing a guitar on stage.', hypothesis: 'A man is playing an instrument.', expected: 'entailment' },
      { premise: 'A man is playing a guitar on stage.', hypothesis: 'Nobody is playing any music.', expected: 'contradiction' },
    ],
  },
  reranker: { kind: 'ranking', query: 'What is the capital of France?', docs: ['Bananas are rich in potassium.', 'Paris is the capital of France.'], best: 1 },
  embedder: { kind: 'similarity', anchor: 'The cat sleeps on the sofa.', near: 'A kitten is napping on the couch.', far: 'Stock markets fell sharply today.' },
  statements: undefined,
};

/** The hub URL of one file: <host><id>/resolve/<revision>/<file> (what transformers.js uses as the cache key). */
export const fileUrl = (host: string, id: string, revision: string, file: string): string =>
  `${host.endsWith('/') ? host : `${host}/`}${id}/resolve/${encodeURIComponent(revision)}/${file}`;

/**
 * transformers.js asks a few questions about `main` even when a revision is pinned (4.x: whether
 * tokenizer_config.json exists): a `main` URL of the model → the same file at the pinned revision.
 */
export function pinnedUrl(host: string, id: string, revision: string, url: string): string {
  if (revision === 'main') return url;
  const main = fileUrl(host, id, 'main', '');
  return url.startsWith(main) ? fileUrl(host, id, revision, url.slice(main.length)) : url;
}

export function specFromEntry(e: RegistryEntry): ModelSpec {
  const canary = ROLE_CANARIES[e.role];
  return {
    role: e.role,
    id: e.id,
    revision: e.revision,
    source: { kind: 'hub' },
    dtypes: e.dtypes,
    ...(e.labels ? { labels: e.labels } : {}),
    ...(e.pooling ? { pooling: e.pooling } : {}),
    ...(e.normalize !== undefined ? { normalize: e.normalize } : {}),
    ...(canary ? { canary } : {}),
    files: e.files,
    ...(e.sha256 ? { sha256: e.sha256 } : {}),
  };
}
