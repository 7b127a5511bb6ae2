// `npm test`: every suite (unit, CLI, browser), each run even when one before it failed, then one line per suite
// and a non-zero exit when any failed — so a failure in one suite never hides the others' results.
import { spawnSync } from 'node:child_process';

const suites = ['test:unit', 'test:cli', 'test:e2e'];
const results = suites.map((suite) => {
  const t0 = Date.now();
  const r = spawnSync('npm', ['run', '-s', suite], { stdio: 'inherit', shell: process.platform === 'win32' });
  return { suite, status: r.status ?? 1, signal: r.signal, seconds: Math.round((Date.now() - t0) / 1000) };
});
console.log('\nnpm test, suite by suite:');
for (const r of results)
  console.log(`  ${r.suite}: ${r.status === 0 ? 'passed' : `FAILED (exit ${r.signal ?? r.status})`} in ${r.seconds} s`);
process.exit(results.some((r) => r.status !== 0) ? 1 : 0);
