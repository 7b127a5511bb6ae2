/**
 * The sampling design: weights and step probabilities by hand; the exponential-key order is successive sampling
 * (the first group drawn with probability w / Σ w); Des Raj's estimate of a total, unbiased after any number of
 * steps, with its variance estimate; and a label file's lines checked — a cut tail read as a shorter review, a
 * hole, an edited draw or a swapped order refused, shuffled lines read right.
 */
import { describe, expect, it } from 'vitest';
import { designWeights, drawDesign, drawKey, groupDraw, readSequence, stepProbabilities, stratumScale, type AskedGroup } from './design.ts';
import { answerGroupKey, answerGroups } from './groups.ts';
import { mulberry32 } from '../util/random.ts';

const uniform = (n: number, seed: number) => {
  const rnd = mulberry32(seed);
  return Float64Array.from({ length: n }, () => (Math.floor(rnd() * 4294967295) + 1) / 4294967297);
};

describe('designWeights, drawDesign and groupDraw', () => {
  it('weighs a group by √(Σ max(floor, p(1 − p))) over its rows (by hand)', () => {
    const w = designWeights([[0, 1], [2], [3]], [0.5, 0.5, 0.001, 0.9], 0.02);
    expect(Array.from(w).map((x) => Math.round(x * 1e12) / 1e12)).toEqual(
      [Math.sqrt(0.5), Math.sqrt(0.02), Math.sqrt(0.09)].map((x) => Math.round(x * 1e12) / 1e12),
    );
  });

  it('weighs a row of a smaller system more, by (mean rows / its rows)² (by hand)', () => {
    // System 0 has 3 rows, system 1 has 1: mean 2, so (2/3)² and (2/1)².
    const c = stratumScale([0, 0, 0, 1], 2);
    expect(Array.from(c)).toEqual([4 / 9, 4 / 9, 4 / 9, 4]);
    expect(Array.from(stratumScale([0, 1, 0, 1], 2))).toEqual([1, 1, 1, 1]);
    expect(Array.from(stratumScale([-1, -1], 0))).toEqual([1, 1]);
    const w = designWeights([[0, 3], [1], [2]], [0.5, 0.5, 0.5, 0.5], 0.02, c);
    expect(w[0]).toBeCloseTo(Math.sqrt(0.25 * (4 / 9) + 0.25 * 4), 12);
    expect(w[1]).toBeCloseTo(Math.sqrt(0.25 * (4 / 9)), 12);
  });

  it('orders groups by −ln(draw) / weight and sums the weights', () => {
    const w = Float64Array.from({ length: 50 }, (_, g) => 0.1 + (g % 7) / 7);
    const d = drawDesign(w, uniform(50, 1), 1);
    const keys = Array.from(d.order, (g) => -Math.log(d.draws[g]!) / w[g]!);
    expect(keys).toEqual([...keys].sort((x, y) => x - y));
    expect(d.total).toBeCloseTo(
      w.reduce((a, b) => a + b, 0),
      12,
    );
  });

  it('draws each group from the seed, the input and its first row', () => {
    const u = groupDraw(7, 'abc', 'sysA', '12');
    expect(u > 0 && u < 1).toBe(true);
    expect(groupDraw(7, 'abc', 'sysA', '12')).toBe(u);
    for (const other of [
      groupDraw(8, 'abc', 'sysA', '12'),
      groupDraw(7, 'abd', 'sysA', '12'),
      groupDraw(7, 'abc', 'sysB', '12'),
      groupDraw(7, 'abc', 'sysA', '13'),
    ])
      expect(other).not.toBe(u);
    // Spread evenly: 10,000 rows' draws fill the ten tenths to within 15%.
    const bins = new Array<number>(10).fill(0);
    for (let i = 0; i < 10_000; i++) bins[Math.floor(groupDraw(1, 'x', undefined, String(i)) * 10)]!++;
    for (const b of bins) expect(Math.abs(b - 1000)).toBeLessThan(150);
  });

  it('gives each step the probability w / (the weight left) (by hand)', () => {
    const q = stepProbabilities([2, 1, 1], 8);
    expect(Array.from(q)).toEqual([2 / 8, 1 / 6, 1 / 5]);
  });
});

