/**
 * The judge's sentences (judgeLines) are claims: each is read back and checked against the figures it came from,
 * over simulated reviews at several stopping points — a system said to be under- or over-credited by V points
 * has that bias and an interval on that side of 0, every such system is named, and the length sentence gives each
 * bin's error rate and the verdict its interval allows.
 */
import { describe, expect, it } from 'vitest';
import { judgeLines } from './cells.ts';
import { judgeReport, type JudgeReport } from '../review/judge.ts';
import { S, ROWS, cells, population, reviewOf } from '../../../test/review-sim.ts';

const num = (s: string) => Number(s.replace('−', '-'));

/** What is false in the sentences about the report `j` (by default its own sentences). */
function check(j: JudgeReport & { reference: string }, lines: readonly string[] = judgeLines(j)): string[] {
  const wrong: string[] = [];
  const named = new Set<string>();
  for (const line of lines) {
    const bias = /^judge (under|over)-credits (\S+) by ([\d.]+) points \(95% CI ([\d.]+) to ([\d.]+)\)\.$/.exec(line);
    if (bias) {
      const [, side, system, v, lo, hi] = bias;
      const e = j.systems.find((x) => x.system === system);
      if (!e) {
        wrong.push(`${line}: no such system`);
        continue;
      }
      named.add(system!);
      const sign = side === 'under' ? -1 : 1;
      if (Math.abs(sign * num(v!) - e.bias.value! * 100) > 0.051) wrong.push(`${line}: bias is ${e.bias.value}`);
      const [a, b] = e.bias.ci!;
      if (side === 'under' ? !(b < 0) : !(a > 0)) wrong.push(`${line}: interval ${a}..${b} holds 0`);
      const ends = side === 'under' ? [-b, -a] : [a, b];
      if (Math.abs(num(lo!) - ends[0]! * 100) > 0.051 || Math.abs(num(hi!) - ends[1]! * 100) > 0.051)
        wrong.push(`${line}: interval ${a}..${b}`);
      continue;
    }
    const length =
      /^judge errs on (.+): (its errors grow|its errors fall|no trend) .*\(longest − shortest ([−+][\d.]+) points, 95% CI \[([−+][\d.]+), ([−+][\d.]+)\]\)\.$/.exec(
        line,
      );
    if (length && j.length) {
      const [, binsText, how, v, lo, hi] = length;
      const L = j.length;
      const bins = binsText!.split(', ');
      if (bins.length !== L.bins.length) wrong.push(`${line}: ${L.bins.length} bins`);
      bins.forEach((b, k) => {
        const m = /^([\d.]+)% of (\d+)(?:–(\d+))?-word answers$/.exec(b);
        const bin = L.bins[k];
        if (!m || !bin) return void wrong.push(`${line}: bin "${b}"`);
        if (Math.abs(num(m[1]!) - bin.errors.value! * 100) > 0.051) wrong.push(`${line}: bin ${k} rate ${bin.errors.value}`);
        if (num(m[2]!) !== bin.words[0] || num(m[3] ?? m[2]!) !== bin.words[1]) wrong.push(`${line}: bin ${k} words ${bin.words}`);
      });
      const want = L.trend.ci![0] > 0 ? 'its errors grow' : L.trend.ci![1] < 0 ? 'its errors fall' : 'no trend';
      if (how !== want) wrong.push(`${line}: the interval says "${want}"`);
      for (const [t, x] of [
        [v, L.trend.value],
        [lo, L.trend.ci![0]],
        [hi, L.trend.ci![1]],
      ] as const)
        if (Math.abs(num(t!) - x! * 100) > 0.051) wrong.push(`${line}: ${t} is not ${x}`);
      continue;
    }
    wrong.push(`a sentence of unknown shape: ${line}`);
  }
  for (const e of j.systems)
    if (e.bias.ci && (e.bias.ci[1] < 0 || e.bias.ci[0] > 0) && !named.has(e.system!)) wrong.push(`${e.system}'s bias is not said`);
  if (j.length && !lines.some((l) => l.startsWith('judge errs on'))) wrong.push('the length sentence is missing');
  return wrong;
}

describe("the judge's sentences", () => {
  it('say what their figures say, over simulated reviews at several stopping points', { timeout: 300_000 }, () => {
    const pop = population(7);
    const words = Int32Array.from({ length: ROWS }, (_, c) => 1 + ((c * 7) % 9) + (pop.d[c] !== pop.y[c] ? 6 : 0));
    let sentences = 0;
    let biased = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const stop = reviewOf(pop, seed, 360, seed % 2 === 0);
      for (const n of [30, 120, 360]) {
        const j = {
          reference: 'judge',
          ...judgeReport(
            stop(n),
            { decision: pop.d, systems: Array.from({ length: S }, (_, s) => ({ name: `s${s}`, cells: cells(s) })), words },
            0.95,
            1,
          ),
        };
        expect(check(j)).toEqual([]);
        const lines = judgeLines(j);
        sentences += lines.length;
        biased += lines.filter((l) => l.includes('-credits')).length;
      }
    }
    // The check ran on sentences of both kinds.
    expect(biased).toBeGreaterThan(5);
    expect(sentences).toBeGreaterThan(biased);
  });

  it('find a planted false sentence of each kind', () => {
    const pop = population(7);
    const words = Int32Array.from({ length: ROWS }, (_, c) => 1 + ((c * 7) % 9) + (pop.d[c] !== pop.y[c] ? 6 : 0));
    const base = {
      reference: 'judge',
      ...judgeReport(
        reviewOf(pop, 2, 360, false)(360),
        { decision: pop.d, systems: Array.from({ length: S }, (_, s) => ({ name: `s${s}`, cells: cells(s) })), words },
        0.95,
        1,
      ),
    };
    expect(check(base)).toEqual([]);
    const under = base.systems.find((e) => e.bias.ci && e.bias.ci[1] < 0)!;
    expect(under).toBeDefined();
    // A bias that the sentence would misstate, an interval that holds 0 (no sentence due), a length verdict reversed.
    const moved = {
      ...base,
      systems: base.systems.map((e) => (e === under ? { ...e, bias: { ...e.bias, value: e.bias.value! - 0.01 } } : e)),
    };
    const lines = judgeLines(base);
    // The figures changed, the sentences not: each must be found false.
    const withLines = (j: typeof base) => check(j, lines);
    expect(withLines(moved).length).toBeGreaterThan(0);
    const flat = {
      ...base,
      systems: base.systems.map((e) => (e === under ? { ...e, bias: { ...e.bias, ci: [-0.1, 0.1] as [number, number] } } : e)),
    };
    expect(withLines(flat).length).toBeGreaterThan(0);
    const flipped = { ...base, length: { ...base.length!, trend: { ...base.length!.trend, ci: [-0.3, -0.1] as [number, number] } } };
    expect(withLines(flipped).length).toBeGreaterThan(0);
  });
});
