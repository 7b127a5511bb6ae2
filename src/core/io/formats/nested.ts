/**
 * Nested field paths: `doc.question`, `doc.answer.aliases`, `filtered_resps.0` name values inside a record's
 * objects and arrays, so harness files (lm-evaluation-harness `--log_samples`: `doc`, `target`, `resps`,
 * `filtered_resps`, `doc_id`) map without reshaping. A key that itself contains dots wins over a path.
 * Only the paths asked for become columns: a `doc` can hold whole documents, which are not copied.
 */
import { isPlainObject, type ParsedTable } from '../parse.ts';

/** The value at a dotted path (own keys only; numeric segments index arrays); undefined when absent. */
export function getPath(data: Record<string, unknown>, path: string): unknown {
  if (Object.hasOwn(data, path)) return data[path];
  let v: unknown = data;
  for (const seg of path.split('.')) {
    if (Array.isArray(v) && /^\d+$/.test(seg)) v = v[Number(seg)];
    else if (isPlainObject(v) && Object.hasOwn(v, seg)) v = v[seg];
    else return undefined;
  }
  return v;
}

/** Whether a path names a nested value in some record (and is not a plain column). */
function resolvable(table: ParsedTable, path: string): boolean {
  if (!path.includes('.') || table.columns.includes(path)) return false;
  return table.records.some((r) => getPath(r.data, path) !== undefined);
}

/**
 * The table with a column for each nested path that some record has (plain columns and unknown paths are left
 * as they are, so the mapping reports them as it does any missing column). Records are copied shallowly.
 */
export function withPaths(table: ParsedTable, paths: readonly string[]): ParsedTable {
  const add = [...new Set(paths)].filter((p) => resolvable(table, p));
  if (add.length === 0) return table;
  return {
    ...table,
    columns: [...table.columns, ...add],
    records: table.records.map((r) => {
      const data = { ...r.data };
      for (const p of add) {
        const v = getPath(r.data, p);
        if (v !== undefined) data[p] = v;
      }
      return { ...r, data };
    }),
  };
}

/**
 * Dotted paths to the scalar and list values inside objects, for the mapping's column choices, in first-seen
 * order (from the first `sample` records, `maxDepth` levels down).
 */
export function nestedPaths(table: ParsedTable, maxDepth = 3, sample = 50): string[] {
  const seen = new Set<string>();
  const walk = (v: Record<string, unknown>, prefix: string, depth: number) => {
    for (const [k, x] of Object.entries(v)) {
      const p = prefix ? `${prefix}.${k}` : k;
      if (isPlainObject(x)) {
        if (depth < maxDepth) walk(x, p, depth + 1);
      } else if (prefix) seen.add(p);
    }
  };
  for (const r of table.records.slice(0, sample)) walk(r.data, '', 0);
  return [...seen];
}
