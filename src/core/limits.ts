/**
 * Every limit a user can meet, in one table (as transformers.js keeps its settings in one `env`): the core, the
 * runtime, the session and the CLI read them here, and docs/inputs.md's "Limits" table is held to this one by
 * test/docs.test.ts. Each bound keeps one pathological input from exhausting memory or time and losing the rest.
 */
import type { QaItem } from './types.ts';

const MiB = 1024 ** 2;
const GiB = 1024 ** 3;

export const LIMITS = Object.freeze({
  /**
   * Longest text field (question, candidate, each gold) a metric scores, in characters (UTF-16 units). Every
   * metric's work grows with its inputs (METEOR and ROUGE-L align them); this is far beyond any QA answer.
   */
  fieldChars: 100_000,
  /** Longest JSONL line, CSV/TSV record or JSON array element read; a longer one is skipped and named. */
  recordChars: 32 * MiB,
  /** Largest entry of an Inspect `.eval` archive, declared or inflated. */
  archiveEntryBytes: 256 * MiB,
  /** Longest line of a label file (a review's answers). */
  labelLineChars: 8 * MiB,
  /** Systems one file may hold. */
  systems: 1000,
  /** Issues kept for the page's list of a file's problems, and printed by the CLI before "… and N more". */
  issues: { app: 500, cli: 50 },
  /** The longest the app's scoring workers spend on one row before leaving it unscored, in ms (the CLI has none). */
  rowMs: 10_000,
  /** A model file the registry lists no size for: the largest accepted (the browser's storage holds less). */
  modelFileBytes: { cli: 4 * GiB, app: 2 * GiB },
  /** A model `.json` file (config, tokenizer) the registry lists no size for: the largest accepted. */
  modelJsonBytes: 256 * MiB,
  /** A model download: the longest wait for the answer's headers, and for the next bytes of its body, in ms. */
  downloadConnectMs: 30_000,
  downloadIdleMs: 60_000,
});

/** What a limit is called in docs/inputs.md's table, with its value as a person reads it. */
export function limitsTable(): string[] {
  const bytes = (n: number) => (n >= GiB ? `${n / GiB} GiB` : `${n / MiB} MiB`);
  const chars = (n: number) => (n >= MiB ? `${n / MiB} Mi characters` : `${n.toLocaleString('en')} characters`);
  const s = (ms: number) => `${ms / 1000} s`;
  const L = LIMITS;
  return [
    '| Limit | Value | Beyond it |',
    '| --- | --- | --- |',
    `| A question, gold or candidate | ${chars(L.fieldChars)} | the row is not scored, its reason named |`,
    `| A JSONL line, CSV/TSV record or JSON array element | ${chars(L.recordChars)} | skipped, its line or record named |`,
    `| An entry of an Inspect \`.eval\` archive | ${bytes(L.archiveEntryBytes)} | refused with its name |`,
    `| A line of a label file | ${chars(L.labelLineChars)} | refused with its line number |`,
    `| Systems compared | ${L.systems.toLocaleString('en')} | refused (a system column Verity guessed is read as none) |`,
    `| Issues listed (app / CLI) | ${L.issues.app} / ${L.issues.cli} | counted, not listed |`,
    `| One row in the app's scoring workers | ${s(L.rowMs)} | the row is left unscored, said so (the CLI has no such limit) |`,
    `| A model file the registry lists no size for (CLI / app) | ${bytes(L.modelFileBytes.cli)} / ${bytes(L.modelFileBytes.app)} | the download stops, the model is not used |`,
    `| A model \`.json\` file the registry lists no size for | ${bytes(L.modelJsonBytes)} | the download stops, the model is not used |`,
    `| A model download's answer / its next bytes | ${s(L.downloadConnectMs)} / ${s(L.downloadIdleMs)} | the download stops, the model is not used |`,
  ];
}

/** The first text field of a row over LIMITS.fieldChars, described ("the candidate is 104,857,600 characters"), or null. */
export function overLimit(row: QaItem): string | null {
  const say = (what: string, n: number) => `${what} is ${n.toLocaleString('en-US')} characters`;
  if (row.candidate.length > LIMITS.fieldChars) return say('the candidate', row.candidate.length);
  if (row.question.length > LIMITS.fieldChars) return say('the question', row.question.length);
  const g = row.golds.findIndex((x) => x.length > LIMITS.fieldChars);
  if (g >= 0) return say(row.golds.length > 1 ? `gold ${g + 1}` : 'the gold', row.golds[g]!.length);
  return null;
}
