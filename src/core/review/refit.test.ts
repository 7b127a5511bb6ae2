/** Refitting a threshold on reviewed rows, each weighed for the rows it stands for (1/π), worked by hand. */
import { describe, expect, it } from 'vitest';
import { refitThreshold } from './refit.ts';

describe('refitThreshold', () => {
  // Two correct answers just under 0.5 and a wrong one just over (π 0.5, 0.5 and a census row), four rows drawn with
  // π = 0.25 (each stands for 4), one unlabelled row, one labelled row without a score.
  const cells = [
    { s: 0.45, h: 1, pi: 0.5 },
    { s: 0.48, h: 1, pi: 0.5 },
    { s: 0.52, h: 0, pi: 1 },
    { s: 0.9, h: 1, pi: 0.25 },
    { s: 0.1, h: 0, pi: 0.25 },
    { s: 0.47, h: 1, pi: 0.25 },
    { s: 0.3, h: 0, pi: 0.25 },
    { s: 0.6, h: -1, pi: NaN },
    { s: null, h: 1, pi: 0.5 },
  ];

  it('fits the threshold that agrees most over the file, and cross-fits the agreement', () => {
    // Weights 2, 2, 1, 4, 4, 4, 4 (21 in all). t = 0.375 agrees on 20, the current 0.5 on 12.
    // Halves {0.45, 0.52, 0.1, 0.3} and {0.48, 0.9, 0.47}, each decided by a threshold fitted on the other
    // (0.47 and 0.375): 8 + 10 of 21 agree.
    expect(refitThreshold('m', cells, 0.5)).toEqual({
      metric: 'm',
      before: 0.5,
      fitted: 0.375,
      applied: true,
      after: 0.375,
      rows: 7,
      slice: { n: 7, before: 12 / 21, after: 18 / 21 },
    });
  });

  it('keeps the threshold when no other agrees more, and weighs labels outside a design alike', () => {
    const clean = [
      { s: 0.9, h: 1, pi: NaN },
      { s: 0.2, h: 0, pi: NaN },
      { s: 0.7, h: 1, pi: NaN },
    ];
    expect(refitThreshold('m', clean, 0.5)).toMatchObject({ after: 0.5, applied: false, slice: { n: 3, before: 1, after: 1 } });
  });

  it('keeps the threshold when the fitted one does not agree more on the held-out halves', () => {
    const pulled = [
      { s: 0.45, h: 1, pi: 1 },
      { s: 0.48, h: 1, pi: 1 },
      { s: 0.9, h: 1, pi: 0.25 },
      { s: 0.4, h: 0, pi: 0.25 },
      { s: 0.1, h: 0, pi: 0.25 },
      { s: 0.3, h: 0, pi: 0.25 },
    ];
    const r = refitThreshold('m', pulled, 0.5);
    expect(r).toMatchObject({ applied: false, after: 0.5 });
    expect(r.slice.after!).toBeLessThanOrEqual(r.slice.before!);
  });
});
