/**
 * A run's review (issue 36): the queue of rows to ask the person about (core/review/priority.ts), the answers as
 * they are given — saved with the run at each one (journal `review:<run>`), so a reload loses none —, undo, the
 * labels' export and import (refused for another input), the reviewed accuracy per system
 * (core/review/estimate.ts), the rows with the labels in for the comparison, and the threshold refit
 * (core/review/refit.ts) saved as the run's calibration.
 * The saved form is a log of answers (last wins per row; undo drops the last), beside the picks.
 */
import type { Label, QaRow } from '../core/types.ts';
import { messageOf } from '../core/errors.ts';
import { pickForReview, priorityFeatures, priorityReasons, reviewPriorities, type Pick } from '../core/review/priority.ts';
import {
  anotherInput,
  foldLabels,
  foldNote,
  labelJson,
  noLabelMatches,
  parseReviewLabels,
  pickBits,
  reviewLabelsJsonl,
  type ReviewLabel,
} from '../core/review/labels.ts';
import { reviewedByGroup } from '../core/review/estimate.ts';
import { refitThreshold } from '../core/review/refit.ts';
import { CLASS_METRICS } from '../core/metrics/index.ts';
import { labelIsCorrect } from '../core/io/fields.ts';
import { DEFAULTS } from '../core/defaults.ts';
import type { SystemRow } from '../core/compare/index.ts';
import type { Journal } from './journal.ts';
import type { ActiveRun } from './runner.ts';
import type { ReviewAnswer, ReviewEstimate, ReviewImported, ReviewItem, ReviewRefitted, ReviewState, TableRow } from './api.ts';

interface SavedPick extends Pick {
  why: string;
}

interface Answer {
  index: number;
  answer: ReviewAnswer;
  at: number;
}

/** The saved form. */
interface SavedReview {
  version: 1;
  run: string;
  judge: string;
  budget: number;
  seed: number;
  picks: SavedPick[];
  log: Answer[];
}

const RANDOM_WHY = 'the random slice: measures the judge where nobody looked';

const labelOf = (a: ReviewAnswer): Label | null =>
  a === 'skip' ? null : typeof a === 'boolean' ? { kind: 'binary', correct: a } : { kind: 'taxonomy', cls: a };

/** What the review needs of the session: the rows, the run, a table row, the journal. */
export interface ReviewHost {
  rows(): readonly QaRow[];
  run(): ActiveRun | null;
  systems(): boolean;
  tableRow(i: number): TableRow;
  journal: Journal;
}

export class SessionReview {
  private saved: SavedReview | null = null;
  private unsaved: string | undefined;
  private folded: { rows: readonly QaRow[]; key: unknown } | null = null;

  constructor(private readonly host: ReviewHost) {}

  /** The review of the run in hand (none after a new run). */
  private current(): SavedReview | null {
    const a = this.host.run();
    return a && this.saved?.run === a.meta.id ? this.saved : null;
  }

  /** Reads a reopened run's review back. */
  async load(runId: string): Promise<void> {
    const r = await this.host.journal.loadReview<SavedReview>(runId);
    this.saved = r?.version === 1 && r.run === runId ? r : null;
    this.folded = null;
  }

  private answers(r: SavedReview): Map<number, Answer> {
    const m = new Map<number, Answer>();
    for (const a of r.log) {
      m.delete(a.index);
      m.set(a.index, a);
    }
    return m;
  }

  private async save(r: SavedReview): Promise<void> {
    this.saved = r;
    this.folded = null;
    const a = this.host.run()!;
    this.unsaved = a.saved && !(await this.host.journal.saveReview(r.run, r)) ? (this.host.journal.failure ?? undefined) : undefined;
  }

  private scored(): ActiveRun {
    const a = this.host.run();
    if (!a || a.results.length === 0) throw new Error('nothing is scored: run the metrics first');
    return a;
  }

  state(): ReviewState | null {
    const r = this.current();
    if (!r) return null;
    const a = this.scored();
    const answers = this.answers(r);
    let skipped = 0;
    for (const x of answers.values()) if (x.answer === 'skip') skipped++;
    const next = r.picks.findIndex((p) => !answers.has(p.index));
    const judge = a.metrics.find((m) => m.name === r.judge);
    return {
      judge: r.judge,
      threshold: judge?.threshold ?? NaN,
      budget: r.budget,
      seed: r.seed,
      asked: r.picks.length,
      answered: answers.size,
      labelled: answers.size - skipped,
      skipped,
      next: next < 0 ? r.picks.length : next,
      classes: a.metrics.some((m) => CLASS_METRICS.includes(m.name)),
      canUndo: r.log.length > 0,
      estimates: this.estimates(r, a),
      ...(this.unsaved ? { unsaved: this.unsaved } : {}),
    };
  }

