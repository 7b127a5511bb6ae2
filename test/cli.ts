/**
 * The CLI as the unit tests spawn it: src/cli/entry.ts (which calls main) bundled once per test run by test/global-setup.ts (a Vite
 * SSR build; packages stay in node_modules). Starting it costs about half the CPU of `node bin/verity.mjs`,
 * which compiles the TypeScript through tsx and resolves a few hundred modules at every start, and the CLI
 * tests start it about forty times. bin/verity.mjs itself keeps a test of its own (cli.test.ts).
 */
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const CLI_DIR = fileURLToPath(new URL('../node_modules/.cache/verity-test-cli/', import.meta.url));
/** The bundled CLI's entry: spawn it as `node CLI …` with cwd = ROOT. */
export const CLI = `${CLI_DIR}main.js`;
