import { defineConfig, type Plugin } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { VitePWA } from 'vite-plugin-pwa';

// Cross-origin isolation lets onnxruntime-web use threads (SharedArrayBuffer) in dev and preview alike.
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/**
 * transformers.js 4.3.1 (browser build) runs session creation and inference on promise chains
 * (`webInitChain = webInitChain.then(load)`) that stay rejected after one failure, so after a single failed
 * load (a truncated file, WebGPU refusing a model before the WASM fallback) every later load in the worker
 * fails with that first error. Same family as huggingface/transformers.js#1767. This keeps the chains alive;
 * the build fails if the code changed (then check whether an upgrade fixed it and drop this).
 */
function transformersChainFix(): Plugin {
  const fixes: [string, string][] = [
    ['webInitChain = webInitChain.then(load)', 'webInitChain = webInitChain.catch(() => undefined).then(load)'],
    ['webInferenceChain = webInferenceChain.then(run)', 'webInferenceChain = webInferenceChain.catch(() => undefined).then(run)'],
  ];
  return {
    name: 'verity:transformers-chain-fix',
    transform(code, id) {
      if (!/@huggingface[\\/]transformers[\\/]dist[\\/]transformers\.web\.js/.test(id)) return null;
      let out = code;
      for (const [from, to] of fixes) {
        if (!out.includes(from))
          this.error(`transformers.js changed: "${from}" not found in ${id}; review transformersChainFix in vite.config.ts`);
        out = out.replace(from, to);
      }
      return { code: out, map: null };
    },
  };
}

/**
 * Offline after the first visit: a Workbox precache (vite-plugin-pwa, the maintained Vite integration) of the
 * app shell, both workers, the demo set and the icon — everything the embedded metrics need. ONNX Runtime's
 * wasm (~20 MB) is left to the HTTP cache: it only serves model-based metrics, whose models need the network
 * (or an imported folder) on first use anyway, and are kept in IndexedDB by the model cache.
 */
const offline = VitePWA({
  // Registered by src/app/lib/updates.svelte.ts, which announces a new version and takes it up on reload
  // (the worker waits for its SKIP_WAITING message, so a page in use never switches versions mid-run).
  injectRegister: false,
  registerType: 'prompt',
  manifest: false,
  workbox: {
    // wnlex: the WordNet lexicon the embedded metrics load (issue 37).
    globPatterns: ['**/*.{html,js,css,svg,jsonl,wnlex,LICENSE}'],
    globIgnores: ['**/ort-wasm*'],
    maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
    navigateFallback: 'index.html',
    cleanupOutdatedCaches: true,
  },
});

/**
 * Opened as a file (file://), a page runs no module script and no worker: public/no-server.js, a classic script,
 * then says how to serve the folder instead of leaving a blank page. Added after Vite's HTML processing, which would
 * otherwise warn that a classic script cannot be bundled (it is not meant to be).
 */
function noServerNote(): Plugin {
  return {
    name: 'verity:no-server-note',
    transformIndexHtml: {
      order: 'post',
      handler: () => [{ tag: 'script', attrs: { src: './no-server.js' }, injectTo: 'head-prepend' }],
    },
  };
}

export default defineConfig({
  // Relative URLs throughout (pages, workers, wasm, the lexicon, the service worker): dist/ runs from any folder of
  // a static host — a course site's sub-path, a GitHub Pages project page — not only from a domain's root.
  base: './',
  plugins: [svelte(), transformersChainFix(), offline, noServerNote()],
  worker: { format: 'es', plugins: () => [transformersChainFix()] },
  // onnxruntime-web loads its own .mjs/.wasm files at run time; pre-bundling them breaks those URLs in dev.
  optimizeDeps: { exclude: ['onnxruntime-web', '@huggingface/transformers'] },
  server: { headers: isolation, port: 5173, strictPort: true },
  preview: { headers: isolation, port: 4173, strictPort: true },
  build: { target: 'es2022' },
  test: {
    environment: 'node',
    // Two suites: the unit tests (in-process, 2–3 minutes on a quiet machine), and the command line run as users run it (each
    // test spawns the bundled CLI; `npm run test:cli`). `npm test` runs both, then the browser tests.
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], exclude: ['src/cli/**'] } },
      { extends: true, test: { name: 'cli', include: ['src/cli/**/*.test.ts'] } },
    ],
    globalSetup: ['test/global-setup.ts'],
    // Timeouts only catch hangs: a shared machine under load runs the suites several times slower than a quiet one.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // Vitest keeps one core free by default, which on a 2-core machine runs the files one by one; the CLI
    // tests mostly wait on the processes they spawn, so two workers fill both cores.
    maxWorkers: 2,
  },
});
