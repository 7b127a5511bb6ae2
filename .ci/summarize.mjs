// Sums the JSON reports of Vitest and Playwright into the closing "N passed, N failed" line.
import { existsSync, readFileSync } from 'node:fs';

const rc = Number(process.argv[2] ?? 0);
let passed = 0;
let failed = 0;
const missing = [];
const read = (p) => (existsSync(p) ? JSON.parse(readFileSync(p, 'utf8')) : null);

for (const suite of ['unit', 'cli']) {
  const vitest = read(`reports/vitest-${suite}.json`);
  if (vitest) {
    passed += vitest.numPassedTests;
    failed += vitest.numFailedTests;
    // A test file that fails to load has no tests but is still a failure.
    failed += vitest.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length;
  } else missing.push(suite);
}

const pw = read('reports/playwright.json');
if (pw) {
  passed += pw.stats.expected + pw.stats.flaky;
  failed += pw.stats.unexpected;
  failed += (pw.errors ?? []).length;
} else missing.push('browser');

// A stage that never reported (install failure, crash, or skipped after a unit failure) counts as a failure.
if (rc !== 0 && failed === 0) failed = 1;
if (missing.length) console.log(`no report from: ${missing.join(', ')} tests`);
console.log(`${passed} passed, ${failed} failed`);
