/**
 * `verity compare FILES…`: several systems' answers, scored with the same metrics and compared — leaderboard
 * with bootstrap intervals, paired tests (McNemar exact + paired bootstrap, Holm-corrected), and whether each
 * metric ranks the systems as the human labels do. Systems come from a system column, the wide layout
 * (answer_<system> + judge_<system>) or one file per system. Deterministic for a given --seed.
 */
import { Option, type Command } from 'commander';
import { reshapedNote, type InputTable } from '../../core/io/formats/index.ts';
import { prepareInput } from '../../core/io/prepare.ts';
import { ResultTable } from '../../core/result-table.ts';
import { compareReport, type CompareReport, type FilesInput, type KeyBy, type SystemRow } from '../../core/compare/index.ts';
import { VerityError, isBatchMetric } from '../../core/types.ts';
import { AtomicFile, checkOut } from '../output.ts';
import { cliNote, escapeControls, say } from '../say.ts';
import { goldSepOption, intOption } from '../options.ts';
import { readHashedInput, sayIssues } from '../input.ts';
import { count } from '../../core/util/plural.ts';
import { leaderboardCsv, leaderboardRows, reportJson, rowRecord } from '../../core/compare/exports.ts';
import { compareHtml, compareSplitsHtml } from '../../core/compare/html.ts';
import { compareSplits, splitMissing, type SplitSummary } from '../../core/compare/split.ts';
import { splitsCsv } from '../../core/compare/exports.ts';
import { closingSummary } from '../../core/compare/headline-metric.ts';
import { f3, noRankingWhy, pairName } from '../../core/compare/format.ts';
import { judgeCells, judgeLines, leaderboardCells, pairedCells, reviewedPairCells, reviewNote } from '../../core/compare/cells.ts';
import { DEFAULTS } from '../../core/defaults.ts';
import { modelContext, usedModels } from '../models.ts';
import { buildMetrics, common, type CommonOptions, parseMapSpec } from '../options.ts';
import { scoreAll } from '../run.ts';
import pkg from '../../../package.json' with { type: 'json' };
import { checkLabelsInput, foldInto, inputsHash, readLabels, readMemory } from '../labels.ts';
import { labelIsCorrect } from '../../core/correctness.ts';
import type { LabelMemory } from '../../core/review/memory.ts';

export { leaderboardCsv, leaderboardRows, reportJson, rowRecord };

interface CompareOptions {
  labels?: string;
  known?: string[];
  map?: string;
  goldSep?: string;
  systemColumn?: string;
  joinBy?: KeyBy;
  json?: boolean;
  seed?: string;
  resamples?: string;
  alpha?: string;
  out?: string;
  rowsOut?: string;
  html?: string;
  splitBy?: string;
}

async function readFile(file: string, hash: boolean): Promise<{ table: InputTable; hash: string | null }> {
  try {
    return await readHashedInput(file, hash);
  } catch (e) {
    if (e instanceof VerityError) throw new VerityError(`${file}: ${e.message}`, e.kind);
    throw e;
  }
}

