/**
 * The core's two error conventions. Inside the core, what can fail on ordinary input answers a result value
 * (`Result`: a cell that is not a label, a malformed NLI list); at the edges (a file that cannot be used, a usage
 * error) a typed `VerityError` (core/types.ts) carries a code and a message for the user, which the CLI maps to
 * an exit code and the session to `{ ok: false, error }` with the error as a `Problem` (its code, message and
 * details), which the app words for its own controls.
 */
import { VerityError, type VerityErrorCode } from './types.ts';

/**
 * What can fail on ordinary input: the value, or why not — worded for the user, or (the model host's) a
 * structured error with a code.
 */
export type Result<T, E = string> = { ok: true; value: T } | { ok: false; error: E };

export const ok = <T, E = string>(value: T): Result<T, E> => ({ ok: true, value });
export const fail = <T = never>(error: string): Result<T> => ({ ok: false, error });

/** The text of anything thrown: an Error's message, else the value as a string. The one copy of this helper. */
export const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * A failure handed to a surface to word: its code, the core's own message (complete, naming no control of any
 * surface), and the details the surface words it from (the app names its column selects, the CLI its flags).
 * Plain data, so it crosses a worker boundary as it is.
 */
export interface Problem {
  code: VerityErrorCode;
  message: string;
  details: Readonly<Record<string, unknown>>;
}

/** What was thrown, as a Problem: a VerityError keeps its code and details; anything else is `other`. */
export const problemOf = (e: unknown): Problem =>
  e instanceof VerityError
    ? { code: e.code, message: e.message, details: e.details }
    : { code: 'other', message: messageOf(e), details: {} };

/** A refusal with its code, answered without throwing. */
export const refuse = <T = never>(code: VerityErrorCode, message: string): Result<T, Problem> => ({
  ok: false,
  error: { code, message, details: {} },
});

/**
 * The edge where a thrown error becomes a result: `f`'s value, or what it threw as a Problem. A facade (the
 * scoring session) answers through this one helper instead of its own try/catch per method.
 */
export async function settle<T>(f: () => T | Promise<T>): Promise<Result<T, Problem>> {
  try {
    return { ok: true, value: await f() };
  } catch (e) {
    return { ok: false, error: problemOf(e) };
  }
}

/** `settle` for work that answers at once (no promise crosses back). */
export function settleNow<T>(f: () => T): Result<T, Problem> {
  try {
    return { ok: true, value: f() };
  } catch (e) {
    return { ok: false, error: problemOf(e) };
  }
}
