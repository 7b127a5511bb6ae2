/**
 * The comparison demo (public/demo/compare-demo.jsonl): three made-up systems answering the demo set's 26
 * questions, each answer one of the question's eight written answers (one per CAP class), drawn with the
 * system's own leaning — careful (mostly exact or equivalent), verbose (over-inclusive), hasty (partial or
 * wrong) — from a fixed seed. Every row keeps its class label, so the comparison has a human figure to meet.
 * The first screen's "Try a comparison" and the README's tour score it; test/demo-set.test.ts holds the file to
 * this script.
 *
 *   npx tsx scripts/demo-compare.ts [--check]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CAP_CLASSES } from '../src/core/types.ts';
import { mulberry32 } from '../src/core/util/random.ts';

export const DEMO_SET = fileURLToPath(new URL('../public/demo/demo-set.jsonl', import.meta.url));
export const COMPARE_DEMO = fileURLToPath(new URL('../public/demo/compare-demo.jsonl', import.meta.url));

/** Weights over CAP_CLASSES (exact … contradictory) per system. */
export const LEANINGS: Readonly<Record<string, readonly number[]>> = {
  careful: [5, 3, 1, 1, 1, 0.5, 0.5, 0.3],
  verbose: [1, 1, 1, 5, 2, 3, 1, 0.5],
  hasty: [2, 1, 0.5, 0.5, 2, 1, 3, 2],
};

interface DemoRow {
  id: string;
  question: string;
  gold: string[];
  candidate: string;
  label: string;
}

/** The file's text, from the demo set's text. */
export function compareDemo(demoSet: string, seed = 7): string {
  const rows = demoSet
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as DemoRow);
  const questions = [...new Set(rows.map((r) => r.question))];
  const next = mulberry32(seed);
  const out: string[] = [];
  for (const [system, w] of Object.entries(LEANINGS)) {
    const total = w.reduce((a, b) => a + b, 0);
    questions.forEach((q, k) => {
      let u = next() * total;
      let c = 0;
      while (c < w.length - 1 && u >= w[c]!) u -= w[c++]!;
      const r = rows.find((x) => x.question === q && x.label === CAP_CLASSES[c])!;
      out.push(
        JSON.stringify({
          id: `q${String(k + 1).padStart(2, '0')}`,
          system,
          question: q,
          gold: r.gold,
          candidate: r.candidate,
          label: r.label,
        }),
      );
    });
  }
  return `${out.join('\n')}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = compareDemo(readFileSync(DEMO_SET, 'utf8'));
  if (process.argv.includes('--check')) {
    if (readFileSync(COMPARE_DEMO, 'utf8') !== text) {
      console.error('public/demo/compare-demo.jsonl is out of date: run npx tsx scripts/demo-compare.ts');
      process.exit(1);
    }
  } else writeFileSync(COMPARE_DEMO, text);
}
