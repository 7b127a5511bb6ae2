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
import { budgetWords, designRecord, parseBudget, planReview, reviewLine, whyAsked, type ReviewPlan } from '../../core/review/plan.ts';
import { adaptedWeights, firstEntries, redraw } from '../../core/review/adapt.ts';
import { entryProbabilities, type AskedEntry } from '../../core/review/design.ts';
import { MIN_CLASS, MIN_LABELS } from '../../core/review/frame.ts';
import { labelJson, plainLabelLine, rowFinder, type ParsedLabels, type ReviewLabel } from '../../core/review/labels.ts';
import { labelIsCorrect } from '../../core/correctness.ts';
import { readLabels, readMemory } from '../labels.ts';
import { knownLine, type LabelMemory, type Verdict } from '../../core/review/memory.ts';
import { formatOf, labelFileText } from '../../core/review/sheet.ts';
import { parseShare, secondReview } from '../../core/review/agreement.ts';
import { VerityError, isBatchMetric } from '../../core/types.ts';
import { DEFAULTS } from '../../core/defaults.ts';
import { forecastLine, reviewForecast } from '../../core/review/ahead.ts';
import { DEFAULT_METRICS } from '../../core/metrics/index.ts';
import { AtomicFile, checkOut } from '../output.ts';
import { cliNote, say } from '../say.ts';
import { goldSepOption, intOption } from '../options.ts';
import { readHashedInput } from '../input.ts';
import { modelContext } from '../models.ts';
import { buildMetrics, common, parseMapSpec, type CommonOptions } from '../options.ts';
import { scoreAll } from '../run.ts';
import type { SystemRow } from '../../core/compare/index.ts';
import { splitValues } from '../../core/compare/split.ts';

interface ReviewOptions extends CommonOptions {
  budget?: string;
  continue?: string;
  known?: string[];
  judge?: string;
  seed?: string;
  splitBy?: string;
  second?: string;
  out: string;
}

/** Where the second reviewer's questions go: beside --out, `.second` before its ending. */
export const secondPath = (out: string): string => out.replace(/(\.(jsonl|csv))$/i, '.second$1');

