/**
 * Contrast (WCAG 2 AA) on every page, in the light and the dark scheme, checked by axe-core: the design tokens
 * (src/app/styles/tokens.css) must keep every text readable, results and comparison included.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { open } from './helpers.ts';

async function contrast(page: Page, where: string): Promise<void> {
  const r = await new AxeBuilder({ page }).withRules(['color-contrast']).analyze();
  const found = r.violations.flatMap((v) => v.nodes.map((n) => `${where}: ${n.target.join(' ')} — ${n.failureSummary ?? ''}`));
  expect(found).toEqual([]);
}

for (const scheme of ['light', 'dark'] as const) {
  test(`every page reads at WCAG AA contrast in the ${scheme} scheme`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme: scheme });
    await open(page, '/', 1280);
    await contrast(page, 'score, first screen');
    await page.getByTestId('try-compare').click();
    await expect(page.getByTestId('run-progress')).toContainText('done', { timeout: 60_000 });
    await expect(page.getByTestId('pair-matrix')).toBeAttached();
    for (const id of ['pair-matrix', 'report', 'review']) await page.getByTestId(id).first().scrollIntoViewIfNeeded();
    await page.getByTestId('result-row').first().click();
    await contrast(page, 'score, a comparison with its results, report and review');
    for (const [path, ready] of [
      ['/#/playground', 'pg-glance'],
      ['/#/learn', 'learn-export'],
      ['/#/models', 'clear-everything'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByTestId(ready).first()).toBeVisible({ timeout: 30_000 });
      await contrast(page, path);
    }
  });
}