describe('successive sampling in simulation', () => {
  // 40 groups, values with no relation to the weights (as a judge's error may have none to the priority).
  const G = 40;
  const w = Float64Array.from({ length: G }, (_, g) => Math.sqrt(Math.max(0.02, ((g * 37) % 11) / 22)));
  const y = Float64Array.from({ length: G }, (_, g) => ((g * 13) % 5 === 0 ? 1 : 0) - ((g * 7) % 9 === 0 ? 1 : 0));
  const total = y.reduce((a, b) => a + b, 0);
  const W = w.reduce((a, b) => a + b, 0);
  const SEEDS = 6000;

  it('draws the first group with probability w / Σ w', () => {
    const first = new Array<number>(G).fill(0);
    for (let seed = 1; seed <= SEEDS; seed++) first[drawDesign(w, uniform(G, seed), seed).order[0]!]!++;
    let chi = 0;
    for (let g = 0; g < G; g++) chi += (first[g]! - (SEEDS * w[g]!) / W) ** 2 / ((SEEDS * w[g]!) / W);
    // χ² with 39 degrees of freedom: under 70 with probability above 0.998.
    expect(chi).toBeLessThan(70);
  });

  for (const k of [3, 15, 30])
    it(`estimates a total without bias, and its variance, after ${k} steps (Des Raj)`, () => {
      const est: number[] = [];
      let vMean = 0;
      for (let seed = 1; seed <= SEEDS; seed++) {
        const d = drawDesign(w, uniform(G, seed), seed);
        const order = Array.from(d.order.subarray(0, k));
        const q = stepProbabilities(
          order.map((g) => w[g]!),
          d.total,
        );
        let known = 0;
        const t = order.map((g, j) => {
          const x = known + y[g]! / q[j]!;
          known += y[g]!;
          return x;
        });
        const mean = t.reduce((a, b) => a + b, 0) / k;
        est.push(mean);
        if (k > 1) vMean += t.reduce((a, b) => a + (b - mean) ** 2, 0) / (k * (k - 1)) / SEEDS;
      }
      const mean = est.reduce((a, b) => a + b, 0) / SEEDS;
      const variance = est.reduce((a, b) => a + (b - mean) ** 2, 0) / (SEEDS - 1);
      expect(Math.abs(mean - total)).toBeLessThan(4 * Math.sqrt(variance / SEEDS));
      if (k > 1) expect(Math.abs(vMean / variance - 1)).toBeLessThan(0.1);
    });
});

describe('an adapting draw in simulation: fresh draws under weights fixed at each epoch', () => {
  // 40 groups; after 5 steps the weights of the groups left change with the values seen (as a refit on the answers
  // does): at each later step the group drawn has probability w' / Σ w' over those left, so Des Raj stays unbiased.
  const G = 40;
  const w = Float64Array.from({ length: G }, (_, g) => Math.sqrt(Math.max(0.02, ((g * 37) % 11) / 22)));
  const y = Float64Array.from({ length: G }, (_, g) => ((g * 13) % 5 === 0 ? 1 : 0) - ((g * 7) % 9 === 0 ? 1 : 0));
  const total = y.reduce((a, b) => a + b, 0);
  const SEEDS = 6000;
  const AT = 5;

  /** One review of k steps: the first draw, then from step AT an epoch whose weights depend on what was seen. */
  const review = (seed: number, k: number) => {
    const first = drawDesign(w, uniform(G, seed), seed);
    const order = Array.from(first.order.subarray(0, Math.min(k, AT)));
    const q = Array.from(
      stepProbabilities(
        order.map((g) => w[g]!),
        first.total,
      ),
    );
    if (k > AT) {
      const seen = order.reduce((a, g) => a + y[g]!, 0);
      const drawn = new Set(order);
      const w1 = Float64Array.from(w, (x, g) => (drawn.has(g) ? 0 : x * (y[g] === 1 ? 10 : 1) * (1 + ((g + seen + 10) % 4))));
      const u1 = uniform(G, seed + 1_000_000);
      const left = Array.from({ length: G }, (_, g) => g).filter((g) => !drawn.has(g));
      left.sort((a, b) => drawKey(u1[a]!, w1[a]!) - drawKey(u1[b]!, w1[b]!));
      const next = left.slice(0, k - AT);
      const W1 = left.reduce((a, g) => a + w1[g]!, 0);
      q.push(
        ...stepProbabilities(
          next.map((g) => w1[g]!),
          W1,
        ),
      );
      order.push(...next);
    }
    return { order, q };
  };

  /** Des Raj's estimate of the total from one review's steps: the mean of known + y / q. */
  const desRaj = (order: readonly number[], q: readonly number[]) => {
    let known = 0;
    const t = order.map((g, j) => {
      const x = known + y[g]! / q[j]!;
      known += y[g]!;
      return x;
    });
    return t.reduce((a, b) => a + b, 0) / order.length;
  };
  /** How many standard errors the estimates' mean lies from the total. */
  const offBy = (est: readonly number[]) => {
    const mean = est.reduce((a, b) => a + b, 0) / est.length;
    const variance = est.reduce((a, b) => a + (b - mean) ** 2, 0) / (est.length - 1);
    return Math.abs(mean - total) / Math.sqrt(variance / est.length);
  };

  for (const k of [3, 15, 30])
    it(`estimates a total without bias after ${k} steps`, () => {
      const est = Array.from({ length: SEEDS }, (_, s) => {
        const { order, q } = review(s + 1, k);
        return desRaj(order, q);
      });
      expect(offBy(est)).toBeLessThan(4);
    });

  it('is biased when the new epoch reuses the first draw’s keys with its probabilities (the check has power)', () => {
    // The same new weights, but the order kept from the first draw: the probabilities written are not the draw's.
    const est: number[] = [];
    const k = 15;
    for (let seed = 1; seed <= SEEDS; seed++) {
      const first = drawDesign(w, uniform(G, seed), seed);
      const order = Array.from(first.order.subarray(0, k));
      const q = Array.from(
        stepProbabilities(
          order.slice(0, AT).map((g) => w[g]!),
          first.total,
        ),
      );
      const drawn = new Set(order.slice(0, AT));
      const w1 = Float64Array.from(w, (x, g) => (drawn.has(g) ? 0 : x * (y[g] === 1 ? 10 : 1)));
      const W1 = w1.reduce((a, b) => a + b, 0);
      q.push(
        ...stepProbabilities(
          order.slice(AT).map((g) => w1[g]!),
          W1,
        ),
      );
      est.push(desRaj(order, q));
    }
    expect(offBy(est)).toBeGreaterThan(4);
  });
});

