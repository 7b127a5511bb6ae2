/** A hand-made QaRow for tests: row i's id, question, gold and candidate, with fields overridden. */
import type { QaRow } from '../src/core/types.ts';

export const row = (i: number, over: Partial<QaRow> = {}): QaRow => ({
  row: i + 1,
  id: `r${i}`,
  question: `q${i}`,
  golds: [`gold ${i}`],
  candidate: `cand ${i}`,
  ...over,
});
