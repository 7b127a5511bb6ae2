/**
 * The labelled multi-system data the review benchmarks run on: EVOUNA TriviaQA's five systems plus two of our
 * making where text cannot decide — "verbose" (FiD's answers inside a long hedged sentence) and "missing gold"
 * (FiD's correct answers with the gold they match taken out of the golds, when another gold remains) —, as is or
 * with every row's golds cut to the first one ("one gold": correct answers outside the golds become common, as
 * in Natural Questions). Questions split as pedants' and the priority's training split them (20% held out).
 */
import { loadEvouna, SYSTEMS } from '../scripts/evouna.ts';
import { mulberry32 } from '../src/core/util/random.ts';
import { normalize } from '../src/core/text/normalize.ts';
import type { QaRow } from '../src/core/types.ts';

/** The split of scripts/train-review.ts and pedants' training: the same seeded 20% of questions. */
export const SPLIT_SEED = 20261122;

export interface BenchRow extends QaRow {
  system: string;
  key: string;
  correct: boolean;
  qid: number;
}

export const BENCH_SYSTEMS = [...SYSTEMS, 'verbose', 'missing gold'];

export function reviewBenchRows(variant: 'as-is' | 'one-gold'): { rows: BenchRow[]; heldOut: Set<number> } {
  const items = loadEvouna().map((x) => (variant === 'one-gold' ? { ...x, golds: x.golds.slice(0, 1) } : x));
  const qids = [...new Set(items.map((x) => x.qid))];
  const rnd = mulberry32(SPLIT_SEED);
  const heldOut = new Set(
    qids
      .map((q) => [q, rnd()] as const)
      .sort((a, b) => a[1] - b[1])
      .slice(0, Math.round(qids.length * 0.2))
      .map(([q]) => q),
  );
  const rows: BenchRow[] = items.map((x) => ({
    row: 0,
    id: String(x.qid),
    key: String(x.qid),
    question: x.question,
    golds: x.golds,
    candidate: x.candidate,
    system: x.system,
    correct: x.correct,
    qid: x.qid,
  }));
  for (const x of items.filter((y) => y.system === 'fid')) {
    const base = { row: 0, id: String(x.qid), key: String(x.qid), question: x.question, correct: x.correct, qid: x.qid };
    rows.push({
      ...base,
      golds: x.golds,
      system: 'verbose',
      candidate: `After thinking it over, I would say the answer is most likely ${x.candidate.trim()}, though I could be wrong about that.`,
    });
    const said = normalize(x.candidate);
    const others = x.golds.filter((g) => normalize(g) !== said && !said.includes(normalize(g)));
    rows.push({ ...base, golds: x.correct && others.length > 0 ? others : x.golds, system: 'missing gold', candidate: x.candidate });
  }
  rows.forEach((r, i) => (r.row = i + 1));
  return { rows, heldOut };
}