async function cmdReview(file: string, o: ReviewOptions): Promise<void> {
  if (!/\.(jsonl|csv)$/i.test(o.out)) throw new VerityError(`--out ${o.out}: use a .jsonl file name (or .csv for a spreadsheet)`, 'usage');
  await checkOut(o.out);
  const second = o.second !== undefined ? parseShare(o.second) : null;
  if (second !== null) await checkOut(secondPath(o.out));
  if (o.continue !== undefined && o.continue === o.out)
    throw new VerityError(`--out ${o.out}: write the continued review to another file than --continue's`, 'usage');
  if (o.continue !== undefined && o.known?.length)
    throw new VerityError(
      `--known with --continue: a continued review keeps the known verdicts it was drawn beside; give --known to a new review`,
      'usage',
    );
  const earlier = o.continue !== undefined ? await readLabels(o.continue) : null;
  const memory = o.known?.length ? await readMemory(o.known) : null;
  const d = earlier?.design;
  if (earlier && !d) throw new VerityError(`--continue ${o.continue}: not a review file (no line has an "order" and a "design")`, 'usage');
  if (d && o.seed !== undefined && intOption(o.seed, '--seed', 0) !== d.seed)
    throw new VerityError(
      `--continue ${o.continue}: its review was drawn with seed ${d.seed}: leave out --seed, or give that one`,
      'usage',
    );
  if (d && o.splitBy !== undefined && o.splitBy !== (d.split ?? undefined))
    throw new VerityError(
      `--continue ${o.continue}: its review was drawn ${d.split !== null ? `split by ${d.split}` : 'without a split'}: ${d.split !== null ? `leave out --split-by, or give ${d.split}` : 'leave out --split-by'}`,
      'usage',
    );
  const splitBy = d ? (d.split ?? undefined) : o.splitBy;
  const seed = d ? d.seed : intOption(o.seed, '--seed', DEFAULTS.bootstrap.seed);
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
  for (const n of [...input.separatorNotes, ...input.notes]) say(`note: ${cliNote(n)}`);
  const rows = input.rows as SystemRow[];
  if (rows.length === 0) throw new VerityError(`no usable rows in ${file}`, 'input');
  const many = (input.systems?.systems.length ?? 0) > 1;
  // The priority reads the embedded default set beside the judge, whatever --metrics chose (it was fitted so: with
  // the default settings).
  const extraNames = DEFAULT_METRICS.filter((n) => !metrics.some((m) => m.name === n));
  const scored = await scoreAll(rows, run, o, await modelContext(run, o));
  const extra = extraNames.length ? await scoreAll(rows, buildMetrics({ metrics: extraNames.join(',') }), { ...o, progress: false }) : null;
  const all = [...metrics.map((m) => m.name), ...extraNames];
  const results = ResultTable.of(
    extra ? scored.map((r, i) => ({ ...r, ...extra[i] })) : scored,
    all,
    new Set(metrics.filter(isBatchMetric).map((m) => m.name)),
  );
  const others = DEFAULT_METRICS.filter((n) => n !== judge.name);
  const splits = splitBy !== undefined ? splitValues(rows, splitBy) : null;
  if (splits && 'missing' in splits) throw new VerityError(`--split-by ${splits.message}`, 'usage');
  const signalRows = rows.map((r, i) => ({
    id: r.id,
    question: r.question,
    golds: r.golds,
    candidate: r.candidate,
    ...(many ? { key: r.key, system: r.system } : {}),
    ...(splits ? { split: splits[i]! } : {}),
  }));
  // Verdicts known before this review: remembered (--known), or the ones the review to continue was drawn beside.
  const knownOf = knownVerdicts(rows, memory, earlier);
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
    splitBy,
    knownOf ? (i) => knownOf[i] !== undefined : undefined,
  );
  if (memory) {
    const groups = plan.known.reduce((s, k) => s + k, 0);
    say(
      `${o.known!.join(', ')}: ${memory.size} earlier verdict${memory.size === 1 ? '' : 's'}; ${groups} of this file's distinct answers (${plan.knownRows} rows) known, not asked again and counted as they are`,
    );
  }
  if (splits) {
    const n = new Set(splits).size;
    say(
      `split by ${splitBy}: ${n} split${n === 1 ? '' : 's'}, each system's accuracy the mean over them; every split drawn as its own accuracy needs, however few its rows`,
    );
  }
  const prior = earlier ? continued(o.continue!, earlier, plan, rows, judge.name, hash) : null;
  const drawable = plan.design.order.length;
  const budget = o.budget
    ? parseBudget(o.budget, rows.length, drawable)
    : prior
      ? parseBudget(String(prior.asked), rows.length, drawable)
      : null;
  if (!budget) throw new VerityError('--budget: say how many questions to ask (500, or a share of the rows: 15%)', 'usage');
  if (!budget.ok) throw new VerityError(`--${budget.error}`, 'usage');
  if (drawable === 0) say(`every distinct answer of ${file} is known from earlier verdicts: nothing is left to ask`);
  else if (budget.value.note) say(`note: ${budget.value.note}`);
  const count = budget.value.count;
  let entries = firstEntries(plan, count);
  if (prior) {
    if (count < prior.answered)
      throw new VerityError(
        `--budget ${o.budget}: ${o.continue} already has ${prior.answered} answers in order; ask at least as many`,
        'usage',
      );
    entries = prior.entries;
  }
  if (prior && count === prior.answered)
    say(
      `${o.continue}: ${prior.answered} answers in order and a budget of ${count}: no question is left to draw (give a larger --budget to ask more)`,
    );
  else if (prior) {
    const weights = adaptedWeights(plan, entries, prior.answered, prior.label);
    const epoch = Math.max(0, ...entries.map((e) => e.epoch)) + 1;
    // Too few answers to refit: the first draw's weights, drawn afresh (a new epoch is valid with any weights fixed now).
    entries = redraw(plan, entries, prior.answered, weights ?? plan.design.weights, epoch, count);
    say(
      weights
        ? `${o.continue}: ${prior.answered} answers in order; the ${count - prior.answered} questions after them drawn again, weighed by what those answers say of where ${judge.name} is hard to predict`
        : `${o.continue}: ${prior.answered} answers in order, too few to refit the draw on (it needs ${MIN_LABELS} labelled rows, ${MIN_CLASS} right and ${MIN_CLASS} wrong); the ${count - prior.answered} questions after them drawn again as at first`,
    );
  }
  const q = entryProbabilities(entries);
  const design = designRecord(plan, count);
  let covered = 0;
  const placed = new Set<number>();
  const lines = entries.map((entry, k) => {
    const members = plan.groups[entry.group]!;
    covered += members.length;
    placed.add(entry.group);
    const i = members[0]!;
    const r = rows[i]!;
    const line = reviewLine({
      order: k + 1,
      rows: members.map((m) => ({ id: rows[m]!.id, ...(many ? { system: rows[m]!.system } : {}) })),
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
      why: whyAsked(plan, entry.group),
      entry,
      q: q[k]!,
      design,
      input: hash ?? '',
    });
    if (prior) carryLabels(line, members, prior.given, (m) => ({ id: rows[m]!.id, ...(many ? { system: rows[m]!.system } : {}) }));
    return line;
  });
  // Labels of questions the new draw does not ask stay, as labels outside the design (each row's truth).
  if (prior)
    for (const [i, l] of prior.given)
      if (!placed.has(plan.groupOf[i]!) && !l.known)
        lines.push(plainLabelLine({ id: rows[i]!.id, ...(many ? { system: rows[i]!.system } : {}), label: l.label }, hash ?? ''));
  // The known verdicts, one line a row, with what they judged: the review counts them, and the next one remembers them.
  if (knownOf)
    plan.groups.forEach((members, g) => {
      if (!plan.known[g]) return;
      const v = knownOf[members[0]!]!;
      for (const m of members) {
        const r = rows[m]!;
        lines.push(
          knownLine(
            { id: r.id, ...(many ? { system: r.system } : {}), question: r.question, golds: r.golds, candidate: r.candidate },
            v,
            hash ?? '',
          ),
        );
      }
    });
  await AtomicFile.writeWhole(o.out, labelFileText(lines, formatOf(o.out)));
  const twice = second !== null ? secondReview(lines, second, seed) : [];
  if (second !== null) await AtomicFile.writeWhole(secondPath(o.out), labelFileText(twice, formatOf(o.out)));
  say(
    `wrote ${o.out}: ${budgetWords(budget.value.share, entries.length, covered, rows.length, drawable)}, most where ${judge.name} is likely wrong. ` +
      'Fill in each "label" (true/false or a class name) from the top, and stop where you like: the intervals hold wherever you stop, ' +
      'up to the first line left blank. Give it to --labels of verity compare, evaluate or calibrate, or to --continue of verity review ' +
      'to draw the questions after your answers again from what they say',
  );
  if (second !== null)
    say(
      `wrote ${secondPath(o.out)}: ${twice.length} of the ${entries.length} questions, drawn at random, for a second person to answer ` +
        "without the judge's call; verity agreement " +
        `${o.out} ${secondPath(o.out)} then says how far you agree (κ) and where you differ`,
    );
  if (!prior && entries.length) {
    const system = (i: number) => (many ? (rows[i]!.system ?? '') : '');
    say(forecastLine(reviewForecast(plan, system, entries.length, (i) => results.decision(judge.name, i), DEFAULTS.bootstrap.level)));
  }
}

