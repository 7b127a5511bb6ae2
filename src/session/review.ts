/**
 * A run's review: the questions to ask (core/review/plan.ts: each distinct answer once, for every system that gave
 * it, in the design's order), the answers as they are given — saved with the run at each one (journal
 * `review:<run>`), so a reload loses none, and merged with what another tab saved meanwhile —, undo, a label for
 * one system's row apart from its group, the labels' export (the review-file form `verity review` writes) and
 * import, the estimates per system with the "you can stop now" figures (the comparison's own: core/compare/
 * reviewed.ts), the rows with the labels in for the comparison, and the threshold refit saved as the run's
 * calibration.
 * The saved form is a log of answers, each with an id; undo marks an id taken back. Two tabs saving at once merge
 * their logs in one transaction, so neither loses the other's answers.
 */
import { VerityError, type QaRow } from '../core/types.ts';
import { messageOf } from '../core/errors.ts';
import { designRecord, parseBudget } from '../core/review/plan.ts';
import { firstEntries } from '../core/review/adapt.ts';
import { readSequence } from '../core/review/design.ts';
import { refitThreshold } from '../core/review/refit.ts';
import { stepFields, type ReviewedRow } from '../core/review/labels.ts';
import { CLASS_METRICS } from '../core/metrics/index.ts';
import { labelIsCorrect } from '../core/correctness.ts';
import { DEFAULTS } from '../core/defaults.ts';
import { splitCandidates } from '../core/compare/split.ts';
import type { Journal } from './journal.ts';
import type { ActiveRun } from './runner.ts';
import type { ReviewAnswer, ReviewImported, ReviewItem, ReviewRefitted, ReviewState, TableRow } from './api.ts';
import { answeredInOrder, answersOf, itemOf, labelOf, merge, newId, sameGroup, savedEntries, type SavedReview } from './review-saved.ts';
import { lastEpochStart, ReviewDraw, savedGroup, splitView } from './review-draw.ts';
import { reviewEstimates, reviewJudgeErrors, type ReviewRun } from './review-estimates.ts';
import type { JudgeReport } from '../core/review/judge.ts';
import { exportReview, importReview } from './review-files.ts';
import type { LabelFormat } from '../core/review/sheet.ts';
import { DEFAULT_PROJECT, projectName, type VerdictStore } from './verdicts.ts';
import type { ReviewMemory, ReviewStart } from './review-api.ts';
import { knownAnswers, rememberAnswer, reviewMemory, withKnown } from './review-memory.ts';

/** What the review needs of the session: the rows, the run, a table row, the journal, the remembered verdicts. */
export interface ReviewHost {
  rows(): readonly QaRow[];
  run(): ActiveRun | null;
  systems(): boolean;
  tableRow(i: number): TableRow;
  journal: Journal;
  verdicts: VerdictStore;
}

export class SessionReview {
  private saved: SavedReview | null = null;
  private unsaved: string | undefined;
  private folded: { rows: readonly QaRow[]; key: unknown } | null = null;

  private readonly draw: ReviewDraw;

  constructor(private readonly host: ReviewHost) {
    this.draw = new ReviewDraw(
      () => host.rows(),
      () => host.systems(),
    );
  }

  /** The review of the run in hand (none after a new run). */
  private current(): SavedReview | null {
    const a = this.host.run();
    return a && this.saved?.run === a.meta.id ? this.saved : null;
  }

  /** The review in hand, or why there is none. */
  private going(): SavedReview {
    const r = this.current();
    if (!r) throw new VerityError('no review is going on: start one', 'usage', 'not-ready');
    return r;
  }

  /** The judge of the review in hand (the comparison's estimate starts from it). */
  judge(): string | undefined {
    return this.current()?.judge;
  }

  /** How many answers a saved run's review holds (0 without one). */
  async savedAnswers(runId: string): Promise<number> {
    const r = await this.host.journal.loadReview<SavedReview>(runId);
    if (r?.version !== 3) return 0;
    const { group, own, outside } = answersOf(r);
    return group.size + own.size + outside.size;
  }

  /** Reads a reopened run's review back (one of an earlier form is not kept: its draw gave no interval valid wherever one stops). */
  async load(runId: string): Promise<void> {
    const r = await this.host.journal.loadReview<SavedReview>(runId);
    this.saved = r?.version === 3 && r.run === runId ? r : null;
    this.folded = null;
  }

