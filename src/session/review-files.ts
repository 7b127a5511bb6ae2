/**
 * A review to and from a file: the export writes the review-file form `verity review` writes (one line per asked
 * question, answered or not, with the design), so the CLI's `--labels` reads it; the import reads any label file
 * as a stream — a review file of the same design adds its answers, one of another design starts it here (when the
 * review in hand has none), plain labels are labels outside the design.
 */
import { VerityError, type QaRow } from '../core/types.ts';
import { reviewLine } from '../core/review/plan.ts';
import { entryProbabilities } from '../core/review/design.ts';
import {
  anotherInput,
  foldNote,
  labelJson,
  LabelReader,
  missingSystems,
  noLabelMatches,
  plainLabelLine,
  rowFinder,
  settledNote,
  type ParsedLabels,
} from '../core/review/labels.ts';
import type { SystemRow } from '../core/compare/index.ts';
import type { ActiveRun } from './runner.ts';
import { isSheet, labelFileText, parseReviewSheet, type LabelFormat } from '../core/review/sheet.ts';
import { knownLine } from '../core/review/memory.ts';
import { answersOf, labelOf, newId, savedEntries, type Answer, type SavedGroup, type SavedReview } from './review-saved.ts';

/** The review as a label file: JSONL, or a spreadsheet (core/review/sheet.ts) that reads back the same. */
export function exportReview(r: SavedReview, a: ActiveRun, rows: readonly QaRow[], systems: boolean, format: LabelFormat = 'jsonl'): Blob {
  const { group, own, outside } = answersOf(r);
  if (group.size === 0 && own.size === 0 && outside.size === 0)
    throw new VerityError('no question is answered yet: nothing to export', 'usage', 'not-ready');
  const input = a.meta.inputHash;
  const design = {
    seed: r.seed,
    groups: r.groups,
    asked: r.asked.length,
    total: r.total,
    ...(r.split !== undefined ? { split: r.split } : {}),
    ...(r.known?.length ? { known: r.known.length } : {}),
  };
  const entries = savedEntries(r);
  const q = entryProbabilities(entries);
  const idOf = (i: number) => ({ id: rows[i]!.id, ...(systems ? { system: (rows[i] as SystemRow).system } : {}) });
  const lines = r.asked.map((g, k) => {
    const first = rows[g.rows[0]!]!;
    const line = reviewLine({
      order: k + 1,
      rows: g.rows.map(idOf),
      question: first.question,
      golds: first.golds,
      candidate: first.candidate,
      judge: {
        metric: r.judge,
        score: a.results.score(r.judge, g.rows[0]!),
        decision: a.results.decision(r.judge, g.rows[0]!),
        explanation: a.results.explanation(r.judge, g.rows[0]!) ?? '',
      },
      priority: g.priority,
      why: g.why,
      entry: entries[k]!,
      q: q[k]!,
      design,
      input,
    });
    const ans = group.get(k);
    if (ans && ans.answer !== 'skip') {
      line.label = labelJson(labelOf(ans.answer)!);
      line.time = new Date(ans.at).toISOString();
      if (r.reviewer) line.reviewer = r.reviewer;
    }
    if (g.rows.some((i) => own.has(i)))
      line.rows = g.rows.map((i) => {
        const o = own.get(i);
        const l = o ? labelOf(o.answer) : null;
        return { ...idOf(i), ...(l ? { label: labelJson(l) } : {}) };
      });
    return line;
  });
  for (const [i, x] of outside) {
    const l = labelOf(x.answer);
    if (l) lines.push(plainLabelLine({ ...idOf(i), label: l, time: new Date(x.at).toISOString() }, input));
  }
  // The remembered verdicts the review was drawn beside: a file that stands alone for --labels, and memory for --known.
  for (const { row, answer } of r.known ?? []) {
    const l = labelOf(answer);
    const q = rows[row]!;
    if (l) lines.push(knownLine({ ...idOf(row), question: q.question, golds: q.golds, candidate: q.candidate }, { label: l }, input));
  }
  return new Blob([labelFileText(lines, format)], { type: format === 'csv' ? 'text/csv' : 'application/x-ndjson' });
}

