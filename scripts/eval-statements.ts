/**
 * Scores the rule statement writer on the hand-written set test/fixtures/statements.jsonl:
 * exact match (after trimming; the first letter's case ignored) and sentence BLEU (nltk-exact, method1 smoothing,
 * lowercase whitespace tokens) averaged over items, overall and per type, plus a few failures and the throughput.
 *   npx tsx scripts/eval-statements.ts [--failures N] [--json]
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { lowerSplit, sentenceBleu } from '../src/core/metrics/bleu.ts';
import { writeStatement } from '../src/core/statements/rules.ts';

export interface StatementCase {
  type: 'wh' | 'yesno' | 'complete' | 'blank';
  subject: string;
  question: string;
  answer: string;
  statement: string;
}

export const FIXTURE = fileURLToPath(new URL('../test/fixtures/statements.jsonl', import.meta.url));

export function loadCases(path = FIXTURE): StatementCase[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as StatementCase);
}

const firstLetterFold = (s: string) => {
  const t = s.trim();
  return t.charAt(0).toLowerCase() + t.slice(1);
};

export function exactMatch(hyp: string, ref: string): boolean {
  return firstLetterFold(hyp) === firstLetterFold(ref);
}

export function bleu(hyp: string, ref: string): number {
  const h = lowerSplit(hyp);
  if (h.length === 0) return 0;
  return sentenceBleu([lowerSplit(ref)], h, 'method1').score;
}

export interface Scored extends StatementCase {
  output: string;
  em: boolean;
  bleu: number;
}

export function evaluate(cases: StatementCase[]): { rows: Scored[]; summary: Record<string, { n: number; em: number; bleu: number }> } {
  const rows = cases.map((c) => {
    const output = writeStatement(c.question, c.answer);
    return { ...c, output, em: exactMatch(output, c.statement), bleu: bleu(output, c.statement) };
  });
  const summary: Record<string, { n: number; em: number; bleu: number }> = {};
  for (const key of ['all', 'wh', 'yesno', 'complete', 'blank']) {
    const rs = key === 'all' ? rows : rows.filter((r) => r.type === key);
    summary[key] = {
      n: rs.length,
      em: rs.filter((r) => r.em).length / Math.max(1, rs.length),
      bleu: rs.reduce((s, r) => s + r.bleu, 0) / Math.max(1, rs.length),
    };
  }
  return { rows, summary };
}

function main() {
  const args = process.argv.slice(2);
  const nFail = Number(args[args.indexOf('--failures') + 1]) || 8;
  const cases = loadCases();
  const { rows, summary } = evaluate(cases);
  if (args.includes('--json')) {
    console.log(JSON.stringify({ summary, rows }, null, 2));
    return;
  }
  console.log(`Rule statement writer on ${cases.length} hand-written items (${FIXTURE})\n`);
  console.log('type       n     EM     BLEU (nltk sentence BLEU, method1, mean)');
  for (const [k, v] of Object.entries(summary))
    console.log(`${k.padEnd(9)} ${String(v.n).padStart(3)}  ${v.em.toFixed(3)}  ${v.bleu.toFixed(4)}`);
  const fails = rows.filter((r) => !r.em).sort((x, y) => x.bleu - y.bleu);
  console.log(`\n${fails.length} not exact; the ${Math.min(nFail, fails.length)} lowest BLEU:`);
  const shown = fails.length > 0 ? fails.slice(0, nFail) : [];
  if (fails.length === 0) {
    const low = [...rows].sort((x, y) => x.bleu - y.bleu).slice(0, 3);
    console.log(
      `(none; the lowest BLEU items are exact but shorter than 4 tokens, which BLEU-4 scores below 1: ${low.map((r) => `"${r.output}" ${r.bleu.toFixed(3)}`).join(', ')})`,
    );
  }
  for (const r of shown) {
    console.log(
      `- [${r.type}] Q: ${r.question}\n  A: ${r.answer}\n  expected: ${r.statement}\n  got:      ${r.output}   (BLEU ${r.bleu.toFixed(3)})`,
    );
  }
  const reps = 5;
  const t0 = performance.now();
  for (let i = 0; i < reps; i++) for (const c of cases) writeStatement(c.question, c.answer);
  const perSec = (reps * cases.length) / ((performance.now() - t0) / 1000);
  console.log(`\nthroughput: ${Math.round(perSec)} items/s (single thread, warm)`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
