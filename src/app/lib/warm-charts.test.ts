import { afterEach, describe, expect, it, vi } from 'vitest';

describe('warmCharts', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('draws once, in an idle callback, however often it is asked', async () => {
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (f: () => void) => idle.push(f));
    const { warmCharts } = await import('./warm-charts.ts');
    const draw = vi.fn();
    warmCharts(draw);
    warmCharts(draw);
    expect(draw).not.toHaveBeenCalled();
    expect(idle).toHaveLength(1);
    idle[0]!();
    expect(draw).toHaveBeenCalledTimes(1);
  });

  it('a failing draw is swallowed; without idle callbacks nothing is drawn', async () => {
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (f: () => void) => idle.push(f));
    const { warmCharts } = await import('./warm-charts.ts');
    warmCharts(() => {
      throw new Error('no document');
    });
    expect(() => idle[0]!()).not.toThrow();

    vi.stubGlobal('requestIdleCallback', undefined);
    vi.resetModules();
    const again = await import('./warm-charts.ts');
    const draw = vi.fn();
    again.warmCharts(draw);
    expect(draw).not.toHaveBeenCalled();
  });
});
