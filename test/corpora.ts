/**
 * The labelled QA rows the tests have, as items (question, golds, candidate): the demo set and its comparison, and
 * the fixtures — what a checker of reasons runs over beside EVOUNA-TQ (scripts/evouna.ts, where it is present).
 */
import { existsSync, readFileSync } from 'node:fs';
import { it } from 'vitest';
import type { Metric, QaItem } from '../src/core/types.ts';
import { evounaPath, loadEvouna, EVOUNA_NEEDED, type EvounaItem } from '../scripts/evouna.ts';

const jsonl = (path: string): QaItem[] =>
  readFileSync(new URL(path, import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { question: string; gold: string[] | string; candidate: string })
    .map((r) => ({ question: r.question, golds: Array.isArray(r.gold) ? r.gold : [r.gold], candidate: r.candidate }));

export const corpusItems = (): QaItem[] => [
  ...jsonl('../public/demo/demo-set.jsonl'),
  ...jsonl('../public/demo/compare-demo.jsonl'),
  ...jsonl('fixtures/labelled-small.jsonl'),
  ...jsonl('fixtures/nli-taxonomy.jsonl'),
];

/** The rows whose reason (the metric's explanation) a checker finds false: each as answer / first golds: what is not so. */
export function falseReasons(
  items: readonly QaItem[],
  metric: Pick<Metric, 'score'>,
  check: (item: QaItem, reason: string) => string | null,
): string[] {
  const out: string[] = [];
  for (const item of items) {
    const why = check(item, metric.score(item).explanation);
    if (why) out.push(`${JSON.stringify(item.candidate)} / ${JSON.stringify(item.golds.slice(0, 3))}: ${why}`);
  }
  return out;
}

/**
 * The case "on every row of EVOUNA-TQ" (scripts/evouna.ts); where the data is absent it is skipped, and the log says
 * what was skipped (`what`) and how to get the data.
 */
export function itOnEvouna(what: string, body: (rows: EvounaItem[]) => void, timeout = 600_000): void {
  const absent = !existsSync(evounaPath());
  if (absent) console.log(`skipped: ${what} on EVOUNA-TQ ${EVOUNA_NEEDED}`);
  it.skipIf(absent)('on every row of EVOUNA-TQ', { timeout }, () => body(loadEvouna()));
}
