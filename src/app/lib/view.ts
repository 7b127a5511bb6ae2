/**
 * What the results table's filters say to the user: which filters a file can use, and why a filtered view is
 * empty. Pure, so the wording is tested without a browser.
 */
import type { ViewQuery } from '../../core/explore.ts';
import type { CapClass } from '../../core/types.ts';

export type LabelKind = 'binary' | 'taxonomy' | 'mixed' | null;

/**
 * Where row classes can come from: the human labels (when some are class names) and a class-predicting
 * metric. Empty when neither exists, and then the Class filter is not offered (it could only empty the table).
 */
export function classSources(labelKind: LabelKind, classMetrics: readonly string[]): ('label' | string)[] {
  return [...(labelKind === 'taxonomy' || labelKind === 'mixed' ? ['label'] : []), ...classMetrics];
}

/**
 * A class in a results cell: the hard pairs' abbreviations (Eq>Part, OV>OI, Alt>Inv) and three more, so that a
 * class-giving metric's column fits a projector's width; the cell's title and the row detail name it in full.
 */
export const CLASS_SHORT: Readonly<Record<CapClass, string>> = {
  exact: 'Ex',
  equivalent: 'Eq',
  'alternative-correct': 'Alt',
  'overinclusive-valid': 'OV',
  partial: 'Part',
  'overinclusive-invalid': 'OI',
  invalid: 'Inv',
  contradictory: 'Con',
};
export const classShort = (cls: string): string => CLASS_SHORT[cls as CapClass] ?? cls;

const decisionText = (v: boolean | null) => (v === true ? 'correct' : v === false ? 'incorrect' : 'not scored');

/** The active filters of a view, in words ("search “x”", "exact_match: not scored"), in the order shown. */
export function describeFilters(q: ViewQuery): string[] {
  const out: string[] = [];
  if (q.search?.trim()) out.push(`search “${q.search.trim()}”`);
  if (q.cls) out.push(`class ${q.cls}${!q.classBy || q.classBy === 'label' ? ' (human label)' : ` (by ${q.classBy})`}`);
  if (q.decision) out.push(`${q.decision.metric}: ${decisionText(q.decision.value)}`);
  if (q.disagreeWith) out.push(`${q.disagreeWith} disagrees with the label`);
  return out;
}

/** Why a view shows no row, or null when it shows some. */
export function emptyViewReason(q: ViewQuery, shown: number, scored: number): string | null {
  if (shown > 0) return null;
  if (scored === 0) return 'No row has been scored yet.';
  const filters = describeFilters(q);
  return filters.length
    ? `No row matches ${filters.join(' and ')} (of ${scored.toLocaleString('en')} scored).`
    : `None of the ${scored.toLocaleString('en')} scored rows can be shown.`;
}