/** A label file read from a Blob: JSONL as a stream of text (never whole), a review sheet (CSV) whole. */
export async function readLabelBlob(blob: Blob, name: string): Promise<ParsedLabels> {
  if (isSheet(name, await blob.slice(0, 256).text())) {
    const r = parseReviewSheet(await blob.text(), name);
    if (!r.ok) throw new VerityError(r.error, 'input', 'bad-labels');
    return r.value;
  }
  const reader = new LabelReader(name);
  const text = blob.stream().pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { done, value } = await text.read();
      if (done) break;
      if (!reader.push(value)) break;
    }
  } finally {
    await text.cancel().catch(() => {});
  }
  const r = reader.end();
  if (!r.ok) throw new VerityError(r.error, 'input', 'bad-labels');
  return r.value;
}

/**
 * The review after importing `blob` into run `a` (whose review in hand is `r`, or null): what to save, and the note.
 * Refused, with the reason, for labels of another input, labels without systems for a run of several, a review of
 * another design while this one has answers, or no label matching a row.
 */
export async function importReview(
  blob: Blob,
  name: string,
  a: ActiveRun,
  r: SavedReview | null,
  rows: readonly QaRow[],
  systems: boolean,
): Promise<{ review: SavedReview; note: string }> {
  const parsed = await readLabelBlob(blob, name);
  const { labels, input, design } = parsed;
  if (!labels.length) throw new VerityError(`${name} holds no label (${parsed.pending} lines not answered yet)`, 'input', 'bad-labels');
  const other = anotherInput(
    name,
    input,
    a.meta.fileName,
    a.meta.inputHash,
    'labels are imported only into a run of the file they were given on',
  );
  if (other) throw new VerityError(other, 'input', 'bad-labels');
  const missing = missingSystems(name, labels, systems ? 2 : 1);
  if (missing) throw new VerityError(missing, 'input', 'bad-labels');
  const rowOf = rowFinder(rows.map((row) => ({ id: row.id, ...(systems ? { system: (row as SystemRow).system } : {}) })));
  const find = (id: string, system?: string) => {
    const i = rowOf.find(id, system);
    return i < 0 ? null : i;
  };
  // A review drawn beside remembered verdicts holds them as known lines: all of them, or the file was cut.
  const known = labels.filter((l) => l.known).length;
  if (design && known < design.known)
    throw new VerityError(
      `${name}: its review left ${design.known} rows out of the draw as known from earlier verdicts, but holds the known lines of only ${known}: import the whole file the app or verity review wrote`,
      'input',
      'bad-labels',
    );
  if (design) {
    const same =
      r &&
      r.seed === design.seed &&
      r.groups === design.groups &&
      r.asked.length === design.asked &&
      r.judge === (design.judge ?? r.judge) &&
      (r.split ?? null) === design.split &&
      (r.known?.length ?? 0) === design.known;
    if (!same) {
      if (r && r.log.length)
        throw new VerityError(
          `${name} is another review than the one going on here (${r.log.length} answers): export and discard this one first`,
          'input',
          'bad-labels',
        );
      r = reviewFrom(parsed, find, a);
    }
  }
  const log: Answer[] = [...(r?.log ?? [])];
  // What the review already holds: an answer given again is not added twice, and the note says so.
  const before = r ? answersOf(r) : null;
  const had = (a: Omit<Answer, 'id' | 'at'>) => {
    const x = a.position < 0 ? before?.outside.get(a.row!) : a.row !== undefined ? before?.own.get(a.row) : before?.group.get(a.position);
    return x === undefined ? 'new' : x.answer === a.answer ? 'same' : 'changed';
  };
  let added = 0;
  let changed = 0;
  let same = 0;
  const now = Date.now();
  let unknown = 0;
  let duplicates = 0;
  const unknownIds: string[] = [];
  const seen = new Set<number>();
  const answeredOrders = new Set<number>();
  const add = (a: Omit<Answer, 'id'>) => {
    const was = had(a);
    if (was === 'same') return void same++;
    if (was === 'changed') changed++;
    else added++;
    log.push({ id: newId(), ...a });
  };
  for (const l of labels) {
    // Known verdicts are the review's own (reviewFrom), not answers.
    if (l.known && design?.known) continue;
    const i = find(l.id, l.system);
    if (i === null) {
      unknown++;
      if (unknownIds.length < 5) unknownIds.push(l.system !== undefined ? `${l.system}/${l.id}` : l.id);
      continue;
    }
    if (seen.has(i)) duplicates++;
    seen.add(i);
    const t = l.time ? Date.parse(l.time) : NaN;
    const when = Number.isNaN(t) ? now : t;
    const answer = labelJson(l.label);
    const pos = l.order !== undefined && r?.asked[l.order - 1]?.rows.includes(i) ? l.order - 1 : -1;
    if (pos < 0) add({ position: -1, row: i, answer, at: when });
    else if (l.own) add({ position: pos, row: i, answer, at: when });
    else if (!answeredOrders.has(pos)) {
      answeredOrders.add(pos);
      add({ position: pos, answer, at: when });
    }
  }
  if (seen.size === 0 && !r?.known?.length)
    throw new VerityError(noLabelMatches(name, labels.length, unknownIds, 'a row scored in this run'), 'input', 'bad-labels');
  const base: SavedReview = r ?? {
    version: 3,
    run: a.meta.id,
    judge: a.metrics.some((m) => m.name === 'pedants') ? 'pedants' : a.metrics[0]!.name,
    budget: 0,
    seed: 0,
    groups: 0,
    total: 1,
    asked: [],
    log: [],
    undone: [],
  };
  const note = foldNote({
    applied: seen.size,
    duplicates,
    unknown,
    unknownIds,
    replaced: 0,
    waiting: 0,
    gapAt: null,
    conflicts: parsed.conflicts,
    ambiguous: 0,
    known: 0,
  });
  const what =
    added || changed
      ? `${added} answer${added === 1 ? '' : 's'} added${changed ? `, ${changed} changed` : ''}${same ? `, ${same} already given` : ''}`
      : `nothing new: all ${same} answer${same === 1 ? ' was' : 's were'} already in this review`;
  const settled = parsed.settled ? `. ${settledNote(parsed.settled)}` : '';
  return { review: { ...base, log }, note: `${name}: ${what} (${note})${settled}` };
}

