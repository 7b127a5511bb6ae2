/**
 * `--labels FILE` of compare, evaluate and calibrate: review labels (core/review/labels.ts — `verity review`'s file
 * with its `label` fields filled, or the app's export) folded into the input's rows. Read as a stream (any size,
 * any line ends). Refused, with the reason, when they name another input (its SHA-256), when none of them matches
 * a row, or when labels without a system meet an input of several systems; otherwise what was folded, labelled
 * twice, left out or waits for an earlier answer is said on stderr.
 */
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { openAsBlob } from 'node:fs';
import { contentHash } from '../core/io/hash.ts';
import { bundleFiles } from '../core/io/bundle.ts';
import {
  anotherInput,
  foldLabels,
  foldNote,
  LabelReader,
  missingSystems,
  knownMissing,
  noLabelMatches,
  settledNote,
  type ParsedLabels,
  type ReviewedRow,
} from '../core/review/labels.ts';
import { VerityError, type Label } from '../core/types.ts';
import { say } from './say.ts';
import { isSheet, parseReviewSheet, sheetLines } from '../core/review/sheet.ts';
import { LabelMemory, lineVerdict, type Verdict } from '../core/review/memory.ts';
import { createInterface } from 'node:readline';
import { readFile } from 'node:fs/promises';

/** Reads a label file: JSONL piece by piece (never whole), or a review sheet (CSV, core/review/sheet.ts). */
export async function readLabels(path: string): Promise<ParsedLabels> {
  const reader = new LabelReader(path);
  // Told by the name, else by the first piece.
  let sheet: string[] | false | undefined;
  try {
    for await (const piece of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
      sheet ??= isSheet(path, piece as string) && [];
      if (sheet) sheet.push(piece as string);
      else if (!reader.push(piece as string)) break;
    }
  } catch (e) {
    throw new VerityError(`--labels ${path}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, 'input');
  }
  const parsed = sheet ? parseReviewSheet(sheet.join(''), path) : reader.end();
  if (!parsed.ok) throw new VerityError(parsed.error, 'input');
  if (parsed.value.pending)
    say(`${path}: ${parsed.value.pending} line${parsed.value.pending === 1 ? '' : 's'} not labelled yet (left out)`);
  if (parsed.value.settled) say(`${path}: ${settledNote(parsed.value.settled)}`);
  return parsed.value;
}

/**
 * Every verdict of `paths` (label files of any input: reviews, their sheets, files with known lines), each with the
 * file it came from, in the order read. A line that is not JSON fails, with where; `option` names the flag in errors.
 */
export async function readVerdicts(paths: readonly string[], option: string): Promise<{ path: string; verdict: Verdict }[]> {
  const out: { path: string; verdict: Verdict }[] = [];
  const take = (path: string, o: unknown) => {
    const v = typeof o === 'object' && o !== null && !Array.isArray(o) ? lineVerdict(o as Record<string, unknown>) : null;
    if (v) out.push({ path, verdict: v });
  };
  for (const path of paths) {
    const cannot = (e: unknown) =>
      new VerityError(`${option} ${path}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, 'input');
    if (/\.csv$/i.test(path)) {
      const lines = sheetLines(await readFile(path, 'utf8').catch((e: unknown) => Promise.reject(cannot(e))), `${option} ${path}`);
      if (!lines.ok) throw new VerityError(lines.error, 'input');
      for (const { value } of lines.value) take(path, value);
      continue;
    }
    let n = 0;
    try {
      for await (const raw of createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity })) {
        n++;
        const line = raw.trim();
        if (!line) continue;
        let o: unknown;
        try {
          o = JSON.parse(line);
        } catch {
          throw new VerityError(`${option} ${path}, line ${n} is not JSON: each line of a label file is one JSON object`, 'input');
        }
        take(path, o);
      }
    } catch (e) {
      throw e instanceof VerityError ? e : cannot(e);
    }
  }
  return out;
}

/** The label memory of `paths`: every verdict with what it judged, the later one kept for the same answer. */
export async function readMemory(paths: readonly string[]): Promise<LabelMemory> {
  const memory = new LabelMemory();
  for (const { verdict } of await readVerdicts(paths, '--known')) memory.add(verdict);
  return memory;
}

/**
 * The content hash of several inputs as one, as the app names them (core/io/bundle.ts, base names); null when one
 * of them is not a regular file (stdin).
 */
export async function inputsHash(files: readonly string[], hashes: readonly (string | null)[]): Promise<string | null> {
  if (files.length === 1) return hashes[0] ?? null;
  try {
    const blobs = await Promise.all(files.map((f) => (f === '-' ? Promise.reject(new Error('stdin')) : openAsBlob(f))));
    return await contentHash(bundleFiles(blobs.map((blob, k) => ({ name: basename(files[k]!), blob }))));
  } catch {
    return null;
  }
}

/** Refuses labels that name another input than `hash` (the inputs' hash; null when it could not be made). */
export function checkLabelsInput(path: string, parsed: ParsedLabels, inputs: readonly string[], hash: string | null): void {
  const name = inputs.length === 1 ? inputs[0]! : `these ${inputs.length} files`;
  if (parsed.input && hash === null) {
    say(`${path}: the labels name an input by its SHA-256, which cannot be checked against ${name} read from stdin`);
    return;
  }
  const why = anotherInput(path, parsed.input, name, hash ?? '', 'labels are folded only into the input they were given on');
  if (why) throw new VerityError(why, 'input');
}

/** The rows with the labels in; refuses when no label matches a row (labels of another input). */
export function foldInto<R extends { id: string; system?: string; label?: Label }>(
  rows: readonly R[],
  parsed: ParsedLabels,
  path: string,
  systems = 1,
): (R & ReviewedRow)[] {
  const missing = missingSystems(path, parsed.labels, systems);
  if (missing) throw new VerityError(missing, 'input');
  const f = foldLabels(rows, parsed);
  if (parsed.labels.length > 0 && f.applied === 0 && f.waiting < parsed.labels.length)
    throw new VerityError(noLabelMatches(path, parsed.labels.length, f.unknownIds, 'a row of the input'), 'input');
  const lacking = knownMissing(path, f);
  if (lacking) throw new VerityError(lacking, 'input');
  say(`${path}: ${foldNote(f)}`);
  return f.rows;
}
