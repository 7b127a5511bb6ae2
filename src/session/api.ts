/**
 * What the scoring session answers: plain data that crosses a worker boundary as it is (structured clone).
 * Failures come back as data ({ok: false, error}); callbacks the session is given never have their return
 * value used.
 */
import type { SplitSummary } from '../core/compare/split.ts';
import type { RunConfig as CoreRunConfig } from '../core/run-config.ts';
import type { RowIssue } from '../core/io/parse.ts';
import type { SourceFormat } from '../core/io/formats/index.ts';
import type { ColumnMap, MappingNote } from '../core/io/fields.ts';
import type { RowResults } from '../core/scoring.ts';
import type { RunReport } from '../core/explore.ts';
import type { CompareReport } from '../core/compare/report.ts';
import type { InputInfo } from '../core/compare/exports.ts';
import type { Coverage, FilesInput, KeyBy, SystemsGuess } from '../core/io/systems.ts';
import type { LoadedModel, ModelSpec, Role } from '../runtime/messages.ts';

import type { Problem, Result as CoreResult } from '../core/errors.ts';
export type { Problem } from '../core/errors.ts';

/**
 * Answers cross the worker boundary as result values (core/errors.ts): a failure is data, never thrown — a Problem
 * (its code, the core's message, the details), which the app words for its own controls (app/lib/messages.ts).
 */
export type Result<T> = CoreResult<T, Problem>;

export interface Inspection {
  fileName: string;
  /** What the file was read as (Parquet and Inspect logs by name, not as the JSON they become). */
  format: SourceFormat;
  columns: string[];
  /** First records as parsed (for the preview). */
  sample: Record<string, unknown>[];
  records: number;
  detected: ColumnMap;
  /** The systems as verity compare first guesses them (the wide layout, a system column, else one per file), and the mapping to start from. */
  guess: SystemsGuess;
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
  systems?: SystemsMapping;
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
  /** What the mapping noticed (the layout chosen and why, key spellings, a likely gold separator), for the page to word. */
  notes: MappingNote[];
  /** The systems, when the mapping has several (or several files are open). */
  systems?: SystemsSummary;
}

/**
 * A run in the app: the run every surface describes (core/run-config.ts: metrics, settings, calibration, the
 * page's mapping), with the models it loads. Every metric is made from it (here, in the pool's workers, on a
 * resume), and it is saved with the run. Calibrating makes a new version of it (with `calibration`), never a
 * patched metric.
 */
export interface RunConfig extends CoreRunConfig<Mapping> {
  /** Model specs for the roles the chosen metrics need. */
  models: Partial<Record<Role, ModelSpec>>;
  /** The models as they loaded (revision, device, dtype, canary), by role: a reopened run names what scored it. */
  loaded?: Record<string, LoadedModel>;
}

export type { RunCalibration } from '../core/run-config.ts';

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

export type { TableRow } from './table-row.ts';
import type { TableRow } from './table-row.ts';

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
  /** What the run's saved results take, in bytes. */
  resultBytes: number;
  /** The input file's size in bytes, and the first hex digits of its SHA-256 (two runs of files named alike differ there). */
  fileSize: number;
  inputHash: string;
  /** Saved runs sharing the input (stored once): it goes with the last of them. */
  inputRuns: number;
  /** Its thresholds were calibrated on its labels (saved with it). */
  calibrated?: boolean;
  /** Answers of its review saved with it (deleting the run deletes them). */
  answers: number;
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

export interface Calibrated {
  report: RunReport;
  thresholds: Record<string, number>;
  skipped: Record<string, string>;
  /** Why the thresholds could not be saved with the run (storage full or unavailable): they hold until a reload. */
  unsaved?: string;
}

export type ExportKind = 'jsonl' | 'csv' | 'report';

// ---------- the review (review-api.ts) ----------

export type {
  ReviewAnswer,
  ReviewEstimate,
  ReviewImported,
  ReviewItem,
  ReviewMemory,
  ReviewRefitted,
  ReviewStart,
  ReviewStop,
  ReviewState,
} from './review-api.ts';

// ---------- several systems: what the comparison answers ----------

export interface NamedBlob {
  blob: Blob;
  name: string;
}

/** How the systems are found, beside the column mapping (Mapping.systems). */
export interface SystemsMapping {
  /** The column naming each row's system; absent: none (one system per file, named after it). */
  column?: string;
  /**
   * The system column as `verity compare` finds it: a system / model / source / run column, taken only when its
   * values answer the same questions (else one system per file, with a note saying why).
   */
  auto?: boolean;
  /** The wide layout: each `answer_<system>` with its `judge_<system>` is that system's candidate and label. */
  wide?: boolean;
  /** How rows of different systems are paired; absent: as `verity compare` chooses (ids when they pair, else question text). */
  pairBy?: 'id' | 'question';
}

/** What the page shows about the systems of a mapping. */
export interface SystemsSummary {
  systems: string[];
  layout: FilesInput['layout'];
  systemColumn?: string;
  keyBy: KeyBy;
  /** How the rows were paired and why, with how many questions each system has. */
  pairing: string;
  /** The file each system came from. */
  sources: Record<string, string>;
  /** Which questions each system lacks (rows in one input but not another). */
  coverage: Coverage;
  /** Rows per system. */
  rows: Record<string, number>;
  notes: string[];
}

/** Which questions the page lists under "where systems differ". */
export interface DifferQuery {
  /** A metric name, or "human". */
  metric: string;
  /** "k/n": k of the n systems that were decided judged correct. */
  split?: string;
  /** Keep questions this system got right (correct: true) or wrong. */
  system?: string;
  correct?: boolean;
  /** Keep questions where the metric and the human label disagree for some system. */
  againstHuman?: boolean;
}

/** One question of the list: the decision of each system (report.systems order; 1, 0, −1 none). */
export interface DifferRow {
  position: number;
  q: number;
  question: string;
  golds: string[];
  decisions: number[];
  split: string;
}

/** One system's answer to a question, for the side-by-side detail. */
export interface SystemAnswer {
  system: string;
  /** Row index in the run (the row detail's index), or null when the system has no row for the question. */
  index: number | null;
  candidate: string | null;
  label: boolean | string | null;
  /** Per metric: score, decision and why. */
  metrics: Record<string, { score: number | null; decision: boolean | null; explanation: string }>;
}

export interface DifferDetail {
  q: number;
  question: string;
  golds: string[];
  answers: SystemAnswer[];
}

export type CompareExportKind = 'leaderboard-csv' | 'leaderboard-json' | 'report-html';

/** The comparison as the page gets it: the report and what the input said (sources, coverage, notes). */
export interface CompareView {
  report: CompareReport;
  input: InputInfo;
  /** Columns whose values split the questions (a dataset, a subject): offered as "Split by". */
  splitColumns: string[];
}

/** The systems × splits summaries of one column (core/compare/split.ts), and each split's size. */
export interface SplitsView {
  column: string;
  splits: { split: string; rows: number; questions: number }[];
  summaries: SplitSummary[];
}
