/**
 * Review labels (issue 36): what a person said about rows, as one JSONL form for every surface — the app's
 * export and import, `verity review`'s file once its `label` fields are filled, and `--labels` of `verity
 * compare` / `verity evaluate` / `verity calibrate`. A line: `{"id", "system"?, "label", "picked"?, "time"?,
 * "input"?}`; `label` is true/false (or correct/wrong…) or one of the eight class names, null or absent for a row
 * not labelled yet; `picked` says how the row was picked (the random slice or the queue), which the reviewed
 * estimate needs; `input` is the SHA-256 of the file the labels belong to.
 * Folding labels into rows: matched by (system, id); the same row labelled twice keeps the last (counted);
 * ids that are not in the input are counted and named, never dropped silently.
 */
import type { CapClass, Label } from '../types.ts';
import { parseLabel } from '../io/fields.ts';
import { fail, ok, type Result } from '../errors.ts';
import { PICK_QUEUE, PICK_RANDOM } from './estimate.ts';

export type Picked = 'uncertain' | 'random' | 'both';

export interface ReviewLabel {
  id: string;
  system?: string;
  label: Label;
  picked?: Picked;
  /** When it was given (ISO 8601). */
  time?: string;
}

export interface ParsedLabels {
  labels: ReviewLabel[];
  /** Lines with no label yet (a review file not finished). */
  pending: number;
  /** The input's SHA-256 the lines name (the first one named; null when none does). */
  input: string | null;
}

const PICKED: readonly string[] = ['uncertain', 'random', 'both'];

export const pickBits = (p: Picked | undefined): number =>
  p === 'random' ? PICK_RANDOM : p === 'both' ? PICK_RANDOM | PICK_QUEUE : p === 'uncertain' ? PICK_QUEUE : 0;

/** A label as the JSONL form writes it: true/false, or the class name. */
export const labelJson = (l: Label): boolean | CapClass => (l.kind === 'binary' ? l.correct : l.cls);

/** Parses a label file; the first bad line fails the whole file, with its line number and why. */
export function parseReviewLabels(text: string, name = 'the label file'): Result<ParsedLabels> {
  const labels: ReviewLabel[] = [];
  let pending = 0;
  let input: string | null = null;
  const lines = text.split(/\r?\n/);
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k]!.trim();
    if (!line) continue;
    const where = `${name}, line ${k + 1}`;
    let o: unknown;
    try {
      o = JSON.parse(line);
    } catch {
      return fail(`${where} is not JSON: each line of a label file is one JSON object`);
    }
    if (typeof o !== 'object' || o === null || Array.isArray(o)) return fail(`${where} is not a JSON object`);
    const r = o as Record<string, unknown>;
    if (typeof r.id !== 'string' && typeof r.id !== 'number') return fail(`${where} has no "id" (the row's id in the input)`);
    if (r.system !== undefined && r.system !== null && typeof r.system !== 'string') return fail(`${where}: "system" is not text`);
    if (r.picked !== undefined && !PICKED.includes(r.picked as string))
      return fail(`${where}: "picked" is ${JSON.stringify(r.picked)}, not one of ${PICKED.join(', ')}`);
    if (typeof r.input === 'string') {
      if (input !== null && r.input !== input)
        return fail(`${where} names another input (${r.input.slice(0, 8)}) than the lines before (${input.slice(0, 8)})`);
      input = r.input;
    }
    if (r.label === 'skip') {
      pending++;
      continue;
    }
    const parsed = parseLabel(r.label);
    if (!parsed.ok) return fail(`${where}: ${parsed.error}`);
    if (!parsed.value) {
      pending++;
      continue;
    }
    labels.push({
      id: String(r.id),
      ...(typeof r.system === 'string' ? { system: r.system } : {}),
      label: parsed.value,
      ...(r.picked ? { picked: r.picked as Picked } : {}),
      ...(typeof r.time === 'string' ? { time: r.time } : {}),
    });
  }
  return ok({ labels, pending, input });
}

