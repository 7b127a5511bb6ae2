/**
 * `verity review FILE --budget N|SHARE --out review.jsonl`: the questions a person should answer so that a few
 * labels turn into the right accuracies and ranking of the systems (core/review/plan.ts). Each distinct answer to
 * a question is asked once, for every system that gave it; answers are drawn with known probabilities, more often
 * where the judge is likely wrong, in an order such that answering any first part of the file is itself a valid
 * review. Deterministic for a --seed. Each line: the group's rows (ids and systems), question, golds, answer, the
 * judge's score and decision with why, why it is asked, its draw, the input's SHA-256, and `"label": null` to fill
 * in (true / false or a class name): the file is then a label file for `--labels` of compare, evaluate and calibrate.
 */
import type { Command } from 'commander';
import { ResultTable } from '../../core/result-table.ts';
import { prepareInput } from '../../core/io/prepare.ts';
import { askedGroups, budgetWords, designRecord, parseBudget, planReview, reviewLine, whyAsked } from '../../core/review/plan.ts';
import { VerityError, isBatchMetric } from '../../core/types.ts';
import { DEFAULTS } from '../../core/defaults.ts';
import { DEFAULT_METRICS } from '../../core/metrics/index.ts';
import { AtomicFile, checkOut } from '../output.ts';
import { cliNote, say } from '../say.ts';
import { goldSepOption, intOption } from '../options.ts';
import { readHashedInput } from '../input.ts';
import { modelContext } from '../models.ts';
import { buildMetrics, common, parseMapSpec, type CommonOptions } from '../options.ts';
import { scoreAll } from '../scoring.ts';
import type { SystemRow } from '../../core/compare/index.ts';

interface ReviewOptions extends CommonOptions {
  budget: string;
  judge?: string;
  seed?: string;
  out: string;
}

async function cmdReview(file: string, o: ReviewOptions): Promise<void> {
  if (!/\.jsonl$/i.test(o.out)) throw new VerityError(`--out ${o.out}: use a .jsonl file name`, 'usage');
  await checkOut(o.out);
  const seed = intOption(o.seed, '--seed', DEFAULTS.bootstrap.seed);
  const run = buildMetrics(o);
  const { metrics } = run;
  const judgeName = o.judge ?? (metrics.some((m) => m.name === 'pedants') ? 'pedants' : metrics[0]!.name);
  const judge = metrics.find((m) => m.name === judgeName);
  if (!judge) throw new VerityError(`--judge ${judgeName} is not among the metrics (${metrics.map((m) => m.name).join(', ')})`, 'usage');
  const map = o.map ? parseMapSpec(o.map) : undefined;
  const { table, hash } = await readHashedInput(file);
  const input = prepareInput([{ name: file, table }], {
    ...(map ? { map } : {}),
    ...goldSepOption(o.goldSep),
    systems: {},
  });
  for (const n of input.separatorNotes) say(`note: ${cliNote(n)}`);
  const rows = input.rows as SystemRow[];
  if (rows.length === 0) throw new VerityError(`no usable rows in ${file}`, 'input');
  const many = (input.systems?.systems.length ?? 0) > 1;
  // The priority reads the embedded default set beside the judge, whatever --metrics chose (it was fitted so: with
  // the default settings).
  const extraNames = DEFAULT_METRICS.filter((n) => !metrics.some((m) => m.name === n));
  const scored = await scoreAll(rows, run, o, await modelContext(metrics, o));
  const extra = extraNames.length ? await scoreAll(rows, buildMetrics({ metrics: extraNames.join(',') }), { ...o, progress: false }) : null;
  const all = [...metrics.map((m) => m.name), ...extraNames];
  const results = ResultTable.of(
    extra ? scored.map((r, i) => ({ ...r, ...extra[i] })) : scored,
    all,
    new Set(metrics.filter(isBatchMetric).map((m) => m.name)),
  );
  const others = DEFAULT_METRICS.filter((n) => n !== judge.name);
  const signalRows = rows.map((r) => ({
    id: r.id,
    question: r.question,
    golds: r.golds,
    candidate: r.candidate,
    ...(many ? { key: r.key, system: r.system } : {}),
  }));
  const plan = planReview(
    signalRows,
    {
      judge: { metric: judge.name, threshold: judge.threshold },
      score: (i) => results.score(judge.name, i),
      decision: (i) => results.decision(judge.name, i),
      others: (i) => others.map((n) => results.decision(n, i)),
    },
    seed,
    hash ?? '',
  );
  const budget = parseBudget(o.budget, rows.length, plan.groups.length);
  if (!budget.ok) throw new VerityError(`--${budget.error}`, 'usage');
  if (budget.value.note) say(`note: ${budget.value.note}`);
  const asked = askedGroups(plan, budget.value.count);
  const design = designRecord(plan, budget.value.count);
  let covered = 0;
  const lines = asked.map(({ group, order, q }) => {
    const members = plan.groups[group]!;
    covered += members.length;
    const i = members[0]!;
    const r = rows[i]!;
    return JSON.stringify(
      reviewLine({
        order,
        rows: members.map((k) => ({ id: rows[k]!.id, ...(many ? { system: rows[k]!.system } : {}) })),
        question: r.question,
        golds: r.golds,
        candidate: r.candidate,
        judge: {
          metric: judge.name,
          score: results.score(judge.name, i),
          decision: results.decision(judge.name, i),
          explanation: results.explanation(judge.name, i) ?? '',
        },
        priority: plan.priority[i]!,
        why: whyAsked(plan, group),
        weight: plan.design.weights[group]!,
        draw: plan.design.draws[group]!,
        q,
        design,
        input: hash ?? '',
      }),
    );
  });
  const out = new AtomicFile(o.out);
  try {
    await out.write(`${lines.join('\n')}\n`);
    await out.commit();
  } catch (e) {
    await out.abort();
    throw e;
  }
  say(
    `wrote ${o.out}: ${budgetWords(budget.value.share, asked.length, covered, rows.length, plan.groups.length)}, most where ${judge.name} is likely wrong. ` +
      'Fill in each "label" (true/false or a class name) from the top, and stop where you like: the intervals hold wherever you stop, ' +
      'up to the first line left blank. Give it to --labels of verity compare, evaluate or calibrate',
  );
}

export function register(p: Command): void {
  common(
    p
      .command('review')
      .argument('<file>', 'the answers to review (one file, or - for stdin; several systems by a system column or the wide layout)')
      .description('the questions most worth a human answer, each distinct answer once, drawn with known probabilities; JSONL to --out'),
  )
    .requiredOption('--budget <n>', 'questions to ask: a number (500), or a share of the rows (15% or 0.15)')
    .option('--judge <metric>', 'the metric whose decisions are reviewed (default: pedants if chosen, else the first metric)')
    .option('--seed <n>', 'seed of the draw', String(DEFAULTS.bootstrap.seed))
    .requiredOption('--out <file>', 'the .jsonl file to write')
    .action(cmdReview);
}
