/**
 * Exports built as a Blob from parts, batch by batch, so a million-row export is never one string (a JS string
 * has a length ceiling; "Invalid string length" at about a million rows). The parts are byte-identical to the
 * one-string forms (`toCsv` over all records, JSONL lines joined by "\n").
 */
import { toCsv } from '../core/io/export.ts';
import { type RowResults } from '../core/scoring.ts';
import { outputRecord } from '../core/records.ts';
import type { QaRow } from '../core/types.ts';
import type { ResultTable } from '../core/result-table.ts';

/** Rows per part: large enough that the Blob has few parts, small enough that one part is a few MB. */
const EXPORT_BATCH = 5000;

export interface ExportInput {
  rows: readonly QaRow[];
  results: ResultTable;
  metricNames: readonly string[];
  /** Metrics whose structured details go into the records. */
  detailed: ReadonlySet<string>;
  /** The run's configuration (first JSONL line; a JSON column of every CSV row). */
  run: unknown;
  onProgress?: (done: number, total: number) => void;
  batch?: number;
  /** The record of row i, when not outputRecord's (several systems add the system and input columns, in JSONL and CSV). */
  record?: (i: number) => Record<string, unknown>;
  /** The keys of row i's record, where making the record itself costs more (its results are computed again). */
  recordKeys?: (i: number) => Iterable<string>;
  /** The input's gold separator ('' none): the CSV writes a row's golds as the input did. */
  goldSep?: string;
  /** Lets the caller answer messages between batches (the worker's watchdog ping). */
  pause?: () => Promise<void>;
  /** Called before each batch's records are made (the session computes the rows' explanations ahead). */
  prepare?: (from: number, to: number) => Promise<void>;
}

type CellLike = { class?: string; set?: string };

const rowOf = (x: ExportInput, i: number): RowResults => x.results.row(i);

/** JSONL: the run on the first line, then one record per line. */
export async function jsonlParts(x: ExportInput): Promise<string[]> {
  const parts = [`${JSON.stringify({ verity_run: x.run })}\n`];
  await eachBatch(x, (from, to) => {
    let s = '';
    for (let i = from; i < to; i++)
      s += `${JSON.stringify(x.record ? x.record(i) : outputRecord(x.rows[i]!, rowOf(x, i), x.detailed))}
`;
    parts.push(s);
  });
  return parts;
}

/** CSV: the header with the first batch; every batch has the same columns as the whole file would. */
export async function csvParts(x: ExportInput): Promise<string[]> {
  const run = JSON.stringify(x.run);
  // toCsv adds `.class` / `.set` columns for a metric when any record has them; decide that over the whole file.
  const extra = (key: 'class' | 'set') => new Set(x.metricNames.filter((m) => x.results.hasAny(m, key)));
  const withClass = extra('class');
  const withSet = extra('set');
  // Several systems' records carry the system and the input's own columns, which may differ between files: every
  // batch's first record lists all of them, in the order they first appear in the file, so each batch has the
  // same columns in the same order.
  const keys = new Set<string>();
  // One system's records carry the input's own columns too (`extra`, which rows of a JSONL file may hold in part).
  const keysOf = x.recordKeys ?? (x.record ? (i: number) => Object.keys(x.record!(i)) : (i: number) => Object.keys(x.rows[i]?.extra ?? {}));
  for (let i = 0; i < x.results.length; i++) for (const k of keysOf(i)) keys.add(k);
  const allKeys = Object.fromEntries([...keys].map((k) => [k, undefined]));
  const parts: string[] = [];
  await eachBatch(x, (from, to) => {
    const records: Record<string, unknown>[] = [];
    // The run configuration once, in the first row's verity_run cell (the column stays, empty below): repeated in
    // every row it made the CSV larger than the JSONL, and grew with the configuration.
    for (let i = from; i < to; i++)
      records.push({ ...(x.record ? x.record(i) : outputRecord(x.rows[i]!, rowOf(x, i), x.detailed)), verity_run: i === 0 ? run : '' });
    // An empty class/set on the batch's first record makes toCsv keep the column; it prints as the empty cell it would be.
    if (keys.size) records[0] = { ...allKeys, ...records[0] };
    const first = records[0]!.metrics as Record<string, CellLike>;
    for (const m of withClass) if (first[m]?.class === undefined) first[m] = { ...first[m], class: '' };
    for (const m of withSet) if (first[m]?.set === undefined) first[m] = { ...first[m], set: '' };
    parts.push(toCsv(records, x.metricNames, from === 0, x.goldSep ?? ''));
  });
  return parts;
}

async function eachBatch(x: ExportInput, fn: (from: number, to: number) => void): Promise<void> {
  const size = x.batch ?? EXPORT_BATCH;
  const total = x.results.length;
  for (let from = 0; from < total; from += size) {
    await x.prepare?.(from, Math.min(total, from + size));
    fn(from, Math.min(total, from + size));
    x.onProgress?.(Math.min(total, from + size), total);
    await x.pause?.();
  }
}
