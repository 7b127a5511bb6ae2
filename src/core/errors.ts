/**
 * The core's two error conventions. Inside the core, what can fail on ordinary input answers a result value
 * (`Result`: a cell that is not a label, a malformed NLI list); at the edges (a file that cannot be used, a usage
 * error) a typed `VerityError` (core/types.ts) carries a code and a message for the user, which the CLI maps to
 * an exit code and the session to `{ ok: false, error }` (the same `Result` form, across the worker boundary).
 */

/**
 * What can fail on ordinary input: the value, or why not — worded for the user, or (the model host's) a
 * structured error with a code.
 */
export type Result<T, E = string> = { ok: true; value: T } | { ok: false; error: E };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T = never>(error: string): Result<T> => ({ ok: false, error });

/** The text of anything thrown: an Error's message, else the value as a string. The one copy of this helper. */
export const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * The edge where a thrown error becomes a result: `f`'s value, or what it threw worded by `word`. A facade (the
 * scoring session) answers through this one helper instead of its own try/catch per method.
 */
export async function settle<T>(f: () => T | Promise<T>, word: (e: unknown) => string = messageOf): Promise<Result<T>> {
  try {
    return { ok: true, value: await f() };
  } catch (e) {
    return { ok: false, error: word(e) };
  }
}

/** `settle` for work that answers at once (no promise crosses back). */
export function settleNow<T>(f: () => T, word: (e: unknown) => string = messageOf): Result<T> {
  try {
    return { ok: true, value: f() };
  } catch (e) {
    return { ok: false, error: word(e) };
  }
}
