/** Per-row results as JSONL, CSV or TSV. Pure: returns strings, so Node and the browser share it. */
import Papa from 'papaparse';
import { NEEDS_NEUTRALIZING } from './formula.ts';

/** Record keys written as trailing JSON columns when present. */
const PROVENANCE = ['models', 'verity_run'] as const;
/** The columns every record has; any other key (a comparison's system, the input's own columns) gets one too. */
const STANDARD = new Set(['id', 'question', 'gold', 'candidate', 'label', 'metrics', ...PROVENANCE]);

type MetricCell = { score: number | null; decision: boolean | null; explanation: string; class?: string; set?: string };

/**
 * The columns of a CSV/TSV export, which depend on every record (a metric's class / set column appears when
 * any row has one): `observe` each record, then write the header and the rows in as many parts as wanted —
 * the parts joined are byte for byte what toCsv / toTsv give for all the records at once.
 */
export class DelimitedWriter {
  private readonly cls = new Set<string>();
  private readonly set = new Set<string>();
  private readonly provenance = new Set<string>();
  /** Keys beyond the standard ones, in order of first appearance; `system` leads the row, the others follow the metrics. */
  private readonly other = new Set<string>();

  constructor(
    private readonly metricNames: readonly string[],
    private readonly delimiter: ',' | '\t',
    /** The input's gold separator: the gold cell is written as the input wrote it ('' or none: a JSON list). */
    private readonly goldSep = '',
  ) {}

  observe(r: Record<string, unknown>): void {
    const cells = (r.metrics ?? {}) as Record<string, MetricCell>;
    for (const m of this.metricNames) {
      if (cells[m]?.class !== undefined) this.cls.add(m);
      if (cells[m]?.set !== undefined) this.set.add(m);
    }
    for (const k of PROVENANCE) if (r[k] !== undefined) this.provenance.add(k);
    for (const k in r) if (!STANDARD.has(k)) this.other.add(k);
  }

  private get leading(): string[] {
    return this.other.has('system') ? ['system'] : [];
  }

  private get trailing(): string[] {
    return [...[...this.other].filter((k) => k !== 'system'), ...PROVENANCE.filter((k) => this.provenance.has(k))];
  }

  /** The header line (with its newline). */
  header(): string {
    const fields = [
      ...this.leading,
      'id',
      'question',
      'gold',
      'candidate',
      'label',
      ...this.metricNames.flatMap((m) => [
        `${m}.score`,
        `${m}.decision`,
        ...(this.cls.has(m) ? [`${m}.class`] : []),
        ...(this.set.has(m) ? [`${m}.set`] : []),
        `${m}.explanation`,
      ]),
      ...this.trailing,
    ];
    return `${Papa.unparse({ fields, data: [] }, { header: true, delimiter: this.delimiter, newline: '\n', escapeFormulae: NEEDS_NEUTRALIZING }).replace(/\n$/, '')}\n`;
  }

  /** Lines for these records (each with its newline); '' for none. `goldSep` as in the constructor. */
  rows(records: readonly Record<string, unknown>[], goldSep = this.goldSep): string {
    if (records.length === 0) return '';
    const [leading, trailing] = [this.leading, this.trailing];
    const cell = (v: unknown) => (v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));
    const data = records.map((r) => {
      const cells = (r.metrics ?? {}) as Record<string, MetricCell>;
      const row: unknown[] = [...leading.map((k) => cell(r[k])), r.id, r.question, goldCell(r.gold, goldSep), r.candidate, r.label ?? ''];
      for (const m of this.metricNames) {
        const c = cells[m];
        row.push(
          c?.score ?? '',
          c?.decision ?? '',
          ...(this.cls.has(m) ? [c?.class ?? ''] : []),
          ...(this.set.has(m) ? [c?.set ?? ''] : []),
          c?.explanation ?? '',
        );
      }
      for (const k of trailing) row.push(cell(r[k]));
      return row;
    });
    // Cells that a spreadsheet would run as formulas get a leading quote (formula.ts); parseTable removes it.
    return `${Papa.unparse({ fields: [], data }, { header: false, delimiter: this.delimiter, newline: '\n', escapeFormulae: NEEDS_NEUTRALIZING })}\n`;
  }
}

/**
 * A row's golds in one cell, as the input held them: joined by its separator (spaced as people write it: "Au | Gold")
 * when that splits them back to the same golds, else — no separator, or a gold that holds it, starts with a bracket
 * or has spaces at its ends — a JSON list, which every reader takes as the list it is.
 */
export function goldCell(gold: unknown, sep: string): string {
  if (!Array.isArray(gold)) return JSON.stringify(gold);
  const plain = (g: unknown) => typeof g === 'string' && g !== '' && g.trim() === g && !g.includes(sep) && !/^[[{]/.test(g);
  if (sep === '' || !gold.every(plain)) return JSON.stringify(gold);
  if (gold.length === 1) return gold[0] as string;
  return gold.join(sep.trim() === '' ? sep : ` ${sep.trim()} `.replace(/^ (?=[,;])/, ''));
}

function toDelimited(
  records: readonly Record<string, unknown>[],
  metricNames: readonly string[],
  header: boolean,
  delimiter: ',' | '\t',
  goldSep = '',
): string {
  // Provenance travels with every row: the models used (CLI) and the app's run configuration, as JSON.
  const w = new DelimitedWriter(metricNames, delimiter, goldSep);
  for (const r of records) w.observe(r);
  // (Papa ends a header with no rows after it in a newline of its own, hence the extra one.)
  if (records.length === 0) return header ? `${w.header()}\n` : '\n';
  return header ? w.header() + w.rows(records) : w.rows(records);
}

/**
 * Flattens output records to CSV: id, question, gold (as the input wrote it with `goldSep`, else a JSON array: either
 * re-imports), candidate, label, then
 * `<metric>.score`, `<metric>.decision` (and `<metric>.class` / `<metric>.set` for the taxonomy and the
 * hierarchy), `<metric>.explanation` per metric, then `models` / `verity_run` (JSON) when the records carry
 * them. Cells starting with = + - @, tab or CR are neutralized.
 */
export function toCsv(records: readonly Record<string, unknown>[], metricNames: readonly string[], header = true, goldSep = ''): string {
  return toDelimited(records, metricNames, header, ',', goldSep);
}

/** The same columns as `toCsv`, tab-separated (cells with tabs, quotes or newlines are quoted). */
export function toTsv(records: readonly Record<string, unknown>[], metricNames: readonly string[], header = true): string {
  return toDelimited(records, metricNames, header, '\t');
}
