/**
 * The comparison's tables as plain text cells, one source for `verity compare`'s text report and the HTML report
 * (the app lays its own, with test ids and links): a metric's leaderboard and its paired tests, and the judge's errors.
 */
import type { MetricLeaderboard } from './leaderboard.ts';
import type { PairComparison } from './paired.ts';
import type { MetricRanking } from './ranking.ts';
import type { CompareReport } from './report.ts';
import { ci, ciSigned, f3, pFmt, rankRange, signed, verdict } from './format.ts';
import type { JudgeReport } from '../review/judge.ts';

export interface Cells {
  head: string[];
  rows: string[][];
}

/**
 * One metric's leaderboard: rank, the ranks the system can hold, system, n, accuracy and mean with intervals, the
 * human accuracy when every row is labelled, the review's estimate when only some are, and the metric's gap to
 * the one or the other.
 */
export function leaderboardCells(lb: MetricLeaderboard, ranking: MetricRanking | null | undefined): Cells {
  const reviewed = lb.rankedBy === 'reviewed';
  const human = lb.entries.some((e) => e.human);
  const gap = human || reviewed;
  return {
    head: [
      'rank',
      'can be',
      'system',
      'n',
      'accuracy',
      '95% CI',
      'mean score',
      '95% CI',
      ...(human ? ['human acc', '95% CI'] : []),
      ...(reviewed ? ['reviewed acc', '95% CI', 'labelled'] : []),
      ...(gap ? [reviewed ? 'metric − reviewed' : 'metric − human', '95% CI'] : []),
    ],
    rows: lb.entries.map((e) => {
      const g = ranking?.gaps.find((x) => x.system === e.system);
      return [
        String(e.rank),
        rankRange(e.ranks),
        e.system,
        String(e.decided),
        f3(e.accuracy.value),
        ci(e.accuracy.ci),
        f3(e.mean.value),
        ci(e.mean.ci),
        ...(human ? [f3(e.human?.accuracy), ci(e.human?.ci)] : []),
        ...(reviewed ? [f3(e.reviewed?.value), ci(e.reviewed?.ci), String(e.reviewed?.labelled ?? 0)] : []),
        ...(gap ? [signed(g?.gap), ciSigned(g?.gapCi)] : []),
      ];
    }),
  };
}

/** The review's paired differences, A − B on shared questions: estimate, interval, p (Holm), verdict. */
export function reviewedPairCells(pairs: readonly PairComparison[]): Cells {
  return {
    head: ['A', 'B', 'n', 'Δ reviewed accuracy', '95% CI', 'p (Holm)', 'verdict'],
    rows: pairs.map((p) => {
      const a = p.accuracy;
      return [p.a, p.b, String(a.n), signed(a.diff), ciSigned(a.ci), pFmt(a.pHolm), verdict(a.better, p.a, p.b, a.n)];
    }),
  };
}

/** Paired tests, A − B: the accuracy columns, and the mean-score ones when `score` (the human labels have none). */
export function pairedCells(pairs: readonly PairComparison[], score: boolean): Cells {
  return {
    head: [
      'A',
      'B',
      'n',
      'Δ accuracy',
      '95% CI',
      'McNemar b/c',
      'p (Holm)',
      'verdict',
      ...(score ? ['Δ mean', '95% CI', 'p (Holm)', 'verdict'] : []),
    ],
    rows: pairs.map((p) => {
      const a = p.accuracy;
      const s = p.score;
      return [
        p.a,
        p.b,
        String(a.n),
        signed(a.diff),
        ciSigned(a.ci),
        a.mcnemar ? `${a.mcnemar.b}/${a.mcnemar.c}` : '—',
        pFmt(a.pHolm),
        verdict(a.better, p.a, p.b, a.n),
        ...(score ? [signed(s?.diff), ciSigned(s?.ci), pFmt(s?.pHolm), verdict(s?.better, p.a, p.b, s?.n ?? 0)] : []),
      ];
    }),
  };
}

/**
 * What a comparison after a review rests on, in one paragraph (the text report, the HTML report and the app say
 * the same); '' when the rows are not partly labelled.
 */
