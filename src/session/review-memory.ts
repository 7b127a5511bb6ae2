/**
 * A review and the verdicts remembered in this browser (verdicts.ts): which of a run's distinct answers they judge
 * (grouped as the review groups them: core/review/groups.ts), the rows a review started with them knows, and each
 * answer given in a review remembered — or forgotten when taken back.
 */
import type { QaRow } from '../core/types.ts';
import type { SystemRow } from '../core/compare/index.ts';
import { answerGroups } from '../core/review/groups.ts';
import { labelJson, type ReviewedRow } from '../core/review/labels.ts';
import type { LabelMemory, Verdict } from '../core/review/memory.ts';
import type { ReviewAnswer, ReviewMemory } from './review-api.ts';
import { labelOf } from './review-saved.ts';
import { projectName, type VerdictStore } from './verdicts.ts';

/** The rows grouped as a review groups them, and each group's remembered verdict (or undefined). */
function remembered(
  rows: readonly QaRow[],
  systems: boolean,
  memory: LabelMemory,
): { groups: number[][]; verdict: (Verdict | undefined)[] } {
  // Nothing remembered (the usual case): the rows, up to a run's million, are not grouped for nothing.
  if (memory.size === 0) return { groups: [], verdict: [] };
  const { groups } = answerGroups(rows.map((r) => ({ ...r, ...(systems ? { key: (r as SystemRow).key } : {}) })));
  return { groups, verdict: groups.map((g) => memory.find(rows[g[0]!]!)) };
}

/** How many verdicts a project remembers, and the distinct answers (and rows) of `rows` they judge; every project kept. */
export async function reviewMemory(
  rows: readonly QaRow[],
  systems: boolean,
  verdicts: VerdictStore,
  project: string | undefined,
): Promise<ReviewMemory> {
  const { memory, projects } = await verdicts.overview(project);
  const { groups, verdict } = remembered(rows, systems, memory);
  let known = 0;
  let covered = 0;
  groups.forEach((g, k) => {
    if (!verdict[k]) return;
    known++;
    covered += g.length;
  });
  return { project: projectName(project), verdicts: memory.size, groups: known, rows: covered, projects };
}

/** Every row of a group a project's remembered verdict judges, with that verdict: what a review started with them knows. */
export async function knownAnswers(
  rows: readonly QaRow[],
  systems: boolean,
  verdicts: VerdictStore,
  project: string | undefined,
): Promise<{ row: number; answer: ReviewAnswer }[]> {
  const { groups, verdict } = remembered(rows, systems, await verdicts.memory(project));
  return groups.flatMap((g, k) => {
    const v = verdict[k];
    return v ? g.map((row) => ({ row, answer: labelJson(v.label) })) : [];
  });
}

/**
 * Remembers the verdict on `row`'s answer in the review's project, with who gave it, or forgets it (`null` or a
 * skip: the answer taken back).
 */
export async function rememberAnswer(
  verdicts: VerdictStore,
  row: QaRow | undefined,
  answer: ReviewAnswer | null,
  by: { project?: string; reviewer?: string },
): Promise<void> {
  if (!row) return;
  const label = answer === null ? null : labelOf(answer);
  const what = { question: row.question, golds: [...row.golds], candidate: row.candidate };
  if (label)
    await verdicts.add({
      ...what,
      label,
      time: new Date().toISOString(),
      project: projectName(by.project),
      ...(by.reviewer ? { reviewer: by.reviewer } : {}),
    });
  else await verdicts.remove(what, by.project);
}

/** Puts the remembered verdicts into `rows`: their groups were never drawable, so they are a census (π = 1). */
export function withKnown(rows: (QaRow & ReviewedRow)[], known: readonly { row: number; answer: ReviewAnswer }[] | undefined): void {
  for (const { row, answer } of known ?? []) {
    const l = labelOf(answer);
    if (l && row < rows.length) rows[row] = { ...rows[row]!, label: l, pi: 1, unit: -1 - row };
  }
}
