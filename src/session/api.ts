/**
 * What the scoring session answers: plain data that crosses a worker boundary as it is (structured clone).
 * Failures come back as data ({ok: false, error}); callbacks the session is given never have their return
 * value used.
 */
import type { RowIssue } from '../core/io/parse.ts';
import type { SourceFormat } from '../core/io/formats/index.ts';
import type { ColumnMap, MappingNote } from '../core/io/fields.ts';
import type { MetricSettings } from '../core/metrics/index.ts';
import type { RowResults } from '../core/run.ts';
import type { LoadedModel, ModelSpec, Role } from '../runtime/messages.ts';

export type Result<T> = { ok: true; value: T } | { ok: false; error: string };

export interface Inspection {
  fileName: string;
  /** What the file was read as (Parquet and Inspect logs by name, not as the JSON they become). */
  format: SourceFormat;
  columns: string[];
  /** First records as parsed (for the preview). */
  sample: Record<string, unknown>[];
  records: number;
  detected: ColumnMap;
  /** The separator the detected gold column's first cells join several answers with (detectGoldSeparator). */
  goldSep?: string;
  /** Nested fields (`doc.question`) the column mapping can name besides the columns. */
  paths?: string[];
  issues: RowIssue[];
  issueCount: number;
}

export interface Mapping {
  map: ColumnMap;
  /** '' for none; absent: the detected one (detectGoldSeparator), as the CLI chooses without --gold-sep. */
  goldSep?: string;
  /** Several systems: a system column or the wide layout (compare.ts); absent for one system per file. */
  systems?: import('./compare.ts').SystemsMapping;
}

export interface MappedSummary {
  rows: number;
  labelled: number;
  labelKind: 'binary' | 'taxonomy' | 'mixed' | null;
  withChoices: number;
  /** Rows with known wrong answers (or choices besides the golds): what A-VERT needs to score a row. */
  withWrongTargets: number;
  columns: ColumnMap;
  issues: RowIssue[];
  issueCount: number;
  /** What the mapping noticed (the layout chosen and why, key spellings, a likely gold separator), worded for the page. */
  notes: { code: MappingNote['code']; text: string; separator?: string; applied?: boolean }[];
  /** The systems, when the mapping has several (or several files are open). */
  systems?: import('./compare.ts').SystemsSummary;
}

export interface RunConfig {
  metrics: string[];
  settings: MetricSettings;
  /** Model specs for the roles the chosen metrics need. */
  models: Partial<Record<Role, ModelSpec>>;
  mapping: Mapping;
}

export type RunEvent =
  /** A new run was saved under this id (what a crash recovery resumes). */
  | { type: 'started'; id: string }
  | { type: 'progress'; done: number; total: number; rowsPerSecond: number }
  | { type: 'model-loaded'; model: LoadedModel }
  | { type: 'warning'; message: string };

export interface RunOutcome {
  status: 'done' | 'cancelled';
  done: number;
  total: number;
  ms: number;
  models: Record<string, LoadedModel>;
}

/** One table row: what the table shows, without explanations and details (those come with detail()). */
export interface TableRow {
  index: number;
  row: number;
  id: string;
  question: string;
  golds: string[];
  candidate: string;
  label: boolean | string | null;
  metrics: Record<string, { score: number | null; decision: boolean | null; class?: string; set?: string }>;
  /** The row's system, when the run has several. */
  system?: string;
}

export interface RowDetail extends TableRow {
  choices?: string[];
  results: RowResults;
  models: Record<string, { id: string; revision: string; device: string; dtype: string }>;
}

/** A view kept in the session: its id, size, and how many leading positions show the same rows as the view before. */
export interface ViewInfo {
  id: number;
  length: number;
  unchanged: number;
  /** Rows scored when the view was made: a view is only as current as this. */
  scored: number;
}

/** A saved run as the page lists it. */
export interface SavedRunInfo {
  id: string;
  fileName: string;
  done: number;
  total: number;
  /** Rows per saved chunk (a resume restarts at a chunk boundary). */
  chunkSize: number;
  metrics: string[];
  status: 'running' | 'done' | 'cancelled';
  startedAt: number;
  updatedAt: number;
  /** Input file plus saved results, in bytes. */
  bytes: number;
  /** The input file's size in bytes, and the first hex digits of its SHA-256 (two runs of files named alike differ there). */
  fileSize: number;
  inputHash: string;
}

/** What a resume gives back before the rest of the run is scored (with continueRun). */
export interface Resumed {
  inspection: Inspection;
  summary: MappedSummary;
  config: RunConfig;
  done: number;
}

/** What ping() answers: the worker is alive, and where it is. */
export interface Pulse {
  done: number;
  running: boolean;
}

export type ExportKind = 'jsonl' | 'csv' | 'report';

/** The scoring worker's API: the session's methods, plus the line to the model worker. */
export type ScoreApi = Pick<
  import('./session.ts').ScoringSession,
  | 'open'
  | 'map'
  | 'run'
  | 'continueRun'
  | 'cancel'
  | 'ping'
  | 'runs'
  | 'resume'
  | 'deleteRun'
  | 'clearRuns'
  | 'view'
  | 'rowsAt'
  | 'detail'
  | 'report'
  | 'calibrate'
  | 'exportFile'
> &
  import('./compare.ts').CompareApi & {
    connectModels(port: MessagePort): void;
    /** The page's hold on the cores (hold.ts), which the scoring pool's workers read. */
    shareHold(flag: Int32Array | null): void;
  };