export function reviewNote(rep: CompareReport): string {
  const lb = rep.leaderboard.metrics[0];
  if (lb?.rankedBy !== 'reviewed') return '';
  const r = lb.entries.find((e) => e.reviewed)?.reviewed;
  const sampled = lb.entries.reduce((n, e) => n + (e.reviewed?.sampled ?? 0), 0);
  const how =
    r?.design === 'assumed-random'
      ? 'The labels do not say how their rows were chosen, so they are taken as drawn at random from each system (a file from verity review or the app says how).'
      : `${sampled} of them were drawn by the review's design, step by step with known probabilities.`;
  const anytime = r?.interval === 'anytime';
  return (
    `reviewed: ${rep.labelled} of ${rep.rows} rows labelled. ${how} Each system's accuracy is estimated from the review` +
    (lb.estimand === 'shared'
      ? ` on the ${lb.questions} questions every system answered`
      : lb.estimand === 'own'
        ? " on each system's own rows"
        : '') +
    ': ' +
    (lb.learned
      ? `a prediction learned from the answers (${lb.reference}'s decisions and what is known of every row, ${anytime ? "each step's fitted on the answers before it" : 'cross-fitted'}), corrected by the labels weighted by `
      : `${lb.reference}'s decisions, corrected by the labels weighted by `) +
    (anytime
      ? 'the probability each was drawn with, with a 95% interval that holds wherever you stop (a confidence sequence; the JSON\'s "fixed" interval holds only for a number of answers fixed before the first); '
      : 'their inclusion probabilities, with a 95% interval; ') +
    'it ranks the systems, and every metric is measured against it. ' +
    '"can be" is the set of ranks a system can hold given the paired differences (Holm-corrected). ' +
    "The labelled rows' own accuracy is not shown: a review picks them."
  );
}

/** A share in percent, one decimal; an interval of shares in percent. */
const pct = (x: number | null | undefined) => (x === null || x === undefined ? '—' : `${(x * 100).toFixed(1)}%`);
const pctCi = (c: [number, number] | null | undefined) => (c ? `[${(c[0] * 100).toFixed(1)}, ${(c[1] * 100).toFixed(1)}]` : '');
/** A difference of shares in points, signed, one decimal. */
const points = (x: number | null | undefined) =>
  x === null || x === undefined ? '—' : `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}`;
const pointsCi = (c: [number, number] | null | undefined) => (c ? `[${points(c[0])}, ${points(c[1])}]` : '');

/**
 * What the review says about the judge, a row per system and one for all of them: the judge's accuracy minus the
 * reviewed accuracy (points), the share of correct answers it rejects and of wrong ones it credits, with intervals.
 */
export function judgeCells(j: JudgeReport): Cells {
  const level = `${Math.round(j.level * 100)}% CI`;
  return {
    head: ['system', 'rows', 'reviewed', 'judge − reviewed (points)', level, 'rejects correct', level, 'credits wrong', level],
    rows: [...j.systems, j.overall].map((e) => [
      e.system ?? 'all systems',
      String(e.rows),
      String(e.reviewed),
      points(e.bias.value),
      pointsCi(e.bias.ci),
      pct(e.falseNegative.value),
      pctCi(e.falseNegative.ci),
      pct(e.falsePositive.value),
      pctCi(e.falsePositive.ci),
    ]),
  };
}

/**
 * The judge's findings in sentences, each one only where its interval says it: a system the judge under- or
 * over-credits (the bias interval leaves out 0), and whether its errors grow or fall with the answers' length.
 */
export function judgeLines(j: JudgeReport & { reference: string }): string[] {
  const level = `${Math.round(j.level * 100)}% CI`;
  const span = (c: [number, number]) => `${(Math.abs(c[0]) * 100).toFixed(1)} to ${(Math.abs(c[1]) * 100).toFixed(1)}`;
  const out: string[] = [];
  for (const e of j.systems) {
    const c = e.bias.ci;
    if (!c || e.bias.value === null) continue;
    if (c[1] < 0)
      out.push(`${j.reference} under-credits ${e.system} by ${(-e.bias.value * 100).toFixed(1)} points (${level} ${span([c[1], c[0]])}).`);
    else if (c[0] > 0)
      out.push(`${j.reference} over-credits ${e.system} by ${(e.bias.value * 100).toFixed(1)} points (${level} ${span(c)}).`);
  }
  const L = j.length;
  if (L) {
    const bins = L.bins
      .map((b) => `${pct(b.errors.value)} of ${b.words[0] === b.words[1] ? b.words[0] : `${b.words[0]}–${b.words[1]}`}-word answers`)
      .join(', ');
    const how =
      L.verdict === 'grows'
        ? 'its errors grow with the answer’s length'
        : L.verdict === 'falls'
          ? 'its errors fall with the answer’s length'
          : 'no trend with the answer’s length is shown';
    out.push(
      `${j.reference} errs on ${bins}: ${how} (longest − shortest ${points(L.trend.value)} points, ${level} ${pointsCi(L.trend.ci)}).`,
    );
  }
  return out;
}
