/**
 * Rows kept once per distinct value: a QA file usually repeats each question with its golds for every system
 * judged (EVOUNA: five answers per question, 14 golds each), and its labels are a handful of values. Rows that
 * repeat a question, a gold list or a label share one copy of it: a million EVOUNA-shaped rows (five answers per
 * question) take about half the memory. Nothing reads rows to change them (metrics, views and exports only read), so
 * sharing is invisible. The maps are emptied past a bound, so a file of all-distinct rows costs no more.
 */
import type { Label, QaRow } from '../core/types.ts';

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

/** Makes rows with equal questions, gold lists and labels share them (in place). */
export function shareRepeats(rows: QaRow[]): void {
  const question = keeper<string>();
  const golds = keeper<string[]>();
  const label = keeper<Label>();
  for (const r of rows) {
    r.question = question(r.question, r.question);
    r.golds = golds(JSON.stringify(r.golds), r.golds);
    if (r.label) r.label = label(r.label.kind === 'binary' ? `binary:${r.label.correct}` : `taxonomy:${r.label.cls}`, r.label);
  }
}
