/**
 * `verity score FILE`: every row scored, JSONL to stdout or a .jsonl / .csv / .tsv file. With `--shard K/N`, the
 * K-th of N slices of the file, JSONL after a header line naming the shard (shard.ts; `verity merge` joins them).
 */
import type { Command } from 'commander';
import { formatList } from '../../core/io/formats/index.ts';
import { outputRecord } from '../../core/records.ts';
import { isBatchMetric } from '../../core/types.ts';
import { checkOut, fileSink, outKind, stdoutSink, type RecordSink } from '../output.ts';
import { usedModels } from '../models.ts';
import { buildMetrics, common, type CommonOptions } from '../options.ts';
import { scoreFile, writeThrough } from '../run.ts';
import { parseShard } from '../shard.ts';
import { contentHash } from '../../core/io/hash.ts';
import { openAsBlob } from 'node:fs';
import { VerityError } from '../../core/types.ts';
import pkg from '../../../package.json' with { type: 'json' };

async function cmdScore(file: string, o: CommonOptions & { out?: string; shard?: string }): Promise<void> {
  // --out is checked before any work: a folder or a missing folder first, then the extension.
  if (o.out !== undefined) await checkOut(o.out);
  const kind = o.out === undefined ? undefined : outKind(o.out);
  const shard = o.shard !== undefined ? parseShard(o.shard) : undefined;
  if (shard && kind && kind !== 'jsonl')
    throw new VerityError(`--shard writes JSONL parts for verity merge: use a .jsonl --out (merge writes CSV or TSV)`, 'usage');
  if (shard && file === '-') throw new VerityError('--shard needs a file (every shard reads the same input), not stdin', 'usage');
  const run = buildMetrics(o);
  const { metrics } = run;
  const detailed = new Set(metrics.filter(isBatchMetric).map((m) => m.name));
  const names = metrics.map((m) => m.name);
  const input = shard ? await contentHash(await openAsBlob(file)) : '';
  let goldSep = '';
  const sink: RecordSink = o.out !== undefined ? await fileSink(o.out, kind!, names, () => goldSep) : stdoutSink();
  let records = 0;
  let header = false;
  /** A shard's first line: which slice, of what input, scored how (what merge checks the parts by). */
  const writeHeader = async (models: Record<string, unknown> | undefined) => {
    if (!shard || header) return;
    header = true;
    const config = {
      verity: pkg.version,
      metrics: metrics.map((m) => ({ name: m.name, threshold: m.threshold })),
      options: {
        map: o.map ?? null,
        goldSep: o.goldSep ?? null,
        normalization: o.normalization ?? null,
        strict: !!o.strict,
        lexicalMode: o.lexicalMode ?? null,
        // only when given, so a header without them reads as it did
        ...(run.config.settings.options ? { metricOptions: run.config.settings.options } : {}),
      },
      models: models ?? null,
    };
    await sink.write([{ verity_shard: { k: shard.k, n: shard.n, input, records, config, goldSep } }]);
  };
  await writeThrough(sink, async () => {
    let models: Record<string, unknown> | undefined;
    await scoreFile(
      file,
      run,
      o,
      async (rows, results, ctx) => {
        models = await usedModels(ctx);
        await writeHeader(models);
        await sink.write(rows.map((r, i) => ({ ...outputRecord(r, results[i]!, detailed), ...(models ? { models } : {}) })));
      },
      undefined,
      { ...(shard ? { shard } : {}), onRecords: (n) => (records = n), onGoldSep: (sep) => (goldSep = sep) },
    );
    await writeHeader(models);
  });
}

export function register(p: Command): void {
  common(
    p
      .command('score')
      .argument('<file>', `a ${formatList('or')} file ("-" for stdin)`)
      .description('score every row; JSONL to stdout or --out'),
  )
    .option('--out <file>', 'write results to a .jsonl, .csv or .tsv file')
    .option('--shard <K/N>', 'score only the K-th of N slices of the file (JSONL parts for verity merge)')
    .action(cmdScore);
}
