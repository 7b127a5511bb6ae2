/**
 * Review labels: what a person said about rows, as one JSONL form for every surface — `verity review`'s file once
 * its `label` fields are filled, the app's export and import, and `--labels` of `verity compare` / `evaluate` /
 * `calibrate`.
 *
 * A line of a review: one answer group (groups.ts) — `{"order", "id", "system"?, "rows"?, "label", "sample",
 * "design", "input", …}`: `order` is its place in the design's order (1 = asked first), `id` / `system` its first
 * row, `rows` every row of the group (`{"id", "system"}`, with a `"label"` of its own where a person labelled one
 * system's row otherwise), `sample` its weight, uniform draw, the probability it was drawn with at its step (`q`),
 * the epoch it was drawn in and the weight of the groups left when the epoch began (`total`; a line without them is
 * of the first epoch), `design` the seed, the number of groups, how many were asked and the sum of every group's
 * weight (`total`). With those each answered step's probability follows (design.ts), and every line is checked: its
 * draw recomputed from the seed, the input's hash, its row and epoch; no question missing before a later one; the
 * order the draws give.
 * A plain line: `{"id", "system"?, "label", "time"?, "input"?}` — a label given outside any design (a label
 * column, a hand-made file): the row's truth, counted as it is — except beside a review drawn step by step, whose
 * estimate does not count it (its row could be drawn: estimate.ts).
 * A line of the earlier form (`"picked": "uncertain" | "random" | "both"`): its rows keep that design — the
 * uncertain queue counted as it is, the random slice as a uniform sample of the system's rows.
 * `label`: true/false (or correct/wrong…) or one of the eight class names; null, absent or "skip" = not answered.
 * `input`: the SHA-256 of the file the labels belong to.
 * Read as a stream of text (any size; any mix of LF, CRLF and CR line ends); the first bad line fails the file,
 * with its line number and why.
 */
import type { CapClass, Label } from '../types.ts';
import { parseLabel } from '../io/fields.ts';
import { fail, ok, type Result } from '../errors.ts';
import { readSequence, type AskedGroup, type Sequence } from './design.ts';
import { escapeControls } from '../text/visible.ts';
import { LIMITS } from '../limits.ts';

export type Picked = 'uncertain' | 'random' | 'both';

export interface ReviewLabel {
  id: string;
  system?: string;
  label: Label;
  /** The design order of the group the label was given for (a review line); absent for a plain label. */
  order?: number;
  /** The row's own label in a group line (given apart from the group's). */
  own?: true;
  /** How a review of the earlier form picked the row. */
  picked?: Picked;
  /** When it was given (ISO 8601). */
  time?: string;
  /** Known from an earlier review: its group was left out of this review's draw (a census row, π = 1). */
  known?: true;
}

/** What a label file says of its review's design. */
export interface ReviewDesignInfo {
  seed: number;
  /** Groups in the file's input, and how many the review asked. */
  groups: number;
  asked: number;
  /** The sum of every group's weight. */
  total: number;
  /** The metric whose decisions were reviewed. */
  judge: string | null;
  /** The column the review was split by (its weights depend on it), or null. */
  split: string | null;
  /** Rows whose labels were known from an earlier review and left out of the draw (the file's known lines). */
  known: number;
  /** Every asked group in the file, answered or not, with its rows. */
  lines: (AskedGroup & { rows: { id: string; system?: string }[] })[];
  /** The answered prefix, checked (design.ts readSequence): each line's step and probability. */
  sequence: Sequence;
}

export interface ParsedLabels {
  labels: ReviewLabel[];
  /** Lines with no label yet (a review not finished). */
  pending: number;
  /** The input's SHA-256 the lines name (null when none does). */
  input: string | null;
  design: ReviewDesignInfo | null;
  /** Rows of a group that a person labelled otherwise than the group. */
  conflicts: number;
  /** A review settled between reviewers (`verity agreement --settle`): how its questions judged twice were settled. */
  settled?: Settling;
}

/** How a review's questions judged by two or more reviewers were settled; `unsettled` ones are left unanswered. */
export interface Settling {
  agreed: number;
  adjudicated: number;
  majority: number;
  unsettled: number;
}

