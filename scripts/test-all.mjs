// `npm test`: every suite (unit, CLI, browser), each run even when one before it failed, then one line per suite
// and a non-zero exit when any failed — so a failure in one suite never hides the others' results. A failed suite's
// failure lines are printed again at the end, because a CI log is often read from its tail only.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const suites = ['test:unit', 'test:cli', 'test:e2e'];
// ANSI colour codes, so the lines can be matched and reprinted plain.
const ansi = /\x1b\[[0-9;]*m/g;
// A failed test or file (Vitest: FAIL, ×; Playwright: ✘, "1) [project] ›"), an error's first line, or the count of
// errors outside any test.
const failureLine = /^\s*(FAIL\s|×\s|✘\s|\d+\) \[|\w*Error: )|Vitest caught|\d+ failed\b|Errors +\d+ error/;

function run(suite) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn('npm', ['run', '-s', suite], { stdio: ['inherit', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    let text = '';
    const keep = (out) => (chunk) => {
      out.write(chunk);
      text += chunk.toString();
    };
    child.stdout.on('data', keep(process.stdout));
    child.stderr.on('data', keep(process.stderr));
    child.on('close', (code, signal) => resolve({ suite, status: code ?? 1, signal, seconds: Math.round((Date.now() - t0) / 1000), text }));
  });
}

/** The lines that say what failed, each once, at most 40. */
function failures(text) {
  const seen = new Set();
  for (const line of text.replace(ansi, '').split('\n')) {
    const l = line.trimEnd();
    if (failureLine.test(l)) seen.add(l.length > 300 ? `${l.slice(0, 300)}…` : l);
    if (seen.size >= 40) break;
  }
  return [...seen];
}

const results = [];
for (const suite of suites) results.push(await run(suite));
// A browser test that timed out says little by its error; the page as it was (Playwright's error context, its
// accessibility snapshot) says what the test waited on. Printed before the summary, which stays the log's tail.
for (const r of results.filter((x) => x.status !== 0))
  for (const file of new Set([...r.text.replace(ansi, '').matchAll(/Error Context: (\S+)/g)].map((m) => m[1]))) {
    if (!existsSync(file)) continue;
    // The snapshot's main region: the error itself is printed already, the banner is the same on every page.
    const all = readFileSync(file, 'utf8').split('\n');
    const main = all.findIndex((l) => /^- main\b/.test(l));
    const text = main < 0 ? all : all.slice(main);
    console.log(`\nthe page when ${r.suite} failed (${file}, ${Math.min(text.length, 50)} of ${text.length} lines):`);
    for (const l of text.slice(0, 50)) console.log(`  ${l.length > 200 ? `${l.slice(0, 200)}…` : l}`);
  }
console.log('\nnpm test, suite by suite:');
for (const r of results)
  console.log(`  ${r.suite}: ${r.status === 0 ? 'passed' : `FAILED (exit ${r.signal ?? r.status})`} in ${r.seconds} s`);
for (const r of results.filter((x) => x.status !== 0)) {
  const lines = failures(r.text);
  console.log(`\nwhat failed in ${r.suite}:${lines.length ? '' : ' no failure line found; read its output above'}`);
  for (const l of lines) console.log(`  ${l.trim()}`);
}
process.exit(results.some((r) => r.status !== 0) ? 1 : 0);
