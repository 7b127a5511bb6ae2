/**
 * Ordinal and binary agreement of embedded metrics with 8-class labels, on the taxonomy development set
 * and the paraphrase slice (tuning and held-out questions apart) and on the demo set (the test set nothing was tuned on). Prints a
 * Markdown table: Spearman ρ, Kendall τ-b, pairwise accuracy, violations of 27, the four hard pairs, and
 * binary accuracy / MCC with correct = exact, equivalent, alternative-correct, overinclusive-valid.
 *
 *   npm run bench:taxonomy [-- metric,metric,…]   # default: pedants,taxonomy_text
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseTable } from '../src/core/io/parse.ts';
import { mapRows } from '../src/core/io/fields.ts';
import { createSyncMetric } from '../src/core/metrics/index.ts';
import { binaryReport, taxonomyReport } from '../src/core/agreement/index.ts';
import { CORRECT_CLASSES } from '../src/core/metrics/taxonomy.ts';
import type { CapClass, QaRow } from '../src/core/types.ts';
import { nodeLexicon } from '../src/runtime/lexicon-node.ts';

// WordNet, as every surface scores with it.
const lexicon = nodeLexicon();

const root = resolve(import.meta.dirname, '..');
function load(path: string): { row: QaRow; split: string }[] {
  const bytes = readFileSync(resolve(root, path));
  const splits = bytes
    .toString('utf8')
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { split?: string }).split ?? 'all');
  return mapRows(parseTable(bytes, path)).rows.map((row, i) => ({ row, split: splits[i]! }));
}
const dev = load('test/fixtures/taxonomy-dev.jsonl');
// Paraphrase-style answers: scientific names, epithets, broader and narrower terms, antonyms.
const para = load('test/fixtures/taxonomy-paraphrase.jsonl');
const sets: [string, QaRow[]][] = [
  ['dev (tuning)', dev.filter((r) => r.split === 'tune').map((r) => r.row)],
  ['dev (held-out)', dev.filter((r) => r.split === 'held-out').map((r) => r.row)],
  ['paraphrase (tuning)', para.filter((r) => r.split === 'tune').map((r) => r.row)],
  ['paraphrase (held-out)', para.filter((r) => r.split === 'held-out').map((r) => r.row)],
  ['demo (test)', load('public/demo/demo-set.jsonl').map((r) => r.row)],
];
const names = (process.argv[2] ?? 'pedants,taxonomy_text').split(',');
const f = (x: number | null | undefined, d = 3) => (x === null || x === undefined ? '–' : x.toFixed(d));

console.log('| set | metric | n | ρ | τ-b | pairwise | violations | Eq>Part | OV>Part | OV>OI | Alt>Inv | accuracy | MCC |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const [set, rows] of sets) {
  const labels = rows.map((r) => (r.label?.kind === 'taxonomy' ? r.label.cls : null)) as CapClass[];
  for (const name of names) {
    const m = createSyncMetric(name, {}, { lexicon });
    const res = rows.map((r) => m.score(r));
    const t = taxonomyReport(
      res.map((x) => x.score),
      labels,
    );
    const b = binaryReport(
      res.map((x) => x.score),
      res.map((x) => x.decision),
      labels.map((c) => CORRECT_CLASSES.has(c)),
      { resamples: 0 },
    );
    const h = t.hardPairs as Record<string, number | null>;
    console.log(
      `| ${set} | ${name} | ${rows.length} | ${f(t.spearman)} | ${f(t.kendall)} | ${f(t.pairwiseAccuracy)} | ${t.violations.count}/${t.violations.of} | ${Object.values(
        h,
      )
        .map((x) => f(x))
        .join(' | ')} | ${f(b.metrics.accuracy.value)} | ${f(b.metrics.mcc.value)} |`,
    );
  }
}

// The confusions that matter most for taxonomy_text's classes: equivalent and partial answers called invalid,
// contradictory answers called correct.
console.log('\n| set | equivalent → invalid | partial → invalid | contradictory → correct |');
console.log('|---|---|---|---|');
const text = createSyncMetric('taxonomy_text', {}, { lexicon });
for (const [set, rows] of sets) {
  const count = (label: CapClass, said: (c: CapClass) => boolean) => {
    const of = rows.filter((r) => r.label?.kind === 'taxonomy' && r.label.cls === label);
    return `${of.filter((r) => said(text.score(r).class as CapClass)).length} of ${of.length}`;
  };
  console.log(
    `| ${set} | ${count('equivalent', (c) => c === 'invalid')} | ${count('partial', (c) => c === 'invalid')} | ${count('contradictory', (c) => CORRECT_CLASSES.has(c))} |`,
  );
}
