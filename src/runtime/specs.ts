/** Registry entries → load specs (with their canaries), shared by the worker and Node. */
import { hostError, type Canary, type HostError, type ModelSpec } from './messages.ts';
import type { RegistryEntry, Role } from './registry.ts';
import { LIMITS } from '../core/limits.ts';

/** Registry sizes may be rounded ("87.2 MB"): a file within this share of the listed size is accepted. */
export const SIZE_TOLERANCE = 0.02;

/** Bounds on every model download (the browser and Node set their own defaults). */
export interface DownloadLimits {
  /** From the request until the response headers arrive. */
  connectTimeoutMs: number;
  /** Longest wait for the next bytes of a body. */
  idleTimeoutMs: number;
  /** Largest file accepted when the registry lists no size for it (a listed file may be SIZE_TOLERANCE larger than listed). */
  maxFileBytes: number;
  /** Largest `.json` file accepted when the registry lists no size for it (MAX_JSON_BYTES unless set). */
  maxJsonBytes?: number;
}
/** Model JSON files (configs, tokenizers) are megabytes; a quarter gigabyte is already far past any real one. */
const MAX_JSON_BYTES = LIMITS.modelJsonBytes;

/** The most bytes a download of `file` may bring, and the words that say where that bound comes from. */
export function downloadCap(file: string, listed: number | undefined, limits: DownloadLimits): { bytes: number; source: string } {
  if (listed !== undefined) return { bytes: Math.ceil(listed * (1 + SIZE_TOLERANCE)), source: ' (the registry size)' };
  if (/\.json$/i.test(file)) return { bytes: Math.min(limits.maxFileBytes, limits.maxJsonBytes ?? MAX_JSON_BYTES), source: '' };
  return { bytes: limits.maxFileBytes, source: '' };
}

/**
 * The generic canary of each role, run after every load of every model (registry or not) unless the spec brings
 * its own or the user skips it: clear-cut inputs whose right answer any working model of the role gets, so a
 * broken, random or mislabelled model — or a device or quantization that silently breaks one — is refused.
 * Several cases per role, so a model that answers at random passes by chance rarely (NLI ≤ 1/81 with three
 * labels over four pairs; ranking and similarity 1/8).
 */
export const ROLE_CANARIES: Readonly<Record<Role, Canary>> = {
  nli: {
    kind: 'nli-labels',
    minProb: 0.5,
    pairs: [
      { premise: 'A man is playing a guitar on stage.', hypothesis: 'A man is playing an instrument.', expected: 'entailment' },
      { premise: 'A man is playing a guitar on stage.', hypothesis: 'Nobody is playing any music.', expected: 'contradiction' },
      { premise: 'Two dogs are running through a snowy field.', hypothesis: 'Animals are outside in the snow.', expected: 'entailment' },
      { premise: 'Two dogs are running through a snowy field.', hypothesis: 'The dogs are asleep indoors.', expected: 'contradiction' },
    ],
  },
  reranker: {
    kind: 'ranking',
    cases: [
      {
        query: 'What is the capital of France?',
        relevant: 'Paris is the capital of France.',
        irrelevant: 'Bananas are rich in potassium.',
      },
      {
        query: 'How many legs does a spider have?',
        relevant: 'A spider has eight legs.',
        irrelevant: 'The stock market closed higher on Friday.',
      },
      {
        query: 'Who wrote Romeo and Juliet?',
        relevant: 'Romeo and Juliet was written by William Shakespeare.',
        irrelevant: 'Water boils at 100 degrees Celsius at sea level.',
      },
    ],
  },
  embedder: {
    kind: 'similarity',
    triples: [
      { anchor: 'The cat sleeps on the sofa.', near: 'A kitten is napping on the couch.', far: 'Stock markets fell sharply today.' },
      {
        anchor: 'How do I bake bread at home?',
        near: 'What is a simple recipe for homemade bread?',
        far: 'The train to Berlin leaves at noon.',
      },
      { anchor: 'The weather is cold and rainy.', near: 'It is a chilly, wet day.', far: 'She scored three goals in the final.' },
    ],
  },
  statements: {
    kind: 'fluent',
    items: [
      { question: 'What is the capital of France?', answer: 'Paris' },
      { question: 'Who wrote Hamlet?', answer: 'William Shakespeare' },
    ],
  },
};

/** The canary a load runs: the spec's own, else its role's generic one. */
export const canaryFor = (spec: Pick<ModelSpec, 'role' | 'canary'>): Canary => spec.canary ?? ROLE_CANARIES[spec.role];

