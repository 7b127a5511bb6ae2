/**
 * A run's per-row results kept by column: per metric a Float64Array of scores (NaN = no score), an Int8Array of
 * decisions (-1 = none), class and entailment-set names as small indices into a list kept once. Explanations
 * (strings, repeated ones kept once) and structured details are kept only for the metrics asked to (the app keeps
 * the model-based ones'); the embedded metrics' are computed again for the rows asked for (they are a pure function
 * of the row; see explainWith). A million rows of the five default metrics take under 100 MB this way, against
 * about 3 GB as one object per row and metric.
 *
 * `ResultChunk` is the same layout for a run of rows: what a scoring worker sends back (typed arrays transfer)
 * and what a saved run stores per chunk.
 */
import { VerityError, type MetricResult } from './types.ts';
import type { RowResults } from './scoring.ts';

/** One metric's column over a run of rows. */
export interface ChunkColumn {
  score: Float64Array;
  decision: Int8Array;
  /** Index into `names` + 1 (0 = none) of each row's class and set. */
  cls: Uint8Array;
  set: Uint8Array;
  names: string[];
  /** Index into `strings` of each row's explanation; empty when the chunk leaves the explanations out. */
  explanation: Uint32Array;
  /** Every distinct explanation of this column, once. */
  strings: string[];
  /** Per row, when the metric's details are kept. */
  details?: (Record<string, unknown> | undefined)[];
}

export interface ResultChunk {
  rows: number;
  metrics: string[];
  columns: ChunkColumn[];
  /** Rows not scored at all (index in the chunk), each with why: the explanation of every metric of the row. */
  notes?: [number, string][];
}

const decisionCode = (d: boolean | null): number => (d === null ? -1 : d ? 1 : 0);

/**
 * Packs results into a chunk row by row as they are scored, so a scoring worker never holds a chunk's rows of
 * results (with their details) at once: they die young instead of filling the worker's heap until its next full
 * collection. `detailed` names the metrics whose details stay.
 */
export class ChunkPacker {
  private readonly columns: ChunkColumn[];
  private readonly index: Map<string, number>[];
  private readonly nameIndex: Map<string, number>[];
  private n = 0;
  private readonly explains: boolean[];
  private readonly notes: [number, string][] = [];
  /** The metrics it keeps neither explanations nor details of: they need give their scores alone (scoreRow). */
  readonly scoresOnly: ReadonlySet<string>;

  /** `explained`: the metrics whose explanations are kept (all when absent; see ResultTable.explainWith). */
  constructor(
    private readonly rows: number,
    private readonly metrics: readonly string[],
    detailed: ReadonlySet<string>,
    explained?: ReadonlySet<string>,
  ) {
    this.explains = metrics.map((m) => !explained || explained.has(m));
    this.columns = metrics.map((m, k): ChunkColumn => ({
      score: new Float64Array(rows),
      decision: new Int8Array(rows),
      cls: new Uint8Array(rows),
      set: new Uint8Array(rows),
      names: [],
      explanation: new Uint32Array(this.explains[k] ? rows : 0),
      strings: [],
      ...(detailed.has(m) ? { details: new Array<Record<string, unknown> | undefined>(rows) } : {}),
    }));
    this.scoresOnly = new Set(metrics.filter((m, k) => !this.explains[k] && !detailed.has(m)));
    this.index = metrics.map(() => new Map());
    this.nameIndex = metrics.map(() => new Map());
  }

  /** The next row's results (every metric of the chunk). */
  add(r: RowResults): void {
    const i = this.n++;
    if (i >= this.rows) throw new Error(`the chunk holds ${this.rows} rows`);
    this.metrics.forEach((m, k) => {
      const x = r[m];
      if (!x) throw new Error(`row ${i} has no result for ${m}`);
      const col = this.columns[k]!;
      col.score[i] = x.score === null ? NaN : x.score;
      col.decision[i] = decisionCode(x.decision);
      if (x.class !== undefined) col.cls[i] = this.name(k, m, x.class);
      if (x.set !== undefined) col.set[i] = this.name(k, m, x.set);
      if (this.explains[k]) col.explanation[i] = id(x.explanation, col.strings, this.index[k]!);
      if (col.details) col.details[i] = x.details;
    });
  }

  /** The next row, not scored: every metric gives no score and `why` (kept even where explanations are not). */
  addUnscored(why: string): void {
    this.notes.push([this.n, why]);
    this.add(Object.fromEntries(this.metrics.map((m) => [m, { score: null, decision: null, explanation: why }])));
  }

  private name(k: number, m: string, s: string): number {
    const n = id(s, this.columns[k]!.names, this.nameIndex[k]!) + 1;
    if (n > 255) throw new VerityError(`${m}: more than 255 distinct classes and sets`, 'input', 'too-many-classes');
    return n;
  }

  /** The chunk, once every row was added. */
  done(): ResultChunk {
    if (this.n !== this.rows) throw new Error(`the chunk got ${this.n} of its ${this.rows} rows`);
    return { rows: this.rows, metrics: [...this.metrics], columns: this.columns, ...(this.notes.length ? { notes: this.notes } : {}) };
  }
}

