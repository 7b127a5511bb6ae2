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
    // A file can fail with every test passed (a hook, an error after its tests): say which, and why.
    for (const f of vitest.testResults.filter((x) => x.status === 'failed'))
      console.log(`failed in ${suite}: ${f.name}${f.message ? `: ${String(f.message).split('\n')[0].slice(0, 300)}` : ''}`);
  } else missing.push(suite);
}

const pw = read('reports/playwright.json');
if (pw) {
  passed += pw.stats.expected + pw.stats.flaky;
  failed += pw.stats.unexpected;
  failed += (pw.errors ?? []).length;
} else missing.push('browser');

// Tests of the shared EVOUNA file skip with one line where it is absent (a fresh clone); where it is present — as in
// CI, which must have it — none may skip.
const evouna = process.env.VERITY_EVOUNA ?? '../shared/data/evouna-tq/TQ.json';
const skippedEvouna = [];
for (const suite of ['unit', 'cli']) {
  const vitest = read(`reports/vitest-${suite}.json`);
  for (const f of vitest?.testResults ?? [])
    for (const a of f.assertionResults)
      if ((a.status === 'skipped' || a.status === 'pending') && /EVOUNA/.test(a.fullName ?? a.title))
        skippedEvouna.push(a.fullName ?? a.title);
}
const walk = (suite) => {
  for (const spec of suite.specs ?? [])
    for (const t of spec.tests ?? []) if (t.status === 'skipped' && /EVOUNA/.test(spec.title)) skippedEvouna.push(spec.title);
  for (const s of suite.suites ?? []) walk(s);
};
for (const s of pw?.suites ?? []) walk(s);
if (existsSync(evouna) && skippedEvouna.length) {
  console.log(`skipped though ${evouna} is present: ${[...new Set(skippedEvouna)].join('; ')}`);
  failed += skippedEvouna.length;
}
if (process.env.CI && !existsSync(evouna)) {
  console.log(`CI needs the EVOUNA file at ${evouna} (or VERITY_EVOUNA): its tests were skipped`);
  failed += 1;
}

// A stage that never reported (install failure, crash, or skipped after a unit failure) counts as a failure.
if (rc !== 0 && failed === 0) failed = 1;
if (missing.length) console.log(`no report from: ${missing.join(', ')} tests`);
console.log(`${passed} passed, ${failed} failed`);
