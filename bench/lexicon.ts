/**
 * The WordNet lexicon's cost: its size as shipped, and the time to load it — in Node (the CLI and its
 * scoring thread) and in a Chromium worker, where the app's code (src/runtime/lexicon-browser.ts, bundled here
 * with esbuild) fetches, gunzips, parses and installs it as the scoring and pool workers do. Best and median of
 * several loads, each in a fresh worker (a fresh thread, as a pool worker starts).
 *
 *   npm run bench:lexicon
 */
import { createServer } from 'node:http';
import { readFileSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../playwright.config.ts';
import { readLexicon, LEXICON_FILE } from '../src/runtime/lexicon-node.ts';

const root = resolve(import.meta.dirname, '..');
const file = resolve(root, LEXICON_FILE);
const RUNS = 7;
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `best ${s[0]!.toFixed(0)} ms, median ${s[s.length >> 1]!.toFixed(0)} ms, worst ${s.at(-1)!.toFixed(0)} ms (${xs.length} loads)`;
};

const gz = statSync(file).size;
const raw = gunzipSync(readFileSync(file)).length;
console.log(`${LEXICON_FILE}: ${(gz / 1e6).toFixed(2)} MB gzipped (budget 5 MB), ${(raw / 1e6).toFixed(1)} MB of JSON`);

const node: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const t = performance.now();
  readLexicon(file);
  node.push(performance.now() - t);
}
console.log(`Node ${process.version}, read + gunzip + parse + index: ${stats(node)}`);

// The app's loader, as a worker script: load, then say how long it took and how many synsets it holds.
const bundled = await build({
  stdin: {
    contents: `import { loadLexicon } from './src/runtime/lexicon-browser.ts';
      const t = performance.now();
      loadLexicon().then((wn) => postMessage({ ms: performance.now() - t, synsets: wn.size }), (e) => postMessage({ error: String(e) }));`,
    resolveDir: root,
    loader: 'ts',
  },
  bundle: true,
  format: 'iife',
  write: false,
  // The app's build emits the lexicon as an asset (`?url` imports); here it is served at /lexicon/.
  plugins: [
    {
      name: 'url-imports',
      setup(b) {
        b.onResolve({ filter: /\?url$/ }, (a) => ({ path: a.path.replace(/\?url$/, ''), namespace: 'url' }));
        b.onLoad({ filter: /.*/, namespace: 'url' }, (a) => ({
          contents: `export default ${JSON.stringify(`/lexicon/${basename(a.path)}`)};`,
          loader: 'js',
        }));
      },
    },
  ],
});
const worker = bundled.outputFiles[0]!.text;
const server = createServer((req, res) => {
  if (req.url === '/lexicon/wordnet-3.0.wnlex') {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.end(readFileSync(file));
  } else if (req.url === '/worker.js') {
    res.writeHead(200, { 'content-type': 'text/javascript' });
    res.end(worker);
  } else {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>lexicon</title>');
  }
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const port = (server.address() as { port: number }).port;
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${port}/`);
  const runs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await page.evaluate(
      () =>
        new Promise<{ ms?: number; synsets?: number; error?: string }>((resolve) => {
          const w = new Worker('/worker.js');
          w.onmessage = (e) => {
            resolve(e.data as { ms?: number; synsets?: number; error?: string });
            w.terminate();
          };
        }),
    );
    if (r.error) throw new Error(r.error);
    runs.push(r.ms!);
  }
  console.log(
    `Chromium ${browser.version()} worker, fetch (local, HTTP cache warm after the first) + gunzip + parse + index: ${stats(runs)}`,
  );
} finally {
  await browser.close();
  server.close();
}
