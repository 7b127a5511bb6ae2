/** `npm run fuzz` at a size CI can afford: 2,000 generated rows per format (the script's default is 100,000). */
import { describe, expect, it } from 'vitest';
import { runFuzz } from '../scripts/fuzz.ts';

describe('fuzz: generate, write as JSONL / JSON / CSV / TSV, read back, score', () => {
  it('2,000 rows: no crash, every score in [0, 1], decisions follow thresholds, everything reads back', async () => {
    const r = await runFuzz({ rows: 2_000, seed: 7 });
    const problems = r.formats.flatMap((f) => f.examples.map((e) => `${f.format}: ${e}`));
    expect(problems).toEqual([]);
    expect({ crashes: r.crashes, outOfRange: r.outOfRange, badDecisions: r.badDecisions, mismatches: r.mismatches }).toEqual({
      crashes: 0,
      outOfRange: 0,
      badDecisions: 0,
      mismatches: 0,
    });
    for (const f of r.formats) {
      // Most records are good; the bad ones and the junk lines are reported, not silently dropped.
      expect(f.rows).toBeGreaterThan(1_800);
      expect(f.errors).toBeGreaterThan(0);
    }
  }, 600_000);
});
