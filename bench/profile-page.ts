/**
 * The page side of `bench/profile-browser.ts`: the default set scoring EVOUNA rows in Chromium's own V8, as the app's
 * pool workers do (scores only, every metric on one row before the next). Bundled by esbuild; the lexicon and the
 * rows come from the bench's loopback routes.
 */
import { createSyncMetric, DEFAULT_METRICS } from '../src/core/metrics/index.ts';
import { WordNet, type LexiconData } from '../src/core/lexicon/index.ts';
import { scoreRow } from '../src/core/scoring.ts';
import type { AnyMetric, Metric, QaItem } from '../src/core/types.ts';

export interface ProfilePage {
  /** Loads the lexicon and the rows; the number of rows. */
  setup(): Promise<number>;
  /** Scores `n` rows (cycling the file's), each a fresh copy; µs a row. */
  cycle(n: number): number;
  /** Scores the file's rows `from` … `to` once, each a fresh copy; µs a row. */
  pass(from: number, to: number): number;
}

function score(rows: QaItem[]): number {
  const copies = rows.map((r) => ({ ...r, golds: [...r.golds] }));
  const t = performance.now();
  for (const r of copies) scoreRow(r, metrics, scoresOnly);
  return ((performance.now() - t) / copies.length) * 1000;
}

let base: QaItem[] = [];
let metrics: Metric[] = [];
let scoresOnly = new Set<string>();

const page: ProfilePage = {
  async setup() {
    const lexicon = new WordNet((await (await fetch('/lexicon.json')).json()) as LexiconData);
    base = (await (await fetch('/rows.json')).json()) as QaItem[];
    const create = createSyncMetric as (n: string, s: object, b?: object) => AnyMetric;
    metrics = DEFAULT_METRICS.map((n) => create(n, {}, { lexicon })) as Metric[];
    scoresOnly = new Set(metrics.map((m) => m.name));
    return base.length;
  },
  cycle(n) {
    return score(Array.from({ length: n }, (_, k) => base[k % base.length]!));
  },
  pass(from, to) {
    return score(base.slice(from, to));
  },
};
(globalThis as { verityProfile?: ProfilePage }).verityProfile = page;
