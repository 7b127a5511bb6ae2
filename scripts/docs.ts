/**
 * The generated parts of docs/: docs/metrics.md from the metric table and its cards (src/core/metrics/), and the
 * worked example in docs/compare.md from what `verity compare` prints on EVOUNA (scripts/compare-example.ts;
 * skipped, with a word, without the file). test/docs.test.ts fails when either page differs from a fresh run.
 *
 *   npm run docs [-- --check]
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_METRICS, MODEL_METRICS, SUPPORTED_METRICS, optionLines } from '../src/core/metrics/index.ts';
import { compareExample, withExample } from './compare-example.ts';
import { evounaPath, repoRoot } from './evouna.ts';

const code = (names: readonly string[]) => names.map((n) => `\`${n}\``).join(', ');
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
const cell = (s: string) => oneLine(s).replaceAll('|', '\\|');

/** docs/metrics.md, from the metric table. */
export function metricsPage(): string {
  const out = [
    '# Metrics',
    '',
    '<!-- Made by scripts/docs.ts from the metric cards in src/core/metrics/: edit the cards, then npm run docs. -->',
    '',
    `The embedded default (${code(DEFAULT_METRICS)}) needs no download. The model-based metrics (${code(MODEL_METRICS)}) need`,
    'an NLI model, a reranker or an embedder, or NLI probabilities in the input: [models.md](models.md). `npx verity metrics`',
    "prints these cards; `--metrics a,b` picks metrics in the CLI, the Score page's checkboxes in the app.",
    '',
    'Number-aware normalization (`977,633` = `977633`, `27%` = `27 percent`, `twelve` = `12`, `1st` = `first`; Latin',
    'accents folded, `Lomé` = `Lome`) is the default for `lexical_match` and `pedants`; `exact_match` and `token_f1`',
    'default to the official SQuAD normalization so their numbers match the SQuAD script. `--normalization',
    "numeric|squad` sets it for all; `--strict` = `squad`. A metric's own options (**Option** below) are given to the CLI",
    'with `--metric-option metric.option=value` (e.g. `--metric-option cap.alpha=0.9`); the app scores with their defaults.',
    '',
    '| metric | needs | in the default | what |',
    '|---|---|---|---|',
    ...SUPPORTED_METRICS.map(
      (d) =>
        `| [\`${d.name}\`](#${d.name}) | ${d.family === 'lexical' ? 'nothing' : 'a model'} | ${d.default ? 'yes' : ''} | ${cell(d.card.what)} |`,
    ),
  ];
  for (const d of SUPPORTED_METRICS) {
    const ex = d.examples[0];
    const e = ex.expected;
    out.push(
      '',
      `## ${d.name}`,
      '',
      `- **What**: ${oneLine(d.card.what)}`,
      `- **Formula**: ${oneLine(d.card.formula)}`,
      `- **Defaults**: ${oneLine(d.card.defaults)}`,
      `- **Limits**: ${oneLine(d.card.limits)}`,
      `- **Citation**: ${oneLine(d.card.citation)}`,
      ...(d.variants?.length ? [`- **Variants**: ${code(d.variants)}`] : []),
      ...optionLines(d).map((o) => `- **Option** \`${o.name}\` ${oneLine(o.says)} (CLI: \`--metric-option ${o.name}=…\`)`),
      ...(d.classes ? ['- Gives each row one of the eight CAP classes.'] : []),
      `- **Example**${ex.given ? ` (${oneLine(ex.given)})` : ''}: question ${JSON.stringify(ex.item.question)}, gold ${JSON.stringify(ex.item.golds)}, candidate ${JSON.stringify(ex.item.candidate)} → score ${e.score === null ? 'none' : e.score}, ${e.decision === null ? 'no decision' : e.decision ? 'correct' : 'incorrect'}${e.class ? `, ${e.class}` : ''}`,
    );
  }
  return `${out.join('\n')}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const check = process.argv.includes('--check');
  let stale = false;
  const put = (path: string, text: string) => {
    const full = resolve(repoRoot, path);
    if (check) {
      const same = existsSync(full) && readFileSync(full, 'utf8') === text;
      console.log(`${path}: ${same ? 'current' : 'DIFFERS from a fresh run: npm run docs'}`);
      stale ||= !same;
    } else writeFileSync(full, text);
  };
  put('docs/metrics.md', metricsPage());
  if (existsSync(evounaPath())) {
    const page = readFileSync(resolve(repoRoot, 'docs/compare.md'), 'utf8');
    put('docs/compare.md', withExample(page, compareExample(resolve(repoRoot, 'bin/verity.mjs'))));
  } else console.log(`docs/compare.md: its EVOUNA example was left as it is (no file at ${evounaPath()})`);
  process.exitCode = stale ? 1 : 0;
}
