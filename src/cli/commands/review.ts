/**
 * `verity review FILE --budget N|FRACTION --out review.jsonl`: the rows a person should look at (issue 36) — mostly
 * those where the judge is most likely wrong (src/core/review/priority.ts), plus a random slice that measures the
 * judge's error on the rest, balanced across systems. Deterministic for a --seed; never more rows than the budget.
 * Each line: id, system (if any), question, golds, candidate, the judge's score and decision with why, how and
 * why picked, the input's SHA-256, and `"label": null` for the person to fill in (true / false or a class name):
 * the file is then a label file for `--labels` of compare, evaluate and calibrate.
 */
import type { Command } from 'commander';
import { ResultTable } from '../../core/result-table.ts';
import { prepareInput } from '../../core/io/prepare.ts';
import { pickForReview, priorityFeatures, priorityReasons, reviewPriorities } from '../../core/review/priority.ts';
import { VerityError, isBatchMetric } from '../../core/types.ts';
import { DEFAULTS } from '../../core/defaults.ts';
import { AtomicFile, checkOut, cliNote, goldSepOption, intOption, readInputFile, say } from '../io.ts';
import { modelContext } from '../models.ts';
import { buildMetrics, common, parseMapSpec, type CommonOptions } from '../options.ts';
import { scoreAll } from '../scoring.ts';
import type { SystemRow } from '../../core/compare/index.ts';
import { contentHash } from '../../core/io/hash.ts';
import { openAsBlob } from 'node:fs';

interface ReviewOptions extends CommonOptions {
  budget: string;
  judge?: string;
  seed?: string;
  out: string;
}

/** --budget: a whole number of rows (1 … rows), or a fraction of them in (0, 1]. */
export function parseBudget(v: string, rows: number): number {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n)) throw new VerityError(`--budget expects a number of rows or a fraction, got "${v}"`, 'usage');
  if (n <= 0) throw new VerityError(`--budget ${v}: review at least one row`, 'usage');
  const count = n < 1 ? Math.max(1, Math.round(n * rows)) : n;
  if (!Number.isInteger(count)) throw new VerityError(`--budget ${v}: a number of rows is whole (or give a fraction below 1)`, 'usage');
  if (count > rows)
    throw new VerityError(`--budget ${v} is more than the ${rows} rows of the file; give at most ${rows}, or a fraction`, 'usage');
  return count;
}

async function cmdReview(file: string, o: ReviewOptions): Promise<void> {
  if (!/\.jsonl$/i.test(o.out)) throw new VerityError(`--out ${o.out}: use a .jsonl file name`, 'usage');
  await checkOut(o.out);
  const seed = intOption(o.seed, '--seed', DEFAULTS.bootstrap.seed);
  const metrics = buildMetrics(o);
  const judgeName = o.judge ?? (metrics.some((m) => m.name === 'pedants') ? 'pedants' : metrics[0]!.name);
  const judge = metrics.find((m) => m.name === judgeName);
  if (!judge) throw new VerityError(`--judge ${judgeName} is not among the metrics (${metrics.map((m) => m.name).join(', ')})`, 'usage');
  const map = o.map ? parseMapSpec(o.map) : undefined;
  const input = prepareInput([{ name: file, table: await readInputFile(file) }], {
    ...(map ? { map } : {}),
    ...goldSepOption(o.goldSep),
    systems: {},
  });
  for (const n of input.separatorNotes) say(`note: ${cliNote(n)}`);
  const rows = input.rows as SystemRow[];
  if (rows.length === 0) throw new VerityError(`no usable rows in ${file}`, 'input');
  const budget = parseBudget(o.budget, rows.length);
  const many = (input.systems?.systems.length ?? 0) > 1;
  // In the scoring thread, with the progress bar, as verity compare scores its rows.
  const results = ResultTable.of(
    await scoreAll(rows, metrics, o, await modelContext(metrics, o)),
    metrics.map((m) => m.name),
    new Set(metrics.filter(isBatchMetric).map((m) => m.name)),
  );
  const features = priorityFeatures(
    rows,
    results,
    { metric: judge.name, threshold: judge.threshold },
    many ? (i) => rows[i]!.system : undefined,
  );
  const priorities = reviewPriorities(features);
  const picks = pickForReview(priorities, budget, seed, many ? (i) => rows[i]!.system : undefined);
  const hash = await contentHash(await openAsBlob(file));
  const lines = picks.map(({ index: i, picked }) => {
    const r = rows[i]!;
    const why =
      picked !== 'uncertain'
        ? 'the random slice (measures the judge where nobody looked)'
        : priorityReasons(features[i]!).join('; ') || 'high priority';
    return JSON.stringify({
      id: r.id,
      ...(many ? { system: r.system } : {}),
      question: r.question,
      golds: r.golds,
      candidate: r.candidate,
      judge: {
        metric: judge.name,
        score: results.score(judge.name, i),
        decision: results.decision(judge.name, i),
        explanation: results.explanation(judge.name, i) ?? '',
      },
      priority: Math.round(priorities[i]! * 1e4) / 1e4,
      picked,
      why,
      input: hash,
      label: null,
    });
  });
  const out = new AtomicFile(o.out);
  try {
    await out.write(`${lines.join('\n')}\n`);
    await out.commit();
  } catch (e) {
    await out.abort();
    throw e;
  }
  const random = picks.filter((p) => p.picked !== 'uncertain').length;
  say(
    `wrote ${o.out}: ${picks.length} of ${rows.length} rows to review (${picks.length - random} most uncertain for ${judge.name}, ${random} at random); ` +
      `fill in each "label" (true/false or a class name) and give the file to --labels of verity compare, evaluate or calibrate`,
  );
}

export function register(p: Command): void {
  common(
    p
      .command('review')
      .argument('<file>', 'the answers to review (one file; several systems by a system column or the wide layout)')
      .description('pick the rows most worth a human look, plus a random slice; JSONL to --out'),
  )
    .requiredOption('--budget <n>', 'rows to review: a number, or a fraction of the rows (0.1 = 10%)')
    .option('--judge <metric>', 'the metric whose decisions are reviewed (default: pedants if chosen, else the first metric)')
    .option('--seed <n>', 'seed of the random slice', String(DEFAULTS.bootstrap.seed))
    .requiredOption('--out <file>', 'the .jsonl file to write')
    .action(cmdReview);
}