/** Reads and maps every file; issues and notes go to stderr. With `hash`, the inputs' content hash too. */
export async function loadSystems(files: string[], o: CompareOptions, hash = false): Promise<FilesInput & { hash: string | null }> {
  const map = o.map ? parseMapSpec(o.map) : undefined;
  const read = await Promise.all(files.map(async (name) => ({ name, ...(await readFile(name, hash)) })));
  // Files are named by their base names, as the app names them: a report made to be sent carries no folder of the
  // sender's. Only where base names alone cannot tell files apart (or name harness runs by their folder) does the
  // folder that holds each file stay.
  const shown = displayNames(files);
  const tables = read.map(({ table }, k) => ({ name: shown[k]!, table }));
  for (const { name, table } of tables) {
    const reshaped = reshapedNote(table as InputTable);
    if (reshaped) say(`${name}: ${reshaped}`);
  }
  const prepared = prepareInput(tables, {
    ...(map ? { map } : {}),
    ...goldSepOption(o.goldSep),
    systems: { ...(o.systemColumn ? { systemColumn: o.systemColumn } : {}), ...(o.joinBy ? { keyBy: o.joinBy } : {}) },
  });
  for (const n of [...prepared.separatorNotes, ...prepared.notes]) say(`note: ${cliNote(n)}`);
  const input = prepared.systems!;
  sayIssues(input.issues, '');
  // Split by a column, systems that lack the other splits' questions are what the split is for: one line, not one a system.
  const missing = (n: string) => / questions missing \(present in another input\)| more systems lack questions another system has$/.test(n);
  const notes = o.splitBy !== undefined ? input.notes.filter((n) => !missing(n)) : input.notes;
  for (const n of notes) say(n);
  if (notes.length < input.notes.length)
    say(
      `${input.coverage.systems.filter((c) => c.missing > 0).length} systems lack questions others have: each split by ${o.splitBy} is compared on its own`,
    );
  if (input.rows.length === 0) throw new VerityError('no usable rows in the input', 'input');
  const formats = [...new Set(tables.map((t) => (t.table as InputTable).source.toUpperCase()))].join('+');
  say(`${formats}, ${count(input.rows.length, 'row')} of ${count(input.systems.length, 'system')} (${input.systems.join(', ')})`);
  return Object.assign(input, {
    hash: hash
      ? await inputsHash(
          files,
          read.map((r) => r.hash),
        )
      : null,
  });
}

/** Names for the files given: base names, or parent/base where base names collide or are harness sample files. */
export function displayNames(files: readonly string[]): string[] {
  const parts = files.map((f) => (f === '-' ? ['stdin'] : f.split(/[\\/]/).filter(Boolean)));
  const last = (k: number) => parts.map((p) => p.slice(-k).join('/'));
  const bases = last(1);
  const harness = bases.length > 1 && bases.every((b) => /^samples_/.test(b));
  if (new Set(bases).size === bases.length && !harness) return bases;
  const two = last(2);
  return new Set(two).size === two.length ? two : files.map((f) => f);
}

// ---------- text ----------

