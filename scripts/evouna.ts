/**
 * Loads the shared EVOUNA TriviaQA file (never copied into the repo) as labelled QA items.
 * Path: $VERITY_EVOUNA or ../shared/data/evouna-tq/TQ.json beside the checkout.
 */
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import type { QaItem } from '../src/core/types.ts';

export const SYSTEMS = ['fid', 'gpt35', 'chatgpt', 'gpt4', 'newbing'] as const;
export type System = (typeof SYSTEMS)[number];

export interface EvounaItem extends QaItem {
  qid: number;
  system: System;
  correct: boolean;
}

export const repoRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** Where the file comes from, for whoever lacks it (a fresh clone has no ../shared). */
export const EVOUNA_SOURCE =
  'EVOUNA (Wang et al., "Evaluating Open-QA Evaluation", NeurIPS 2023): the file EVOUNA/TQ.json of the public GitHub repository wangcunxiang/QA-Eval, Apache-2.0';

/** What a test that reads the file says when it is absent (one line: what it needs and where to get it). */
export const EVOUNA_NEEDED = `needs the EVOUNA TriviaQA file: ${EVOUNA_SOURCE}; set VERITY_EVOUNA=/path/to/TQ.json or place it at ../shared/data/evouna-tq/TQ.json`;

export function evounaPath(): string {
  return process.env.VERITY_EVOUNA ?? resolve(repoRoot, '../shared/data/evouna-tq/TQ.json');
}

/** Golds are joined by '/' in this file (not ' / ' as its README says); a '/' with spaces around it belongs to one gold. */
export function splitGolds(s: string): string[] {
  return s
    .split(/(?<! )\/(?! )/)
    .map((g) => g.trim())
    .filter((g) => g.length > 0);
}

export function loadEvouna(path = evounaPath()): EvounaItem[] {
  if (!existsSync(path))
    throw new Error(
      `EVOUNA data not found at ${path}. It is ${EVOUNA_SOURCE}; save a copy and set VERITY_EVOUNA=/path/to/TQ.json (or place it at ../shared/data/evouna-tq/TQ.json beside the checkout)`,
    );
  const data = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>[];
  const out: EvounaItem[] = [];
  data.forEach((e, qid) => {
    if (e.improper === true) return;
    for (const system of SYSTEMS) {
      const judge = e[`judge_${system}`];
      if (typeof judge !== 'boolean') continue;
      const answer = e[`answer_${system}`];
      out.push({
        qid,
        system,
        question: String(e.question ?? ''),
        golds: splitGolds(String(e.golden_answer ?? '')),
        candidate: typeof answer === 'string' ? answer : '',
        correct: judge,
      });
    }
  });
  return out;
}