  /** Saves, merging with what another tab saved meanwhile (one transaction). */
  private async save(r: SavedReview): Promise<void> {
    this.saved = r;
    this.folded = null;
    const a = this.host.run()!;
    if (!a.saved) return;
    let merged = r;
    const ok = await this.host.journal.updateReview(r.run, (stored) => (merged = merge(r, stored as SavedReview | undefined)));
    this.saved = merged;
    this.unsaved = ok ? undefined : (this.host.journal.failure ?? undefined);
  }

  /** Picks up answers another tab saved since (the panel asks before it shows the state). */
  private async refresh(): Promise<void> {
    const r = this.current();
    if (!r || !this.host.run()?.saved) return;
    const stored = await this.host.journal.loadReview<SavedReview>(r.run);
    const merged = merge(r, stored ?? undefined);
    if (merged.log.length !== r.log.length || merged.undone.length !== r.undone.length) {
      this.saved = merged;
      this.folded = null;
    }
  }

  private scored(): ActiveRun {
    const a = this.host.run();
    if (!a || a.results.length === 0) throw new VerityError('nothing is scored: run the metrics first', 'usage', 'not-ready');
    return a;
  }

  async syncedState(): Promise<ReviewState | null> {
    await this.refresh();
    return this.state();
  }

  state(): ReviewState | null {
    const r = this.current();
    if (!r) return null;
    const a = this.scored();
    const { group, own, outside } = answersOf(r);
    let skipped = 0;
    for (const x of group.values()) if (x.answer === 'skip') skipped++;
    const prefix = answeredInOrder(r, group);
    let next = 0;
    while (next < r.asked.length && group.has(next)) next++;
    const judge = a.metrics.find((m) => m.name === r.judge);
    const rowsCovered = r.asked.reduce((n, g) => n + g.rows.length, 0);
    let conflicts = 0;
    for (const [row, x] of own) {
      const pos = r.asked.findIndex((g) => g.rows.includes(row));
      const g = group.get(pos);
      if (g && g.answer !== 'skip' && x.answer !== g.answer) conflicts++;
    }
    const before = prefix === 0 && r.asked.length ? this.draw.forecast(a, r) : undefined;
    const { estimates, stop } = reviewEstimates(this.reviewRun(a, r), before);
    return {
      judge: r.judge,
      threshold: judge?.threshold ?? NaN,
      budget: r.budget,
      seed: r.seed,
      split: r.split ?? null,
      asked: r.asked.length,
      groups: r.groups,
      rows: rowsCovered,
      total: a.results.length,
      answered: group.size,
      labelled: group.size - skipped,
      skipped,
      inEstimate: prefix,
      waiting: [...group.keys()].filter((p) => p > prefix && group.get(p)!.answer !== 'skip').length,
      next,
      drawnAgain: lastEpochStart(r),
      classes: a.metrics.some((m) => CLASS_METRICS.includes(m.name)),
      canUndo: r.log.some((x) => !r.undone.includes(x.id)),
      conflicts,
      outside: outside.size,
      known: r.known?.length ?? 0,
      project: projectName(r.project),
      reviewer: r.reviewer ?? null,
      estimates,
      stop,
      ...(this.unsaved ? { unsaved: this.unsaved } : {}),
    };
  }

  /** What the answers so far say about the judge (null before any answer). */
  judgeErrors(): (JudgeReport & { reference: string }) | null {
    const r = this.going();
    const a = this.scored();
    return reviewJudgeErrors(this.reviewRun(a, r));
  }

  /** The scored rows with the review's answers in, and what its figures read beside them. */
  private reviewRun(a: ActiveRun, r: SavedReview): ReviewRun {
    const rows = this.rowsWithLabels(this.host.rows()).slice(0, a.results.length) as unknown as ReviewRun['rows'];
    return { rows, results: a.results, metrics: a.metrics, judge: r.judge, systems: this.host.systems() };
  }

  /** Columns the scored rows can be split by (compare's candidates): what a review may be drawn for the mean over. */
  splitColumns(): string[] {
    const a = this.scored();
    return splitCandidates(splitView(this.host.rows().slice(0, a.results.length)));
  }

  memory(project?: string): Promise<ReviewMemory> {
    const a = this.scored();
    return reviewMemory(this.host.rows().slice(0, a.results.length), this.host.systems(), this.host.verdicts, project);
  }