/** What a settled review's estimate stands on, in a sentence. */
export function settledNote(s: Settling): string {
  const n = s.agreed + s.adjudicated + s.majority + s.unsettled;
  return (
    `${n} question${n === 1 ? ' was' : 's were'} judged by two or more reviewers: ${s.agreed} agreed, ${s.adjudicated} settled by an adjudicator, ` +
    `${s.majority} by the majority` +
    (s.unsettled
      ? `, ${s.unsettled} unsettled and left unanswered (the estimate uses the answers before the first of them, and the rest once it is settled)`
      : '')
  );
}

const PICKED: readonly string[] = ['uncertain', 'random', 'both'];
/** A line longer than this is not a label line (a review line holds one question, its golds and one answer). */
export const LABEL_LINE_LIMIT = LIMITS.labelLineChars;

/** A label as the JSONL form writes it: true/false, or the class name. */
export const labelJson = (l: Label): boolean | CapClass => (l.kind === 'binary' ? l.correct : l.cls);

const isObject = (o: unknown): o is Record<string, unknown> => typeof o === 'object' && o !== null && !Array.isArray(o);
const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/**
 * Reads a label file piece by piece: `push` each piece of text, then `end`. Holds one line at a time (never the
 * file), so a file of any size is read; a line over LABEL_LINE_LIMIT fails with its number.
 */
export class LabelReader {
  private readonly labels: ReviewLabel[] = [];
  private pending = 0;
  private input: string | null = null;
  private design: Omit<ReviewDesignInfo, 'lines' | 'sequence'> | null = null;
  private readonly lines: ReviewDesignInfo['lines'] = [];
  private readonly orders = new Set<number>();
  private conflicts = 0;
  private readonly settled: Settling = { agreed: 0, adjudicated: 0, majority: 0, unsettled: 0 };
  private carry = '';
  private line = 0;
  private error: string | null = null;
  private lastCr = false;

  constructor(private readonly name = 'the label file') {}