/** A hub id segment: letters, digits, `-`, `_`, `.`, starting with a letter or digit (so never `.` or `..`). */
const ID_SEGMENT = /^[A-Za-z0-9][\w.-]{0,95}$/;
/** A revision: a commit SHA, a branch or a tag, one path segment, no `..`. */
const REVISION = /^[A-Za-z0-9][\w.-]{0,127}$/;

/**
 * Why a model id or revision cannot be used, or null. Ids and revisions become URL paths and disk-cache folders,
 * so `../`, empty segments, slashes in a revision and other characters are refused before anything is fetched or
 * read. Local models (`source.kind === 'local'`) may have any id (a folder path in Node, a name in the browser);
 * their revision is still checked (the browser's cache keys carry it).
 */
export function invalidRef(spec: Pick<ModelSpec, 'id' | 'revision' | 'source'>): string | null {
  const rev = spec.revision;
  if (!REVISION.test(rev) || rev.includes('..'))
    return `revision "${rev}" is not a commit, branch or tag name (letters, digits, "-", "_", "."; no "/" or "..")`;
  if (spec.source.kind === 'local') return spec.id.trim() ? null : 'the model has no id';
  const segs = spec.id.split('/');
  if (segs.length > 2 || !segs.every((s) => ID_SEGMENT.test(s) && !s.includes('..')))
    return `"${spec.id}" is not a hub id like owner/name (letters, digits, "-", "_", "."; no "..")`;
  return null;
}

/**
 * Where a redirect may lead: the chosen host itself, and — only when that host is the hub, https://huggingface.co/
 * — the hub's own file hosts over https (`*.huggingface.co`, `*.hf.co`: its LFS and Xet CDNs). Nothing else: a
 * mirror's redirect to another host is refused.
 */
export function redirectAllowed(chosenHost: string, target: URL): boolean {
  const chosen = new URL(chosenHost);
  if (target.origin === chosen.origin) return true;
  if (chosen.origin !== 'https://huggingface.co' || target.protocol !== 'https:') return false;
  return target.hostname === 'huggingface.co' || target.hostname.endsWith('.huggingface.co') || target.hostname.endsWith('.hf.co');
}

/** Inputs on which a catastrophic (exponential backtracking) pattern takes seconds: long runs with a bad end. */
export const TOKENIZER_PROBES: readonly string[] = [
  'a'.repeat(64) + '!',
  ' '.repeat(64) + 'a',
  '1'.repeat(64) + 'x',
  'a1 '.repeat(40) + '\u0000',
  'ab'.repeat(48) + '\n',
];

/** Every `Regex` pattern in a tokenizer.json (normalizers, pre-tokenizers, decoders). */
export function tokenizerPatterns(json: unknown, out: string[] = []): string[] {
  if (Array.isArray(json)) for (const x of json) tokenizerPatterns(x, out);
  else if (json && typeof json === 'object')
    for (const [k, v] of Object.entries(json)) {
      if (k === 'Regex' && typeof v === 'string') out.push(v);
      else if (k !== 'vocab' && k !== 'merges') tokenizerPatterns(v, out);
    }
  return out;
}

/** Runs one pattern as the tokenizer library would (flags gu, else g) on the probes. Self-contained: it is also run by source text. */
export function probePattern(p: string, probes: readonly string[]): void {
  let re: RegExp | null;
  try {
    re = new RegExp(p, 'gu');
  } catch {
    try {
      re = new RegExp(p, 'g');
    } catch {
      re = null;
    }
  }
  if (re)
    for (const s of probes) {
      s.match(re);
      s.split(re);
    }
}

/** The refusal of a model whose tokenizer pattern did not finish on the probes within `ms`. */
export const slowPattern = (spec: Pick<ModelSpec, 'id'>, pattern: string, ms: number): HostError =>
  hostError(
    'bad-response',
    `${spec.id}: a pattern in tokenizer.json (${JSON.stringify(pattern.length > 60 ? `${pattern.slice(0, 60)}…` : pattern)}) needs more than ${ms / 1000} s on a short probe text (catastrophic backtracking), so tokenizing real answers could hang; the model was not used`,
  );

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
  return {
    role: e.role,
    id: e.id,
    revision: e.revision,
    source: { kind: 'hub' },
    dtypes: e.dtypes,
    ...(e.labels ? { labels: e.labels } : {}),
    ...(e.pooling ? { pooling: e.pooling } : {}),
    ...(e.normalize !== undefined ? { normalize: e.normalize } : {}),
    files: e.files,
    ...(e.sha256 ? { sha256: e.sha256 } : {}),
  };
}
