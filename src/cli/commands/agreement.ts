/**
 * `verity agreement R1 R2 …`: how far the people who reviewed the same answers agree — Cohen's κ for two reviewers,
 * Krippendorff's α for more, with a bootstrap interval over the answers — and every answer they judged otherwise
 * (core/review/reviewers.ts). Label files of any input (reviews, their sheets, files with known lines); a line's
 * reviewer is its "reviewer", else its file's name (one person a file).
 */
import { basename } from 'node:path';
import type { Command } from 'commander';
import { writeFile } from 'node:fs/promises';
import { mergeVerdicts, reviewedUnits, reviewerAgreement } from '../../core/review/reviewers.ts';
import { labelJson } from '../../core/review/labels.ts';
import { VerityError, type Label } from '../../core/types.ts';
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

const shown = (l: Label) => (l.kind === 'binary' ? (l.correct ? 'correct' : 'incorrect') : l.cls);

async function cmdAgreement(files: string[], o: AgreementOptions): Promise<void> {
  if (o.unsettled !== 'majority' && o.unsettled !== 'omit')
    throw new VerityError(`--unsettled expects majority or omit, got "${o.unsettled}"`, 'usage');
  if (o.out !== undefined && !/\.jsonl$/i.test(o.out)) throw new VerityError(`--out ${o.out}: use a .jsonl file name`, 'usage');
  const resamples = intOption(o.resamples, '--resamples', DEFAULTS.bootstrap.resamples);
  const seed = intOption(o.seed, '--seed', DEFAULTS.bootstrap.seed);
  const read = await readVerdicts(files, 'agreement');
  if (!read.length)
    throw new VerityError(
      `${files.join(', ')}: no verdict with what it judged (a line with its question, golds, answer and label): give filled-in review files`,
      'input',
    );
  const units = reviewedUnits(read.map(({ path, verdict }) => ({ verdict, reviewer: basename(path).replace(/\.(jsonl|csv)$/i, '') })));
  if (o.adjudicator !== undefined && !units.some((u) => u.verdicts.has(o.adjudicator!)))
    throw new VerityError(`--adjudicator ${o.adjudicator}: no verdict is theirs (a line's "reviewer", else its file's name)`, 'input');
  // The adjudicator settles; their verdicts are not a reviewer's in the agreement.
  const reviewed = units.map((u) => ({ ...u, verdicts: new Map([...u.verdicts].filter(([who]) => who !== o.adjudicator)) }));
  const a = reviewerAgreement(reviewed, { resamples, seed, level: DEFAULTS.bootstrap.level });
  if (a.reviewers.length < 2)
    throw new VerityError(
      `every verdict is ${a.reviewers[0]}'s: agreement needs two reviewers (a line names its reviewer in "reviewer", else its file is one person's)`,
      'input',
    );
  if (a.shared === 0)
    throw new VerityError(`${a.reviewers.join(', ')}: no answer was judged by two of them, so there is no agreement to measure`, 'input');
  const merged = mergeVerdicts(units, { ...(o.adjudicator !== undefined ? { adjudicator: o.adjudicator } : {}), unsettled: o.unsettled });
  const how = { adjudicated: 0, majority: 0 };
  for (const v of merged.verdicts) if (v.settled === 'adjudicated' || v.settled === 'majority') how[v.settled]++;
  if (o.out) {
    const lines = merged.verdicts.map((v) =>
      JSON.stringify({
        question: v.question,
        golds: v.golds,
        candidate: v.candidate,
        label: labelJson(v.label),
        settled: v.settled,
        reviewers: Object.fromEntries(Object.entries(v.reviewers).map(([who, l]) => [who, labelJson(l)])),
      }),
    );
    await writeFile(o.out, lines.length ? `${lines.join('\n')}\n` : '');
  }
  if (o.json) {
    const settling = {
      adjudicator: o.adjudicator ?? null,
      unsettled: o.unsettled,
      ...how,
      omitted: merged.omitted,
      merged: merged.verdicts.length,
    };
    const disagreements = a.disagreements.map((d) => ({
      ...d,
      verdicts: d.verdicts.map((v) => ({ reviewer: v.reviewer, label: labelJson(v.label) })),
    }));
    return void process.stdout.write(`${JSON.stringify({ ...a, disagreements, settling })}\n`);
  }
  const name = a.statistic === 'kappa' ? "Cohen's κ" : "Krippendorff's α";
  const f3 = (x: number) => x.toFixed(3);
  const lines = [
    `${a.reviewers.length} reviewers (${a.reviewers.join(', ')}): ${a.shared} of ${a.units} answers judged by two or more, compared as correct / incorrect.`,
    a.value === null
      ? `${name}: none — every verdict is the same, so agreement beyond chance cannot be measured.`
      : `${name} = ${f3(a.value)}${a.ci ? ` (${Math.round(a.level * 100)}% CI ${f3(a.ci[0])} to ${f3(a.ci[1])}; bootstrap over the answers, ${a.resamples} resamples, seed ${a.seed})` : ''}.`,
    '',
    a.disagreements.length ? `Judged otherwise (${a.disagreements.length}):` : 'No answer was judged otherwise.',
    ...a.disagreements.map(
      (d) =>
        `  ${JSON.stringify(d.question)} — answer ${JSON.stringify(d.candidate)} (gold ${d.golds.map((g) => JSON.stringify(g)).join(' | ')}): ` +
        d.verdicts.map((v) => `${v.reviewer} ${shown(v.label)}`).join(', '),
    ),
    '',
    `${merged.verdicts.length} answers have one verdict` +
      (a.disagreements.length
        ? ` (of the disagreements: ${[
            ...(o.adjudicator !== undefined ? [`${how.adjudicated} settled by ${o.adjudicator}`] : []),
            ...(o.unsettled === 'majority' ? [`${how.majority} by the majority`] : []),
            `${merged.omitted} left out${o.unsettled === 'majority' ? ' (tied)' : ' (unsettled; --unsettled majority takes the majority)'}`,
          ].join(', ')})`
        : '') +
      (o.out ? `; written to ${o.out}, for --known of verity review` : '') +
      '.',
  ];
  process.stdout.write(`${lines.map(escapeControls).join('\n')}\n`);
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
