/**
 * `verity explain --question Q --gold G --candidate C`: every embedded metric on one example, with its reasons (the
 * model metrics too when --metrics names them: nothing is downloaded unless asked for).
 */
import type { Command } from 'commander';
import { LEXICAL_METRICS } from '../../core/metrics/index.ts';
import { scoreRows } from '../../core/scoring.ts';
import { outputRecord } from '../../core/records.ts';
import type { QaRow } from '../../core/types.ts';
import { modelContext } from '../models.ts';
import { buildMetrics, common, type CommonOptions } from '../options.ts';

async function cmdExplain(o: CommonOptions & { question: string; gold: string[]; candidate: string; json?: boolean }): Promise<void> {
  const run = buildMetrics({ ...o, metrics: o.metrics ?? LEXICAL_METRICS.join(',') });
  const { metrics } = run;
  const row: QaRow = { row: 1, id: '1', question: o.question, golds: o.gold, candidate: o.candidate };
  const [results] = await scoreRows([row], metrics, await modelContext(run, o));
  const record = outputRecord(row, results!, new Set(metrics.map((m) => m.name)));
  if (o.json) return void process.stdout.write(`${JSON.stringify(record)}\n`);
  const lines = [`question:  ${o.question}`, `gold:      ${o.gold.join(' | ')}`, `candidate: ${o.candidate}`, ''];
  for (const m of metrics) {
    const r = results![m.name]!;
    const verdict = r.decision === null ? 'n/a' : r.decision ? 'correct' : 'incorrect';
    const extra = r.class ? ` [${r.class}]` : r.set ? ` [${r.set}]` : '';
    lines.push(
      `${m.name.padEnd(14)} ${r.score === null ? '   —  ' : r.score.toFixed(3).padStart(6)}  ${verdict.padEnd(9)}${extra}  ${r.explanation}`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

export function register(p: Command): void {
  common(p.command('explain').description('every embedded metric on one example, with its reasons (model metrics with --metrics)'))
    .requiredOption('--question <text>', 'the question')
    .requiredOption('--gold <text>', 'a gold answer (repeat for several)', (v: string, prev: string[] = []) => [...prev, v])
    .requiredOption('--candidate <text>', 'the answer to judge')
    .option('--json', 'print one JSON object')
    .action(cmdExplain);
}
