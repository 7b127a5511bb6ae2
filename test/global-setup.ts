/** Vitest global setup: generate the tiny test models (test/models/) once per run, before any test file reads them. */
import { generateFixtures } from '../scripts/fixtures/generate.ts';

export default function setup(): void {
  generateFixtures();
}
