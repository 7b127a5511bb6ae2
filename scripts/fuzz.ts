/**
 * `npm run fuzz [-- --rows 100000 --seed 1]`: writes N generated records — hostile but valid ones (control
 * characters, lone surrogates, RTL, emoji, formulas, number words, odd JSON types, a few 50–200k-character
 * answers) and invalid ones (no gold, bad labels, values nested too deeply), with junk lines in between and the
 * last record cut off — as JSONL, a JSON array, CSV and TSV (the CSV/TSV through the project's own export),
 * reads each file back through parseTable → mapRows → scoreRows with the default and lexical metrics, and
 * counts: parse issues, crashes (exceptions, or a metric reporting that it failed), scores outside [0, 1],
 * decisions that disagree with the threshold, and round-trip mismatches (a row that does not come back as
 * written, a bad record or junk line without its error, or scores that differ between formats for the same
 * row). Exits 1 when any of those counts is not 0. test/fuzz.test.ts runs the same with fewer rows.
 *
 * Strings cannot hold lone surrogates once written as UTF-8 (they become U+FFFD), so the CSV/TSV expectations
 * use the UTF-8 round trip of each value; JSON escapes them, so JSONL and JSON keep them exactly.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { toCsv, toTsv } from '../src/core/io/export.ts';
import { mapRows } from '../src/core/io/fields.ts';
import { parseTable, type Format } from '../src/core/io/parse.ts';
import { createSyncMetric, DEFAULT_METRICS, LEXICAL_METRICS } from '../src/core/metrics/index.ts';
import { scoreRows } from '../src/core/scoring.ts';
import { adversarialString } from '../src/core/text/adversarial.ts';
import { mulberry32 } from '../src/core/util/random.ts';
import type { Label, QaRow } from '../src/core/types.ts';
import { nodeLexicon } from '../src/runtime/lexicon-node.ts';

const lexicon = nodeLexicon();

export interface FuzzOptions {
  rows?: number;
  seed?: number;
  /** Called with a line of progress now and then. */
  log?: (line: string) => void;
}

export interface FormatReport {
  format: Format;
  bytes: number;
  /** Rows mapRows returned. */
  rows: number;
  errors: number;
  warnings: number;
  crashes: number;
  outOfRange: number;
  badDecisions: number;
  mismatches: number;
  seconds: number;
  /** The first few problems, for a reader. */
  examples: string[];
}

export interface FuzzReport {
  rows: number;
  seed: number;
  formats: FormatReport[];
  crashes: number;
  outOfRange: number;
  badDecisions: number;
  mismatches: number;
  seconds: number;
}

/** What mapRows must return for a record. */
interface Expected {
  id: string;
  question: string;
  golds: string[];
  candidate: string;
  label?: Label;
}

/** One generated record: how each format writes it, and what each must read back (null = skipped with an error). */
interface Generated {
  /** JSONL and JSON: the object, or its text when JSON.stringify cannot write it. */
  json: Record<string, unknown> | string;
  /** CSV and TSV: the export's record shape (gold is a list). */
  table: { id: unknown; question: unknown; gold: unknown[]; candidate: unknown; label: unknown; metrics: Record<string, never> };
  expectJson: Expected | null;
  expectTable: Expected | null;
}

const T: Label = { kind: 'binary', correct: true };
const F: Label = { kind: 'binary', correct: false };
const LABELS: [unknown, Label | undefined][] = [
  ['yes', T],
  ['No', F],
  ['1', T],
  ['0', F],
  [true, T],
  [false, F],
  [1, T],
  [0, F],
  ['correct', T],
  ['Incorrect', F],
  ['partial', { kind: 'taxonomy', cls: 'partial' }],
  ['Overinclusive_Valid', { kind: 'taxonomy', cls: 'overinclusive-valid' }],
  ['1.0', T],
  ['C', T],
  ['fail', F],
  ['', undefined],
  [null, undefined],
  [' NaN ', undefined],
];
/** Kept as rows, without a label (and a warning). */
const BAD_LABELS: unknown[] = ['maybe', 2, '✓', [1], { correct: true }, '1.5'];
const JUNK_JSONL = ['{"id":"junk","gold": ', '[1,2]', '"just text"', 'not json', "{'single': 'quotes'}", '{"a":1}}'];
const JUNK_ELEMENTS = ['42', '"text"', 'null', '[1]', '{"id": "junk", "gold": }'];

/** The value a UTF-8 file holds for a string (lone surrogates → U+FFFD; a leading BOM stays). */
const utf8 = (s: string): string => new TextDecoder('utf-8', { ignoreBOM: true }).decode(new TextEncoder().encode(s));
/** mapRows' text form of a non-string value. */
const asText = (v: unknown): string =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v);

