/**
 * The numbers Verity uses when nobody chose one, set once for the CLI, the app and the core, so that `verity
 * evaluate`, `verity compare` and the Score page give the same intervals and decisions.
 */
export const DEFAULTS = {
  /** Bootstrap intervals and paired tests: resamples, the mulberry32 seed, the central interval mass. */
  bootstrap: { resamples: 1000, seed: 42, level: 0.95 },
  /** Family-wise error rate for "A > B" in a comparison (Holm). */
  alpha: 0.05,
  /**
   * Rows handed to model-based metrics at a time: by the session (a run with models saves a chunk of this many
   * rows, so a cancel or a crash loses little) and by the CLI (larger: nothing waits on it between batches).
   */
  rowsPerBatch: { session: 64, cli: 256 },
} as const;
