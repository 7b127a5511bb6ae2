/** Per-row results as JSONL or CSV. Pure: returns strings, so Node and the browser share it. */
import Papa from 'papaparse';

/** One JSONL line per record. */
export function toJsonl(records: readonly Record<string, unknown>[]): string {
  return records.map((r) => `${JSON.stringify(r)}\n`).join('');
}

type MetricCell = { score: number | null; decision: boolean | null; explanation: string };

/**
 * Flattens output records to CSV: id, question, gold (a JSON array, so it re-imports), candidate, label, then
 * `<metric>.score`, `<metric>.decision`, `<metric>.explanation` per metric.
 */
export function toCsv(records: readonly Record<string, unknown>[], metricNames: readonly string[], header = true): string {
  const fields = ['id', 'question', 'gold', 'candidate', 'label', ...metricNames.flatMap((m) => [`${m}.score`, `${m}.decision`, `${m}.explanation`])];
  const data = records.map((r) => {
    const metrics = (r.metrics ?? {}) as Record<string, MetricCell>;
    const row: unknown[] = [r.id, r.question, JSON.stringify(r.gold), r.candidate, r.label ?? ''];
    for (const m of metricNames) {
      const c = metrics[m];
      row.push(c?.score ?? '', c?.decision ?? '', c?.explanation ?? '');
    }
    return row;
  });
  return `${Papa.unparse({ fields: header ? fields : [], data }, { header, newline: '\n' })}\n`;
}
