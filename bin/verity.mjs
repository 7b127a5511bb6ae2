#!/usr/bin/env node
// Runs the TypeScript CLI directly through tsx, so `npx verity` works right after `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv);
