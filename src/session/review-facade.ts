/**
 * The session's review methods (SessionApi.review) over its SessionReview (review.ts): refused while a run is
 * going, failures as data, and the comparison made again after every change (it folds the labels in).
 */
import { refuse, settle, settleNow } from '../core/errors.ts';
import type { Result, ReviewApi, ReviewRefitted } from './api.ts';
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

export function reviewApi(p: ReviewParts): ReviewApi {
  const r = p.reviewer;
  const changed = async <T>(f: () => Promise<T>): Promise<Result<T>> => {
    try {
      return await settle(f);
    } finally {
      p.changed();
    }
  };
  return {
    // The review as saved, with what another tab answered meanwhile.
    state: () => settle(() => r.syncedState()),
    start: (opts) => (p.running() ? Promise.resolve(busy('a review asks about the rows scored')) : changed(() => r.start(opts))),
    memory: (project) => settle(() => r.memory(project)),
    exportVerdicts: (project) => settle(() => p.verdicts.export(project)),
    forgetVerdicts: (project) => settle(async () => (await p.verdicts.clear(project), null)),
    item: (position) => settleNow(() => r.item(position)),
    judgeErrors: () => settleNow(() => r.judgeErrors()),
    splitColumns: () => settleNow(() => r.splitColumns()),
    answer: (position, answer, row) => changed(() => r.answer(position, answer, row)),
    undo: () => changed(() => r.undo()),
    exportLabels: (format) => settleNow(() => r.exportLabels(format)),
    importLabels: (blob, name) => changed(() => r.importLabels(blob, name)),
    // The judge's threshold fitted again on the reviewed rows, saved with the run as its calibration.
    async refit(): Promise<Result<ReviewRefitted>> {
      if (p.running()) return busy('the refit fits the rows scored when the run stops');
      const fitted = await changed(() => r.refit());
      if (!fitted.ok) return fitted;
      const [a, { state, refit }] = [p.run()!, fitted.value];
      if (refit.applied && a.saved && !(await p.store.update(a.meta)))
        return { ok: true, value: { state, refit, unsaved: p.store.failure! } };
      return { ok: true, value: { state, refit } };
    },
    discard: () => changed(async () => (await r.discard(), null)),
  };
}
