/** `verity score FILE`: every row scored, JSONL to stdout or a .jsonl / .csv / .tsv file. */
import type { Command } from 'commander';
import { formatList } from '../../core/io/formats/index.ts';
import { outputRecord } from '../../core/run.ts';
import { isBatchMetric } from '../../core/types.ts';
import { checkOut, fileSink, outKind, stdoutSink, type RecordSink } from '../io.ts';
import { usedModels } from '../models.ts';
import { buildMetrics, common, type CommonOptions } from '../options.ts';
import { scoreFile, writing } from '../scoring.ts';

async function cmdScore(file: string, o: CommonOptions & { out?: string }): Promise<void> {
  // --out is checked before any work: a folder or a missing folder first, then the extension.
  if (o.out !== undefined) await checkOut(o.out);
  const kind = o.out === undefined ? undefined : outKind(o.out);
  const metrics = buildMetrics(o);
  const detailed = new Set(metrics.filter(isBatchMetric).map((m) => m.name));
  const names = metrics.map((m) => m.name);
  const sink: RecordSink = o.out !== undefined ? await fileSink(o.out, kind!, names) : stdoutSink();
  writing.sink = sink;
  try {
    await scoreFile(file, metrics, o, async (rows, results, ctx) => {
      const models = await usedModels(ctx);
      await sink.write(rows.map((r, i) => ({ ...outputRecord(r, results[i]!, detailed), ...(models ? { models } : {}) })));
    });
    await sink.close();
  } catch (e) {
    await sink.abort();
    throw e;
  } finally {
    writing.sink = undefined;
  }
}

export function register(p: Command): void {
  common(
    p
      .command('score')
      .argument('<file>', `a ${formatList('or')} file ("-" for stdin)`)
      .description('score every row; JSONL to stdout or --out'),
  )
    .option('--out <file>', 'write results to a .jsonl, .csv or .tsv file')
    .action(cmdScore);
}
