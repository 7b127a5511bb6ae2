/**
 * Rows kept once per distinct value: a QA file usually repeats each question with its golds for every system
 * judged (EVOUNA: five answers per question, 14 golds each), and its labels are a handful of values. Rows that
 * repeat a question, a gold list or a label share one copy of it: a million EVOUNA-shaped rows (five answers per
 * question) take about half the memory. Nothing reads rows to change them (metrics, views and exports only read), so
 * sharing is invisible. The maps are emptied past a bound, so a file of all-distinct rows costs no more.
 *
 * The mapper shares each row as it makes it (fields.ts), and makes a row's golds and label once per distinct cell
 * (`boundedMemo`): the copies it made and dropped reached V8's old generation and stayed there until its next full
 * collection — about 300 MB for a million EVOUNA rows, as V8 allocates arrays whose first ones all lived (the first
 * pass over the distinct questions) straight in the old generation.
 */
import type { Label, QaRow } from '../types.ts';

const BOUND = 100_000;

function keeper<T>(): (key: string, value: T) => T {
  const seen = new Map<string, T>();
  return (key, value) => {
    const had = seen.get(key);
    if (had !== undefined) return had;
    if (seen.size >= BOUND) seen.clear();
    seen.set(key, value);
    return value;
  };
}

/** A function that makes the rows it is given share equal questions, gold lists and labels (in place). */
export function rowSharer(): (r: QaRow) => void {
  const question = keeper<string>();
  const golds = keeper<string[]>();
  const label = keeper<Label>();
  return (r) => {
    r.question = question(r.question, r.question);
    r.golds = golds(JSON.stringify(r.golds), r.golds);
    if (r.label) r.label = label(r.label.kind === 'binary' ? `binary:${r.label.correct}` : `taxonomy:${r.label.cls}`, r.label);
  };
}