  /** Feeds the next piece of the file; false once the file has failed (the rest need not be read). */
  push(text: string): boolean {
    if (this.error) return false;
    let start = 0;
    // A CR ending the last piece may be the first half of a CRLF.
    if (this.lastCr && text.startsWith('\n')) start = 1;
    this.lastCr = false;
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      this.take(this.carry + text.slice(start, i));
      this.carry = '';
      if (this.error) return false;
      if (c === 13) {
        if (i + 1 < text.length && text.charCodeAt(i + 1) === 10) i++;
        else if (i + 1 === text.length) this.lastCr = true;
      }
      start = i + 1;
    }
    this.carry += text.slice(start);
    if (this.carry.length > LABEL_LINE_LIMIT) this.error = this.tooLong();
    return !this.error;
  }

  /** Feeds one line already read as an object (a review sheet's row, sheet.ts), numbered `line` in its file. */
  pushLine(o: unknown, line: number): boolean {
    if (this.error) return false;
    this.line = line;
    this.error = this.read(o, `${this.name}, line ${line}`);
    return !this.error;
  }

  end(): Result<ParsedLabels> {
    if (!this.error && this.carry) this.take(this.carry);
    this.carry = '';
    if (this.error) return fail(this.error);
    let design: ReviewDesignInfo | null = null;
    if (this.design) {
      const seq = readSequence(this.lines, { seed: this.design.seed, total: this.design.total, input: this.input }, this.name);
      if (!seq.ok) return fail(seq.error);
      design = { ...this.design, lines: this.lines, sequence: seq.value };
    }
    const s = this.settled;
    const settled = s.agreed + s.adjudicated + s.majority + s.unsettled > 0 ? { settled: { ...s } } : {};
    return ok({ labels: this.labels, pending: this.pending, input: this.input, design, conflicts: this.conflicts, ...settled });
  }

  private tooLong(): string {
    return `${this.name}, line ${this.line + 1} is longer than ${LABEL_LINE_LIMIT.toLocaleString('en-US')} characters: not a label line (is it the right file?)`;
  }

  private take(raw: string): void {
    this.line++;
    if (raw.length > LABEL_LINE_LIMIT) {
      this.line--;
      this.error = this.tooLong();
      return;
    }
    const line = raw.trim();
    if (!line) return;
    const where = `${this.name}, line ${this.line}`;
    let o: unknown;
    try {
      o = JSON.parse(line);
    } catch {
      this.error = `${where} is not JSON: each line of a label file is one JSON object`;
      return;
    }
    this.error = this.read(o, where);
  }

  /** One line's labels; the error, or null. */
  private read(o: unknown, where: string): string | null {
    if (!isObject(o)) return `${where} is not a JSON object`;
    if (typeof o.id !== 'string' && typeof o.id !== 'number') return `${where} has no "id" (the row's id in the input)`;
    if (o.system !== undefined && o.system !== null && typeof o.system !== 'string') return `${where}: "system" is not text`;
    if (o.picked !== undefined && !PICKED.includes(o.picked as string))
      return `${where}: "picked" is ${JSON.stringify(o.picked)}, not one of ${PICKED.join(', ')}`;
    if (typeof o.input === 'string') {
      if (this.input !== null && o.input !== this.input)
        return `${where} names another input (${o.input.slice(0, 8)}) than the lines before (${this.input.slice(0, 8)})`;
      this.input = o.input;
    }
    const parsed = o.label === 'skip' ? ok(undefined) : parseLabel(o.label);
    if (!parsed.ok) return `${where}: ${parsed.error}`;
    const time = typeof o.time === 'string' ? { time: o.time } : {};
    // The group's rows: the line's own row when it lists none.
    const own = { id: String(o.id), ...(typeof o.system === 'string' ? { system: o.system } : {}) };
    let rows: { id: string; system?: string; label?: Label }[] = [own];
    if (o.rows !== undefined) {
      if (!Array.isArray(o.rows) || o.rows.length === 0) return `${where}: "rows" is not a list of the group's rows`;
      rows = [];
      for (const r of o.rows) {
        if (!isObject(r) || (typeof r.id !== 'string' && typeof r.id !== 'number'))
          return `${where}: each of "rows" needs an "id" (and a "system" for several systems)`;
        if (r.system !== undefined && r.system !== null && typeof r.system !== 'string')
          return `${where}: a "system" in "rows" is not text`;
        const l = r.label === undefined || r.label === 'skip' ? ok(undefined) : parseLabel(r.label);
        if (!l.ok) return `${where}, row ${String(r.id)}: ${l.error}`;
        rows.push({
          id: String(r.id),
          ...(typeof r.system === 'string' ? { system: r.system } : {}),
          ...(l.value ? { label: l.value } : {}),
        });
      }
    }
    const order = o.order;
    if (order !== undefined) {
      const bad = this.readDesign(o, where);
      if (bad) return bad;
    }
    if (o.known !== undefined && (o.known !== true || order !== undefined || o.rows !== undefined))
      return `${where}: "known" is true on a plain line (one row's label remembered from an earlier review) or absent`;
    if (o.known === true && parsed.value === undefined) return `${where}: a known line needs its "label"`;
    const lineLabel = parsed.value;
    // Answered: a label for the group, or one for each of its rows.
    const answered = lineLabel !== undefined || rows.every((r) => r.label);
    if (order !== undefined) {
      const s = o.sample as { weight: number; draw: number; epoch?: number; total?: number };
      this.lines.push({
        order: order as number,
        // A line without an epoch is of the first draw, whose total the design gives.
        epoch: s.epoch ?? 0,
        total: s.total ?? (o.design as { total: number }).total,
        weight: s.weight,
        draw: s.draw,
        answered,
        first: own,
        rows: rows.map((r) => ({ id: r.id, ...(r.system !== undefined ? { system: r.system } : {}) })),
      });
    }
    if (!answered) this.pending++;
    if (order !== undefined) {
      if (o.unsettled === true) this.settled.unsettled++;
      else if (o.settled === 'agreed' || o.settled === 'adjudicated' || o.settled === 'majority') this.settled[o.settled]++;
    }
    for (const r of rows) {
      const label = r.label ?? lineLabel;
      if (!label) continue;
      if (r.label && lineLabel && labelJson(r.label) !== labelJson(lineLabel)) this.conflicts++;
      this.labels.push({
        id: r.id,
        ...(r.system !== undefined ? { system: r.system } : {}),
        label,
        // A row labelled in a group nobody answered is a label outside the design.
        ...(order !== undefined && answered ? { order: order as number } : {}),
        ...(r.label ? { own: true as const } : {}),
        ...(o.picked ? { picked: o.picked as Picked } : {}),
        ...(o.known === true ? { known: true as const } : {}),
        ...time,
      });
    }
    return null;
  }

  private readDesign(o: Record<string, unknown>, where: string): string | null {
    const order = o.order;
    if (!Number.isInteger(order) || (order as number) < 1) return `${where}: "order" is not a whole number from 1`;
    if (this.orders.has(order as number)) return `${where}: "order" ${String(order)} is given twice`;
    this.orders.add(order as number);
    const s = o.sample;
    if (!isObject(s) || !finite(s.weight) || !(s.weight > 0) || !finite(s.draw) || !(s.draw > 0 && s.draw <= 1))
      return `${where}: "sample" needs the group's "weight" (> 0) and "draw" (0 < draw ≤ 1), as verity review writes them`;
    if (s.epoch !== undefined && (!Number.isInteger(s.epoch) || (s.epoch as number) < 0 || !finite(s.total) || !(s.total > 0)))
      return `${where}: "sample" gives an "epoch" (a whole number from 0) with its "total" (> 0), as verity review writes them`;
    const d = o.design;
    if (isObject(d) && d.total === undefined && 'cutoff' in d)
      return `${where}: this review was made by an earlier Verity, whose draw (priority sampling) gives no interval that holds wherever you stop: make the review again with verity review (or the app) and copy your answers over`;
    if (
      !isObject(d) ||
      !Number.isInteger(d.seed) ||
      !Number.isInteger(d.groups) ||
      !Number.isInteger(d.asked) ||
      !finite(d.total) ||
      !(d.total > 0)
    )
      return `${where}: "design" needs "seed", "groups", "asked" and "total", as verity review writes them`;
    const judge = isObject(o.judge) && typeof o.judge.metric === 'string' ? o.judge.metric : null;
    const info = {
      seed: d.seed as number,
      groups: d.groups as number,
      asked: d.asked as number,
      total: d.total,
      judge,
      split: typeof d.split === 'string' ? d.split : null,
      known: Number.isInteger(d.known) && (d.known as number) > 0 ? (d.known as number) : 0,
    };
    if (
      this.design &&
      (this.design.seed !== info.seed ||
        this.design.groups !== info.groups ||
        this.design.asked !== info.asked ||
        this.design.total !== info.total ||
        this.design.split !== info.split ||
        this.design.known !== info.known)
    )
      return `${where}: its "design" differs from the lines before: lines of two reviews in one file`;
    this.design ??= info;
    return null;
  }
}

