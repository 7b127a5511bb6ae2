/**
 * `verity agreement R1 R2 …`: how far the people who reviewed the same answers agree — Cohen's κ for two reviewers,
 * Krippendorff's α for more, with a bootstrap interval over the answers — and every answer they judged otherwise
 * (core/review/reviewers.ts). Label files of any input (reviews, their sheets, files with known lines); a line's
 * reviewer is its "reviewer", else its file's name (one person a file).
 */
import type { Command } from 'commander';
import { writeFile } from 'node:fs/promises';
import { agreementJson, agreementLines, agreementReport, mergedJsonl } from '../../core/review/agreement.ts';
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
  if (o.out) await writeFile(o.out, mergedJsonl(r.merged));
  if (o.json) return void process.stdout.write(`${JSON.stringify(agreementJson(r))}\n`);
  process.stdout.write(`${agreementLines(r, o.out).map(escapeControls).join('\n')}\n`);
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
    .action(cmdAgreement);
}