  /** The judge's reviewed accuracy per system (one entry, system null, for a run of one system). */
  private estimates(r: SavedReview, a: ActiveRun): ReviewEstimate[] {
    const n = a.results.length;
    // The rows as the comparison takes them: the review's labels in, with how each was picked.
    const rows = this.rowsWithLabels(this.host.rows()) as readonly (QaRow & { pick?: number })[];
    const d = new Int8Array(n);
    const h = new Int8Array(n).fill(-1);
    const pick = new Int8Array(n);
    for (let i = 0; i < n; i++) {
      const x = a.results.decision(r.judge, i);
      d[i] = x === null ? -1 : x ? 1 : 0;
      const row = rows[i]!;
      if (row.label) h[i] = labelIsCorrect(row.label) ? 1 : 0;
      pick[i] = row.pick ?? 0;
    }
    const groups = new Map<string | null, number[]>();
    const systems = this.host.systems();
    for (let i = 0; i < n; i++) {
      const s = systems ? (rows[i] as SystemRow).system : null;
      if (!groups.has(s)) groups.set(s, []);
      groups.get(s)!.push(i);
    }
    const reviewed = reviewedByGroup(d, h, pick, [...groups.values()], DEFAULTS.bootstrap.level);
    return [...groups.entries()].map(([system, cells], k): ReviewEstimate => {
      let decided = 0;
      let correct = 0;
      for (const i of cells)
        if (d[i]! >= 0) {
          decided++;
          correct += d[i]!;
        }
      return { system, judged: decided ? correct / decided : null, reviewed: reviewed[k]! };
    });
  }

  async start(opts: { budget: number; judge?: string; seed?: number }): Promise<ReviewState> {
    const a = this.scored();
    const prev = this.current();
    if (prev && prev.log.length)
      throw new Error(`a review with ${prev.log.length} answers is going on: export its labels or discard it before starting another`);
    const names = a.metrics.map((m) => m.name);
    const judgeName = opts.judge ?? (names.includes('pedants') ? 'pedants' : names[0]!);
    const judge = a.metrics.find((m) => m.name === judgeName);
    if (!judge) throw new Error(`${judgeName} is not a metric of this run (${names.join(', ')})`);
    const n = a.results.length;
    const budget = opts.budget;
    if (typeof budget !== 'number' || !Number.isFinite(budget))
      throw new Error('the budget is not a number: give the number of rows to review');
    if (!Number.isInteger(budget) || budget < 1) throw new Error(`review at least one row (the budget was ${String(budget)})`);
    if (budget > n) throw new Error(`the budget (${budget}) is more than the ${n} rows scored`);
    const seed = opts.seed ?? DEFAULTS.bootstrap.seed;
    const rows = this.host.rows().slice(0, n);
    const systemOf = this.host.systems() ? (i: number) => (rows[i] as SystemRow).system : undefined;
    const features = priorityFeatures(rows, a.results, { metric: judge.name, threshold: judge.threshold }, systemOf);
    const picks = pickForReview(reviewPriorities(features), budget, seed, systemOf).map((p): SavedPick => ({
      ...p,
      why: p.picked === 'uncertain' ? priorityReasons(features[p.index]!).join('; ') || 'a high priority' : RANDOM_WHY,
    }));
    await this.save({ version: 1, run: a.meta.id, judge: judge.name, budget, seed, picks, log: [] });
    return this.state()!;
  }

  item(position: number): ReviewItem {
    const r = this.current();
    if (!r) throw new Error('no review is going on: start one');
    const p = r.picks[position];
    if (!p) throw new Error(`no row at position ${position} of the review (it has ${r.picks.length})`);
    const a = this.scored();
    const cls = a.results.cls(r.judge, p.index);
    return {
      position,
      picked: p.picked,
      why: p.why,
      row: this.host.tableRow(p.index),
      judge: {
        metric: r.judge,
        score: a.results.score(r.judge, p.index),
        decision: a.results.decision(r.judge, p.index),
        explanation: a.results.explanation(r.judge, p.index) ?? '',
        ...(cls ? { class: cls } : {}),
      },
      answer: this.answers(r).get(p.index)?.answer ?? null,
    };
  }

  async answer(position: number, answer: ReviewAnswer): Promise<ReviewState> {
    const r = this.current();
    if (!r) throw new Error('no review is going on: start one');
    const p = r.picks[position];
    if (!p) throw new Error(`no row at position ${position} of the review (it has ${r.picks.length})`);
    if (typeof answer === 'string' && answer !== 'skip' && !labelOf(answer)) throw new Error(`"${answer}" is not an answer`);
    await this.save({ ...r, log: [...r.log, { index: p.index, answer, at: Date.now() }] });
    return this.state()!;
  }

  async undo(): Promise<ReviewState> {
    const r = this.current();
    if (!r?.log.length) throw new Error('there is no answer to take back');
    await this.save({ ...r, log: r.log.slice(0, -1) });
    return this.state()!;
  }

