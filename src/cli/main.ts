/**
 * The `verity` command line: score, evaluate, calibrate, compare and explain QA answers with the same core as
 * the web app. One module per command under commands/; this one assembles them (commander parses arguments,
 * sub-commands, --help and usage errors) and maps failures to exit codes. Importing it runs nothing: the bin
 * (bin/verity.mjs, entry.ts) calls `main`.
 */
import { Command, CommanderError } from 'commander';
import { missingColumnMessage, type Field } from '../core/io/fields.ts';
import { detectWideLayout } from '../core/io/systems.ts';
import { VerityError } from '../core/types.ts';
import { escapeControls, say } from './say.ts';
import { incompleteInputs } from './input.ts';
import { ioMessage, removePending } from './output.ts';
import { defaultScoringThreads, endScoringThreads, setScoringThreads } from './thread.ts';
import { failedModels } from './models.ts';
import { writing } from './run.ts';
import * as score from './commands/score.ts';
import * as evaluate from './commands/evaluate.ts';
import * as calibrate from './commands/calibrate.ts';
import * as statements from './commands/statements.ts';
import * as explain from './commands/explain.ts';
import * as compare from './commands/compare.ts';
import * as review from './commands/review.ts';
import * as metrics from './commands/metrics.ts';
import * as merge from './commands/merge.ts';
import * as agreement from './commands/agreement.ts';
import { EXIT_CODES, exitCodeOf } from './exit-codes.ts';
import pkg from '../../package.json' with { type: 'json' };

/** The commands, in the order --help lists them. */
const COMMANDS = [score, merge, evaluate, calibrate, statements, explain, compare, review, agreement, metrics];

export function program(): Command {
  const p = new Command('verity')
    .description('Score question-answering outputs against gold answers, privately, with published metrics.')
    .version(pkg.version)
    // Usage errors from commander get the same one-line "verity: …" form as ours (sub-commands inherit this).
    .configureOutput({
      outputError: (str, write) =>
        write(
          `verity: ${str
            .trim()
            .replace(/^error: /, '')
            .replace(/\s*\n\s*/g, ' ')} (run with --help for usage)\n`,
        ),
    })
    .exitOverride();
  for (const c of COMMANDS) c.register(p);
  return p;
}

/** The core's structured errors worded for a CLI user: with the flag that fixes them. */
function cliMessage(e: VerityError): string {
  const d = e.details as Record<string, unknown>;
  if (e.code === 'missing-column') {
    const details = d as { field: Field; expected: string[]; columns: string[]; headerLine?: number };
    // Several systems side by side (answer_<system> + judge_<system>): say which command reads them whole.
    const wide = details.field === 'candidate' ? detectWideLayout(details.columns) : null;
    if (wide && wide.systems.length > 1) {
      const [a] = wide.systems;
      return (
        `the file holds ${wide.systems.length} systems side by side (${wide.systems
          .slice(0, 5)
          .map((s) => s.candidate)
          .join(', ')}${wide.systems.length > 5 ? ', …' : ''}): ` +
        `verity compare reads them all (and verity review); to score one system, choose its column: --map candidate=${a!.candidate}${a!.label ? `,label=${a!.label}` : ''}`
      );
    }
    return missingColumnMessage(details, `. Use --map ${details.field}=COLUMN`);
  }
  if (e.code === 'unknown-system-column')
    return `--system-column ${String(d.column)}: no such column; the columns are ${(d.columns as string[]).join(', ')}`;
  if (e.code === 'unknown-column')
    return `--map ${String(d.field)}=${String(d.column)}: no such column; the columns are ${(d.columns as string[]).join(', ')}`;
  return e.message;
}

/**
 * Exit codes (exit-codes.ts, docs/cli.md): 0 success, 1 usage error, 2 unusable input, 3 internal error (a bug),
 * 4 the results cannot be written, 130 / 143 interrupted by SIGINT / SIGTERM (nothing is left at the --out path).
 */
export async function main(argv: string[]): Promise<number> {
  failedModels.clear();
  incompleteInputs.length = 0;
  setScoringThreads(defaultScoringThreads());
  const onSignal = (signal: NodeJS.Signals) => {
    say(`interrupted (${signal})${writing.sink?.target !== undefined ? `; nothing was written to ${writing.sink.target}` : ''}`);
    void Promise.all([endScoringThreads(), writing.sink?.abort(), removePending()]).finally(() =>
      process.exit(signal === 'SIGINT' ? EXIT_CODES.sigint : EXIT_CODES.sigterm),
    );
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // A reader that stops early (`verity score f | head`) closes stdout: stop quietly, as other tools do. Any
  // other write error (a full disk behind `> file`) is exit 4, in one line, like an --out that cannot be written.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    say(`cannot write the results to standard output: ${ioMessage(e)}`);
    void Promise.all([writing.sink?.abort(), removePending()]).finally(() => process.exit(EXIT_CODES.output));
  });
  try {
    await program().parseAsync(argv);
    // An input whose end could not be read (a record that never closes): what was read is written, and the run fails.
    for (const m of incompleteInputs) say(`the input was not read to its end: ${m}`);
    return failedModels.size || incompleteInputs.length ? EXIT_CODES.input : EXIT_CODES.success;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT_CODES.success : EXIT_CODES.usage;
    if (e instanceof VerityError) {
      say(cliMessage(e));
      return exitCodeOf(e);
    }
    process.stderr.write(`verity: internal error: ${escapeControls((e as Error).stack ?? String(e)).replaceAll('\\x0a', '\n')}\n`);
    return EXIT_CODES.internal;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await endScoringThreads();
  }
}
