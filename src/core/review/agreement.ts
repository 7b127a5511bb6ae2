/**
 * Several reviewers, end to end, as the CLI (`verity agreement`, `verity review --second`) and the app both do it:
 * the share of a review a second person answers, the verdicts read from the files people filled in, and what they
 * say — κ or α with its interval, the disagreements, how each was settled — in one report with its sentences and
 * the merged file (core/review/reviewers.ts computes the figures).
 *
 * The second person's questions are a simple random sample (seeded) of the review's questions, so the agreement is
 * measured on the questions the review asks — drawn more often where the judge is doubtful, so harder than the
 * file's answers at large. Their lines carry what was asked (question, golds, answer) without the judge's call, the
 * draw or the row ids: the second verdict is blind to the judge, and the file cannot be taken for the review itself.
 */
import { mulberry32 } from '../util/random.ts';
import { VerityError, type Label } from '../types.ts';
import { labelJson } from './labels.ts';
import { lineVerdict, verdictKey, type Verdict } from './memory.ts';
import { labelFileLines } from './sheet.ts';
import { mergeVerdicts, reviewedUnits, reviewerAgreement, type MergedVerdict, type ReviewerAgreement } from './reviewers.ts';

/** What a second person is asked: the lines of `share` of a review's questions (0 < share ≤ 1; at least one). */
export function secondReview(lines: readonly Record<string, unknown>[], share: number, seed: number): Record<string, unknown>[] {
  if (!(share > 0 && share <= 1)) throw new VerityError(`a second reviewer's share is above 0 and at most 100% (got ${share})`, 'usage');
  const asked = lines.filter((l) => typeof l.order === 'number');
  const n = asked.length ? Math.max(1, Math.round(share * asked.length)) : 0;
  // A partial Fisher–Yates shuffle: the first n of a seeded permutation, then back in the review's order.
  const idx = asked.map((_, k) => k);
  const rand = mulberry32(seed);
  for (let k = 0; k < n; k++) {
    const j = k + Math.floor(rand() * (idx.length - k));
    [idx[k], idx[j]] = [idx[j]!, idx[k]!];
  }
  return idx
    .slice(0, n)
    .sort((a, b) => a - b)
    .map((k) => {
      const l = asked[k]!;
      return { order: l.order, question: l.question, golds: l.golds, candidate: l.candidate, label: null, second: true };
    });
}

/** A share typed as "10%", "0.1" or "10" (percent when above 1). */
export function parseShare(text: string): number {
  const v = text.trim();
  const pct = /^(\d+(?:\.\d+)?)\s*%?$/.exec(v) ?? /^(\d*\.\d+)$/.exec(v);
  const x = pct ? Number(pct[1]) : NaN;
  const share = v.endsWith('%') || x > 1 ? x / 100 : x;
  if (!(share > 0 && share <= 1)) throw new VerityError(`"${text}" is not a share of the questions (10% or 0.1)`, 'usage');
  return share;
}

/** Every verdict a label file's text holds (JSONL, or a review sheet), each with the file it came from. */
export function verdictsOfText(text: string, name: string): { source: string; verdict: Verdict }[] {
  const lines = labelFileLines(text, name);
  if (!lines.ok) throw new VerityError(lines.error, 'input');
  return lines.value.flatMap((o) => {
    const v = lineVerdict(o);
    return v ? [{ source: name, verdict: v }] : [];
  });
}

/** A reviewer's name from a file's: without its folder and its .jsonl / .csv ending. */
export const reviewerOfFile = (name: string): string => name.replace(/^.*[\\/]/, '').replace(/\.(jsonl|csv)$/i, '');

export interface AgreementOptions {
  /** The reviewer whose verdict settles a disagreement (not counted as a reviewer). */
  adjudicator?: string;
  /** A disagreement nobody settled: the majority's verdict (a tie left out), or left out. */
  unsettled: 'majority' | 'omit';
  resamples: number;
  seed: number;
  level: number;
  /** The files read, named when none of them holds a verdict. */
  files?: readonly string[];
}

export interface AgreementReport {
  agreement: ReviewerAgreement;
  merged: MergedVerdict[];
  /** How the disagreements went: settled by the adjudicator, by the majority, left out. */
  settling: {
    adjudicator: string | null;
    unsettled: 'majority' | 'omit';
    adjudicated: number;
    majority: number;
    omitted: number;
    merged: number;
  };
}

/** κ or α over the answers two or more judged, the disagreements, and one verdict per answer. */
export function agreementReport(read: readonly { source: string; verdict: Verdict }[], o: AgreementOptions): AgreementReport {
  if (!read.length)
    throw new VerityError(
      `${o.files?.join(', ') || 'the files'}: no verdict with what it judged (a line with its question, golds, answer and label): give filled-in review files`,
      'input',
    );
  const units = reviewedUnits(read.map(({ source, verdict }) => ({ verdict, reviewer: reviewerOfFile(source) })));
  if (o.adjudicator !== undefined && !units.some((u) => u.verdicts.has(o.adjudicator!)))
    throw new VerityError(`adjudicator ${o.adjudicator}: no verdict is theirs (a line's "reviewer", else its file's name)`, 'input');
  // The adjudicator settles; their verdicts are not a reviewer's in the agreement.
  const reviewed = units.map((u) => ({ ...u, verdicts: new Map([...u.verdicts].filter(([who]) => who !== o.adjudicator)) }));
  const agreement = reviewerAgreement(reviewed, { resamples: o.resamples, seed: o.seed, level: o.level });
  if (agreement.reviewers.length < 2)
    throw new VerityError(
      `every verdict is ${agreement.reviewers[0]}'s: agreement needs two reviewers (a line names its reviewer in "reviewer", else its file is one person's)`,
      'input',
    );
  if (agreement.shared === 0)
    throw new VerityError(
      `${agreement.reviewers.join(', ')}: no answer was judged by two of them, so there is no agreement to measure`,
      'input',
    );
  const m = mergeVerdicts(units, { ...(o.adjudicator !== undefined ? { adjudicator: o.adjudicator } : {}), unsettled: o.unsettled });
  const how = { adjudicated: 0, majority: 0 };
  for (const v of m.verdicts) if (v.settled === 'adjudicated' || v.settled === 'majority') how[v.settled]++;
  return {
    agreement,
    merged: m.verdicts,
    settling: { adjudicator: o.adjudicator ?? null, unsettled: o.unsettled, ...how, omitted: m.omitted, merged: m.verdicts.length },
  };
}

