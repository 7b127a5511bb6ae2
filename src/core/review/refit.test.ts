/** Refitting a threshold on reviewed rows (issue 36), worked by hand. */
import { describe, expect, it } from 'vitest';
import { refitThreshold } from './refit.ts';
import { PICK_QUEUE, PICK_RANDOM } from './estimate.ts';

const Q = PICK_QUEUE;
const R = PICK_RANDOM;

describe('refitThreshold', () => {
  // The queue found two correct answers just under 0.5 and a wrong one just over; the slice one correct at 0.47.
  const cells = [
    { s: 0.45, h: 1, pick: Q },
    { s: 0.48, h: 1, pick: Q },
    { s: 0.52, h: 0, pick: Q },
    { s: 0.9, h: 1, pick: R },
    { s: 0.1, h: 0, pick: R },
    { s: 0.47, h: 1, pick: R },
    { s: 0.3, h: 0, pick: R },
    { s: 0.6, h: -1, pick: 0 },
    { s: null, h: 1, pick: Q },
  ];

  it('fits the threshold that agrees most over every row (queue 1, slice N/r), and cross-fits the slice', () => {
    // t = 0.375 (between 0.3 and 0.45): queue 2 of 3, slice 4 of 4 × 8/4 — better than 0.5 (0 + 3 × 2).
    // Halves {0.9, 0.47} and {0.1, 0.3}, each decided by a threshold fitted on the rest (0.375, 0.45): 4 of 4.
    // The cross-fitted slice agrees more (3 of 4 → 4 of 4): applied.
    expect(refitThreshold('m', cells, 0.5, true)).toEqual({
      metric: 'm',
      before: 0.5,
      fitted: 0.375,
      applied: true,
      after: 0.375,
      rows: 7,
      slice: { n: 4, before: 0.75, after: 1 },
    });
  });

  it('keeps the threshold when no other agrees more, and weighs labelled rows alike without picks', () => {
    const clean = [
      { s: 0.9, h: 1, pick: 0 },
      { s: 0.2, h: 0, pick: 0 },
      { s: 0.7, h: 1, pick: 0 },
    ];
    expect(refitThreshold('m', clean, 0.5, false)).toMatchObject({ after: 0.5, applied: false, slice: { n: 3, before: 1, after: 1 } });
  });

  it('keeps the threshold when the fitted one does not agree more on the held-out halves of the slice', () => {
    // The queue pulls the threshold down to 0.375 (its two 0.45–0.48 rows); the slice's only doubtful row, at 0.4, is wrong.
    const pulled = [
      { s: 0.45, h: 1, pick: Q },
      { s: 0.48, h: 1, pick: Q },
      { s: 0.9, h: 1, pick: R },
      { s: 0.4, h: 0, pick: R },
      { s: 0.1, h: 0, pick: R },
      { s: 0.3, h: 0, pick: R },
    ];
    const r = refitThreshold('m', pulled, 0.5, true);
    expect(r.fitted).not.toBe(0.5);
    expect(r).toMatchObject({ applied: false, after: 0.5 });
    expect(r.slice.after!).toBeLessThanOrEqual(r.slice.before!);
  });
});
