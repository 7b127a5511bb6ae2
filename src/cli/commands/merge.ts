/**
 * `verity merge OUT PARTS…`: the parts of a sharded `verity score --shard K/N` joined into OUT (.jsonl, .csv or
 * .tsv; `-` for JSONL on stdout) — the same bytes an unsharded run writes. Parts of another input or configuration,
 * a slice given twice or one missing are refused with the reason; nothing is written then.
 */
import type { Command } from 'commander';
import { checkOut, fileSink, outKind, stdoutSink, type RecordSink } from '../output.ts';
import { eachPartRecord, orderParts } from '../shard.ts';
import { writeThrough } from '../run.ts';
import { readFile } from 'node:fs/promises';
import { say } from '../say.ts';

async function cmdMerge(out: string, parts: string[]): Promise<void> {
  if (out !== '-') await checkOut(out);
  const ordered = await orderParts(parts);
  // The metrics, for a CSV's columns, and the input's gold separator, for its gold cells: the first part's header says them.
  const first = JSON.parse((await readFile(ordered[0]!, 'utf8')).split('\n', 1)[0]!) as {
    verity_shard: { config: { metrics: { name: string }[] }; goldSep?: string };
  };
  const names = first.verity_shard.config.metrics.map((m) => m.name);
  const goldSep = first.verity_shard.goldSep ?? '';
  const sink: RecordSink = out === '-' ? stdoutSink() : await fileSink(out, outKind(out), names, () => goldSep);
  let rows = 0;
  await writeThrough(sink, async () => {
    let batch: Record<string, unknown>[] = [];
    await eachPartRecord(ordered, async (line) => {
      batch.push(JSON.parse(line) as Record<string, unknown>);
      rows++;
      if (batch.length >= 1024) {
        await sink.write(batch);
        batch = [];
      }
    });
    await sink.write(batch);
  });
  say(`merged ${ordered.length} part${ordered.length === 1 ? '' : 's'}: ${rows} rows${out === '-' ? '' : ` written to ${out}`}`);
}

export function register(p: Command): void {
  p.command('merge')
    .argument('<out>', 'the file to write (.jsonl, .csv or .tsv), or - for JSONL on stdout')
    .argument('<parts...>', 'the parts written by verity score --shard K/N, in any order')
    .description('join the parts of a sharded verity score into the output an unsharded run gives')
    .action(cmdMerge);
}