/** The index of `s` in `list`, added when new. */
function id(s: string, list: string[], at: Map<string, number>): number {
  let k = at.get(s);
  if (k === undefined) {
    k = list.length;
    list.push(s);
    at.set(s, k);
  }
  return k;
}

/**
 * Packs rows of results (every row holds every metric) into a chunk; `detailed` names the metrics whose details
 * stay, `explained` those whose explanations stay (all when absent).
 */
export function packChunk(
  results: readonly RowResults[],
  metrics: readonly string[],
  detailed: ReadonlySet<string>,
  explained?: ReadonlySet<string>,
): ResultChunk {
  const p = new ChunkPacker(results.length, metrics, detailed, explained);
  for (const r of results) p.add(r);
  return p.done();
}

/** The typed arrays of a chunk, for postMessage's transfer list. */
export const chunkBuffers = (c: ResultChunk): ArrayBuffer[] =>
  c.columns.flatMap((k) => [k.score.buffer, k.decision.buffer, k.cls.buffer, k.set.buffer, k.explanation.buffer] as ArrayBuffer[]);

/**
 * Explanations seen lately, each kept once: rows that repeat an answer get the same explanation, also a long one
 * that quotes the row (200,000 EVOUNA-shaped rows kept 72 MB of such copies). Emptied past this bound, so
 * all-distinct explanations cost no more than the map.
 */
const INTERN_MAX = 200_000;

interface TableColumn {
  score: Float64Array;
  decision: Int8Array;
  /** Index into `names` + 1 (0 = none). */
  cls: Uint8Array;
  set: Uint8Array;
  /** Null when explanations are computed again on request (explainWith). */
  explanation: string[] | null;
  details: (Record<string, unknown> | undefined)[] | null;
}

/** Per-row results by column (see the file comment). Rows are appended in order, chunk by chunk. */
export class ResultTable {
  length = 0;
  private capacity = 0;
  private readonly cols: TableColumn[];
  private readonly at: Map<string, number>;
  /** Class and set names, each once. */
  private readonly names: string[] = [];
  private readonly nameIndex = new Map<string, number>();
  private readonly interned = new Map<string, string>();
  private explain: ((metric: string, i: number) => string) | null = null;
  /** Rows not scored at all, with why (ResultChunk.notes). */
  private readonly notes = new Map<number, string>();

  /**
   * `explained`: the metrics whose explanations are kept (all when absent). The others' explanations come from
   * explainWith's function: a pure function of the row (the embedded metrics) is cheaper computed again for the
   * rows asked for than kept, moved between threads and saved — for a million rows of the five default metrics,
   * about 450 million characters.
   */
  constructor(
    readonly metrics: readonly string[],
    private readonly detailed: ReadonlySet<string> = new Set(),
    explained?: ReadonlySet<string>,
  ) {
    this.cols = metrics.map((m) => ({
      score: new Float64Array(0),
      decision: new Int8Array(0),
      cls: new Uint8Array(0),
      set: new Uint8Array(0),
      explanation: !explained || explained.has(m) ? [] : null,
      details: detailed.has(m) ? [] : null,
    }));
    this.at = new Map(metrics.map((m, k) => [m, k] as const));
  }

  /** A table of rows of results (tests, the CLI's evaluate, saved runs of earlier versions). */
  static of(results: readonly RowResults[], metrics: readonly string[], detailed: ReadonlySet<string> = new Set()): ResultTable {
    const t = new ResultTable(metrics, detailed);
    if (results.length) t.append(packChunk(results, metrics, detailed));
    return t;
  }

  private grow(need: number): void {
    if (need <= this.capacity) return;
    const cap = Math.max(need, Math.ceil(this.capacity * 1.5), 1024);
    for (const c of this.cols) {
      const score = new Float64Array(cap);
      score.set(c.score);
      const decision = new Int8Array(cap);
      decision.set(c.decision);
      const cls = new Uint8Array(cap);
      cls.set(c.cls);
      const set = new Uint8Array(cap);
      set.set(c.set);
      Object.assign(c, { score, decision, cls, set });
    }
    this.capacity = cap;
  }

  /** Makes room for `rows` rows at once (a run knows its size): no copies while it grows, no slack after. */
  reserve(rows: number): void {
    this.grow(rows);
  }

  private nameId(s: string): number {
    let k = this.nameIndex.get(s);
    if (k === undefined) {
      k = this.names.length;
      if (k >= 255) throw new VerityError('more than 255 distinct classes and sets in one run', 'input', 'too-many-classes');
      this.names.push(s);
      this.nameIndex.set(s, k);
    }
    return k + 1;
  }

  private intern(s: string): string {
    const t = this.interned.get(s);
    if (t !== undefined) return t;
    if (this.interned.size >= INTERN_MAX) this.interned.clear();
    this.interned.set(s, s);
    return s;
  }