/** The JSONL export: one line per label, in the order given. */
export function reviewLabelsJsonl(labels: readonly ReviewLabel[], input: string): string {
  return labels
    .map((l) =>
      JSON.stringify({
        id: l.id,
        ...(l.system !== undefined ? { system: l.system } : {}),
        label: labelJson(l.label),
        ...(l.picked ? { picked: l.picked } : {}),
        ...(l.time ? { time: l.time } : {}),
        input,
      }),
    )
    .join('\n')
    .concat(labels.length ? '\n' : '');
}

export interface FoldedLabels<R> {
  /** The rows with the labels in (a new array; rows without a label are the same objects). */
  rows: (R & { pick?: number })[];
  /** Rows given a label. */
  applied: number;
  /** Rows labelled more than once (the last label kept). */
  duplicates: number;
  /** Labels whose (system, id) is not in the input: how many, and the first few. */
  unknown: number;
  unknownIds: string[];
  /** Rows whose label in the file a review label replaced. */
  replaced: number;
  /** Every label that matched a row, in the labels' order (a row labelled twice appears twice; the last counts). */
  matched: { row: number; label: ReviewLabel }[];
}

const keyOf = (system: string | undefined, id: string) => `${system ?? ''}\u0000${id}`;

/**
 * Puts review labels into rows (matched by system and id; a label without a system matches a file of one
 * system, or the id alone when only one row has it). Rows keep their other fields; each labelled one gains
 * `pick` bits (estimate.ts) when its label says how it was picked.
 */
export function foldLabels<R extends { id: string; system?: string; label?: Label }>(
  rows: readonly R[],
  labels: readonly ReviewLabel[],
): FoldedLabels<R> {
  const at = new Map<string, number>();
  const byId = new Map<string, number>();
  rows.forEach((r, i) => {
    at.set(keyOf(r.system, r.id), i);
    byId.set(r.id, byId.has(r.id) ? -1 : i);
  });
  const chosen = new Map<number, ReviewLabel>();
  const matched: { row: number; label: ReviewLabel }[] = [];
  let duplicates = 0;
  let unknown = 0;
  const unknownIds: string[] = [];
  for (const l of labels) {
    let i = at.get(keyOf(l.system, l.id));
    if (i === undefined && l.system === undefined) i = byId.get(l.id);
    if (i === undefined || i < 0) {
      unknown++;
      if (unknownIds.length < 5) unknownIds.push(l.system !== undefined ? `${l.system}/${l.id}` : l.id);
      continue;
    }
    if (chosen.has(i)) duplicates++;
    chosen.set(i, l);
    matched.push({ row: i, label: l });
  }
  const out: (R & { pick?: number })[] = rows.slice();
  let replaced = 0;
  for (const [i, l] of chosen) {
    if (rows[i]!.label) replaced++;
    out[i] = { ...rows[i]!, label: l.label, ...(l.picked ? { pick: pickBits(l.picked) } : {}) };
  }
  return { rows: out, applied: chosen.size, duplicates, unknown, unknownIds, replaced, matched };
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
  return `none of the ${labels} labels in ${name} matches ${rows} (ids such as ${unknownIds.join(', ')}): labels of another input?`;
}

/** One line for what folding did: applied, duplicates (last kept), unknown ids — for stderr and the page. */
export function foldNote(f: Pick<FoldedLabels<unknown>, 'applied' | 'duplicates' | 'unknown' | 'unknownIds' | 'replaced'>): string {
  const parts = [`${f.applied} row${f.applied === 1 ? '' : 's'} labelled by review`];
  if (f.duplicates) parts.push(`${f.duplicates} labelled twice (the last label kept)`);
  if (f.replaced) parts.push(`${f.replaced} replacing the file's own label`);
  if (f.unknown)
    parts.push(
      `${f.unknown} label${f.unknown === 1 ? '' : 's'} for ids not in the input (${f.unknownIds.join(', ')}${f.unknown > f.unknownIds.length ? ', …' : ''}) left out`,
    );
  return parts.join('; ');
}