function generate(i: number, rnd: () => number): Generated {
  const text = (pieces = 10) =>
    rnd() < 0.0005
      ? adversarialString(rnd, 8)
          .repeat(2_000 + Math.floor(rnd() * 8_000))
          .slice(0, 200_000)
      : adversarialString(rnd, pieces);
  const goldText = () => adversarialString(rnd, 6).trim() || 'gold';
  const id = `r${i}:${rnd() < 0.5 ? adversarialString(rnd, 3) : ''}`;
  const question = text();
  let golds: unknown[] = Array.from({ length: 1 + Math.floor(rnd() * 3) }, goldText);
  let candidate: unknown = text();
  let [label, want] = LABELS[Math.floor(rnd() * LABELS.length)]!;
  const json: Record<string, unknown> = { id, question, gold: golds, candidate, label };
  let skipJson = false;
  let skipTable = false;
  let deep: string | undefined;
  const kind = rnd();
  if (kind < 0.05) {
    // No usable gold: skipped with an error in every format.
    const empty: unknown[][] = [[], [''], ['  \t']];
    golds = empty[Math.floor(rnd() * empty.length)]!;
    json.gold = rnd() < 0.5 ? golds : [null, '  ', undefined][Math.floor(rnd() * 3)];
    if (json.gold === undefined) delete json.gold;
    skipJson = skipTable = true;
  } else if (kind < 0.1) {
    [label, want] = [BAD_LABELS[Math.floor(rnd() * BAD_LABELS.length)], undefined];
    json.label = label;
  } else if (kind < 0.13) {
    // A null or missing candidate reads as "" (with a warning).
    candidate = '';
    if (rnd() < 0.5) json.candidate = null;
    else delete json.candidate;
  } else if (kind < 0.18) {
    // Non-string JSON values: numbers for golds, a number, boolean or object for the candidate (not one shaped
    // like a model API's answer, {text} or {content}, which reads as its text: fields.test.ts).
    golds = [1945, 3.5, goldText()].slice(0, 1 + Math.floor(rnd() * 3));
    candidate = [42, true, { note: adversarialString(rnd, 3) }][Math.floor(rnd() * 3)];
    Object.assign(json, { gold: golds, candidate, question: i });
  } else if (kind < 0.18005) {
    // Nested deeper than JSON.stringify can write: the JSON row is skipped with an error; CSV holds the text.
    deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    candidate = deep;
    skipJson = true;
  } else if (kind < 0.2 && golds.length === 1 && !String(golds[0]).startsWith('[')) json.gold = golds[0]; // one gold as a plain string
  const expected = (fix: (s: string) => string): Expected => ({
    id: fix(id),
    question: fix(asText(json.question)),
    golds: golds.map((g) => asText(g).trim()),
    candidate: fix(asText(candidate)),
    ...(want ? { label: want } : {}),
  });
  const tableLabel = typeof label === 'object' && label !== null ? JSON.stringify(label) : label;
  const { candidate: _, ...rest } = json;
  return {
    json: deep !== undefined ? `${JSON.stringify(rest).slice(0, -1)},"candidate":${deep}}` : json,
    table: {
      id,
      question: json.question,
      gold: golds,
      candidate: typeof candidate === 'object' ? JSON.stringify(candidate) : candidate,
      label: tableLabel,
      metrics: {},
    },
    expectJson: skipJson ? null : expected((s) => s),
    // JSON text in the gold cell keeps lone surrogates as escapes; the other cells are plain UTF-8.
    expectTable: skipTable ? null : expected(utf8),
  };
}

type Item = { record: Generated; index: number } | { junk: number };