/** Parses a whole label text (tests, small files): LabelReader in one piece. */
export function parseReviewLabels(text: string, name = 'the label file'): Result<ParsedLabels> {
  const r = new LabelReader(name);
  r.push(text);
  return r.end();
}

/** A plain label line (as an object), as the app's export and `verity review --continue` write a label outside a design. */
export function plainLabelLine(l: ReviewLabel, input: string): Record<string, unknown> {
  return {
    id: l.id,
    ...(l.system !== undefined ? { system: l.system } : {}),
    label: labelJson(l.label),
    ...(l.picked ? { picked: l.picked } : {}),
    ...(l.time ? { time: l.time } : {}),
    input,
  };
}

export interface FoldedLabels<R> {
  /** The rows with the labels in (a new array; rows without a label are the same objects). */
  rows: (R & ReviewedRow)[];
  /** Rows given a label. */
  applied: number;
  /** Rows labelled more than once (the last label kept). */
  duplicates: number;
  /** Labels whose (system, id) is not in the input: how many, and the first few. */
  unknown: number;
  unknownIds: string[];
  /** Rows whose label in the file a review label replaced. */
  replaced: number;
  /** Labels of groups after the first unanswered one in the design's order: left out until it is answered. */
  waiting: number;
  /** The order of the first group not answered, when labels wait for it. */
  gapAt: number | null;
  /** Rows of a group labelled otherwise than their group (each kept with its own label). */
  conflicts: number;
  /** Labels with more than one row of this (system, id) in the input: applied to the first. */
  ambiguous: number;
  /** Every label that matched a row, in the labels' order (a row labelled twice appears twice; the last counts). */
  matched: { row: number; label: ReviewLabel }[];
  /** Rows given a known label (a census row), and how many of the design's known rows the file lacks. */
  known: number;
  knownMissing: number;
}

/** What a reviewed row carries besides its label: the inclusion probability of its design unit and the unit. */
export interface ReviewedRow {
  /** The inclusion probability of the reviewed unit; absent for a label outside a design (its row's truth). */
  pi?: number;
  /** The reviewed unit: rows of one unit were asked as one. */
  unit?: number;
  /** A review drawn step by step: the step (0-based), its probability, the steps the review planned and answered. */
  step?: number;
  q?: number;
  planned?: number;
  steps?: number;
}