/** What a review answered from the top carries into its continuation. */
interface Prior {
  /** Its lines as entries, the first `answered` answered in order; how many it asked. */
  entries: AskedEntry[];
  answered: number;
  asked: number;
  /** Each labelled row's label (whatever line gave it), whether it was the row's own, and whether it was known. */
  given: Map<number, { label: ReviewLabel['label']; own: boolean; known: boolean }>;
  label: (row: number) => number;
}

/** Reads the review to continue: the same input, judge and seed; its answered lines become the new review's first. */
function continued(
  path: string,
  parsed: ParsedLabels,
  plan: ReviewPlan,
  rows: readonly SystemRow[],
  judge: string,
  hash: string | null,
): Prior {
  const d = parsed.design!;
  if (hash !== null && parsed.input !== null && parsed.input !== hash)
    throw new VerityError(`--continue ${path}: its review was drawn from another input (SHA-256 ${parsed.input.slice(0, 12)}…)`, 'input');
  if (d.judge !== null && d.judge !== judge)
    throw new VerityError(
      `--continue ${path}: its review asks about ${d.judge}'s decisions, not ${judge}'s: pass --judge ${d.judge}`,
      'usage',
    );
  const rowOf = rowFinder(rows);
  const lines = [...d.lines].sort((a, b) => a.order - b.order);
  const entries = lines.slice(0, d.sequence.answered).map((l): AskedEntry => {
    const i = rowOf.find(l.first.id, l.first.system);
    if (i < 0) throw new VerityError(`--continue ${path}, question ${l.order}: names a row this input does not have`, 'input');
    return { group: plan.groupOf[i]!, epoch: l.epoch, weight: l.weight, draw: l.draw, total: l.total };
  });
  const given = new Map<number, { label: ReviewLabel['label']; own: boolean; known: boolean }>();
  for (const l of parsed.labels) {
    const i = rowOf.find(l.id, l.system);
    if (i >= 0) given.set(i, { label: l.label, own: l.own === true, known: l.known === true });
  }
  // Only the answers in order feed the refit (the design's sample); later ones are carried, not learned from.
  const inOrder = new Set(entries.flatMap((e) => plan.groups[e.group]!));
  const label = (i: number) => {
    const g = inOrder.has(i) ? given.get(i) : undefined;
    return g ? (labelIsCorrect(g.label) ? 1 : 0) : -1;
  };
  return { entries, answered: entries.length, asked: lines.length, given, label };
}

