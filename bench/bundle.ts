/**
 * `npm run bench:bundle`: what the Score page's first load fetches — the entry script of the production build
 * (`vite build` first) and the chunks index.html preloads — raw and gzipped, and the chunks left to load on
 * demand. Prints a Markdown table; `--json` prints the figures.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { repoRoot } from '../scripts/evouna.ts';
import { argFlag } from './args.ts';

const dist = join(repoRoot, 'dist');
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const first = [
  ...[...html.matchAll(/<script[^>]+src="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!),
  ...[...html.matchAll(/rel="modulepreload"[^>]*href="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!),
];
const size = (file: string) => {
  const bytes = readFileSync(join(dist, file));
  return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
};
const initial = first.map(size);
const others = readdirSync(join(dist, 'assets'))
  .filter((f) => f.endsWith('.js') && !first.includes(`assets/${f}`) && !/worker/.test(f))
  .map((f) => size(`assets/${f}`));
const sum = (xs: { raw: number; gzip: number }[]) =>
  xs.reduce((a, x) => ({ raw: a.raw + x.raw, gzip: a.gzip + x.gzip }), { raw: 0, gzip: 0 });
const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`;
const out = { first: sum(initial), firstFiles: initial, onDemand: sum(others), onDemandFiles: others };
if (argFlag('json')) process.stdout.write(`${JSON.stringify(out, null, 1)}\n`);
else {
  const lines = ['| loaded | files | raw | gzip |', '|---|---:|---:|---:|'];
  lines.push(`| with the Score page | ${initial.length} | ${kb(out.first.raw)} | ${kb(out.first.gzip)} |`);
  lines.push(
    `| on demand (other pages, comparison, report, charts) | ${others.length} | ${kb(out.onDemand.raw)} | ${kb(out.onDemand.gzip)} |`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}