/** The design fields of a row whose group was answered at `step` of `seq` (line `unit`), in a review planned for `planned` steps. */
export function stepFields(seq: Sequence, step: number, unit: number, planned: number): Required<ReviewedRow> {
  return { pi: seq.pi[step]!, unit, step, q: seq.q[step]!, planned, steps: seq.answered };
}

/** A row's design fields alone (to carry them into a comparison's rows). */
export function reviewedFields(r: ReviewedRow): ReviewedRow {
  if (r.pi === undefined) return {};
  return {
    pi: r.pi,
    ...(r.unit !== undefined ? { unit: r.unit } : {}),
    ...(r.step !== undefined ? { step: r.step, q: r.q!, planned: r.planned!, steps: r.steps ?? r.step + 1 } : {}),
  };
}

const keyOf = (system: string | undefined, id: string) => `${system ?? ''}\u0000${id}`;

/**
 * A label's row: by system and id (the first row with both), or, for a label without a system, by the id alone
 * when only one row has it; −1 when none. `twice`: whether two rows share that system and id.
 */
export function rowFinder(rows: readonly { id: string; system?: string }[]): {
  find(id: string, system?: string): number;
  twice(id: string, system?: string): boolean;
} {
  const at = new Map<string, number>();
  const byId = new Map<string, number>();
  const twice = new Set<string>();
  rows.forEach((r, i) => {
    const k = keyOf(r.system, r.id);
    if (at.has(k)) twice.add(k);
    else at.set(k, i);
    byId.set(r.id, byId.has(r.id) ? -1 : i);
  });
  return {
    find: (id, system) => at.get(keyOf(system, id)) ?? (system === undefined ? (byId.get(id) ?? -1) : -1),
    twice: (id, system) => twice.has(keyOf(system, id)),
  };
}

/**
 * Puts review labels into rows (matched by system and id; a label without a system matches a file of one system,
 * or the id alone when only one row has it). Rows keep their other fields; a row labelled within the design's
 * answered prefix gains its unit's inclusion probability (`pi`) and unit; labels past the first unanswered group
 * are left out (counted in `waiting`: using them would bias the estimate).
 */
export function foldLabels<R extends { id: string; system?: string; label?: unknown }>(
  rows: readonly R[],
  parsed: Pick<ParsedLabels, 'labels' | 'design' | 'conflicts'>,
): FoldedLabels<R> {
  const rowOf = rowFinder(rows);
  const perSystem = new Map<string, number>();
  for (const r of rows) perSystem.set(r.system ?? '', (perSystem.get(r.system ?? '') ?? 0) + 1);
  const design = parsed.design;
  const stepOfOrder = new Map<number, number>();
  let gapAt: number | null = null;
  if (design) {
    const { sequence } = design;
    design.lines.forEach((l, k) => {
      if (sequence.step[k]! >= 0) stepOfOrder.set(l.order, sequence.step[k]!);
    });
    if (sequence.answered < design.lines.length) gapAt = sequence.answered + 1;
  }
  const chosen = new Map<number, ReviewLabel>();
  const matched: { row: number; label: ReviewLabel }[] = [];
  let duplicates = 0;
  let unknown = 0;
  let waiting = 0;
  let ambiguous = 0;
  const unknownIds: string[] = [];
  for (const l of parsed.labels) {
    if (l.order !== undefined && !stepOfOrder.has(l.order)) {
      waiting++;
      continue;
    }
    const i = rowOf.find(l.id, l.system);
    if (i < 0) {
      unknown++;
      if (unknownIds.length < 5) unknownIds.push(l.system !== undefined ? `${l.system}/${l.id}` : l.id);
      continue;
    }
    if (rowOf.twice(l.id, l.system)) ambiguous++;
    if (chosen.has(i)) duplicates++;
    chosen.set(i, l);
    matched.push({ row: i, label: l });
  }
  // The earlier form's random slice: a uniform sample of each system's rows.
  const sliceSize = new Map<string, number>();
  for (const [i, l] of chosen)
    if (l.picked === 'random' || l.picked === 'both') sliceSize.set(rows[i]!.system ?? '', (sliceSize.get(rows[i]!.system ?? '') ?? 0) + 1);
  const out: (R & ReviewedRow)[] = rows.slice();
  let replaced = 0;
  let known = 0;
  for (const [i, l] of chosen) {
    if (rows[i]!.label) replaced++;
    const sys = rows[i]!.system ?? '';
    const step = l.order !== undefined ? stepOfOrder.get(l.order)! : -1;
    const seq = parsed.design?.sequence;
    if (l.known) known++;
    const design =
      l.order !== undefined && seq
        ? stepFields(seq, step, l.order, parsed.design!.asked)
        : l.known
          ? { pi: 1, unit: -1 - i }
          : l.picked === 'random' || l.picked === 'both'
            ? { pi: sliceSize.get(sys)! / perSystem.get(sys)!, unit: -1 - i }
            : {};
    out[i] = { ...rows[i]!, label: l.label, ...design };
  }
  return {
    rows: out,
    applied: chosen.size,
    duplicates,
    unknown,
    unknownIds,
    replaced,
    waiting,
    gapAt,
    conflicts: parsed.conflicts,
    ambiguous,
    matched,
    known,
    knownMissing: Math.max(0, (design?.known ?? 0) - known),
  };
}

