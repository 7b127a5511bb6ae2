/** The scoring session in tests: a session on a storage of its own (or a shared one), and results unwrapped. */
import { expect } from 'vitest';
import { memoryStore } from '../src/runtime/idb-cache.ts';
import { Journal } from '../src/session/journal.ts';
import { ScoringSession, type SessionDeps } from '../src/session/session.ts';
import type { Result, RunConfig } from '../src/session/api.ts';
import { lexicon } from './lexicon.ts';

let ids = 0;

export const newSession = (kv = memoryStore<unknown>(), deps: Partial<SessionDeps> = {}) =>
  new ScoringSession({
    store: new Journal(kv),
    version: '0.0.0-test',
    newId: () => `run${++ids}`,
    lexicon: () => Promise.resolve(lexicon),
    ...deps,
  });

/** What a refused call answers, for toMatchObject: its error's message (a string, or a pattern it matches). */
export const refusal = (message: string | RegExp) => ({
  ok: false,
  error: { message: typeof message === 'string' ? message : expect.stringMatching(message) },
});

/** The value of a result, or the test fails with its error's code and message. */
export function ok<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

export const runConfig = (mapping: RunConfig['mapping'], metrics: string[]): RunConfig => ({ metrics, settings: {}, models: {}, mapping });
