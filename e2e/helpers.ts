/**
 * What the page specs share: the metric and class names, a page that may reach only localhost (every other
 * request is aborted and recorded) with its console errors collected, and model choices pointing at the
 * test mirror's tiny fixture models.
 */
import { expect, test, type Page } from '@playwright/test';
import { LEXICAL_METRICS, MODEL_METRICS } from '../src/core/metrics/index.ts';
import { CAP_CLASSES } from '../src/core/types.ts';

/** The metric lists come from the metric table (src/core/metrics/index.ts), as the app's and the CLI's do. */
export const LEXICAL: readonly string[] = LEXICAL_METRICS;
export const MODEL: readonly string[] = MODEL_METRICS;
export const CLASSES: readonly string[] = CAP_CLASSES;

const MIRROR_PORT = Number(process.env.MIRROR_PORT ?? 4180);
const REV = 'e2e0000000000000000000000000000000000001';

/** What a test saw go wrong: requests that would have left localhost, and console errors. */
export interface Watch {
  outside: string[];
  errors: string[];
}

/** Opens an app route (at this window width, 900 px high, when given) under watch. */
export async function open(page: Page, path: string, width?: number): Promise<Watch> {
  const watch: Watch = { outside: [], errors: [] };
  await page.route(/^(?!https?:\/\/localhost[:/]).*/, (route) => {
    watch.outside.push(route.request().url());
    return route.abort();
  });
  page.on('console', (m) => m.type() === 'error' && watch.errors.push(m.text()));
  if (width) await page.setViewportSize({ width, height: 900 });
  await page.goto(path);
  return watch;
}

/**
 * Opens the Models page and waits for the model worker's probe, which adds its facts above the buttons and, in the
 * WebGPU project, has the browser set up a (software) adapter: nothing is clicked or measured while either goes on.
 */
export async function openModels(page: Page): Promise<void> {
  await page.goto('/#/models');
  await expect(page.getByTestId('probe-device')).toBeVisible({ timeout: 60_000 });
}

/** Saves a full-page screenshot with the test's output, then checks that nothing went wrong. */
export async function finish(page: Page, screenshot: string, watch: Watch): Promise<void> {
  // Sections off screen are not rendered (content-visibility: auto), and a full-page capture draws them blank: the
  // page is captured in a viewport as tall as itself.
  const size = page.viewportSize();
  if (size) {
    for (let i = 0, h = 0; i < 3; i++) {
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      if (height === h) break;
      h = height;
      await page.setViewportSize({ width: size.width, height: Math.min(height, 20_000) });
      // Two frames, so the sections now on screen are drawn; a page that draws none in 3 s (once seen in CI, not
      // reproduced in 40 tries here) is left to the capture's own wait and timeout.
      await page.evaluate(
        () =>
          new Promise((r) => {
            setTimeout(r, 3000);
            requestAnimationFrame(() => requestAnimationFrame(r));
          }),
      );
    }
  }
  await page.screenshot({ path: test.info().outputPath(screenshot), fullPage: true });
  if (size) await page.setViewportSize(size);
  expect(watch.outside).toEqual([]);
  expect(watch.errors).toEqual([]);
}

/**
 * Model choices as the Models page stores them: the tiny fixture models from the test mirror, with "use models
 * without their check" ticked (random weights fail every canary: the same switch a user flips). Call before open().
 */
export async function useTestModels(page: Page): Promise<void> {
  const choice = (id: string) => ({ id, revision: REV });
  const settings = {
    source: { kind: 'mirror', url: `http://localhost:${MIRROR_PORT}/` },
    choices: {
      nli: choice('tiny-nli'),
      reranker: choice('tiny-reranker'),
      embedder: choice('tiny-embedder'),
      statements: choice('tiny-t5'),
    },
    skipCanary: true,
  };
  await page.addInitScript((s) => localStorage.setItem('verity.model-settings', s), JSON.stringify(settings));
}