/**
 * Why a label file does not belong to this input, or null: it names another input's SHA-256 (`rule` says where
 * labels go instead). The CLI and the app's import refuse with it.
 */
export function anotherInput(name: string, labelsInput: string | null, fileName: string, hash: string, rule: string): string | null {
  return labelsInput && labelsInput !== hash
    ? `${name} holds labels for another input (SHA-256 ${labelsInput.slice(0, 12)}…), not ${fileName} (${hash.slice(0, 12)}…): ${rule}`
    : null;
}

/** The refusal when no label matched a row (`rows` names the rows looked in): labels of another input, likely. */
export function noLabelMatches(name: string, labels: number, unknownIds: readonly string[], rows: string): string {
  return `none of the ${labels} labels in ${name} matches ${rows} (ids such as ${unknownIds.map(escapeControls).join(', ')}): labels of another input?`;
}

/**
 * Labels without a system for an input of several systems: which system each belongs to cannot be told, so the
 * refusal says what to add. Null when every label names a system or the input has one.
 */
export function missingSystems(name: string, labels: readonly ReviewLabel[], systems: number): string | null {
  if (systems < 2) return null;
  const without = labels.filter((l) => l.system === undefined).length;
  return without
    ? `${name}: ${without} of its ${labels.length} labels name no "system", and the input has ${systems} systems: add each label's "system" (the app's export and verity review write it)`
    : null;
}

/**
 * The refusal when a review drawn beside earlier verdicts lacks some of them: those rows were never drawable, so
 * without their labels the estimate would count them as nobody's answer (a cut file read as complete); null when none is missing.
 */
export function knownMissing(name: string, f: Pick<FoldedLabels<unknown>, 'known' | 'knownMissing'>): string | null {
  if (!f.knownMissing) return null;
  return `${name}: its review left ${f.known + f.knownMissing} rows out of the draw as known from earlier verdicts, but holds the known lines of only ${f.known}: put the missing lines ("known": true) back`;
}

/** One line for what folding did — for stderr and the page. */
export function foldNote(
  f: Pick<
    FoldedLabels<unknown>,
    'applied' | 'duplicates' | 'unknown' | 'unknownIds' | 'replaced' | 'waiting' | 'gapAt' | 'conflicts' | 'ambiguous' | 'known'
  >,
): string {
  const parts = [`${f.applied} row${f.applied === 1 ? '' : 's'} labelled by review`];
  if (f.known) parts.push(`${f.known} of them known from earlier verdicts (left out of the draw, counted as they are)`);
  if (f.duplicates) parts.push(`${f.duplicates} labelled twice (the last label kept)`);
  if (f.replaced) parts.push(`${f.replaced} replacing the file's own label`);
  if (f.conflicts)
    parts.push(`${f.conflicts} row${f.conflicts === 1 ? '' : 's'} labelled otherwise than the rest of its group (kept per row)`);
  if (f.ambiguous)
    parts.push(
      `${f.ambiguous} label${f.ambiguous === 1 ? '' : 's'} for a (system, id) the input has more than once: applied to its first row, which the comparison keeps`,
    );
  if (f.waiting)
    parts.push(
      `${f.waiting} label${f.waiting === 1 ? '' : 's'} after question ${f.gapAt} of the review, which has no answer, left out until it has one (answers are used in the review's order)`,
    );
  if (f.unknown)
    parts.push(
      `${f.unknown} label${f.unknown === 1 ? '' : 's'} for ids not in the input (${f.unknownIds.map(escapeControls).join(', ')}${f.unknown > f.unknownIds.length ? ', …' : ''}) left out`,
    );
  return parts.join('; ');
}