/** The file of one format, and what reading it must give. */
function write(format: Format, items: readonly Item[], tail: Generated, rnd: () => number): { text: string; junk: number } {
  let junk = 0;
  const jsonText = (g: Generated, pretty: boolean) =>
    typeof g.json === 'string' ? g.json : JSON.stringify(g.json, null, pretty ? 2 : undefined);
  if (format === 'jsonl') {
    const lines = items.map((it) => {
      if ('junk' in it) return (junk++, JUNK_JSONL[it.junk % JUNK_JSONL.length]!);
      return `${jsonText(it.record, false)}${rnd() < 0.05 ? '\n  ' : ''}`;
    });
    const last = jsonText(tail, false);
    return { text: `${lines.join(rnd() < 0.5 ? '\r\n' : '\n')}\n${last.slice(0, last.length >> 1)}`, junk };
  }
  if (format === 'json') {
    const els = items.map((it) =>
      'junk' in it ? (junk++, JUNK_ELEMENTS[it.junk % JUNK_ELEMENTS.length]!) : jsonText(it.record, rnd() < 0.1),
    );
    const last = jsonText(tail, false);
    return { text: `[\n${els.join(',\n')},\n${last.slice(0, last.length >> 1)}`, junk };
  }
  const d = format === 'csv' ? ',' : '\t';
  const other = format === 'csv' ? '\t' : ',';
  const row = format === 'csv' ? toCsv : toTsv;
  const junkLines = [`junk${d}x`, `junk${d}q${d}["g"]${d}c${d}${d}extra`, ['junk', 'q', '["g"]', 'c', ''].join(other)];
  const body = items.map((it) =>
    'junk' in it ? (junk++, `${junkLines[it.junk % junkLines.length]!}\n`) : row([it.record.table], [], false),
  );
  // Cut inside the quoted gold cell: an unterminated quote.
  const last = row([{ ...tail.table, gold: ['tail'] }], [], false);
  const cut = last.slice(0, last.indexOf('tail'));
  return { text: `${format === 'tsv' ? '\ufeff' : ''}${row([], [])}${body.join('')}${cut}`, junk };
}

const METRICS = [...new Set<string>([...DEFAULT_METRICS, ...LEXICAL_METRICS])];

export async function runFuzz(options: FuzzOptions = {}): Promise<FuzzReport> {
  const n = options.rows ?? 100_000;
  const seed = options.seed ?? 1;
  const log = options.log ?? (() => {});
  const started = performance.now();
  const rnd = mulberry32(seed);
  const items: Item[] = [];
  const records: Generated[] = [];
  for (let i = 0; i < n; i++) {
    // Not first: the first line or element is what tells the format.
    if (i > 0 && rnd() < 0.02) items.push({ junk: Math.floor(rnd() * 1000) });
    const g = generate(i, rnd);
    records.push(g);
    items.push({ record: g, index: i });
  }
  const tail = generate(n, rnd);
  const metrics = METRICS.map((m) => createSyncMetric(m, {}, { lexicon }));
  /** Record index → its JSONL row text and scores, to compare the other formats with. */
  const reference = new Map<number, { text: string; scores: string }>();
  const formats: FormatReport[] = [];

  for (const format of ['jsonl', 'json', 'csv', 'tsv'] as const) {
    const t0 = performance.now();
    const r: FormatReport = {
      format,
      bytes: 0,
      rows: 0,
      errors: 0,
      warnings: 0,
      crashes: 0,
      outOfRange: 0,
      badDecisions: 0,
      mismatches: 0,
      seconds: 0,
      examples: [],
    };
    const note = (what: string) => r.examples.length < 5 && r.examples.push(what.length > 300 ? `${what.slice(0, 300)}…` : what);
    const { text, junk } = write(format, items, tail, mulberry32(seed + 1));
    const bytes = new TextEncoder().encode(text);
    r.bytes = bytes.length;
    const table = format === 'csv' || format === 'tsv';
    const expect = new Map<string, { e: Expected; index: number }>();
    let skips = 1; // the cut-off last record
    records.forEach((g, index) => {
      const e = table ? g.expectTable : g.expectJson;
      if (e) expect.set(e.id, { e, index });
      else skips++;
    });
    let rows: QaRow[] = [];
    try {
      const mapped = mapRows(parseTable(bytes, `fuzz.${format}`));
      rows = mapped.rows;
      r.errors = mapped.issues.filter((i) => i.severity === 'error').length;
      r.warnings = mapped.issues.length - r.errors;
    } catch (e) {
      r.crashes++;
      note(`reading the file threw: ${(e as Error).stack ?? String(e)}`);
    }
    r.rows = rows.length;
    // Every junk line and every bad record has its error, no more and no less.
    if (r.crashes === 0 && r.errors !== junk + skips) {
      r.mismatches += Math.abs(r.errors - junk - skips);
      note(`${r.errors} errors reported, ${junk + skips} expected (${junk} junk lines, ${skips} bad records)`);
    }
    const seen = new Set<string>();
    const indexOf: number[] = [];
    for (const row of rows) {
      const x = expect.get(row.id);
      indexOf.push(x?.index ?? -1);
      const got = JSON.stringify({
        id: row.id,
        question: row.question,
        golds: row.golds,
        candidate: row.candidate,
        ...(row.label ? { label: row.label } : {}),
      });
      if (!x || got !== JSON.stringify(x.e)) {
        r.mismatches++;
        note(`row ${row.row}: read ${got}, expected ${x ? JSON.stringify(x.e) : 'no such row'}`);
      }
      seen.add(row.id);
    }
    for (const id of expect.keys())
      if (!seen.has(id)) {
        r.mismatches++;
        note(`record ${JSON.stringify(id)} was not read back`);
      }
    log(`${format}: ${r.rows} rows read in ${((performance.now() - t0) / 1000).toFixed(1)} s; scoring…`);
    try {
      const results = await scoreRows(rows, metrics);
      results.forEach((res, k) => {
        for (const m of metrics) {
          const x = res[m.name]!;
          if (/ failed on this (row|batch)/.test(x.explanation)) {
            r.crashes++;
            note(`${m.name} on row ${rows[k]!.row}: ${x.explanation}`);
          }
          if (x.score !== null && !(Number.isFinite(x.score) && x.score >= 0 && x.score <= 1)) {
            r.outOfRange++;
            note(`${m.name} on row ${rows[k]!.row}: score ${x.score}`);
          }
          if (x.score === null ? x.decision !== null : x.decision !== x.score >= m.threshold) {
            r.badDecisions++;
            note(`${m.name} on row ${rows[k]!.row}: score ${x.score}, decision ${x.decision}, threshold ${m.threshold}`);
          }
        }
        // The same row read from another format scores the same.
        const index = indexOf[k]!;
        if (index < 0) return;
        const row = rows[k]!;
        const text = JSON.stringify([row.question, row.golds, row.candidate]);
        const scores = JSON.stringify(metrics.map((m) => [res[m.name]!.score, res[m.name]!.decision]));
        const ref = reference.get(index);
        if (format === 'jsonl') reference.set(index, { text, scores });
        else if (ref?.text === text && ref.scores !== scores) {
          r.mismatches++;
          note(`row ${row.row}: scores ${scores} differ from the same row in JSONL (${ref.scores})`);
        }
      });
    } catch (e) {
      r.crashes++;
      note(`scoreRows threw: ${(e as Error).stack ?? String(e)}`);
    }
    r.seconds = (performance.now() - t0) / 1000;
    log(`${format}: done in ${r.seconds.toFixed(1)} s`);
    formats.push(r);
  }
  const sum = (k: 'crashes' | 'outOfRange' | 'badDecisions' | 'mismatches') => formats.reduce((s, f) => s + f[k], 0);
  return {
    rows: n,
    seed,
    formats,
    crashes: sum('crashes'),
    outOfRange: sum('outOfRange'),
    badDecisions: sum('badDecisions'),
    mismatches: sum('mismatches'),
    seconds: (performance.now() - started) / 1000,
  };
}

