/** What saved runs take in this browser: each run's results, plus each input once (runs of one file share it). */
import type { SavedRunInfo } from '../../session/api.ts';

export function savedBytes(runs: readonly SavedRunInfo[]): { results: number; inputs: number; total: number; inputCount: number } {
  const inputs = new Map<string, number>();
  // Runs saved before inputs were shared keep their own copy (inputRuns 1): counted once each.
  runs.forEach((r, i) => inputs.set(r.inputRuns > 1 ? `${r.inputHash}:${r.fileSize}` : `run${i}`, r.fileSize));
  const results = runs.reduce((s, r) => s + r.resultBytes, 0);
  const input = [...inputs.values()].reduce((s, n) => s + n, 0);
  return { results, inputs: input, total: results + input, inputCount: inputs.size };
}
