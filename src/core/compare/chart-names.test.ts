import { describe, expect, it } from 'vitest';
import { chartNames, leaderLine, placeLabels, sharedPrefix } from './chart-names.ts';

describe('system names in charts', () => {
  it('drops the prefix every name shares, cut at a separator, never emptying a name', () => {
    expect(chartNames(['evouna/NQ/fid', 'evouna/NQ/gpt35', 'evouna/NQ/chatgpt'])).toEqual({
      prefix: 'evouna/NQ/',
      short: ['fid', 'gpt35', 'chatgpt'],
    });
    expect(sharedPrefix(['gpt4', 'gpt35'])).toBe('');
    expect(sharedPrefix(['run_a', 'run_b'])).toBe('run_');
    expect(sharedPrefix(['a/', 'a/b'])).toBe('');
    expect(sharedPrefix(['only/one'])).toBe('');
  });

  it('places labels of points on top of each other without overlap', () => {
    const points = ['fid', 'gpt35', 'chatgpt', 'gpt4', 'newbing'].map((text, i) => ({ x: 150 + i, y: 150 + i, text }));
    const placed = placeLabels(points, { width: 300, height: 300 });
    const boxes = placed.map((p, i) => {
      const w = points[i]!.text.length * 7;
      const x0 = p.anchor === 'start' ? p.x : p.anchor === 'end' ? p.x - w : p.x - w / 2;
      return { x0, x1: x0 + w, y0: p.y - 14 * 0.8, y1: p.y + 14 * 0.2 };
    });
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i]!, boxes[j]!];
        expect(a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1, `${i} and ${j} overlap`).toBe(false);
      }
    // A lone point keeps its label just above it.
    expect(placeLabels([{ x: 100, y: 100, text: 'a' }], { width: 300, height: 300 })).toEqual([{ x: 100, y: 93, anchor: 'middle' }]);
  });

  it("draws a leader line only to a label that moved away from its dot, from the dot's edge to the label's box", () => {
    const points = ['fid', 'gpt35', 'chatgpt', 'gpt4', 'newbing'].map((text, i) => ({ x: 150 + i, y: 150 + i, text }));
    const placed = placeLabels(points, { width: 300, height: 300 });
    const lines = points.map((p, i) => leaderLine(p, placed[i]!));
    // The first label sits just above its dot; the crowd's later labels moved out and are tied back.
    expect(lines[0]).toBeNull();
    expect(lines.filter(Boolean).length).toBeGreaterThan(0);
    for (const [i, l] of lines.entries()) {
      if (!l) continue;
      const p = points[i]!;
      expect(Math.hypot(l.x1 - p.x, l.y1 - p.y)).toBeCloseTo(5, 9);
      expect(Math.hypot(l.x2 - p.x, l.y2 - p.y)).toBeGreaterThan(7);
    }
    // A label one ring out, straight above: the line runs up from the dot's top to the box's bottom edge.
    const far = leaderLine({ x: 100, y: 100, text: 'ab' }, { x: 100, y: 70, anchor: 'middle' });
    expect(far).toEqual({ x1: 100, y1: 95, x2: 100, y2: 70 + 14 * 0.2 });
  });
});
