/**
 * `verity statements FILE`: each (question, answer) turned into a declarative statement, as CAP's statement step
 * does, one JSONL line per row: the candidate's statement and each gold answer's. The file is read and mapped as
 * `verity score` reads it (prepareInput), except that golds are not required: a file of (question, answer) pairs
 * (the CAP-Statements layout, `id, question, answer, statement`) is a file of answers to turn into statements.
 */
import type { Command } from 'commander';
import { createRuleWriter } from '../../core/statements/rules.ts';
import { load } from '../run.ts';

async function cmdStatements(file: string, o: { map?: string; goldSep?: string }): Promise<void> {
  const { rows } = await load(file, o, true);
  const writer = createRuleWriter();
  const statements = await writer.write(rows.map((r) => ({ question: r.question, answer: r.candidate })));
  const golds = await writer.write(rows.flatMap((r) => r.golds.map((g) => ({ question: r.question, answer: g }))));
  let g = 0;
  rows.forEach((r, i) => {
    const gold_statements = golds.slice(g, (g += r.golds.length));
    process.stdout.write(
      `${JSON.stringify({ id: r.id, question: r.question, answer: r.candidate, statement: statements[i], golds: r.golds, gold_statements, writer: writer.name })}\n`,
    );
  });
}

export function register(p: Command): void {
  p.command('statements')
    .argument('<file>', 'rows with a question and an answer (a candidate, gold answers, or both), read as verity score reads them')
    .description("turn each (question, answer) into a declarative statement, the candidate's and each gold's; one JSONL line per row")
    .option('--map <pairs>', 'column mapping, e.g. question=q,candidate=a')
    .option('--gold-sep <sep>', 'split a gold string into several golds (default: the separator most gold cells use; none: never split)')
    .action(cmdStatements);
}
