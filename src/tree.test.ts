/**
 * The shape issue 13 gave the tree, kept: the scoring worker stays a thin shell around the session, and the
 * Score page stays layout (its run lives in app/lib/scoring.svelte.ts). A page that grows past these sizes
 * has taken logic back that belongs in a module with its own tests.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const lines = (rel: string) => readFileSync(fileURLToPath(new URL(rel, import.meta.url)), 'utf8').split('\n').length;

describe('tree shape', () => {
  it.each([
    ['../workers/score.worker.ts', 80],
    ['app/pages/Score.svelte', 250],
  ])('%s is under %i lines', (rel, limit) => {
    expect(lines(rel)).toBeLessThan(limit);
  });

  it('the Score page keeps no run logic of its own (no worker API, no recovery)', () => {
    const page = readFileSync(fileURLToPath(new URL('app/pages/Score.svelte', import.meta.url)), 'utf8');
    expect(page).not.toMatch(/scoreApi|resetScoreWorker|fallbackSpecs|RecoveryBudget/);
  });
});