/** A review made from a label file's design: its questions found among this run's rows. */
function reviewFrom(parsed: ParsedLabels, find: (id: string, system?: string) => number | null, a: ActiveRun): SavedReview {
  const d = parsed.design!;
  const judge = d.judge && a.metrics.some((m) => m.name === d.judge) ? d.judge : null;
  if (!judge)
    throw new VerityError(
      `the review in this file was made for ${d.judge ?? 'a judge it does not name'}, which this run did not score: score it first`,
      'input',
      'bad-labels',
    );
  const lines = [...d.lines].sort((x, y) => x.order - y.order);
  if (lines.some((l, k) => l.order !== k + 1))
    throw new VerityError(
      'the review in this file lacks some of its questions (its order has a gap): import the whole file verity review or the app wrote',
      'input',
      'bad-labels',
    );
  const asked = lines.map((line): SavedGroup => {
    const rows = line.rows.map((x) => find(x.id, x.system));
    if (rows.some((i) => i === null))
      throw new VerityError(
        `question ${line.order} of the review names a row this run does not have: labels of another input?`,
        'input',
        'bad-labels',
      );
    return {
      rows: rows as number[],
      epoch: line.epoch,
      total: line.total,
      weight: line.weight,
      draw: line.draw,
      priority: NaN,
      why: 'asked in the review this file holds',
    };
  });
  return {
    version: 3,
    run: a.meta.id,
    judge,
    budget: d.asked,
    seed: d.seed,
    groups: d.groups,
    total: d.total,
    ...(d.split !== null ? { split: d.split } : {}),
    asked,
    log: [],
    undone: [],
    ...(d.known ? { known: knownOf(parsed, find) } : {}),
  };
}

/** The known lines of a review file as the review saves them: every row with its remembered verdict. */
function knownOf(parsed: ParsedLabels, find: (id: string, system?: string) => number | null): NonNullable<SavedReview['known']> {
  return parsed.labels.flatMap((l) => {
    const row = l.known ? find(l.id, l.system) : null;
    if (!l.known) return [];
    if (row === null)
      throw new VerityError(`a known line names a row this run does not have (${l.id}): labels of another input?`, 'input', 'bad-labels');
    return [{ row, answer: labelJson(l.label) }];
  });
}
