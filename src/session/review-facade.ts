/**
 * The session's review methods (SessionApi.review) over its SessionReview (review.ts): refused while a run is
 * going, failures as data, and the comparison made again after every change (it folds the labels in).
 */
import { refuse, settle, settleNow } from '../core/errors.ts';
import type { Result } from './api.ts';
import type { LabelFormat } from '../core/review/sheet.ts';
import type { ReviewAnswer, ReviewImported, ReviewItem, ReviewMemory, ReviewRefitted, ReviewStart, ReviewState } from './review-api.ts';
import type { JudgeReport } from '../core/review/judge.ts';
import type { Journal } from './journal.ts';
import type { VerdictStore } from './verdicts.ts';
import type { SessionReview } from './review.ts';
import type { ActiveRun } from './runner.ts';

export interface ReviewParts {
  reviewer: SessionReview;
  running(): boolean;
  /** The run in hand, whose meta a refit saves. */
  run(): ActiveRun | null;
  store: Journal;
  /** The verdicts remembered across runs. */
  verdicts: VerdictStore;
  /** Drops what was made from the labels (the comparison). */
  changed(): void;
}

/** The session's refusal while a run is going, with why the change waits for it. */
export const busy = <T = never>(why?: string): Result<T> => refuse('busy', `a run is going: cancel it first${why ? ` (${why})` : ''}`);

/**
 * The run's review queue (review.ts), as the session answers it: its public members are `ReviewApi`, so a new
 * method is written once, here.
 */
export class ReviewFacade {
  constructor(private readonly p: ReviewParts) {}

  private async changed<T>(f: () => Promise<T>): Promise<Result<T>> {
    try {
      return await settle(f);
    } finally {
      this.p.changed();
    }
  }

  /** The run's review, or null when none was started (as saved, with what another tab answered meanwhile). */
  state(): Promise<Result<ReviewState | null>> {
    return settle(() => this.p.reviewer.syncedState());
  }

  /**
   * Draws the questions to ask (core/review/plan.ts) over the rows scored; replaces a review not answered yet.
   * `budget`: questions ("500"), or a share of the rows ("15%", "0.15").
   */
  start(opts: ReviewStart): Promise<Result<ReviewState>> {
    return this.p.running()
      ? Promise.resolve(busy('a review asks about the rows scored'))
      : this.changed(() => this.p.reviewer.start(opts));
  }

  /**
   * The verdicts a project remembers in this browser (session/verdicts.ts; the default project when none is named)
   * and how many of this run's distinct answers (and rows) they judge: a review started in that project with
   * `known` leaves those out of its draw and counts them as judged.
   */
  memory(project?: string): Promise<Result<ReviewMemory>> {
    return settle(() => this.p.reviewer.memory(project));
  }

  /** A project's remembered verdicts as a file `verity review --known` reads. */
  exportVerdicts(project?: string): Promise<Result<Blob>> {
    return settle(() => this.p.verdicts.export(project));
  }

  /** Forgets a project's remembered verdicts (other projects, the saved runs and their reviews stay). */
  forgetVerdicts(project?: string): Promise<Result<null>> {
    return settle(async () => (await this.p.verdicts.clear(project), null));
  }

  /** Columns a review can be split by (a dataset, a subject): each system's accuracy is then the mean over their values. */
  splitColumns(): Result<string[]> {
    return settleNow(() => this.p.reviewer.splitColumns());
  }

  item(position: number): Result<ReviewItem> {
    return settleNow(() => this.p.reviewer.item(position));
  }

  /**
   * What the answers so far say about the review's judge: its false-negative and false-positive rates, its bias on
   * each system's accuracy and its errors by answer length, with intervals that hold wherever the review stops
   * (core/review/judge.ts); null before any answer.
   */
  judgeErrors(): Result<(JudgeReport & { reference: string }) | null> {
    return settleNow(() => this.p.reviewer.judgeErrors());
  }

  /**
   * Records an answer for every row of the question (saved with the run at once), or with `row` for that row
   * alone; answering again replaces it.
   */
  answer(position: number, answer: ReviewAnswer, row?: number): Promise<Result<ReviewState>> {
    return this.changed(() => this.p.reviewer.answer(position, answer, row));
  }

  /** Takes the last answer back. */
  undo(): Promise<Result<ReviewState>> {
    return this.changed(() => this.p.reviewer.undo());
  }

  /**
   * The review as a label file (one line per question, as `verity review` writes it, with the answers in): JSONL,
   * or a spreadsheet (CSV, the label column to fill in) that reads back the same.
   */
  exportLabels(format?: LabelFormat): Result<Blob> {
    return settleNow(() => this.p.reviewer.exportLabels(format));
  }

  /** Labels from an export (JSONL or CSV) of a run of the same input; refused, with the reason, for another input. */
  importLabels(blob: Blob, name: string): Promise<Result<ReviewImported>> {
    return this.changed(() => this.p.reviewer.importLabels(blob, name));
  }

  /** Fits the judge's threshold again on the reviewed rows; saved with the run as its calibration. */
  async refit(): Promise<Result<ReviewRefitted>> {
    const p = this.p;
    if (p.running()) return busy('the refit fits the rows scored when the run stops');
    const fitted = await this.changed(() => p.reviewer.refit());
    if (!fitted.ok) return fitted;
    const [a, { state, refit }] = [p.run()!, fitted.value];
    if (refit.applied && a.saved && !(await p.store.update(a.meta)))
      return { ok: true, value: { state, refit, unsaved: p.store.failure! } };
    return { ok: true, value: { state, refit } };
  }

  /** Drops the review (queue and labels). */
  discard(): Promise<Result<null>> {
    return this.changed(async () => (await this.p.reviewer.discard(), null));
  }
}

/** What the session answers about its review: the facade's public members. */
export type ReviewApi = Pick<ReviewFacade, keyof ReviewFacade>;
