/** Per-row results as JSONL or CSV. Pure: returns strings, so Node and the browser share it. */
import Papa from 'papaparse';

type MetricCell = { score: number | null; decision: boolean | null; explanation: string; class?: string; set?: string };

/**
 * Flattens output records to CSV: id, question, gold (a JSON array, so it re-imports), candidate, label, then
 * `<metric>.score`, `<metric>.decision` (and `<metric>.class` / `<metric>.set` for the taxonomy and the
 * hierarchy), `<metric>.explanation` per metric.
 */
export function toCsv(records: readonly Record<string, unknown>[], metricNames: readonly string[], header = true): string {
  const cells = (r: Record<string, unknown>) => (r.metrics ?? {}) as Record<string, MetricCell>;
  const extra = (m: string, key: 'class' | 'set') => records.some((r) => cells(r)[m]?.[key] !== undefined);
  const columns = metricNames.map((m) => ({ m, cls: extra(m, 'class'), set: extra(m, 'set') }));
  const fields = [
    'id', 'question', 'gold', 'candidate', 'label',
    ...columns.flatMap(({ m, cls, set }) => [`${m}.score`, `${m}.decision`, ...(cls ? [`${m}.class`] : []), ...(set ? [`${m}.set`] : []), `${m}.explanation`]),
  ];
  const data = records.map((r) => {
    const row: unknown[] = [r.id, r.question, JSON.stringify(r.gold), r.candidate, r.label ?? ''];
    for (const { m, cls, set } of columns) {
      const c = cells(r)[m];
      row.push(c?.score ?? '', c?.decision ?? '', ...(cls ? [c?.class ?? ''] : []), ...(set ? [c?.set ?? ''] : []), c?.explanation ?? '');
    }
    return row;
  });
  return `${Papa.unparse({ fields: header ? fields : [], data }, { header, newline: '\n' })}\n`;
}
