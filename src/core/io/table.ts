/** A file read into plain records: the shape every reader (parse.ts, delimited.ts, json-array.ts, formats/) gives. */

export type Format = 'jsonl' | 'json' | 'csv' | 'tsv';

export interface RowIssue {
  /** 1-based record number (data rows; a CSV header is not counted); 0 for the header or the file as a whole. */
  row: number;
  /** 1-based line in the file where the record starts, when known. */
  line?: number;
  severity: 'error' | 'warning';
  message: string;
  /** Bytes at the end of the file that could not be read at all (a record that never closes): the reading is incomplete. */
  unread?: number;
}

export interface ParsedTable {
  format: Format;
  /** Column names in first-seen order. */
  columns: string[];
  /** CSV/TSV: the line of the header row. */
  headerLine?: number;
  records: { row: number; line?: number; data: Record<string, unknown> }[];
  issues: RowIssue[];
}

/** A JSON object (not an array, not null): what a record, or a value nested in one, may be. */
export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The records' keys, in first-seen order. */
export function collectColumns(records: ParsedTable['records']): string[] {
  const seen = new Set<string>();
  for (const r of records) for (const k of Object.keys(r.data)) seen.add(k);
  return [...seen];
}