/** A text table; cells from the input (system names) have control and bidi characters escaped, as on stderr. */
function table(header: string[], rows: string[][], leftCols = 1): string {
  const cells = [header, ...rows].map((r) => r.map(escapeControls));
  const widths = header.map((_, j) => Math.max(...cells.map((r) => (r[j] ?? '').length)));
  return cells
    .map((r) =>
      r
        .map((c, j) => (j < leftCols ? c.padEnd(widths[j]!) : c.padStart(widths[j]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** How many questions the systems split on (some judged correct, some not), from the k-of-n counts. */
function disagreeLine(rep: CompareReport, metric: string): string {
  let split = 0;
  let decided = 0;
  for (const [kn, count] of Object.entries(rep.splits[metric] ?? {})) {
    const [k, n] = kn.split('/').map(Number) as [number, number];
    if (n < 2) continue;
    decided += count;
    if (k > 0 && k < n) split += count;
  }
  return `systems disagree on ${split} of ${decided} questions decided for two or more systems`;
}

export function reportText(rep: CompareReport): string {
  const L: string[] = [];
  const b = rep.leaderboard.bootstrap;
  L.push(
    `${count(rep.systems.length, 'system')}, ${count(rep.questions, 'question')}, ${count(rep.rows, 'row')} (${rep.labelled} with a human label); ` +
      `${Math.round(b.level * 100)}% bootstrap intervals over questions, ${b.resamples} resamples, seed ${b.seed}; α = ${rep.paired.alpha}, Holm-corrected`,
  );
  const humanPairs = rep.paired.metrics.find((m) => m.metric === 'human');
  const reviewedPairs = rep.paired.metrics.find((m) => m.metric === 'reviewed');
  const note = reviewNote(rep);
  if (note) L.push(note);
  for (const lb of rep.leaderboard.metrics) {
    L.push('', `== ${lb.metric} (correct when score ≥ ${lb.threshold}) ==`, '');
    const ranking = rep.ranking?.metrics.find((m) => m.metric === lb.metric);
    const board = leaderboardCells(lb, ranking);
    L.push(table(board.head, board.rows, 3));
    const pairs = rep.paired.metrics.find((m) => m.metric === lb.metric)!.pairs;
    if (pairs.length) {
      const paired = pairedCells(pairs, true);
      L.push(
        '',
        `paired tests (A − B on shared questions${note ? `, on ${lb.metric}'s own decisions` : ''}):`,
        table(paired.head, paired.rows, 2),
      );
    }
    if (ranking && rep.systems.length > 1) {
      const why = noRankingWhy(ranking);
      const named = (d: { a: string; b: string }) => escapeControls(pairName(d.a, d.b));
      const disc = ranking.discordant.map(named).join(', ') || 'none';
      const ties = ranking.tiedInOne.length ? `; tied by one ordering only: ${ranking.tiedInOne.map(named).join(', ')}` : '';
      L.push(
        '',
        why
          ? `metric vs ${ranking.against === 'reviewed' ? `reviewed (${ranking.reference})` : 'human'} ranking: no Kendall τ (${why})`
          : `metric vs ${ranking.against === 'reviewed' ? `reviewed (${ranking.reference})` : 'human'} ranking: Kendall τ = ${f3(ranking.kendallTau)} over ${count(ranking.systems, 'system')}; pairs ordered the other way: ${disc}${ties}`,
      );
    }
    if (rep.systems.length > 1) L.push(disagreeLine(rep, lb.metric));
  }
  if (rep.splits.human && rep.systems.length > 1)
    L.push('', `human labels: ${disagreeLine(rep, 'human').replace(/^systems/, 'the systems')}`);
  if (reviewedPairs && reviewedPairs.pairs.length) {
    const paired = reviewedPairCells(reviewedPairs.pairs);
    L.push('', '== the review: paired differences of the estimated accuracies ==', '', table(paired.head, paired.rows, 2));
  }
  if (rep.judge) {
    const j = judgeCells(rep.judge);
    L.push(
      '',
      `== what the review says about the judge (${rep.judge.reference}) ==`,
      '',
      table(j.head, j.rows, 1),
      '',
      ...judgeLines(rep.judge),
    );
  }
  if (humanPairs && humanPairs.pairs.length) {
    const paired = pairedCells(humanPairs.pairs, false);
    L.push('', '== human labels: paired tests ==', '', table(paired.head, paired.rows, 2));
  }
  const summary = closingSummary(rep);
  if (summary.length) L.push('', ...summary.map(escapeControls));
  return `${L.join('\n')}\n`;
}

/** The systems × splits table of one metric: accuracy per split, and the macro average with its interval. */
export function splitText(s: SplitSummary): string {
  const head = ['system', ...s.splits, `macro average [${Math.round(s.level * 100)}% CI]`];
  const rows = s.systems.map((r) => [
    r.system,
    ...s.splits.map((k) => {
      const c = r.cells[k]!;
      return c.accuracy === null ? '—' : `${f3(c.accuracy)} (${c.n})`;
    }),
    r.macro === null
      ? '—'
      : `${f3(r.macro)} [${f3(r.ci![0])}, ${f3(r.ci![1])}]${r.missing.length ? ` without ${r.missing.join(', ')}` : ''}`,
  ]);
  const small = s.small.length
    ? `\nfewer than 30 questions for some system in ${s.small.map(escapeControls).join(', ')}: the interval is less sure there`
    : '';
  return `${s.metric}: accuracy per split (questions decided), every split weighing alike\n${table(head, rows)}${small}`;
}

/** The closing line of a split comparison: the first table's order by macro average. */
function splitsSummaryLine(summaries: readonly SplitSummary[]): string {
  const s = summaries[0];
  if (!s) return '';
  const order = s.systems.filter((r) => r.macro !== null).map((r) => `${escapeControls(r.system)} ${f3(r.macro)}`);
  return `\nIn short: by ${escapeControls(s.metric)}'s macro average over ${s.splits.length} splits, ${order.join(' > ')}.`;
}

// ---------- exports ----------

/**
 * The rows with the earlier verdicts that judge them. Not labels: the review was not drawn beside them, so counted
 * as known they would bias the estimate; as the rows' prediction (core/review/frame.ts), on every row they judge
 * whether the review drew it or not, they keep it unbiased and narrow it where they are right.
 */
function withEarlier<R extends SystemRow>(rows: R[], memory: LabelMemory): R[] {
  let n = 0;
  const out = rows.map((r) => {
    const v = memory.find(r);
    if (!v) return r;
    n++;
    return { ...r, earlier: labelIsCorrect(v.label) };
  });
  say(
    `--known: ${memory.size} earlier verdicts judge ${n} row${n === 1 ? '' : 's'}; they stand in for the judge's prediction there (not as labels: the review was not drawn beside them), so every estimate stays unbiased and narrows where they are right`,
  );
  return out;
}

export function register(program: Command): void {
  common(
    program
      .command('compare')
      .argument('<files...>', 'one file with several systems (system column or answer_<system> columns), or one file per system')
      .description('compare systems: leaderboard with intervals, paired tests (Holm), metric vs human ranking'),
  )
    .option('--system-column <column>', "the column naming each row's system (default: system, model, source or run)")
    .addOption(
      new Option(
        '--join-by <rule>',
        'how rows of different systems are paired (default: id when the ids pair rows of different systems, else question text)',
      ).choices(['id', 'question', 'record']),
    )
    .option(
      '--labels <file>',
      "review labels (.jsonl: id, system, label, picked) folded in: the leaderboard gains each system's reviewed accuracy",
    )
    .option(
      '--known <files...>',
      "with --labels: earlier verdicts (label files of any input) stand in for the judge's prediction on the rows they judge",
    )
    .option('--json', 'print one JSON object')
    .option('--seed <n>', 'bootstrap seed', String(DEFAULTS.bootstrap.seed))
    .option('--resamples <n>', 'bootstrap resamples (0 = no intervals, no bootstrap p)', String(DEFAULTS.bootstrap.resamples))
    .option('--alpha <p>', 'family-wise error rate for "A > B"', String(DEFAULTS.alpha))
    .option('--out <file>', 'write the leaderboard to a .csv or .json file (.json = the whole report)')
    .option('--rows-out <file>', 'write every scored row, with its system and input columns, to a .jsonl file')
    .option('--html <file>', 'write the comparison as one self-contained page to share (.html; no script, no external request)')
    .option(
      '--split-by <column>',
      'one comparison per value of this column (a dataset, a subject), and a systems × splits summary with macro averages; "system/" splits system names like diver/NQ/gpt4 at their last "/"',
    )
    .action(async (files: string[], o: CommonOptions & CompareOptions) => {
      const seed = intOption(o.seed, '--seed', DEFAULTS.bootstrap.seed);
      const resamples = intOption(o.resamples, '--resamples', DEFAULTS.bootstrap.resamples);
      const alpha = Number(o.alpha ?? DEFAULTS.alpha);
      if (!(alpha > 0 && alpha < 1)) throw new VerityError(`--alpha expects a number between 0 and 1, got "${o.alpha}"`, 'usage');
      if (o.out !== undefined && !/\.(csv|json)$/i.test(o.out))
        throw new VerityError(`--out ${o.out}: use a .csv or .json file name`, 'usage');
      if (o.rowsOut !== undefined && !/\.jsonl$/i.test(o.rowsOut))
        throw new VerityError(`--rows-out ${o.rowsOut}: use a .jsonl file name`, 'usage');
      if (o.html !== undefined && !/\.html?$/i.test(o.html)) throw new VerityError(`--html ${o.html}: use a .html file name`, 'usage');
      // Every output is checked before any work, and written whole or not at all (as verity score --out).
      const outputs = [
        ['--out', o.out],
        ['--rows-out', o.rowsOut],
        ['--html', o.html],
      ] as const;
      for (const [flag, path] of outputs) if (path !== undefined) await checkOut(path, flag);
      if (o.known?.length && !o.labels)
        throw new VerityError("--known needs --labels: earlier verdicts stand in for the judge in a review's estimate", 'usage');
      const run = buildMetrics(o);
      const { metrics } = run;
      const labels = o.labels ? await readLabels(o.labels) : null;
      const input = await loadSystems(files, o, labels !== null);
      if (labels) {
        checkLabelsInput(o.labels!, labels, files, input.hash);
        input.rows = foldInto(input.rows, labels, o.labels!, input.systems.length);
      }
      if (o.known?.length) input.rows = withEarlier(input.rows, await readMemory(o.known));
      const ctx = await modelContext(run, o);
      const names = metrics.map((m) => m.name);
      const detailed = new Set(metrics.filter(isBatchMetric).map((m) => m.name));
      const results = ResultTable.of(await scoreAll(input.rows, run, o, ctx), names, detailed);
      const reference = labels?.design?.judge ?? undefined;
      if (reference && !metrics.some((m) => m.name === reference))
        say(
          `note: the review was made for ${reference}, which is not among the metrics compared; the estimate starts from ${metrics.some((m) => m.name === 'pedants') ? 'pedants' : metrics[0]!.name} instead (as valid, its intervals may be wider)`,
        );
      const written: AtomicFile[] = [];
      const file = (path: string) => {
        const f = new AtomicFile(path);
        written.push(f);
        return f;
      };
      const htmlRun = async () => {
        const models = await usedModels(ctx);
        return {
          verity: pkg.version,
          metrics: metrics.map((m) => ({ name: m.name, threshold: m.threshold })),
          ...(models ? { models } : {}),
        };
      };
      /** --html, --out (.json: `json`; else the CSV) and --rows-out, each written whole or none of them at all. */
      const writeAll = async (html: () => Promise<string>, json: object, csv: () => string) => {
        try {
          if (o.html) await file(o.html).write(await html());
          if (o.out) await file(o.out).write(/\.json$/i.test(o.out) ? `${JSON.stringify(json, null, 1)}\n` : csv());
          await writeRows();
          for (const f of written) await f.commit();
        } catch (e) {
          await Promise.all(written.map((f) => f.abort()));
          throw e;
        }
      };
      const writeRows = async () => {
        if (!o.rowsOut) return;
        const rows = file(o.rowsOut);
        for (let i = 0; i < input.rows.length; i += 1024) {
          let text = '';
          for (let j = i; j < Math.min(input.rows.length, i + 1024); j++)
            text += `${JSON.stringify(rowRecord(input.rows[j]!, results.row(j), detailed))}\n`;
          await rows.write(text);
        }
      };
      if (o.splitBy !== undefined) {
        const split = compareSplits(
          input.rows,
          results,
          metrics.map((m) => ({ name: m.name, threshold: m.threshold })),
          o.splitBy,
          { seed, resamples, alpha, ...(reference ? { reference } : {}) },
        );
        if ('missing' in split) throw new VerityError(`--split-by ${splitMissing(input.rows, o.splitBy, split.missing)}`, 'usage');
        const { splits: each, summaries } = split;
        say(`${count(each.length, 'split')} by ${o.splitBy}: ${each.map((p) => `${p.split} (${count(p.rows, 'row')})`).join(', ')}`);
        const json = {
          schema: 'verity-compare-splits/1',
          split_by: o.splitBy,
          summary: summaries,
          splits: each.map((e) => ({ split: e.split, report: reportJson(e.report, input) })),
        };
        await writeAll(
          async () => compareSplitsHtml(o.splitBy!, each as never, summaries, input, await htmlRun()),
          json,
          () => splitsCsv(summaries),
        );
        if (o.json) process.stdout.write(`${JSON.stringify(json)}\n`);
        else
          process.stdout.write(
            `${each.map((e) => `=== ${escapeControls(o.splitBy ?? '')}: ${escapeControls(e.split)} ===\n\n${reportText(e.report)}`).join('\n')}\n=== systems × ${escapeControls(o.splitBy)} ===\n\n${summaries.map(splitText).join('\n\n')}\n${splitsSummaryLine(summaries)}\n`,
          );
        return;
      }
      const { report, table } = compareReport(input.rows, results, metrics, {
        seed,
        resamples,
        alpha,
        ...(reference ? { reference } : {}),
      });
      const json = reportJson(report, input);
      await writeAll(
        async () => compareHtml(report, table, input.rows, input, await htmlRun()),
        json,
        () => leaderboardCsv(report),
      );
      process.stdout.write(o.json ? `${JSON.stringify(json)}\n` : reportText(report));
    });
}
