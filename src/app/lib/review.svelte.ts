/**
 * The review panel's state and actions: the queue and its answers live in the scoring worker's session
 * (session/review.ts), saved with the run at each answer; this keeps the page's view of it — the row on screen,
 * the progress, notes and errors — and maps keys to answers, so Review.svelte is layout only.
 */
import { labelFileLines, labelFileText, type LabelFormat } from '../../core/review/sheet.ts';
import { parseShare, secondReview, verdictsOfText } from '../../core/review/agreement.ts';
import { settle } from '../../core/errors.ts';
import { CAP_CLASSES, VerityError, type CapClass } from '../../core/types.ts';
import type { Result, ReviewAnswer, ReviewItem, ReviewMemory, ReviewState } from '../../session/api.ts';
import type { JudgeReport } from '../../core/review/judge.ts';
import { scoreApi } from './workers.ts';
import { saveBlob } from './download.ts';
import { say } from './messages.ts';

/** Keys: c / y correct, w / n wrong, s skip, u or Backspace undo, 1–8 the classes, ← → move. */
export function answerForKey(key: string, classes: boolean): ReviewAnswer | 'undo' | 'prev' | 'next' | null {
  const k = key.toLowerCase();
  if (k === 'c' || k === 'y') return true;
  if (k === 'w' || k === 'n') return false;
  if (k === 's') return 'skip';
  if (k === 'u' || key === 'Backspace') return 'undo';
  if (key === 'ArrowLeft') return 'prev';
  if (key === 'ArrowRight') return 'next';
  if (classes && /^[1-8]$/.test(key)) return CAP_CLASSES[Number(key) - 1]!;
  return null;
}

/** How many remembered verdicts the panel lists (all of them are in the export). */
export const MEMORY_SHOWN = 200;

/** A default budget: 10% of the rows' worth of questions, or 20 questions for a small run. */
export const defaultBudget = (rows: number): string => (rows >= 200 ? '10%' : String(Math.min(rows, 20)));

export class ReviewPanel {
  state = $state.raw<ReviewState | null>(null);
  item = $state.raw<ReviewItem | null>(null);
  position = $state(0);
  error = $state<string | null>(null);
  note = $state<string | null>(null);
  busy = $state(false);
  /** Columns the review can be split by (a dataset, a subject). */
  splitColumns = $state.raw<string[]>([]);
  /** The verdicts the project remembers in this browser, and how much of this run they judge (shown before a review starts). */
  memory = $state.raw<ReviewMemory | null>(null);
  /** What the answers say about the judge, fetched while its section is open (it costs more than the estimates). */
  judgeErrors = $state.raw<(JudgeReport & { reference: string }) | null>(null);
  #judgeOpen = false;
  /** Who answers (optional): on each answer exported and remembered. */
  reviewer = $state('');
  /** The project whose remembered verdicts a review reads and keeps its answers in: the one answered last, until chosen. */
  project = $state('');

  #settle: ReturnType<typeof setTimeout> | undefined;

  /**
   * `changed`: labels changed (the comparison is rebuilt: its bootstrap takes a while on big files, so a run of
   * answers rebuilds it once, a moment after the last); `refitted`: the judge's threshold changed (the report too).
   */
  constructor(
    private readonly fileName: () => string,
    private readonly changed: () => void,
    private readonly refitted: (metric: string, threshold: number) => void = () => {},
  ) {}

  private changedSoon(): void {
    clearTimeout(this.#settle);
    this.#settle = setTimeout(() => this.changed(), 1500);
  }

  private async act<T>(f: () => Promise<Result<T>>, then: (v: T) => void | Promise<void>): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.error = null;
    try {
      const r = await f();
      if (!r.ok) this.error = say(r.error);
      else await then(r.value);
    } finally {
      this.busy = false;
    }
  }

  /** The run's review as saved (a reopened run comes back where it was left). */
  async load(): Promise<void> {
    const r = await scoreApi().review.state();
    if (!r.ok) return void (this.error = say(r.error));
    const cols = await scoreApi().review.splitColumns();
    if (cols.ok) this.splitColumns = cols.value;
    await this.loadMemory();
    await this.show(r.value, r.value?.next ?? 0);
  }