  /** Appends a chunk's rows after the last row. */
  append(c: ResultChunk): void {
    const base = this.length;
    this.grow(base + c.rows);
    this.metrics.forEach((m, k) => {
      const from = c.columns[c.metrics.indexOf(m)];
      if (!from) throw new Error(`the chunk has no column for ${m}`);
      const to = this.cols[k]!;
      to.score.set(from.score.subarray(0, c.rows), base);
      to.decision.set(from.decision.subarray(0, c.rows), base);
      const cls = from.names.map((s) => this.nameId(s));
      for (let i = 0; i < c.rows; i++) {
        if (from.cls[i]) to.cls[base + i] = cls[from.cls[i]! - 1]!;
        if (from.set[i]) to.set[base + i] = cls[from.set[i]! - 1]!;
        if (to.details) to.details.push(from.details?.[i]);
      }
      if (to.explanation) {
        if (from.explanation.length < c.rows) throw new Error(`the chunk has no explanations for ${m}`);
        const strings = from.strings.map((s) => this.intern(s));
        for (let i = 0; i < c.rows; i++) to.explanation.push(strings[from.explanation[i]!]!);
      }
    });
    for (const [i, why] of c.notes ?? []) this.notes.set(base + i, why);
    this.length = base + c.rows;
  }

  /** Why row i was not scored at all (see ChunkPacker.addUnscored), or undefined. */
  note(i: number): string | undefined {
    return this.notes.get(i);
  }

  /** The rows from…to (excluded) not scored at all, as [row - from, why]. */
  notesBetween(from: number, to: number): [number, string][] {
    return [...this.notes].filter(([i]) => i >= from && i < to).map(([i, why]) => [i - from, why]);
  }

  has(metric: string): boolean {
    return this.at.has(metric);
  }

  private col(metric: string): TableColumn | undefined {
    const k = this.at.get(metric);
    return k === undefined ? undefined : this.cols[k];
  }

  score(metric: string, i: number): number | null {
    const c = this.col(metric);
    if (!c || i >= this.length) return null;
    const s = c.score[i]!;
    return Number.isNaN(s) ? null : s;
  }

  decision(metric: string, i: number): boolean | null {
    const c = this.col(metric);
    if (!c || i >= this.length) return null;
    const d = c.decision[i]!;
    return d < 0 ? null : d === 1;
  }

  cls(metric: string, i: number): string | undefined {
    const c = this.col(metric);
    const k = c && i < this.length ? c.cls[i]! : 0;
    return k ? this.names[k - 1] : undefined;
  }

  set(metric: string, i: number): string | undefined {
    const c = this.col(metric);
    const k = c && i < this.length ? c.set[i]! : 0;
    return k ? this.names[k - 1] : undefined;
  }

  /** Gives the explanations the table does not keep: `f(metric, i)` for row i. */
  explainWith(f: (metric: string, i: number) => string): void {
    this.explain = f;
  }

  explanation(metric: string, i: number): string | undefined {
    const c = this.col(metric);
    if (!c || i >= this.length) return undefined;
    const why = this.notes.get(i);
    if (why !== undefined) return why;
    if (c.explanation) return c.explanation[i];
    if (!this.explain) throw new Error(`${metric}: its explanations are not kept and nothing computes them`);
    return this.explain(metric, i);
  }

  /** Whether any row of the metric has a class (set). */
  hasAny(metric: string, key: 'class' | 'set'): boolean {
    const c = this.col(metric);
    if (!c) return false;
    const a = key === 'class' ? c.cls : c.set;
    for (let i = 0; i < this.length; i++) if (a[i]) return true;
    return false;
  }

  /** One metric's result on row i, as the metric gave it (details only for the metrics that keep them). */
  result(metric: string, i: number): MetricResult | undefined {
    const c = this.col(metric);
    if (!c || i >= this.length) return undefined;
    const cls = this.cls(metric, i);
    const set = this.set(metric, i);
    const details = c.details?.[i];
    return {
      score: this.score(metric, i),
      decision: this.decision(metric, i),
      explanation: this.explanation(metric, i)!,
      ...(details !== undefined ? { details } : {}),
      ...(cls !== undefined ? { class: cls as MetricResult['class'] } : {}),
      ...(set !== undefined ? { set: set as MetricResult['set'] } : {}),
    };
  }

  /** Row i's results, metric by metric in the run's order. */
  row(i: number): RowResults {
    const out: RowResults = {};
    for (const m of this.metrics) out[m] = this.result(m, i)!;
    return out;
  }

  /** Decisions again under new thresholds: decision = score ≥ threshold; unscored rows stay without one. */
  redecide(thresholds: Record<string, number>): void {
    for (const [m, t] of Object.entries(thresholds)) {
      const c = this.col(m);
      if (!c) continue;
      for (let i = 0; i < this.length; i++) {
        const s = c.score[i]!;
        if (!Number.isNaN(s)) c.decision[i] = s >= t ? 1 : 0;
      }
    }
  }
}
