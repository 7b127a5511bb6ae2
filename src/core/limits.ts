/** Per-field work caps shared by every metric (applied in scoring.ts, stated in each metric card). */
import type { QaItem } from './types.ts';

/**
 * Longest text field (question, candidate, each gold) a metric scores, in characters (UTF-16 units). Every
 * metric's work grows with its inputs (METEOR and ROUGE-L align them), so one 100 MB answer would exhaust
 * memory and lose the other rows' results; a field this long is far beyond any QA answer (~15,000 words).
 */
export const FIELD_LIMIT = 100_000;

/** The first text field of a row over FIELD_LIMIT, described ("the candidate is 104,857,600 characters"), or null. */
export function overLimit(row: QaItem): string | null {
  const say = (what: string, n: number) => `${what} is ${n.toLocaleString('en-US')} characters`;
  if (row.candidate.length > FIELD_LIMIT) return say('the candidate', row.candidate.length);
  if (row.question.length > FIELD_LIMIT) return say('the question', row.question.length);
  const g = row.golds.findIndex((x) => x.length > FIELD_LIMIT);
  if (g >= 0) return say(row.golds.length > 1 ? `gold ${g + 1}` : 'the gold', row.golds[g]!.length);
  return null;
}