const shown = (l: Label) => (l.kind === 'binary' ? (l.correct ? 'correct' : 'incorrect') : l.cls);

/** The report in sentences: who, the statistic with its interval, every disagreement, how they were settled. */
export function agreementLines(r: AgreementReport, written?: string): string[] {
  const a = r.agreement;
  const s = r.settling;
  const name = a.statistic === 'kappa' ? "Cohen's κ" : "Krippendorff's α";
  const f3 = (x: number) => x.toFixed(3);
  return [
    `${a.reviewers.length} reviewers (${a.reviewers.join(', ')}): ${a.shared} of ${a.units} answers judged by two or more, compared as correct / incorrect.`,
    a.value === null
      ? `${name}: none — every verdict is the same, so agreement beyond chance cannot be measured.`
      : `${name} = ${f3(a.value)}${a.ci ? ` (${Math.round(a.level * 100)}% CI ${f3(a.ci[0])} to ${f3(a.ci[1])}; bootstrap over the answers, ${a.resamples} resamples, seed ${a.seed})` : ''}.`,
    '',
    a.disagreements.length ? `Judged otherwise (${a.disagreements.length}):` : 'No answer was judged otherwise.',
    ...a.disagreements.map(
      (d) =>
        `  ${JSON.stringify(d.question)} — answer ${JSON.stringify(d.candidate)} (gold ${d.golds.map((g) => JSON.stringify(g)).join(' | ')}): ` +
        d.verdicts.map((v) => `${v.reviewer} ${shown(v.label)}`).join(', '),
    ),
    '',
    `${s.merged} answers have one verdict` +
      (a.disagreements.length
        ? ` (of the disagreements: ${[
            ...(s.adjudicator !== null ? [`${s.adjudicated} settled by ${s.adjudicator}`] : []),
            ...(s.unsettled === 'majority' ? [`${s.majority} by the majority`] : []),
            `${s.omitted} left out${s.unsettled === 'majority' ? ' (tied)' : ' (unsettled; the majority can be taken instead)'}`,
          ].join(', ')})`
        : '') +
      (written ? `; written to ${written}, for --known of verity review` : '') +
      '.',
  ];
}

/** The merged verdicts as a label file: one line per answer, with every reviewer's verdict and how it was settled. */
export function mergedJsonl(merged: readonly MergedVerdict[]): string {
  const lines = merged.map((v) =>
    JSON.stringify({
      question: v.question,
      golds: v.golds,
      candidate: v.candidate,
      label: labelJson(v.label),
      settled: v.settled,
      reviewers: Object.fromEntries(Object.entries(v.reviewers).map(([who, l]) => [who, labelJson(l)])),
    }),
  );
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/** The report as JSON (`verity agreement --json`): labels written as label files write them. */
export function agreementJson(r: AgreementReport): Record<string, unknown> {
  const disagreements = r.agreement.disagreements.map((d) => ({
    ...d,
    verdicts: d.verdicts.map((v) => ({ reviewer: v.reviewer, label: labelJson(v.label) })),
  }));
  return { ...r.agreement, disagreements, settling: r.settling };
}

/**
 * A review file with its questions' verdicts settled between reviewers: an answered question two or more people
 * judged takes the merged verdict (`settled` says how: agreed, adjudicated, majority); one whose disagreement was
 * left unsettled becomes unanswered (`unsettled: true`) — a drawn question without a verdict, so the review's
 * estimate, which uses answers in order, stops before it until it is settled. Other lines stay as they are.
 */
export function settleReview(
  lines: readonly Record<string, unknown>[],
  merged: readonly MergedVerdict[],
): {
  lines: Record<string, unknown>[];
  agreed: number;
  adjudicated: number;
  majority: number;
  unsettled: number;
  firstUnsettled: number | null;
} {
  const byKey = new Map(merged.map((v) => [verdictKey(v), v]));
  const counts = { agreed: 0, adjudicated: 0, majority: 0, unsettled: 0 };
  let firstUnsettled: number | null = null;
  const out = lines.map((l) => {
    const v = typeof l.order === 'number' && l.label !== null && l.label !== undefined ? lineVerdict(l) : null;
    if (!v) return { ...l };
    const m = byKey.get(verdictKey(v));
    if (!m) {
      counts.unsettled++;
      firstUnsettled = Math.min(firstUnsettled ?? Infinity, l.order as number);
      return { ...l, label: null, unsettled: true };
    }
    if (m.settled === 'one') return { ...l };
    counts[m.settled]++;
    // Agreed: the line's own verdict stands (another's may name another class of the same call).
    if (m.settled === 'agreed') return { ...l, settled: m.settled };
    return { ...l, label: labelJson(m.label), settled: m.settled };
  });
  return { lines: out, ...counts, firstUnsettled };
}
