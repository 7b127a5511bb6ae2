/**
 * Scores a file off the main thread with the embedded (no-download) metrics. Exposed with comlink;
 * failures come back as data ({ok: false, error}) so the UI can show them as they are.
 */
import { expose } from 'comlink';
import { parseTable } from '../src/core/io/parse.ts';
import { mapRows } from '../src/core/io/fields.ts';
import { parseMetricList } from '../src/core/metrics/index.ts';
import { agreement, outputRecord, scoreRows } from '../src/core/run.ts';
import type { RowIssue } from '../src/core/io/parse.ts';

export interface ScoreSummary {
  format: string;
  rows: number;
  issues: RowIssue[];
  metrics: string[];
  /** Share of rows each metric judged correct. */
  correctRate: Record<string, number>;
  /** MCC against the human labels, when the file has binary labels. */
  mcc: Record<string, number | null> | null;
  preview: Record<string, unknown>[];
}

export type ScoreResult = { ok: true; summary: ScoreSummary } | { ok: false; error: string };

const api = {
  async scoreFile(bytes: Uint8Array, name: string, onProgress: (done: number, total: number) => void): Promise<ScoreResult> {
    try {
      const table = parseTable(bytes, name);
      const { rows, issues } = mapRows(table);
      const metrics = parseMetricList(undefined);
      const results = await scoreRows(rows, metrics, {}, { batchSize: 500, onProgress });
      const correctRate = Object.fromEntries(
        metrics.map((m) => [m.name, rows.length ? results.filter((r) => r[m.name]?.decision === true).length / rows.length : 0]),
      );
      const rep = rows.some((r) => r.label) ? agreement(rows, results, metrics, { resamples: 0 }) : null;
      const mcc = rep?.binary ? Object.fromEntries(Object.entries(rep.binary).map(([k, v]) => [k, v.report.metrics.mcc.value])) : null;
      return {
        ok: true,
        summary: {
          format: table.format,
          rows: rows.length,
          issues,
          metrics: metrics.map((m) => m.name),
          correctRate,
          mcc,
          preview: rows.slice(0, 50).map((r, i) => outputRecord(r, results[i]!)),
        },
      };
    } catch (e) {
      return { ok: false, error: (e as Error).message };
    }
  },
};

export type ScoreApi = typeof api;
expose(api);
