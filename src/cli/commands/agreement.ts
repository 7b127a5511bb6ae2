/**
 * `verity agreement R1 R2 …`: how far the people who reviewed the same answers agree — Cohen's κ for two reviewers,
 * Krippendorff's α for more, with a bootstrap interval over the answers — and every answer they judged otherwise
 * (core/review/reviewers.ts). Label files of any input (reviews, their sheets, files with known lines); a line's
 * reviewer is its "reviewer", else its file's name (one person a file).
 */
import type { Command } from 'commander';
import { readFile } from 'node:fs/promises';
import {
  agreementJson,
  agreementLines,
  agreementReport,
  mergedJsonl,
  settleReview,
  type AgreementReport,
} from '../../core/review/agreement.ts';
import { formatOf, isSheet, labelFileLines, labelFileText } from '../../core/review/sheet.ts';
import { messageOf } from '../../core/errors.ts';
import { AtomicFile } from '../output.ts';
import { say } from '../say.ts';
import { VerityError } from '../../core/types.ts';
import { DEFAULTS } from '../../core/defaults.ts';
import { readVerdicts } from '../labels.ts';
import { intOption } from '../options.ts';
import { escapeControls } from '../say.ts';

interface AgreementOptions {
  json?: boolean;
  resamples?: string;
  seed?: string;
  adjudicator?: string;
  unsettled: string;
  out?: string;
  settle?: string;
}

async function cmdAgreement(files: string[], o: AgreementOptions): Promise<void> {
  if (o.unsettled !== 'majority' && o.unsettled !== 'omit')
    throw new VerityError(`--unsettled expects majority or omit, got "${o.unsettled}"`, 'usage');
  if (o.out !== undefined && !/\.jsonl$/i.test(o.out)) throw new VerityError(`--out ${o.out}: use a .jsonl file name`, 'usage');
  const resamples = intOption(o.resamples, '--resamples', DEFAULTS.bootstrap.resamples);
  const seed = intOption(o.seed, '--seed', DEFAULTS.bootstrap.seed);
  const read = await readVerdicts(files, 'agreement');
  const r = agreementReport(
    read.map(({ path, verdict }) => ({ source: path, verdict })),
    {
      ...(o.adjudicator !== undefined ? { adjudicator: o.adjudicator } : {}),
      unsettled: o.unsettled,
      resamples,
      seed,
      level: DEFAULTS.bootstrap.level,
      files,
    },
  );
  if (o.out) await AtomicFile.writeWhole(o.out, mergedJsonl(r.merged));
  if (o.settle !== undefined) await settleFirst(files[0]!, o.settle, r);
  if (o.json) return void process.stdout.write(`${JSON.stringify(agreementJson(r))}\n`);
  process.stdout.write(`${agreementLines(r, o.out).map(escapeControls).join('\n')}\n`);
}

/** The first file, a review, with its questions' verdicts settled: what `compare --labels` then estimates from. */
async function settleFirst(review: string, out: string, r: AgreementReport): Promise<void> {
  const text = await readFile(review, 'utf8').catch((e: unknown) => {
    throw new VerityError(`--settle: cannot read ${review} (${(e as NodeJS.ErrnoException).code ?? messageOf(e)})`, 'input');
  });
  const read = labelFileLines(text, review);
  if (!read.ok) throw new VerityError(read.error, 'input');
  const lines = read.value;
  const format = isSheet(review, text) ? 'csv' : 'jsonl';
  if (!lines.some((l) => typeof l.order === 'number' && l.design !== undefined))
    throw new VerityError(`--settle: ${review}, the first file, is not a review file (no line has an "order" and a "design")`, 'usage');
  if (formatOf(out) !== format) throw new VerityError(`--settle ${out}: write it in the first file's form (.${format})`, 'usage');
  const s = settleReview(lines, r.merged);
  await AtomicFile.writeWhole(out, labelFileText(s.lines, format));
  say(
    `wrote ${out}: ${review}'s questions judged by two or more — ${s.agreed} agreed, ${s.adjudicated} settled by the adjudicator, ` +
      `${s.majority} by the majority, ${s.unsettled} left unsettled` +
      (s.firstUnsettled !== null
        ? ` (unanswered there: the estimate uses answers in order, so it stops before question ${s.firstUnsettled} until that one is settled)`
        : '') +
      '. Give it to --labels of verity compare.',
  );
}

export function register(p: Command): void {
  p.command('agreement')
    .argument('<files...>', 'filled-in review files (JSONL or CSV) of the same answers, by two or more people')
    .description("how far reviewers agree (Cohen's κ for two, Krippendorff's α for more, with an interval), and where they differ")
    .option('--json', 'print one JSON object')
    .option('--resamples <n>', 'bootstrap resamples (0 = no interval)', String(DEFAULTS.bootstrap.resamples))
    .option('--seed <n>', 'bootstrap seed', String(DEFAULTS.bootstrap.seed))
    .option('--adjudicator <name>', 'the reviewer (a line\'s "reviewer", else a file\'s name) whose verdict settles a disagreement')
    .option('--unsettled <how>', 'a disagreement nobody settled: majority (a tie left out) or omit', 'omit')
    .option(
      '--out <file.jsonl>',
      "write one verdict per answer, with every reviewer's and how it was settled (for --known of verity review)",
    )
    .option(
      '--settle <file>',
      "write the first file (a review) with its questions' verdicts settled between the reviewers, for --labels of verity compare",
    )
    .action(cmdAgreement);
}