  /** The labels given (skips left out), in the order last given. */
  private labels(r: SavedReview): ReviewLabel[] {
    const rows = this.host.rows();
    const picked = new Map(r.picks.map((p) => [p.index, p.picked] as const));
    const systems = this.host.systems();
    const out: ReviewLabel[] = [];
    for (const x of this.answers(r).values()) {
      const label = labelOf(x.answer);
      if (!label) continue;
      const row = rows[x.index]!;
      out.push({
        id: row.id,
        ...(systems ? { system: (row as SystemRow).system } : {}),
        label,
        ...(picked.has(x.index) ? { picked: picked.get(x.index)! } : {}),
        time: new Date(x.at).toISOString(),
      });
    }
    return out;
  }

  exportLabels(): Blob {
    const r = this.current();
    if (!r) throw new Error('no review is going on: nothing to export');
    const labels = this.labels(r);
    if (!labels.length) throw new Error('no row is labelled yet: nothing to export');
    return new Blob([reviewLabelsJsonl(labels, this.host.run()!.meta.inputHash)], { type: 'application/x-ndjson' });
  }

  async importLabels(blob: Blob, name: string): Promise<ReviewImported> {
    const a = this.scored();
    const parsed = parseReviewLabels(await blob.text(), name);
    if (!parsed.ok) throw new Error(parsed.error);
    const { labels, input } = parsed.value;
    if (!labels.length) throw new Error(`${name} holds no label`);
    const other = anotherInput(
      name,
      input,
      a.meta.fileName,
      a.meta.inputHash,
      'labels are imported only into a run of the file they were given on',
    );
    if (other) throw new Error(other);
    const rows = this.host.rows().slice(0, a.results.length);
    const systems = this.host.systems();
    const keyed = rows.map((row) => ({ id: row.id, ...(systems ? { system: (row as SystemRow).system } : {}) }));
    const folded = foldLabels(keyed, labels);
    if (folded.applied === 0) throw new Error(noLabelMatches(name, labels.length, folded.unknownIds, 'a row scored in this run'));
    const prev = this.current();
    const names = a.metrics.map((m) => m.name);
    const r: SavedReview = prev ?? {
      version: 1,
      run: a.meta.id,
      judge: names.includes('pedants') ? 'pedants' : names[0]!,
      budget: folded.applied,
      seed: DEFAULTS.bootstrap.seed,
      picks: [],
      log: [],
    };
    const picks = [...r.picks];
    const inQueue = new Set(picks.map((p) => p.index));
    const log = [...r.log];
    const now = Date.now();
    // In the file's order, so the last of two labels for a row is the one kept (as folding counted it).
    for (const { row: index, label: l } of folded.matched) {
      if (!inQueue.has(index)) {
        inQueue.add(index);
        picks.push({ index, picked: l.picked ?? 'uncertain', why: `imported from ${name}` });
      }
      const at = l.time ? Date.parse(l.time) : NaN;
      log.push({ index, answer: labelJson(l.label), at: Number.isNaN(at) ? now : at });
    }
    await this.save({ ...r, picks, log });
    return { state: this.state()!, note: `${name}: ${foldNote(folded)}` };
  }

  /** The rows with the review's labels in (and how each was picked), for the comparison; the same array until an answer changes. */
  rowsWithLabels(rows: readonly QaRow[]): readonly QaRow[] {
    const r = this.current();
    if (!r) return rows;
    if (this.folded?.key === r && this.folded.rows.length === rows.length) return this.folded.rows;
    const out = rows.slice() as (QaRow & { pick?: number })[];
    const picked = new Map(r.picks.map((p) => [p.index, p.picked] as const));
    for (const x of this.answers(r).values()) {
      const label = labelOf(x.answer);
      if (label && x.index < out.length) out[x.index] = { ...out[x.index]!, label, pick: pickBits(picked.get(x.index)) };
    }
    this.folded = { rows: out, key: r };
    return out;
  }

  /**
   * Fits the judge's threshold again on the reviewed rows: a new calibration of the run (saved with it), every row
   * decided again; the agreement on the random slice before and after (cross-fitted).
   */
  async refit(): Promise<Omit<ReviewRefitted, 'unsaved'>> {
    const r = this.current();
    if (!r) throw new Error('no review is going on: start one');
    const a = this.scored();
    const judge = a.metrics.find((m) => m.name === r.judge)!;
    const rows = this.rowsWithLabels(this.host.rows());
    const cells = Array.from({ length: a.results.length }, (_, i) => {
      const row = rows[i] as QaRow & { pick?: number };
      return { s: a.results.score(r.judge, i), h: row.label ? (labelIsCorrect(row.label) ? 1 : 0) : -1, pick: row.pick ?? 0 };
    });
    if (!cells.some((c) => c.h >= 0 && c.s !== null)) throw new Error(`no reviewed row has a ${r.judge} score to fit on`);
    const refit = refitThreshold(r.judge, cells, judge.threshold, true);
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
