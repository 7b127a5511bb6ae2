/**
 * Where the embedded default's time goes: a CPU profile (V8's sampling profiler, through node:inspector) of the
 * default set scoring EVOUNA TriviaQA rows as the app and CLI do (every metric on one row before the next), with
 * the top functions by self time, and the same by source file. Works on this tree and, for a before/after, on
 * an older checkout (the lexicon was then installed globally: both ways are tried).
 *
 *   npx tsx bench/profile.ts [--rows 20000] [--warm 5000] [--scores] [--unseen] [--top 10] [--json out.json]
 */
import { writeFileSync } from 'node:fs';
import { Session, type Profiler } from 'node:inspector/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEvouna } from '../scripts/evouna.ts';
import * as metricsIndex from '../src/core/metrics/index.ts';
import * as lexiconNode from '../src/runtime/lexicon-node.ts';
import { scoreRow } from '../src/core/scoring.ts';
import type { AnyMetric, Metric, QaItem } from '../src/core/types.ts';
import { argFlag, argNumber, argText } from './args.ts';

const N = argNumber('rows', 20_000);
const TOP = argNumber('top', 10);
// Rows scored before the profile: a full cycle of EVOUNA (9,690 rows) leaves every text's analyses cached, as a
// long run over a file that repeats its answers has them.
const WARM = argNumber('warm', 5000);
// Scores without explanations, as the app's scoring workers keep them (the session explains the rows shown).
const SCORES = argFlag('scores');
// Answers not seen before, as in a file whose answers do not repeat: the JIT warmed on the first half of EVOUNA's
// questions, the second half profiled once (--rows and --warm then do not apply).
const UNSEEN = argFlag('unseen');
const root = fileURLToPath(new URL('..', import.meta.url));

// This tree passes WordNet to the metrics; older trees installed it once (installLexicon / useNodeLexicon).
const node = lexiconNode as Record<string, unknown>;
const lexicon = typeof node.nodeLexicon === 'function' ? (node.nodeLexicon as () => unknown)() : null;
if (!lexicon && typeof node.useNodeLexicon === 'function') (node.useNodeLexicon as () => void)();
const create = metricsIndex.createSyncMetric as (n: string, s: object, b?: object) => AnyMetric;
const metrics = metricsIndex.DEFAULT_METRICS.map((n) => create(n, {}, { lexicon })) as Metric[];
const scoresOnly = SCORES ? new Set(metrics.map((m) => m.name)) : undefined;

const base = loadEvouna().map(({ question, golds, candidate }) => ({ question, golds, candidate }));
const copy = (r: QaItem): QaItem => ({ ...r, golds: [...r.golds] });
const rows = (): QaItem[] => Array.from({ length: N }, (_, k) => copy(base[k % base.length]!));
const half = Math.floor(base.length / 2);
// Warm-up: the JIT and the per-gold memos a long file fills, as a real run has them after its first rows.
for (const r of UNSEEN ? base.slice(0, half).map(copy) : rows().slice(0, WARM)) scoreRow(r, metrics, scoresOnly);

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
const input = UNSEEN ? base.slice(half).map(copy) : rows();
await session.post('Profiler.start');
const t = performance.now();
for (const r of input) scoreRow(r, metrics, scoresOnly);
const ms = performance.now() - t;
const { profile } = await session.post('Profiler.stop');
session.disconnect();

interface Cost {
  name: string;
  where: string;
  ms: number;
}
const byId = new Map(profile.nodes.map((n) => [n.id, n] as const));
const self = new Map<number, number>();
const dt = profile.timeDeltas ?? [];
(profile.samples ?? []).forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (dt[i] ?? 0) / 1000));
const fn = new Map<string, Cost>();
const file = new Map<string, number>();
for (const [id, t] of self) {
  const n = byId.get(id) as Profiler.ProfileNode;
  const f = n.callFrame;
  const url = f.url.startsWith('file://') ? relative(root, fileURLToPath(f.url)) : f.url || '(native)';
  // Line numbers are of the code tsx compiled, not of the source: the file names the place.
  const where = f.url ? url : '(V8)';
  const key = `${f.functionName || '(anonymous)'} ${where}`;
  const c = fn.get(key) ?? { name: f.functionName || '(anonymous)', where, ms: 0 };
  c.ms += t;
  fn.set(key, c);
  const group = url.includes('node_modules/') ? url.replace(/^.*node_modules\/((?:@[^/]+\/)?[^/]+).*$/, 'node_modules/$1') : url;
  file.set(group, (file.get(group) ?? 0) + t);
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
const top = [...fn.values()].sort((a, b) => b.ms - a.ms).slice(0, TOP);
const files = [...file].sort((a, b) => b[1] - a[1]).slice(0, TOP);
const pct = (x: number) => `${((100 * x) / total).toFixed(1)}%`;
console.log(
  `${UNSEEN ? `${input.length} unseen rows` : `${N} rows after ${WARM}`}, default set (${metricsIndex.DEFAULT_METRICS.join(', ')})${SCORES ? ', scores only' : ''}: ${Math.round(input.length / (ms / 1000))} rows/s under the profiler`,
);
console.log('\n| function | where | self ms | share |\n|---|---|---:|---:|');
for (const c of top) console.log(`| ${c.name} | ${c.where} | ${c.ms.toFixed(0)} | ${pct(c.ms)} |`);
console.log('\n| file | self ms | share |\n|---|---:|---:|');
for (const [f, t] of files) console.log(`| ${f} | ${t.toFixed(0)} | ${pct(t)} |`);
const out = argText('json', '');
if (out) writeFileSync(out, JSON.stringify({ rows: input.length, rowsPerSecond: input.length / (ms / 1000), top, files }, null, 1));
