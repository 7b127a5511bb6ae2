/** What the session answers about a run's review (review.ts): plain data for the page. */
import type { CapClass } from '../core/types.ts';
import type { Reviewed } from '../core/review/estimate.ts';
import type { Refit } from '../core/review/refit.ts';
import type { TableRow } from './table-row.ts';
import type { VerdictProject } from './verdicts.ts';

/** What a person says about a row: correct / wrong, one of the eight classes, or skip (not labelled). */
export type ReviewAnswer = boolean | CapClass | 'skip';

/** How a review starts: its budget, judge, seed, the column it is split by, and its project's remembered verdicts. */
export interface ReviewStart {
  /** Questions ("500"), or a share of the rows ("15%", "0.15"). */
  budget: number | string;
  judge?: string;
  seed?: number;
  split?: string;
  /** The project whose memory the review reads and keeps its answers in (the default project when absent). */
  project?: string;
  /** Who answers: their name goes on each answer exported (`"reviewer"`, which `verity agreement` reads) and remembered. */
  reviewer?: string;
  /** Leave out of the draw the answers the project's remembered verdicts judge (counted as judged). */
  known?: boolean;
}

/** A system's (or the run's) reviewed accuracy for the judge (core/review/estimate.ts). */
export interface ReviewEstimate {
  system: string | null;
  /** The judge's own accuracy, for comparison. */
  judged: number | null;
  reviewed: Reviewed | null;
}

/** What one more answer buys: the systems' interval widths and the pairs of systems not yet ordered. */
export interface ReviewStop {
  /** The widest and the mean width of the systems' 95% intervals (null before any interval). */
  widest: number | null;
  mean: number | null;
  /** Pairs of systems (sharing questions) whose paired difference is not yet significant (Holm), of all such pairs. */
  undecided: number;
  pairs: number;
  /** The figures in one sentence. */
  line: string;
}

export interface ReviewState {
  /** The metric whose decisions are reviewed, and its threshold now. */
  judge: string;
  threshold: number;
  /** Questions to ask (each a distinct answer of the run), and the seed of their draw. */
  budget: number;
  seed: number;
  /** The column the review was drawn split by (each system's accuracy the mean over its values), or null. */
  split: string | null;
  /** Questions in the review, the distinct answers of the run, the rows the questions stand for, and the run's rows. */
  asked: number;
  groups: number;
  rows: number;
  total: number;
  /** Questions answered (labelled or skipped), labelled, skipped. */
  answered: number;
  labelled: number;
  skipped: number;
  /** Questions answered in order with none unanswered before them: what the estimate uses. */
  inEstimate: number;
  /** Answers after the first question not answered: they wait until it is. */
  waiting: number;
  /** Position of the first question not answered yet (= asked when every one is). */
  next: number;
  /** Where the questions were last drawn again from the answers before them (position), or null if never. */
  drawnAgain: number | null;
  /** The run has a class metric: the eight classes can be given. */
  classes: boolean;
  canUndo: boolean;
  /** Rows labelled otherwise than their group. */
  conflicts: number;
  /** Labels imported for rows outside the review's questions (each row's truth; not counted in the review's estimates). */
  outside: number;
  /** Rows whose verdict was remembered from an earlier review: left out of the draw, counted as judged. */
  known: number;
  /** The project whose memory the review reads and adds its answers to. */
  project: string;
  /** Who answers, when they said. */
  reviewer: string | null;
  estimates: ReviewEstimate[];
  stop: ReviewStop;
  /** Why the labels could not be saved (they hold until a reload). */
  unsaved?: string;
}

export interface ReviewItem {
  position: number;
  /** Why the question is asked, in words. */
  why: string;
  /** The first row of the group (its question, golds and answer are every row's). */
  row: TableRow;
  /** Every row the answer stands for (one per system that gave it), with a label given to that row alone. */
  rows: { index: number; id: string; system?: string; own: ReviewAnswer | null }[];
  judge: { metric: string; score: number | null; decision: boolean | null; explanation: string; class?: string };
  answer: ReviewAnswer | null;
}

/** The verdicts a project remembers in this browser, what of this run they judge, and every project kept. */
export interface ReviewMemory {
  project: string;
  verdicts: number;
  /** The run's distinct answers a verdict judges, and their rows. */
  groups: number;
  rows: number;
  /** Every project with verdicts, the one answered last first. */
  projects: VerdictProject[];
}

export interface ReviewImported {
  state: ReviewState;
  /** What the import did (rows labelled, labelled twice, unknown ids). */
  note: string;
}

export interface ReviewRefitted {
  state: ReviewState;
  refit: Refit;
  unsaved?: string;
}