describe('readSequence: a label file checked against its design', () => {
  const seed = 5;
  const input = 'f'.repeat(64);
  const rows = Array.from({ length: 30 }, (_, i) => ({ id: String(i), system: i % 2 ? 'a' : 'b' }));
  const weights = Float64Array.from(rows, (_, i) => 0.2 + (i % 5) / 10);
  const draws = Float64Array.from(rows, (r) => groupDraw(seed, input, r.system, r.id));
  const d = drawDesign(weights, draws, seed);
  const lines: AskedGroup[] = Array.from(d.order.subarray(0, 12), (g, k) => ({
    order: k + 1,
    epoch: 0,
    total: d.total,
    weight: weights[g]!,
    draw: draws[g]!,
    answered: k < 10,
    first: rows[g]!,
  }));
  const design = { seed, total: d.total, input };

  it('reads the answered prefix with each step probability', () => {
    const r = readSequence(lines, design);
    if (!r.ok) throw new Error(r.error);
    expect(r.value.answered).toBe(10);
    expect(Array.from(r.value.step)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -1, -1]);
    expect(Array.from(r.value.q)).toEqual(
      Array.from(
        stepProbabilities(
          lines.slice(0, 10).map((l) => l.weight),
          d.total,
        ),
      ),
    );
  });

  it('reads a file cut after any line as a review stopped there', () => {
    for (const n of [1, 5, 11]) {
      const r = readSequence(lines.slice(0, n), design);
      if (!r.ok) throw new Error(r.error);
      expect(r.value.answered).toBe(Math.min(n, 10));
    }
  });

  it('reads shuffled lines by their order', () => {
    const shuffled = [...lines].reverse();
    const r = readSequence(shuffled, design);
    if (!r.ok) throw new Error(r.error);
    expect(Array.from(r.value.step)).toEqual([-1, -1, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
  });

  it('refuses a hole, naming the missing questions', () => {
    const r = readSequence([...lines.slice(0, 3), ...lines.slice(5)], design, 'r.jsonl');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/r\.jsonl lacks the review's questions 4, 5 while holding later ones/);
  });

  it('refuses a line whose draw is not its row’s, or whose row was changed', () => {
    const edited = lines.map((l, k) => (k === 3 ? { ...l, draw: l.draw / 2 } : l));
    const r = readSequence(edited, design);
    expect(!r.ok && r.error).toMatch(/question 4: its draw is not the one seed 5 gives its row/);
    const moved = lines.map((l, k) => (k === 3 ? { ...l, first: { id: '99', system: 'a' } } : l));
    expect(readSequence(moved, design).ok).toBe(false);
    // Another review's lines (another seed) do not pass.
    expect(readSequence(lines, { ...design, seed: 6 }).ok).toBe(false);
  });

  it('reads a second epoch: fresh draws, its own weights and total, each step over the weight left in its epoch', () => {
    const drawn = new Set(Array.from(d.order.subarray(0, 6)));
    const w1 = Float64Array.from(rows, (_, i) => (drawn.has(i) ? 0 : 0.1 + (i % 3) / 5));
    const u1 = Float64Array.from(rows, (r) => groupDraw(seed, input, r.system, r.id, 1));
    const left = rows.map((_, i) => i).filter((i) => !drawn.has(i));
    const W1 = left.reduce((a, i) => a + w1[i]!, 0);
    left.sort((a, b) => drawKey(u1[a]!, w1[a]!) - drawKey(u1[b]!, w1[b]!));
    const second: AskedGroup[] = [
      ...lines.slice(0, 6),
      ...left
        .slice(0, 4)
        .map((i, k) => ({ order: 7 + k, epoch: 1, total: W1, weight: w1[i]!, draw: u1[i]!, answered: true, first: rows[i]! })),
    ];
    const r = readSequence(second, design);
    if (!r.ok) throw new Error(r.error);
    expect(r.value.answered).toBe(10);
    const w0 = lines.slice(0, 6).map((l) => l.weight);
    const want = [
      ...stepProbabilities(w0, d.total),
      ...stepProbabilities(
        left.slice(0, 4).map((i) => w1[i]!),
        W1,
      ),
    ];
    Array.from(r.value.q).forEach((q, k) => expect(q).toBeCloseTo(want[k]!, 14));
    // The epoch is in the draw: a second-epoch line with its first-epoch draw does not pass.
    const first = left[0]!;
    expect(
      readSequence(
        second.map((l) => (l.order === 7 ? { ...l, draw: groupDraw(seed, input, rows[first]!.system, rows[first]!.id) } : l)),
        design,
      ).ok,
    ).toBe(false);
    // Epochs never go back; one epoch's lines share its total; the first epoch's total is the design's.
    const back = second.map((l) => (l.order === 8 ? { ...l, epoch: 0, total: d.total } : l));
    expect(readSequence(back, { ...design, input: null }).ok).toBe(false);
    const twoTotals = second.map((l) => (l.order === 9 ? { ...l, total: W1 * 1.01 } : l));
    expect(!readSequence(twoTotals, design).ok && readSequence(twoTotals, design)).toMatchObject({
      error: expect.stringMatching(/question 9: its epoch's total differs/),
    });
    expect(
      readSequence(
        lines.map((l) => ({ ...l, total: d.total * 2 })),
        design,
      ).ok,
    ).toBe(false);
  });

  it('refuses lines whose order the draws do not give', () => {
    const swapped = lines.map((l, k) => (k === 2 ? { ...l, order: 4 } : k === 3 ? { ...l, order: 3 } : l));
    expect(drawKey(lines[3]!.draw, lines[3]!.weight)).toBeGreaterThan(drawKey(lines[2]!.draw, lines[2]!.weight));
    const r = readSequence(swapped, design);
    expect(!r.ok && r.error).toMatch(/question 4 comes before question 3/);
  });
});

describe('answerGroups', () => {
  it('groups rows with the same question, the same normalised answer and the same golds', () => {
    const rows = [
      { key: '1', question: 'Capital?', golds: ['Paris'], candidate: 'Paris' },
      { key: '1', question: 'Capital?', golds: ['paris'], candidate: 'the Paris.' },
      { key: '1', question: 'Capital?', golds: ['Paris', 'Lutetia'], candidate: 'Paris' },
      { key: '2', question: 'Capital?', golds: ['Paris'], candidate: 'Paris' },
      { key: '1', question: 'Capital?', golds: ['Paris'], candidate: '' },
      { key: '1', question: 'Capital?', golds: ['Paris'], candidate: ' ' },
    ];
    const g = answerGroups(rows);
    expect(Array.from(g.groupOf)).toEqual([0, 0, 1, 2, 3, 3]);
    expect(g.groups).toEqual([[0, 1], [2], [3], [4, 5]]);
    // Without a key, the question text pairs rows.
    expect(answerGroupKey({ question: 'Q', golds: ['a'], candidate: 'x' })).toBe(
      answerGroupKey({ key: 'Q', question: 'other', golds: ['a'], candidate: 'x' }),
    );
  });
});
