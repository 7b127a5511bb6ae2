/**
 * Which metric a comparison leads with — the report's "The answer" table, its first who-beats-whom matrix and the
 * app's metric chosen first — and why, in one line. In order: after a review, the review's estimate (every
 * leaderboard ranks by it; the board shown is the judge the review was made for); with human labels, the metric
 * whose ranking agrees best with theirs (Kendall τ; ties to the embedded judge, then the order given); otherwise
 * the embedded default's judge (pedants) when compared, else the first metric. Exact match is never the lead
 * by default: it under-credits long correct answers, which ranks LLM systems last.
 */
import type { CompareReport } from './report.ts';
import { pairName } from './format.ts';

export const DEFAULT_JUDGE = 'pedants';

export interface HeadlineMetric {
  metric: string;
  basis: 'reviewed' | 'labels' | 'judge' | 'first';
  /** One line: what the headline ranks by and why. */
  why: string;
}

export function headlineMetric(rep: CompareReport): HeadlineMetric | null {
  const boards = rep.leaderboard.metrics;
  if (!boards.length) return null;
  const names = boards.map((b) => b.metric);
  const first = boards[0]!;
  if (first.rankedBy === 'reviewed') {
    const metric = first.reference && names.includes(first.reference) ? first.reference : first.metric;
    return {
      metric,
      basis: 'reviewed',
      why: `ranked by the reviewed estimate (your answers correcting ${metric}'s decisions): every leaderboard ranks by it`,
    };
  }
  const taus = (rep.ranking?.metrics ?? []).filter((m) => m.kendallTau !== null && names.includes(m.metric));
  if (taus.length) {
    const best = Math.max(...taus.map((m) => m.kendallTau!));
    const top = taus.filter((m) => m.kendallTau === best).map((m) => m.metric);
    const metric = top.includes(DEFAULT_JUDGE) ? DEFAULT_JUDGE : top[0]!;
    const others = taus
      .filter((m) => m.metric !== metric)
      .map((m) => `${m.metric} ${m.kendallTau!.toFixed(2)}`)
      .join(', ');
    return {
      metric,
      basis: 'labels',
      why:
        `ranked by ${metric}: of the metrics, its ranking agrees best with the file's human labels (Kendall τ ${best.toFixed(2)}` +
        `${others ? `; ${others}` : ''})${top.length > 1 ? `, tied with ${top.filter((m) => m !== metric).join(', ')}` : ''}`,
    };
  }
  if (names.includes(DEFAULT_JUDGE))
    return {
      metric: DEFAULT_JUDGE,
      basis: 'judge',
      why: `ranked by ${DEFAULT_JUDGE}, the embedded default's judge (no human labels to choose a metric by; exact match under-credits long correct answers)`,
    };
  return {
    metric: first.metric,
    basis: 'first',
    why: `ranked by ${first.metric}, the first metric compared (no human labels to choose by)`,
  };
}

/**
 * What more answers would buy, for the open pairs of a review drawn step by step (review/ahead.ts): the nearest few
 * by the answers they need, and how many need more than the file holds; '' when nothing is projected.
 */
export function aheadText(open: readonly { a: string; b: string; more?: number | null }[]): string {
  const projected = open.filter((p) => p.more !== undefined);
  if (!projected.length) return '';
  const near = projected.filter((p) => p.more !== null).sort((x, y) => x.more! - y.more!);
  const far = projected.length - near.length;
  const named = near.slice(0, 3).map((p) => `about ${p.more!.toLocaleString('en')} more for ${pairName(p.a, p.b)}`);
  const rest = near.length > 3 ? [`${near.length - 3} more pair${near.length - 3 === 1 ? '' : 's'} further off`] : [];
  const beyond = far ? [`${far} need${far === 1 ? 's' : ''} more answers than the file holds (a difference near 0)`] : [];
  return `; if the differences and the answers' spread hold: ${[...named, ...rest, ...beyond].join(', ')}`;
}

/**
 * The comparison in five lines, for the end of the text report: what it ranks by and why, the ranking, the pairs
 * that are ordered (significantly, Holm-corrected) and those that are not, and what to do next.
 */
export function closingSummary(rep: CompareReport): string[] {
  const lead = headlineMetric(rep);
  if (!lead) return [];
  const board = rep.leaderboard.metrics.find((m) => m.metric === lead.metric)!;
  const reviewed = lead.basis === 'reviewed';
  const value = (e: (typeof board.entries)[number]) => (reviewed ? (e.reviewed?.value ?? null) : e.accuracy.value);
  const ranking = board.entries.map((e) => `${e.system} ${value(e) === null ? '—' : value(e)!.toFixed(3)}`).join(' > ');
  const pairs = rep.paired.metrics.find((m) => m.metric === (reviewed ? 'reviewed' : lead.metric))?.pairs ?? [];
  const ordered = pairs.filter((p) => p.accuracy.better !== null).map((p) => ({ p, better: p.accuracy.better! }));
  const open = pairs.length - ordered.length;
  const orderedText = ordered.length
    ? ordered
        .slice(0, 6)
        .map(({ p, better }) => `${better} > ${better === p.a ? p.b : p.a}`)
        .join(', ') + (ordered.length > 6 ? `, and ${ordered.length - 6} more` : '')
    : 'none';
  const next =
    rep.systems.length < 2
      ? 'one system: compare it with another, or evaluate it against labels (verity evaluate).'
      : reviewed
        ? open
          ? `answer more of the review to order the ${open} pair${open === 1 ? '' : 's'} still open (the intervals hold wherever you stop)${aheadText(pairs.filter((p) => p.accuracy.better === null).map((p) => ({ a: p.a, b: p.b, ...(p.accuracy.more !== undefined ? { more: p.accuracy.more } : {}) })))}.`
          : 'every pair is ordered: the review can stop here.'
        : rep.labelled
          ? 'verity evaluate says how each metric agrees with the labels; verity calibrate fits a threshold to them.'
          : open
            ? `to know how the humans would rank the ${open} open pair${open === 1 ? '' : 's'}, review a few answers: verity review FILE --budget 10% --out review.jsonl, then compare --labels review.jsonl.`
            : 'every pair is ordered by the judge; a review (verity review) checks the judge itself.';
  return [
    `In short: ${lead.why}.`,
    `Ranking: ${ranking}.`,
    `Ordered (95%, Holm-corrected): ${orderedText}.`,
    `Not ordered: ${open} of ${pairs.length} pair${pairs.length === 1 ? '' : 's'}${open ? ' (their difference could be 0)' : ''}.`,
    `Next: ${next}`,
  ];
}
