/**
 * Where the embedded default's time goes in Chromium, the engine the app scores in: the default set scoring EVOUNA
 * TriviaQA rows in a page (scores only, as the pool workers keep them), under Chromium's sampling profiler. The
 * Node profile (bench/profile.ts) runs another V8; the two differ (the Unicode patterns' cost, which lines are hot).
 *
 *   npx tsx bench/profile-browser.ts [--warm 40000] [--rows 20000] [--unseen] [--top 15] [--json out.json]
 *
 * `--unseen`: answers not seen before, as in a file whose answers do not repeat (bench/profile.ts's): the first half
 * of EVOUNA's rows (by question) warm the JIT, and the second half is profiled once; --warm and --rows do not apply.
 *
 * The profiler runs from the start, so the optimized code keeps its source lines (started later, V8 puts an
 * optimized function's samples on its first line). The warm-up is discarded: the first cycles are cold, and V8
 * still deoptimizes and re-optimizes during the first ~40,000 rows. Lines are the esbuild bundle's, named by
 * their source file and shown as written.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { chromium } from '@playwright/test';
import { loadEvouna, repoRoot } from '../scripts/evouna.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../playwright.config.ts';
import type { ProfilePage } from './profile-page.ts';
import { argFlag, argNumber, argText } from './args.ts';

const WARM = argNumber('warm', 40_000);
const N = argNumber('rows', 20_000);
const TOP = argNumber('top', 15);
const UNSEEN = argFlag('unseen');

const bundle = (
  await build({
    entryPoints: [`${repoRoot}/bench/profile-page.ts`],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
    logLevel: 'warning',
  })
).outputFiles[0]!.text;
const lines = bundle.split('\n');
// esbuild marks where each module starts ("// src/core/signals/extra.ts"): a line's file is the last mark before it.
const fileOf: string[] = [];
let current = '(bundle)';
lines.forEach((l, i) => {
  const m = /^\s*\/\/ (\S+\.(?:ts|js|mjs|cjs))$/.exec(l);
  if (m) current = m[1]!.replace(/^.*node_modules\/((?:@[^/]+\/)?[^/]+).*$/, '$1');
  fileOf[i + 1] = current;
});

const rows = JSON.stringify(loadEvouna().map(({ question, golds, candidate }) => ({ question, golds, candidate })));
const lexicon = gunzipSync(readFileSync(`${repoRoot}/lexicon/wordnet-3.0.wnlex`)).toString();
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.route('http://profile.local/**', (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/lexicon.json') return route.fulfill({ body: lexicon, contentType: 'application/json' });
    if (path === '/rows.json') return route.fulfill({ body: rows, contentType: 'application/json' });
    if (path === '/bundle.js') return route.fulfill({ body: bundle, contentType: 'text/javascript; charset=utf-8' });
    return route.fulfill({ body: '<!doctype html><script src="/bundle.js"></script>', contentType: 'text/html; charset=utf-8' });
  });
  await page.goto('http://profile.local/');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const size = await page.evaluate(() => (globalThis as unknown as { verityProfile: ProfilePage }).verityProfile.setup());
  const cycle = (n: number) => page.evaluate((k) => (globalThis as unknown as { verityProfile: ProfilePage }).verityProfile.cycle(k), n);
  const pass = (from: number, to: number) =>
    page.evaluate(([a, b]) => (globalThis as unknown as { verityProfile: ProfilePage }).verityProfile.pass(a, b), [from, to] as const);
  // The rows are in question order, so the halves share no question (nor its golds).
  const half = Math.floor(size / 2);
  const warm: number[] = [];
  if (UNSEEN) warm.push(await pass(0, half));
  else for (let done = 0; done < WARM; done += size) warm.push(await cycle(Math.min(size, WARM - done)));
  await cdp.send('Profiler.stop');
  await cdp.send('Profiler.start');
  const usPerRow = UNSEEN ? await pass(half, size) : await cycle(N);
  const { profile } = await cdp.send('Profiler.stop');

  const total = profile.samples!.length;
  // A node outside the bundle (V8's own: the collector, native code) has no line ticks: its samples count it.
  const samplesOf = new Map<number, number>();
  for (const id of profile.samples!) samplesOf.set(id, (samplesOf.get(id) ?? 0) + 1);
  const fns = new Map<string, number>();
  const at = new Map<number, number>();
  let lined = 0;
  for (const node of profile.nodes) {
    const f = node.callFrame;
    const ticks = (node.positionTicks ?? []).reduce((s, p) => s + p.ticks, 0);
    if (!f.url.endsWith('/bundle.js')) {
      const key = `${f.functionName || f.url || '(native)'}\t(V8)`;
      fns.set(key, (fns.get(key) ?? 0) + (samplesOf.get(node.id) ?? 0));
      continue;
    }
    // An arrow or a callback is named by the code it starts on.
    const name = f.functionName || `(anonymous) \`${lines[f.lineNumber]!.trim().slice(0, 40).replace(/\|/g, '\\|')}…\``;
    const key = `${name}\t${fileOf[f.lineNumber + 1]}`;
    fns.set(key, (fns.get(key) ?? 0) + ticks);
    for (const p of node.positionTicks ?? []) {
      at.set(p.line, (at.get(p.line) ?? 0) + p.ticks);
      lined += p.ticks;
    }
  }
  const pct = (x: number) => `${((100 * x) / total).toFixed(1)}%`;
  const userAgent = await page.evaluate(() => navigator.userAgent);
  console.log(
    `${UNSEEN ? `EVOUNA's second half (${size - half} rows) once, after its first` : `${N} rows after ${WARM} (EVOUNA's ${size}, cycled)`}, ` +
      `default set, scores only, ${userAgent.replace(/^.*(Chrome\/\S+).*$/, '$1')}: ` +
      `${usPerRow.toFixed(1)} µs a row under the profiler; warm-up cycles ${warm.map((x) => x.toFixed(0)).join(', ')} µs a row`,
  );
  console.log('\n| function | file | self |\n|---|---|---:|');
  const topFns = [...fns].sort((a, b) => b[1] - a[1]).slice(0, TOP);
  for (const [k, t] of topFns) {
    const [name, file] = k.split('\t');
    console.log(`| ${name} | ${file} | ${pct(t)} |`);
  }
  console.log(`\n| line (${pct(lined)} of the samples have one) | file | self |\n|---|---|---:|`);
  const topLines = [...at].sort((a, b) => b[1] - a[1]).slice(0, TOP);
  for (const [line, t] of topLines)
    console.log(`| \`${lines[line - 1]!.trim().slice(0, 100).replace(/\|/g, '\\|')}\` | ${fileOf[line]} | ${pct(t)} |`);
  const out = argText('json', '');
  if (out)
    writeFileSync(
      out,
      JSON.stringify(
        {
          unseen: UNSEEN,
          rows: UNSEEN ? size - half : N,
          warm: UNSEEN ? half : WARM,
          usPerRow,
          functions: topFns.map(([k, t]) => ({ function: k, share: t / total })),
          lines: topLines.map(([line, t]) => ({ file: fileOf[line], code: lines[line - 1]!.trim(), share: t / total })),
        },
        null,
        1,
      ),
    );
} finally {
  await browser.close();
}
