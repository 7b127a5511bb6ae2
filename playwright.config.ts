import { defineConfig } from '@playwright/test';

// Debian's chromium, never a downloaded browser. The flags keep it off the (closed) network; the benches launch it the same way.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const args = CHROMIUM_ARGS;
const executablePath = CHROMIUM_PATH;
/** The test-only hub mirror (e2e/model-mirror.mjs) serving test/models/. */
export const MIRROR_PORT = Number(process.env.MIRROR_PORT ?? 4180);
/** The production build's preview server; set PREVIEW_PORT to run two suites side by side. */
export const PREVIEW_PORT = Number(process.env.PREVIEW_PORT ?? 4173);

export default defineConfig({
  testDir: 'e2e',
  // Generous: a shared machine under load runs these several times slower; a hang still ends.
  timeout: 240_000,
  expect: { timeout: 30_000 },
  retries: 0,
  workers: 1,
  reporter: [['list'], ['json', { outputFile: 'reports/playwright.json' }]],
  use: { baseURL: `http://localhost:${PREVIEW_PORT}` },
  projects: [
    // --enable-unsafe-webgpu gives the worker a SwiftShader adapter (isFallbackAdapter: true): the WebGPU path.
    { name: 'webgpu', use: { browserName: 'chromium', launchOptions: { executablePath, args: [...args, '--enable-unsafe-webgpu'] } } },
    // Without it navigator.gpu exists but requestAdapter() gives null: the WASM fallback path.
    { name: 'wasm', use: { browserName: 'chromium', launchOptions: { executablePath, args } } },
  ],
  webServer: [
    {
      command: `npx vite preview --port ${PREVIEW_PORT} --strictPort`,
      url: `http://localhost:${PREVIEW_PORT}`,
      reuseExistingServer: false,
      timeout: 240_000,
    },
    {
      command: `node e2e/model-mirror.mjs --port ${MIRROR_PORT}`,
      url: `http://127.0.0.1:${MIRROR_PORT}/__health`,
      reuseExistingServer: false,
      timeout: 240_000,
    },
  ],
});
