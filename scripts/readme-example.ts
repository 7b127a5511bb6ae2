/**
 * The README's worked example (EVOUNA TriviaQA, five systems), made from what `verity compare` prints, so the
 * README cannot drift from the code: the accuracy table of every default metric and one metric's leaderboard.
 * `npm run readme` writes it between the README's `<!-- evouna-example -->` markers; test/readme-example.test.ts
 * fails when the README differs from a fresh run.
 *
 *   npx tsx scripts/readme-example.ts [--check]
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { evounaPath, repoRoot } from './evouna.ts';

export const START = '<!-- evouna-example: made by scripts/readme-example.ts (npm run readme) -->';
export const END = '<!-- /evouna-example -->';

interface Entry {
  system: string;
  accuracy: { value: number };
  human: { accuracy: number } | null;
}
interface Json {
  systems: string[];
  leaderboard: { metrics: { metric: string; entries: Entry[] }[] };
  ranking: { metrics: { metric: string; kendallTau: number | null; discordant: { a: string; b: string }[]; systems: number }[] };
}

const f3 = (x: number) => x.toFixed(3).replace(/^0\./, '.');
const tau = (x: number | null) => (x === null ? '—' : x.toFixed(3).replace('-', '−'));

/** The example's markdown, from the CLI at `cli` (a .mjs/.js entry) run on the EVOUNA file at `tq`. */
export function readmeExample(cli: string, tq = evounaPath()): string {
  const run = (...args: string[]) => {
    const r = spawnSync(process.execPath, [cli, 'compare', tq, ...args], { cwd: repoRoot, encoding: 'utf8', maxBuffer: 1 << 26 });
    if (r.status !== 0) throw new Error(`verity compare failed: ${r.stderr}`);
    return r.stdout;
  };
  const json = JSON.parse(run('--json')) as Json;
  const order = json.systems;
  const first = json.leaderboard.metrics[0]!.entries;
  const row = (entries: Entry[], pick: (e: Entry) => number | null) =>
    order.map((s) => {
      const v = pick(entries.find((e) => e.system === s)!);
      return v === null ? '—' : f3(v);
    });
  const lines = [
    `| metric | accuracy: ${order.join(' / ')} | Kendall τ vs human | pairs ordered the other way |`,
    '|---|---|---|---|',
    `| human labels | ${row(first, (e) => e.human?.accuracy ?? null).join(' / ')} | — | — |`,
    ...json.leaderboard.metrics.map((m) => {
      const r = json.ranking.metrics.find((x) => x.metric === m.metric)!;
      const pairs = (r.systems * (r.systems - 1)) / 2;
      const disc =
        r.discordant.length === 0
          ? 'none'
          : r.discordant.length <= 2
            ? r.discordant.map((d) => `${d.a} vs ${d.b}`).join(', ')
            : `${r.discordant.length} of ${pairs}`;
      return `| ${m.metric} | ${row(m.entries, (e) => e.accuracy.value).join(' / ')} | ${tau(r.kendallTau)} | ${disc} |`;
    }),
  ];
  const text = run();
  const start = text.indexOf('== lexical_match');
  const section = text.slice(start, text.indexOf('\n== ', start + 1)).trimEnd();
  return `${lines.join('\n')}\n\nOne metric's section of the text output:\n\n\`\`\`\n${section}\n\`\`\``;
}

/** The README with the example between its markers replaced. */
export function withExample(readme: string, example: string): string {
  const a = readme.indexOf(START);
  const b = readme.indexOf(END);
  if (a < 0 || b < a) throw new Error(`README.md has no ${START} … ${END} markers`);
  return `${readme.slice(0, a + START.length)}\n\n${example}\n\n${readme.slice(b)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const path = resolve(repoRoot, 'README.md');
  const readme = readFileSync(path, 'utf8');
  const next = withExample(readme, readmeExample(resolve(repoRoot, 'bin/verity.mjs')));
  if (process.argv.includes('--check')) {
    console.log(next === readme ? 'the README example is current' : 'the README example DIFFERS from a fresh run: npm run readme');
    process.exitCode = next === readme ? 0 : 1;
  } else writeFileSync(path, next);
}