  /** The project's memory (a project typed or picked; at first the one answered last). */
  async loadMemory(): Promise<void> {
    const picked = this.project.trim();
    let m = await scoreApi().review.memory(picked || undefined);
    const last = m.ok && !picked ? m.value.projects[0]?.name : undefined;
    if (last !== undefined && m.ok && last !== m.value.project) m = await scoreApi().review.memory(last);
    this.memory = m.ok ? m.value : null;
    if (m.ok) this.project = m.value.project;
    this.memoryList = null;
  }

  /** The remembered verdicts, newest first (at most MEMORY_SHOWN), for the panel's list. */
  memoryList = $state.raw<{ question: string; candidate: string; label: string; time: string }[] | null>(null);

  async listMemory(): Promise<void> {
    const r = await scoreApi().review.exportVerdicts(this.project);
    if (!r.ok) return void (this.error = say(r.error));
    // Read as --known reads the file (core/review/memory.ts).
    this.memoryList = verdictsOfText(await r.value.text(), 'verity.verdicts.jsonl')
      .map(({ verdict: v }) => ({
        question: v.question,
        candidate: v.candidate,
        label: v.label.kind === 'binary' ? (v.label.correct ? 'correct' : 'wrong') : v.label.cls,
        time: v.time ?? '',
      }))
      .sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0))
      .slice(0, MEMORY_SHOWN);
  }

  /** The project's remembered verdicts as a file (`verity review --known` reads it). */
  exportMemory(): Promise<void> {
    const project = this.project;
    return this.act(
      () => scoreApi().review.exportVerdicts(project),
      (blob) => saveBlob(blob, `verity.${project.replace(/[^\w.-]+/g, '_')}.verdicts.jsonl`),
    );
  }

  /** Forgets the project's remembered verdicts (other projects' stay). */
  forgetMemory(): Promise<void> {
    return this.act(
      () => scoreApi().review.forgetVerdicts(this.project),
      () => this.loadMemory(),
    );
  }

  /** The judge's section opened (its figures fetched, and again after each change) or closed. */
  showJudge(open: boolean): void {
    this.#judgeOpen = open;
    if (open) this.loadJudge();
  }

  private loadJudge(): void {
    void scoreApi()
      .review.judgeErrors()
      .then((r) => {
        if (r.ok) this.judgeErrors = r.value;
      });
  }

  go(position: number): Promise<void> {
    return this.show(this.state, position);
  }

  /**
   * The state and its item on screen together: the counts never run ahead of the question shown, so a key pressed
   * as soon as the count moves answers the next question instead of falling on a busy panel.
   */
  private async show(s: ReviewState | null, position: number): Promise<void> {
    if (!s || s.asked === 0) {
      this.state = s;
      this.item = null;
      return;
    }
    const p = Math.max(0, Math.min(position, s.asked - 1));
    if (this.#judgeOpen) this.loadJudge();
    const r = await scoreApi().review.item(p);
    this.state = s;
    if (!r.ok) return void (this.error = say(r.error));
    this.position = p;
    this.item = r.value;
  }

  /**
   * `split`: a column to draw for the mean over its values ('' for none); `known`: leave out the answers the
   * project's remembered verdicts judge. The review keeps its answers in the project, with the reviewer's name.
   */
  start(budget: string, judge: string, split = '', known = false): Promise<void> {
    this.note = null;
    const project = this.project.trim();
    const reviewer = this.reviewer.trim();
    return this.act(
      () =>
        scoreApi().review.start({
          budget,
          judge,
          ...(split ? { split } : {}),
          ...(project ? { project } : {}),
          ...(reviewer ? { reviewer } : {}),
          ...(known ? { known } : {}),
        }),
      (s) => this.show(s, 0),
    );
  }

  answer(a: ReviewAnswer): Promise<void> {
    const at = this.position;
    return this.act(
      () => scoreApi().review.answer(at, a),
      async (s) => {
        this.changedSoon();
        // On to the first question not answered yet; the last one stays on screen when every one is.
        await this.show(s, s.next < s.asked ? s.next : at);
      },
    );
  }

  /** A label for one system's row apart from the rest of its group; the question stays on screen. */
  answerRow(row: number, a: ReviewAnswer): Promise<void> {
    const at = this.position;
    return this.act(
      () => scoreApi().review.answer(at, a, row),
      async (s) => {
        this.changedSoon();
        await this.show(s, at);
      },
    );
  }

  undo(): Promise<void> {
    return this.act(
      () => scoreApi().review.undo(),
      async (s) => {
        this.changedSoon();
        await this.show(s, s.next);
      },
    );
  }

  async key(e: KeyboardEvent): Promise<void> {
    const s = this.state;
    if (!s || !this.item || e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.target as HTMLElement | null;
    if (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) return;
    const a = answerForKey(e.key, s.classes);
    if (a === null) return;
    e.preventDefault();
    if (a === 'undo') return this.undo();
    if (a === 'prev' || a === 'next') return this.go(this.position + (a === 'prev' ? -1 : 1));
    return this.answer(a);
  }

  /** The review as a label file: JSONL, or a CSV sheet for a spreadsheet (both import back the same). */
  export(format: LabelFormat = 'jsonl'): Promise<void> {
    return this.act(
      async () => scoreApi().review.exportLabels(format),
      (blob) => saveBlob(blob, `${this.fileName().replace(/\.[^.]+$/, '') || 'verity'}.review.${format}`),
    );
  }

  /**
   * A share of the review's questions ("10%") for a second person, blind to the judge (core/review/agreement.ts),
   * in the format asked; the two files filled in, Several reviewers says how far the two agree.
   */
  exportSecond(share: string, format: LabelFormat = 'jsonl'): Promise<void> {
    const seed = this.state?.seed ?? 0;
    return this.act(
      async () => {
        const r = await scoreApi().review.exportLabels('jsonl');
        if (!r.ok) return r;
        return settle(async () => {
          const lines = labelFileLines(await r.value.text(), 'the review');
          if (!lines.ok) throw new VerityError(lines.error, 'input', 'bad-labels');
          const text = labelFileText(secondReview(lines.value, parseShare(share), seed), format);
          return new Blob([text], { type: format === 'csv' ? 'text/csv' : 'application/x-ndjson' });
        });
      },
      (blob) => saveBlob(blob, `${this.fileName().replace(/\.[^.]+$/, '') || 'verity'}.second.${format}`),
    );
  }

  import(file: File): Promise<void> {
    // The last import's note does not stay beside this one's error.
    this.note = null;
    return this.act(
      () => scoreApi().review.importLabels(file, file.name),
      async (v) => {
        this.note = v.note;
        this.changed();
        await this.show(v.state, v.state.next);
      },
    );
  }

  refit(): Promise<void> {
    return this.act(
      () => scoreApi().review.refit(),
      (v) => {
        this.state = v.state;
        const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)}%`);
        const r = v.refit;
        this.note =
          `${r.metric}: your labels favour threshold ${r.fitted.toFixed(3)} (fitted on ${r.rows} reviewed rows, each weighed for the rows it stands for); agreement with your labels ` +
          (r.slice.n ? `(${r.slice.n} rows): ${pct(r.slice.before)} → ${pct(r.slice.after)} (cross-fitted)` : ': no labelled row yet') +
          (r.applied
            ? `. Threshold ${r.before.toFixed(3)} → ${r.after.toFixed(3)}${v.unsaved ? `; it holds until a reload: ${v.unsaved}` : ', saved with the run as its calibration'}.`
            : `. Not better on your labels, so the threshold stays ${r.before.toFixed(3)}.`);
        if (r.applied) {
          this.changed();
          this.refitted(r.metric, r.after);
        }
      },
    );
  }

  discard(): Promise<void> {
    return this.act(
      () => scoreApi().review.discard(),
      async () => {
        this.state = null;
        this.item = null;
        this.note = null;
        this.judgeErrors = null;
        this.changed();
        await this.loadMemory();
      },
    );
  }
}

export const CLASS_KEYS: readonly { key: string; cls: CapClass }[] = CAP_CLASSES.map((cls, i) => ({ key: String(i + 1), cls }));
