/**
 * The monotonicity headline, one definition for the Learn page, the Score page's report and `verity evaluate`.
 *
 * A metric that gives whole classes one score (exact match: 1 for the exact class, 0 for the seven others)
 * breaks no order between class means, yet it orders nothing either. So the crown goes to the best pairwise
 * accuracy, where a pair of answers scored alike counts half, and the headline names the ties and the hard pairs
 * beside the violations, with one line on why a tie-heavy metric looks good by violations alone.
 */
import { formatStat, type AgreementSummary } from '../report.ts';
import { HARD_PAIRS, type HardPair, type TaxonomyReport } from './ordinal.ts';
import type { Lead } from './lead.ts';

export interface TaxonomyHeadline {
  /** The metric crowned (best pairwise accuracy, ties counting half; the report's `best.taxonomy`). */
  best: string;
  /** Every metric with that best pairwise accuracy (a tie is a tie), and their names as the headline says them. */
  tied: string[];
  names: string;
  /** "Most monotone by pairwise accuracy (a tie counts half)". */
  lead: string;
  /** The crowned metric's figures: pairwise accuracy, violations with ties, hard pairs. */
  detail: string;
  /** Why another metric looks better by violations alone, or what the crowned metric's ties mean; null when none. */
  tieNote: string | null;
  /** Whether the lead over the next metric is real (leadSentence); null when no metric is below the leaders. */
  leadNote: string | null;
}

/**
 * Whether the crowned metric's lead over the next one is real, in one sentence: the difference and its 95% interval,
 * and "within noise" when the interval holds 0. Null without a lead.
 */
export function leadSentence(l: Lead | null, stat: 'MCC' | 'pairwise accuracy'): string | null {
  if (!l) return null;
  const by = `${l.difference > 0 ? '+' : ''}${formatStat(l.difference)} ${stat}`;
  const start = `Lead over the next metric, ${l.over}: ${by}`;
  const rows = `${l.n} rows${l.clusters < l.n ? ` (answers to ${l.clusters} questions)` : ''}`;
  if (!l.ci) return `${start} on ${rows}, too few for an interval.`;
  const ci = `95% interval ${formatStat(l.ci[0])} to ${formatStat(l.ci[1])}`;
  return l.real ? `${start} (${ci}): a lead these ${rows} support.` : `${start} (${ci}): within noise; these ${rows} do not separate them.`;
}

export const HEADLINE_LEAD = 'Most monotone by pairwise accuracy (a tie counts half)';

function violationsText(t: TaxonomyReport): string {
  const v = t.violations;
  return `${v.count} of ${v.of} class pairs out of order${v.ties ? `, ${v.ties} tied` : ''}`;
}

/** The hard pairs with both classes present ("" when none is). */
function hardText(t: TaxonomyReport): string {
  const present = (Object.keys(HARD_PAIRS) as HardPair[]).filter((k) => t.hardPairs[k] !== null);
  if (!present.length) return '';
  // Under 0.5 the metric puts the less correct answer first more often than not: said, not left to the reader.
  const worse = present.filter((k) => t.hardPairs[k]! < 0.5);
  return (
    `; hard pairs ${present.map((k) => `${k} ${formatStat(t.hardPairs[k])}`).join(', ')} (0.5 = coin flip)` +
    (worse.length ? `; ${worse.join(', ')} below 0.5: ordered the wrong way more often than not` : '')
  );
}

const coinFlips = (t: TaxonomyReport): boolean => {
  const present = Object.values(t.hardPairs).filter((v) => v !== null);
  return present.length > 0 && present.every((v) => v === 0.5);
};

/** The headline of a class-labelled report, or null when there is none (binary labels, no metric scored). */
export function taxonomyHeadline(s: AgreementSummary): TaxonomyHeadline | null {
  const best = s.best.taxonomy;
  const t = best ? s.taxonomy?.[best] : undefined;
  if (!best || !t || !s.taxonomy) return null;
  const detail = `pairwise accuracy ${formatStat(t.pairwiseAccuracy)}; ${violationsText(t)}${hardText(t)}`;
  // The metric a reader would pick by violations alone, when ties are what keep its count low.
  let rival: [string, TaxonomyReport] | null = null;
  for (const entry of Object.entries(s.taxonomy)) {
    const [name, r] = entry;
    if (name === best || r.violations.ties === 0 || r.violations.count > t.violations.count) continue;
    if (
      !rival ||
      r.violations.count < rival[1].violations.count ||
      (r.violations.count === rival[1].violations.count && r.violations.ties > rival[1].violations.ties)
    )
      rival = entry;
  }
  let tieNote: string | null = null;
  if (rival) {
    const [name, r] = rival;
    tieNote =
      `${name} has ${r.violations.count === 0 ? 'no' : 'only ' + r.violations.count} class pairs out of order only because it scores ${r.violations.ties} of ${r.violations.of} pairs alike: ` +
      `a tie orders nothing, so it counts as half a violation here (pairwise accuracy ${formatStat(r.pairwiseAccuracy)}` +
      (coinFlips(r) ? ', every hard pair a coin flip at 0.5).' : ').');
  } else if (t.violations.ties)
    tieNote = `${best} scores ${t.violations.ties} of ${t.violations.of} class pairs alike; each tie counts as half a violation.`;
  const tied = s.leaders.taxonomy.pairwiseAccuracy?.length ? s.leaders.taxonomy.pairwiseAccuracy : [best];
  return {
    best,
    tied,
    names: tiedNames(tied),
    lead: HEADLINE_LEAD,
    detail,
    tieNote,
    leadNote: leadSentence(s.lead.taxonomy, 'pairwise accuracy'),
  };
}

/** "a", or "a and b, tied", or "a, b and c, tied". */
export function tiedNames(names: readonly string[]): string {
  if (names.length < 2) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}, tied`;
}

/** The headline as plain text lines (the CLI's; the pages render the same parts). */
export function taxonomyHeadlineText(h: TaxonomyHeadline): string[] {
  return [`${h.lead}: ${h.names} — ${h.detail}.`, ...(h.leadNote ? [h.leadNote] : []), ...(h.tieNote ? [h.tieNote] : [])];
}
