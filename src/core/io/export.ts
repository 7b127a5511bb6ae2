/** Per-row results as JSONL, CSV or TSV. Pure: returns strings, so Node and the browser share it. */
import Papa from 'papaparse';
import { NEEDS_NEUTRALIZING } from './formula.ts';

/** Record keys written as trailing JSON columns when present. */
const PROVENANCE = ['models', 'verity_run'] as const;

type MetricCell = { score: number | null; decision: boolean | null; explanation: string; class?: string; set?: string };

function toDelimited(records: readonly Record<string, unknown>[], metricNames: readonly string[], header: boolean, delimiter: ',' | '\t'): string {
  const cells = (r: Record<string, unknown>) => (r.metrics ?? {}) as Record<string, MetricCell>;
  const extra = (m: string, key: 'class' | 'set') => records.some((r) => cells(r)[m]?.[key] !== undefined);
  const columns = metricNames.map((m) => ({ m, cls: extra(m, 'class'), set: extra(m, 'set') }));
  // Provenance travels with every row: the models used (CLI) and the app's run configuration, as JSON.
  const trailing = PROVENANCE.filter((k) => records.some((r) => r[k] !== undefined));
  const fields = [
    'id', 'question', 'gold', 'candidate', 'label',
    ...columns.flatMap(({ m, cls, set }) => [`${m}.score`, `${m}.decision`, ...(cls ? [`${m}.class`] : []), ...(set ? [`${m}.set`] : []), `${m}.explanation`]),
    ...trailing,
  ];
  const data = records.map((r) => {
    const row: unknown[] = [r.id, r.question, JSON.stringify(r.gold), r.candidate, r.label ?? ''];
    for (const { m, cls, set } of columns) {
      const c = cells(r)[m];
      row.push(c?.score ?? '', c?.decision ?? '', ...(cls ? [c?.class ?? ''] : []), ...(set ? [c?.set ?? ''] : []), c?.explanation ?? '');
    }
    for (const k of trailing) row.push(r[k] === undefined ? '' : typeof r[k] === 'string' ? r[k] : JSON.stringify(r[k]));
    return row;
  });
  // Cells that a spreadsheet would run as formulas get a leading quote (formula.ts); parseTable removes it.
  const text = Papa.unparse({ fields: header ? fields : [], data }, { header, delimiter, newline: '\n', escapeFormulae: NEEDS_NEUTRALIZING });
  return `${text}\n`;
}

/**
 * Flattens output records to CSV: id, question, gold (a JSON array, so it re-imports), candidate, label, then
 * `<metric>.score`, `<metric>.decision` (and `<metric>.class` / `<metric>.set` for the taxonomy and the
 * hierarchy), `<metric>.explanation` per metric, then `models` / `verity_run` (JSON) when the records carry
 * them. Cells starting with = + - @, tab or CR are neutralized.
 */
export function toCsv(records: readonly Record<string, unknown>[], metricNames: readonly string[], header = true): string {
  return toDelimited(records, metricNames, header, ',');
}

/** The same columns as `toCsv`, tab-separated (cells with tabs, quotes or newlines are quoted). */
export function toTsv(records: readonly Record<string, unknown>[], metricNames: readonly string[], header = true): string {
  return toDelimited(records, metricNames, header, '\t');
}
