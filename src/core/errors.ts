/**
 * The core's two error conventions. Inside the core, what can fail on ordinary input answers a result value
 * (`Result`: a cell that is not a label, a malformed NLI list); at the edges (a file that cannot be used, a usage
 * error) a typed `VerityError` (core/types.ts) carries a code and a message for the user, which the CLI maps to
 * an exit code and the session to `{ ok: false, error }` (the same `Result` form, across the worker boundary).
 */

/** What can fail on ordinary input: the value, or why not (worded for the user). */
export type Result<T> = { ok: true; value: T } | { ok: false; error: string };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T = never>(error: string): Result<T> => ({ ok: false, error });

/** The text of anything thrown: an Error's message, else the value as a string. The one copy of this helper. */
export const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));