export const fuzzFailed = (r: FuzzReport): boolean => r.crashes + r.outOfRange + r.badDecisions + r.mismatches > 0;

function main(argv: string[]): Promise<void> {
  const arg = (name: string, dflt: number): number => {
    const i = argv.indexOf(name);
    const v = i >= 0 ? Number(argv[i + 1]) : dflt;
    if (!Number.isInteger(v) || v < 0) throw new Error(`${name} expects a whole number, got ${argv[i + 1]}`);
    return v;
  };
  const rows = arg('--rows', 100_000);
  const seed = arg('--seed', 1);
  console.log(`verity fuzz: ${rows} rows per format, seed ${seed}, metrics ${METRICS.join(', ')}`);
  return runFuzz({ rows, seed, log: (l) => console.log(`  ${l}`) }).then((r) => {
    const cols = ['format', 'MB', 'rows read', 'errors', 'warnings', 'crashes', 'out of range', 'bad decisions', 'mismatches', 'seconds'];
    const lines = r.formats.map((f) =>
      [
        f.format,
        (f.bytes / 1e6).toFixed(1),
        f.rows,
        f.errors,
        f.warnings,
        f.crashes,
        f.outOfRange,
        f.badDecisions,
        f.mismatches,
        f.seconds.toFixed(1),
      ].map(String),
    );
    const width = cols.map((c, k) => Math.max(c.length, ...lines.map((l) => l[k]!.length)));
    for (const l of [cols, ...lines]) console.log(l.map((x, k) => x.padStart(width[k]!)).join('  '));
    for (const f of r.formats) for (const ex of f.examples) console.log(`${f.format}: ${ex}`);
    console.log(
      `total: ${r.rows} rows × 4 formats in ${r.seconds.toFixed(1)} s; crashes ${r.crashes}, out of range ${r.outOfRange}, bad decisions ${r.badDecisions}, mismatches ${r.mismatches}`,
    );
    if (fuzzFailed(r)) process.exitCode = 1;
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
}
