/**
 * The labelled QA rows the tests have, as items (question, golds, candidate): the demo set and its comparison, and
 * the fixtures — what a checker of reasons runs over beside EVOUNA-TQ (scripts/evouna.ts, where it is present).
 */
import { readFileSync } from 'node:fs';
import type { QaItem } from '../src/core/types.ts';

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

/** The rows whose reason a checker finds false: each as answer / first golds: what is not so. */
export function falseReasons(
  items: readonly QaItem[],
  reasonOf: (item: QaItem) => string,
  check: (item: QaItem, reason: string) => string | null,
): string[] {
  const out: string[] = [];
  for (const item of items) {
    const why = check(item, reasonOf(item));
    if (why) out.push(`${JSON.stringify(item.candidate)} / ${JSON.stringify(item.golds.slice(0, 3))}: ${why}`);
  }
  return out;
}
