/**
 * `--labels FILE` of compare, evaluate and calibrate: review labels (core/review/labels.ts — the app's export, or
 * `verity review`'s file with its `label` fields filled) folded into the input's rows. Refused, with the reason,
 * when they name another input (its SHA-256) or none of them matches a row; otherwise what was folded, labelled
 * twice or left out is said on stderr.
 */
import { readFile } from 'node:fs/promises';
import { openAsBlob } from 'node:fs';
import { contentHash } from '../core/io/hash.ts';
import { anotherInput, foldLabels, foldNote, noLabelMatches, parseReviewLabels, type ReviewLabel } from '../core/review/labels.ts';
import { VerityError, type Label } from '../core/types.ts';
import { say } from './io.ts';

/** Reads a label file; `inputs` are the input files (their hash is checked against the one the labels name). */
export async function readLabels(path: string, inputs: readonly string[]): Promise<ReviewLabel[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new VerityError(`--labels ${path}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, 'input');
  }
  const parsed = parseReviewLabels(text, path);
  if (!parsed.ok) throw new VerityError(parsed.error, 'input');
  const { labels, pending, input } = parsed.value;
  if (input && inputs.length === 1) {
    const why = anotherInput(
      path,
      input,
      inputs[0]!,
      await contentHash(await openAsBlob(inputs[0]!)),
      'labels are folded only into the file they were given on',
    );
    if (why) throw new VerityError(why, 'input');
  }
  if (pending) say(`${path}: ${pending} row${pending === 1 ? '' : 's'} not labelled yet (left out)`);
  return labels;
}

/** The rows with the labels in; refuses when no label matches a row (labels of another input). */
export function foldInto<R extends { id: string; system?: string; label?: Label }>(
  rows: readonly R[],
  labels: readonly ReviewLabel[],
  path: string,
) {
  const f = foldLabels(rows, labels);
  if (labels.length > 0 && f.applied === 0)
    throw new VerityError(noLabelMatches(path, labels.length, f.unknownIds, 'a row of the input'), 'input');
  say(`${path}: ${foldNote(f)}`);
  return f.rows;
}
