/**
 * The CLI's exit codes, derived here alone from an error's kind; docs/cli.md's table is held to this list by
 * test/docs.test.ts.
 */
import type { VerityError } from '../core/types.ts';

export const EXIT_CODES = {
  success: 0,
  usage: 1,
  input: 2,
  internal: 3,
  output: 4,
  sigint: 130,
  sigterm: 143,
} as const;

/** The exit code of a VerityError that reached the CLI's edge. */
export const exitCodeOf = (e: VerityError): number => EXIT_CODES[e.kind];
