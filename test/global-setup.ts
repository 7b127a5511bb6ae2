/**
 * Vitest global setup, once per run before any test file: the tiny test models (test/models/) and the bundled
 * CLI the CLI tests spawn (see test/cli.ts).
 */
import { build } from 'vite';
import { generateFixtures } from '../scripts/fixtures/generate.ts';
import { CLI_DIR, ROOT } from './cli.ts';

export default async function setup(): Promise<void> {
  generateFixtures();
  await build({
    configFile: false,
    root: ROOT,
    logLevel: 'warn',
    build: {
      // The CLI, and its scoring thread beside it (src/cli/thread.ts starts score-thread.js from there).
      ssr: true,
      rollupOptions: {
        input: { main: 'src/cli/entry.ts', 'score-thread': 'src/cli/score-thread.ts' },
        output: { entryFileNames: '[name].js', chunkFileNames: '[name].js' },
      },
      outDir: CLI_DIR,
      emptyOutDir: true,
      minify: false,
      target: 'node20',
      reportCompressedSize: false,
      copyPublicDir: false,
    },
  });
}