/** What a known line writes of a verdict (knownLine). */
type KnownVerdict = Pick<Verdict, 'label' | 'reviewer' | 'time'>;

/**
 * Each row's verdict known before the review (undefined where none), or null when nothing is: from the memory of
 * --known, or the known lines of the review to continue (the draw it continues left those out).
 */
function knownVerdicts(
  rows: readonly SystemRow[],
  memory: LabelMemory | null,
  earlier: ParsedLabels | null,
): (KnownVerdict | undefined)[] | null {
  if (memory) return rows.map((r) => memory.find(r));
  const known = earlier?.labels.filter((l) => l.known) ?? [];
  if (!known.length) return null;
  const rowOf = rowFinder(rows);
  const out: (KnownVerdict | undefined)[] = new Array(rows.length);
  for (const l of known) {
    const i = rowOf.find(l.id, l.system);
    if (i >= 0) out[i] = { label: l.label, ...(l.time ? { time: l.time } : {}) };
  }
  return out;
}

/** Puts a continued review's labels on the line of their group: the group's label, and any row's own. */
function carryLabels(
  line: Record<string, unknown>,
  members: readonly number[],
  given: Prior['given'],
  idOf: (row: number) => { id: string; system?: string },
): void {
  const shared = members.map((m) => given.get(m)).find((g) => g && !g.own);
  if (shared) line.label = labelJson(shared.label);
  if (members.some((m) => given.get(m)?.own))
    line.rows = members.map((m) => {
      const g = given.get(m);
      return { ...idOf(m), ...(g?.own ? { label: labelJson(g.label) } : {}) };
    });
}

export function register(p: Command): void {
  common(
    p
      .command('review')
      .argument('<file>', 'the answers to review (one file, or - for stdin; several systems by a system column or the wide layout)')
      .description('the questions most worth a human answer, each distinct answer once, drawn with known probabilities; JSONL to --out'),
  )
    .option(
      '--budget <n>',
      'questions to ask: a number (500), or a share of the rows (15% or 0.15); with --continue, as many as its file by default',
    )
    .option(
      '--continue <file>',
      'a review of this input answered from the top: keep its answers and draw the questions after them again from what they say',
    )
    .option(
      '--known <files...>',
      'earlier reviews (their files, or files with known lines): answers they judged are not asked again and count as they were judged',
    )
    .option('--judge <metric>', 'the metric whose decisions are reviewed (default: pedants if chosen, else the first metric)')
    .option('--seed <n>', `seed of the draw (default ${DEFAULTS.bootstrap.seed}; with --continue, its file's)`)
    .option(
      '--split-by <column>',
      'draw for the mean over the values of this column (a dataset, a subject), as compare --split-by reports it: a split with few rows still gets the answers its own accuracy needs; "system/" splits system names at their last "/"',
    )
    .option(
      '--second <share>',
      "also write a share of the questions (10% or 0.1) to FILE.second.jsonl (or .csv) for a second person, without the judge's call: verity agreement compares the two",
    )
    .requiredOption(
      '--out <file>',
      'the .jsonl file to write, or a .csv for a spreadsheet (a line a question, the label column to fill in)',
    )
    .action(cmdReview);
}
