/**
 * Observable Plot's first chart on a page costs 10–25 ms more than the same chart drawn second: the first call
 * compiles much of Plot's code (an instrumented build, ten systems: the leaderboard's bar chart took 17–31 ms
 * first, 5–10 ms after one throwaway chart). Every run's charts come at its end, while the scoring worker builds
 * the report and both cores are busy, where that cost stretched a task past 50 ms (bench:app). So a page about to
 * run draws one small chart with the marks the app uses, and throws it away, while it waits for the user. The
 * views with charts are loaded on demand (lib/lazy.ts): they are fetched here too, for the same reason.
 */
import { loadComparison, loadPlot, loadReport } from './lazy.ts';

let scheduled = false;

async function throwaway(): Promise<void> {
  const [Plot] = await Promise.all([loadPlot(), loadComparison(), loadReport()]);
  const d = [{ y: 'a', x: 0.5, lo: 0.4, hi: 0.6 }];
  Plot.plot({
    x: { domain: [0, 1], grid: true, label: 'x' },
    marks: [
      Plot.barX(d, { x: 'x', y: 'y' }),
      Plot.ruleY(d, { x1: 'lo', x2: 'hi', y: 'y' }),
      Plot.tickX(d, { x: 'lo', y: 'y' }),
      Plot.boxX(d, { x: 'x', y: 'y' }),
      Plot.dot(d, { x: 'hi', y: 'y' }),
      Plot.text(d, { x: 'x', y: 'y', text: 'y' }),
      Plot.line([
        [0, 0],
        [1, 1],
      ]),
    ],
  });
}

/** Draws the throwaway chart once per page, when the main thread is next idle; where there are no idle callbacks, never. */
export function warmCharts(draw: () => void | Promise<void> = throwaway): void {
  if (scheduled || typeof requestIdleCallback !== 'function') return;
  scheduled = true;
  requestIdleCallback(() => {
    // Only a head start: the real charts (and views) report their own errors.
    try {
      void Promise.resolve(draw()).catch(() => undefined);
    } catch {
      /* as above */
    }
  });
}
