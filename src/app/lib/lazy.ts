/**
 * Views loaded when first needed, so the Score page's first load carries none of them: the comparison and the
 * report (their charts bring Observable Plot). The Score page awaits them where they show; lib/warm-charts.ts
 * fetches them while the page waits for the user, so the end of a run does not wait for a download.
 */
const once = <T>(load: () => Promise<T>): (() => Promise<T>) => {
  let p: Promise<T> | null = null;
  return () =>
    (p ??= load().catch((e: unknown) => {
      p = null;
      throw e;
    }));
};

export const loadComparison = once(() => import('../components/compare/Comparison.svelte'));
export const loadReport = once(() => import('../components/Report.svelte'));
export const loadPlot = once(() => import('@observablehq/plot'));
