/**
 * `npm run bench:pathological`: the default metrics on a corpus of repetitive texts at the
 * length limit — one pattern repeated to 99,000 characters (under the 100,000 per field), as the candidate, as
 * the gold and as the question, and varied words in several fields at once — and the milliseconds each row
 * takes, slowest first. The corpus is defined here
 * (PATTERNS), so it is the same on every run. Aim: no row over ~50 ms; what a row costs grows with its length,
 * never with its square (the regular expressions found by this corpus took 20–35 s on one row).
 */
import { DEFAULT_METRICS, createSyncMetric } from '../src/core/metrics/index.ts';
import type { QaItem } from '../src/core/types.ts';
import { nodeLexicon } from '../src/runtime/lexicon-node.ts';

const lexicon = nodeLexicon();

/** Repeated units: newlines, brackets, quotes, punctuation, digits, list and negation words, units, dates… */
export const PATTERNS: Readonly<Record<string, string>> = {
  newlines: '\n',
  crlf: '\r\n',
  tabs: '\t',
  spaces: ' ',
  open_parens: '(',
  close_parens: ')',
  paren_pairs: '()',
  double_quotes: '"',
  single_quotes: "'",
  dots: '.',
  commas: ', ',
  semicolons: 'a; ',
  colons: 'a: ',
  slashes: '/',
  pipes: '|',
  hyphens: 'a-',
  dashes: '- a\n',
  bullets: '* x\n',
  digits: '1',
  spaced_digits: '1 ',
  years: '1999 ',
  ordinals: '3rd ',
  percents: '5% ',
  dollars: '$1 ',
  quantities: '12 km, ',
  degrees: '° ',
  dates: 'May 5, ',
  number_words: 'twenty ',
  nots: 'not ',
  ands: 'a and ',
  ors: 'x or ',
  contractions: "n't ",
  questions: 'what? ',
  capitalised: 'Paris ',
  words: 'word ',
  long_word: 'a',
};
const LENGTH = 99_000;

const text = (unit: string) => unit.repeat(Math.ceil(LENGTH / unit.length)).slice(0, LENGTH);
/** Varied words (3,000 distinct) to LENGTH: what a search over gold × candidate positions is slow on. */
let seed = 7;
const varied = () => {
  let t = '';
  while (t.length < LENGTH) t += `w${(seed = (seed * 48271) % 2147483647) % 3000} `;
  return t.slice(0, LENGTH);
};
const items: { name: string; item: QaItem }[] = Object.entries(PATTERNS).flatMap(([name, unit]) => [
  { name: `${name} as candidate`, item: { question: 'What is the capital of France?', golds: ['Paris'], candidate: text(unit) } },
  { name: `${name} as gold`, item: { question: 'What is the capital of France?', golds: [text(unit)], candidate: 'Paris' } },
  { name: `${name} as question`, item: { question: text(unit), golds: ['Paris'], candidate: 'Paris is the capital.' } },
]);
// Long fields together: the row's cost may grow with gold × candidate (a name search took 10 s on this).
items.push(
  {
    name: 'varied words as gold and candidate',
    item: { question: 'What is the capital of France?', golds: [varied()], candidate: varied() },
  },
  { name: 'varied words as question, gold and candidate', item: { question: varied(), golds: [varied()], candidate: varied() } },
);

const metrics = DEFAULT_METRICS.map((m) => createSyncMetric(m, {}, { lexicon }));
// Each row scored once: the metrics remember what they computed for a gold, so a second pass would time a cache.
const timeOf = (item: QaItem) => {
  const t = performance.now();
  for (const m of metrics) m.score(item);
  return performance.now() - t;
};
// A warm-up (JIT) on shorter texts of every pattern, not the ones timed.
for (const unit of Object.values(PATTERNS)) timeOf({ question: 'Q?', golds: [unit.repeat(200)], candidate: unit.repeat(300) });
const rows = items.map(({ name, item }) => ({ name, ms: timeOf(item) })).sort((a, b) => b.ms - a.ms);
const over = rows.filter((r) => r.ms > 50);
const lines = [
  `${items.length} rows with fields of ${LENGTH.toLocaleString('en')} characters (${Object.keys(PATTERNS).length} patterns × candidate, gold, question; varied words in gold and candidate, and in all three); metrics ${DEFAULT_METRICS.join(', ')}; each row once after a warm-up on shorter texts, one thread.`,
  '',
  '| row | ms |',
  '|---|---:|',
  ...rows.slice(0, 12).map((r) => `| ${r.name} | ${r.ms.toFixed(0)} |`),
  '',
  `Slowest ${rows[0]!.ms.toFixed(0)} ms, median ${rows[Math.floor(rows.length / 2)]!.ms.toFixed(0)} ms; ${over.length} of ${rows.length} rows over 50 ms.`,
];
process.stdout.write(`${lines.join('\n')}\n`);
