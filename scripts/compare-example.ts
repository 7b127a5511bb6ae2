/**
 * The worked example in docs/compare.md (EVOUNA TriviaQA, five systems), made from what `verity compare` prints, so the
 * docs cannot drift from the code: the accuracy table of every default metric and one metric's leaderboard.
 * `npm run docs` writes it between docs/compare.md's `<!-- evouna-example -->` markers; src/cli/compare-example.test.ts
 * fails when the page differs from a fresh run.
 */
import { spawnSync } from 'node:child_process';
import { evounaPath, repoRoot } from './evouna.ts';

export const START = '<!-- evouna-example: made by scripts/compare-example.ts (npm run docs) -->';
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
export function compareExample(cli: string, tq = evounaPath()): string {
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

/** The page with the example between its markers replaced. */
export function withExample(page: string, example: string): string {
  const a = page.indexOf(START);
  const b = page.indexOf(END);
  if (a < 0 || b < a) throw new Error(`docs/compare.md has no ${START} … ${END} markers`);
  return `${page.slice(0, a + START.length)}\n\n${example}\n\n${page.slice(b)}`;
}