  async start(opts: ReviewStart): Promise<ReviewState> {
    const a = this.scored();
    await this.refresh();
    const prev = this.current();
    if (prev && prev.log.length)
      throw new VerityError(
        `a review with ${prev.log.length} answers is going on: export its labels or discard it before starting another`,
        'usage',
        'not-ready',
      );
    const names = a.metrics.map((m) => m.name);
    const judgeName = opts.judge ?? (names.includes('pedants') ? 'pedants' : names[0]!);
    const judge = a.metrics.find((m) => m.name === judgeName);
    if (!judge) throw new VerityError(`${judgeName} is not a metric of this run (${names.join(', ')})`, 'usage', 'not-ready');
    const n = a.results.length;
    const seed = opts.seed ?? DEFAULTS.bootstrap.seed;
    // Remembered verdicts: every row of a group one judges, with that verdict (the group is left out of the draw).
    const project = projectName(opts.project);
    const known = opts.known ? await knownAnswers(this.host.rows().slice(0, n), this.host.systems(), this.host.verdicts, project) : [];
    const plan = this.draw.plan(a, judge.name, seed, opts.split || undefined, known.length ? new Set(known.map((x) => x.row)) : undefined);
    const budget = parseBudget(String(opts.budget), n, plan.design.order.length);
    if (!budget.ok) throw new VerityError(`the ${budget.error}`, 'usage', 'not-ready');
    const count = budget.value.count;
    const design = designRecord(plan, count);
    const asked = firstEntries(plan, count).map((e) => savedGroup(plan, e));
    await this.save({
      version: 3,
      run: a.meta.id,
      judge: judge.name,
      budget: count,
      seed,
      groups: design.groups,
      total: design.total,
      ...(design.split !== undefined ? { split: design.split } : {}),
      asked,
      log: [],
      undone: [],
      ...(known.length ? { known } : {}),
      ...(project !== DEFAULT_PROJECT ? { project } : {}),
      ...(opts.reviewer?.trim() ? { reviewer: opts.reviewer.trim() } : {}),
    });
    return this.state()!;
  }

  item(position: number): ReviewItem {
    const r = this.going();
    return itemOf(r, this.question(r, position), position, this.scored().results, this.host);
  }

  private question(r: SavedReview, position: number): SavedReview['asked'][number] {
    const g = r.asked[position];
    if (!g) throw new VerityError(`no question at position ${position} of the review (it has ${r.asked.length})`, 'usage', 'bad-option');
    return g;
  }

  /** Answers question `position`: for every row of its group, or (`row`) for that row alone. */
  async answer(position: number, answer: ReviewAnswer, row?: number): Promise<ReviewState> {
    const shown = this.current()?.asked[position];
    await this.refresh();
    const r = this.going();
    const g = this.question(r, position);
    // Another tab drew the rest again meanwhile: the answer was given to a question no longer asked there.
    if (shown && !sameGroup(shown, g))
      throw new VerityError(
        `question ${position + 1} was drawn again in another tab from the answers given there: look at the new question and answer it`,
        'usage',
        'not-ready',
      );
    if (typeof answer === 'string' && answer !== 'skip' && !labelOf(answer))
      throw new VerityError(`"${answer}" is not an answer`, 'usage', 'bad-option');
    if (row !== undefined && !g.rows.includes(row))
      throw new VerityError(`row ${row} is not one of the rows this answer stands for`, 'usage', 'bad-option');
    await this.save({ ...r, log: [...r.log, { id: newId(), position, ...(row !== undefined ? { row } : {}), answer, at: Date.now() }] });
    if (row === undefined) await rememberAnswer(this.host.verdicts, this.host.rows()[g.rows[0]!], answer, r);
    const again = this.draw.adapted(this.saved!, this.scored());
    if (again) await this.save(again);
    return this.state()!;
  }

  /** Takes back the last answer given (in this tab or another). */
  async undo(): Promise<ReviewState> {
    await this.refresh();
    const r = this.current();
    const last = r && [...r.log].reverse().find((x) => !r.undone.includes(x.id));
    if (!r || !last) throw new VerityError('there is no answer to take back', 'usage', 'not-ready');
    await this.save({ ...r, undone: [...r.undone, last.id] });
    // The memory keeps the question's answer as it now stands (an earlier one, or none).
    const asked = last.row === undefined ? r.asked[last.position] : undefined;
    const now = asked && answersOf(this.saved!).group.get(last.position);
    if (asked) await rememberAnswer(this.host.verdicts, this.host.rows()[asked.rows[0]!], now?.answer ?? null, r);
    return this.state()!;
  }

