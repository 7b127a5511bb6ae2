/**
 * A JSON file that is one object holding the table rather than a row of it: pandas' `DataFrame.to_json`
 * orientations other than `records` (the default `columns`, and `split`, `index`, `table`), and a list of
 * records under one key (`{"data": [...]}`, `{"examples": [...], "version": …}`). Each becomes the records it
 * holds; an object that is itself a row (it has candidate and gold columns) is left alone.
 *
 * reshapeObject({question: {0: 'q1', 1: 'q2'}, gold: {0: 'a', 1: 'b'}, candidate: {0: 'a', 1: 'c'}})
 * // → { shape: "pandas to_json, orient='columns'", records: [{question: 'q1', gold: 'a', candidate: 'a'}, {question: 'q2', …}] }
 */
import { resolveColumns } from '../fields.ts';
import { collectColumns, isPlainObject, type ParsedTable } from '../parse.ts';

type Obj = Record<string, unknown>;

export interface Reshaped {
  /** How the object held its rows, for the user. */
  shape: string;
  records: Obj[];
}

/** How many of the fields that make a row (candidate, gold) columns with these names would fill. */
const rowFields = (names: string[]): number => {
  const c = resolveColumns(names);
  return (c.candidate ? 1 : 0) + (c.gold ? 1 : 0);
};

/** The same keys, in any order. */
function sameKeys(objects: Obj[]): boolean {
  const first = Object.keys(objects[0]!);
  const set = new Set(first);
  return objects.every((o) => {
    const keys = Object.keys(o);
    return keys.length === first.length && keys.every((k) => set.has(k));
  });
}

/** The records an object holds, or null when it is a row itself or holds no table. */
export function reshapeObject(o: Obj): Reshaped | null {
  const keys = Object.keys(o);
  if (keys.length === 0) return null;
  // pandas orient='columns' ({column: {index: value}}) or 'index' ({index: {column: value}}): every value an
  // object with the same keys (a row never has that shape: its answers are not objects). The orientation is
  // the one whose column names make rows.
  const inner = keys.map((k) => o[k]);
  if (keys.length >= 2 && inner.every(isPlainObject) && sameKeys(inner as Obj[])) {
    const innerKeys = Object.keys(inner[0] as Obj);
    const asColumns = rowFields(keys);
    const asIndex = rowFields(innerKeys);
    if (innerKeys.length === 0 || (asColumns === 0 && asIndex === 0)) return null;
    if (asColumns >= asIndex)
      return {
        shape: "pandas to_json, orient='columns'",
        records: innerKeys.map((i) => Object.fromEntries(keys.map((c) => [c, (o[c] as Obj)[i]]))),
      };
    return { shape: "pandas to_json, orient='index'", records: inner as Obj[] };
  }
  if (rowFields(keys) === 2) return null;
  // pandas orient='split': {columns: [...], index: [...], data: [[...], ...]}.
  if (Array.isArray(o.columns) && Array.isArray(o.data) && o.columns.every((c) => typeof c === 'string')) {
    const cols = o.columns as string[];
    if (o.data.every((r) => Array.isArray(r) && r.length === cols.length))
      return {
        shape: "pandas to_json, orient='split'",
        records: (o.data as unknown[][]).map((r) => Object.fromEntries(cols.map((c, i) => [c, r[i]]))),
      };
  }
  // A list of records under one key (pandas orient='table' keeps them under `data`, beside its `schema`).
  const lists = keys.filter((k) => Array.isArray(o[k]) && (o[k] as unknown[]).length > 0 && (o[k] as unknown[]).every(isPlainObject));
  if (lists.length === 1) {
    const k = lists[0]!;
    return {
      shape: k === 'data' && isPlainObject(o.schema) ? "pandas to_json, orient='table'" : `the records under "${k}"`,
      records: o[k] as Obj[],
    };
  }
  return null;
}

/** A table read from a one-object JSON file, reshaped when the object holds the table (see reshapeObject). */
export function reshapeSingleObject<T extends ParsedTable>(t: T): T & { reshaped?: string } {
  if (t.records.length !== 1 || t.issues.some((i) => i.severity === 'error')) return t;
  const r = reshapeObject(t.records[0]!.data);
  if (!r) return t;
  const records = r.records.map((data, i) => ({ row: i + 1, data }));
  return { ...t, format: 'json', columns: collectColumns(records), records, reshaped: r.shape };
}