  /** The review as a label file (JSONL or a sheet): one line per asked question (answered or not), as `verity review` writes it. */
  exportLabels(format: LabelFormat = 'jsonl'): Blob {
    const r = this.current();
    if (!r) throw new VerityError('no review is going on: nothing to export', 'usage', 'not-ready');
    return exportReview(r, this.scored(), this.host.rows(), this.host.systems(), format);
  }

  /** Labels from a file (review-files.ts), saved with the run. */
  async importLabels(blob: Blob, name: string): Promise<ReviewImported> {
    const a = this.scored();
    await this.refresh();
    const { review, note } = await importReview(
      blob,
      name,
      a,
      this.current(),
      this.host.rows().slice(0, a.results.length),
      this.host.systems(),
    );
    await this.save(review);
    return { state: this.state()!, note };
  }

  /** The rows with the review's labels in (and the inclusion probability of each answered group), for the comparison. */
  rowsWithLabels(rows: readonly QaRow[]): readonly QaRow[] {
    const r = this.current();
    if (!r) return rows;
    if (this.folded?.key === r && this.folded.rows.length === rows.length) return this.folded.rows;
    const out = rows.slice() as (QaRow & ReviewedRow)[];
    const { group, own, outside } = answersOf(r);
    const entries = savedEntries(r);
    const lines = r.asked.map((g, k) => ({
      order: k + 1,
      ...entries[k]!,
      answered: group.has(k) && group.get(k)!.answer !== 'skip',
      first: { id: rows[g.rows[0]!]?.id ?? '' },
    }));
    // The saved review is this session's own: its draws need no check against the input.
    const seq = readSequence(lines, { seed: r.seed, total: r.total, input: null });
    if (!seq.ok) throw new VerityError(seq.error, 'input', 'bad-labels');
    const { step } = seq.value;
    r.asked.forEach((g, k) => {
      const t = step[k]!;
      if (t < 0) return;
      const label = labelOf(group.get(k)!.answer)!;
      for (const i of g.rows) {
        if (i >= out.length) continue;
        const o = own.get(i);
        const l = o ? (labelOf(o.answer) ?? label) : label;
        out[i] = { ...out[i]!, label: l, ...stepFields(seq.value, t, k, r.asked.length) };
      }
    });
    for (const [i, x] of outside) {
      const l = labelOf(x.answer);
      if (l && i < out.length) out[i] = { ...out[i]!, label: l };
    }
    withKnown(out, r.known);
    this.folded = { rows: out, key: r };
    return out;
  }

  /**
   * Fits the judge's threshold again on the reviewed rows, each weighed for the rows it stands for: a new
   * calibration of the run (saved with it), every row decided again; the agreement on the review's sample before
   * and after (cross-fitted).
   */
  async refit(): Promise<Omit<ReviewRefitted, 'unsaved'>> {
    const r = this.going();
    const a = this.scored();
    const judge = a.metrics.find((m) => m.name === r.judge)!;
    const rows = this.rowsWithLabels(this.host.rows());
    const cells = Array.from({ length: a.results.length }, (_, i) => {
      const row = rows[i] as QaRow & { pi?: number };
      return { s: a.results.score(r.judge, i), h: row.label ? (labelIsCorrect(row.label) ? 1 : 0) : -1, pi: row.pi ?? NaN };
    });
    if (!cells.some((c) => c.h >= 0 && c.s !== null))
      throw new VerityError(`no reviewed row has a ${r.judge} score to fit on`, 'usage', 'not-ready');
    const refit = refitThreshold(r.judge, cells, judge.threshold);
    if (refit.applied) {
      const thresholds = { ...(a.config.calibration?.thresholds ?? {}), [r.judge]: refit.after };
      a.reconfigure({
        ...a.config,
        calibration: { thresholds, labelled: cells.filter((c) => c.h >= 0).length, at: Date.now() },
      });
      a.results.redecide(thresholds);
    }
    this.folded = null;
    return { state: this.state()!, refit };
  }

  async discard(): Promise<void> {
    const r = this.current();
    if (!r) return;
    this.saved = null;
    this.folded = null;
    try {
      await this.host.journal.dropReview(r.run);
    } catch (e) {
      this.unsaved = messageOf(e);
    }
  }
}
