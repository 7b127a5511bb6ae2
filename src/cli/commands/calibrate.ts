/** `verity calibrate FILE --metric M --out F`: a decision threshold (one metric) or a combination (several). */
import { Option, type Command } from 'commander';
import { metricDescriptor } from '../../core/metrics/index.ts';
import { labelIsCorrect } from '../../core/correctness.ts';
import { calibrateThreshold, fitCombination, fitCutpoints, type Calibration, type Objective } from '../../core/agreement/index.ts';
import { VerityError, type QaRow, type CapClass, type Label } from '../../core/types.ts';
import { AtomicFile, checkOut } from '../output.ts';
import { say } from '../say.ts';
import { modelContext } from '../models.ts';
import { buildMetrics, common, type BuiltRun, type CommonOptions } from '../options.ts';
import { load, scoreFile } from '../run.ts';
import { checkLabelsInput, foldInto, readLabels } from '../labels.ts';
import { refitThreshold } from '../../core/review/refit.ts';

type CalibrateOptions = CommonOptions & { metric: string; objective: Objective; out: string; labels?: string };

/**
 * After a review (--labels): the metric's threshold fitted again on the reviewed rows, each weighed for the rows
 * it stands for (1/π: core/review/refit.ts), and the change in agreement on them said.
 */
async function refitAfterReview(file: string, o: CalibrateOptions, run: BuiltRun): Promise<Calibration> {
  const metric = run.metrics[0]!;
  const labels = await readLabels(o.labels!);
  const rows: { id: string; label?: Label }[] = [];
  const scores: (number | null)[] = [];
  const { hash } = await scoreFile(
    file,
    run,
    o,
    async (batch, results) => {
      batch.forEach((r, i) => {
        rows.push({ id: r.id, ...(r.label ? { label: r.label } : {}) });
        scores.push(results[i]![metric.name]?.score ?? null);
      });
    },
    undefined,
    { hash: true },
  );
  checkLabelsInput(o.labels!, labels, [file], hash ?? null);
  const folded = foldInto(rows, labels, o.labels!);
  const cells = folded.map((r, i) => ({ s: scores[i]!, h: r.label ? (labelIsCorrect(r.label) ? 1 : 0) : -1, pi: r.pi ?? NaN }));
  if (!cells.some((c) => c.h >= 0 && c.s !== null))
    throw new VerityError(`no reviewed row of ${file} has a ${metric.name} score to fit on`, 'input');
  const r = refitThreshold(metric.name, cells, metric.threshold);
  const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)}%`);
  say(
    `${metric.name}: the reviewed rows favour threshold ${r.fitted} (fitted on ${r.rows} reviewed rows); agreement with the labels on the review's sample, weighted for the rows each stands for ` +
      (r.slice.n
        ? `(${r.slice.n} rows): ${pct(r.slice.before)} → ${pct(r.slice.after)}, cross-fitted`
        : ': no labelled row to measure it on') +
      (r.applied ? `; threshold ${r.before} → ${r.after}` : `; not better on the sample, so the threshold stays ${r.before}`),
  );
  return { version: 1, metric: metric.name, objective: 'accuracy', threshold: r.after };
}

async function cmdCalibrate(file: string, o: CalibrateOptions): Promise<void> {
  const names = o.metric
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const run = buildMetrics({ ...o, metrics: names.join(','), calibration: [] });
  if (!/\.json$/i.test(o.out)) throw new VerityError(`--out ${o.out}: use a .json file name`, 'usage');
  await checkOut(o.out);
  if (o.labels) {
    if (names.length !== 1) throw new VerityError("--labels refits one metric's threshold: give one --metric", 'usage');
    return writeCalibration(o.out, await refitAfterReview(file, o, run));
  }
  // A metric with its own calibration (nli_lex fits its weights on its features) needs the labelled rows whole;
  // the others keep each metric's score per labelled row, streamed like score and evaluate.
  const nliLex = names.length === 1 && metricDescriptor(names[0]!).calibrate !== undefined;
  const labelled: Label[] = [];
  const scores: (number | null)[][] = names.map(() => []);
  let rows: QaRow[] = [];
  if (nliLex) rows = (await load(file, o)).rows.filter((r) => r.label);
  else
    await scoreFile(
      file,
      run,
      o,
      async (batch, results) => {
        batch.forEach((r, i) => {
          labelled.push(r.label!);
          names.forEach((n, k) => scores[k]!.push(results[i]![n]?.score ?? null));
        });
      },
      (r) => r.label !== undefined,
    );
  // A loop, not push(...): a spread of one argument per row overflows the call stack on large files.
  if (nliLex) for (const r of rows) labelled.push(r.label!);
  if (labelled.length === 0) throw new VerityError(`${file} has no usable labels to calibrate on`, 'input');
  const labels = labelled.map(labelIsCorrect);
  let cal: Calibration;
  try {
    const own = names.length === 1 ? metricDescriptor(names[0]!).calibrate : undefined;
    if (own) {
      // The metric's own calibration (e.g. nli_lex fits its weights), from its descriptor.
      cal = await own(rows, await modelContext(run, o), o.objective);
    } else if (names.length > 1) {
      const comb = fitCombination(
        labels.map((_, i) => names.map((_n, k) => scores[k]![i]!)),
        labels,
        names,
      );
      cal = { version: 1, objective: 'mcc', combination: comb };
    } else {
      cal = calibrateThreshold(scores[0]!, labels, o.objective, names[0]);
      if (labelled.every((l) => l.kind === 'taxonomy'))
        cal.cutpoints = fitCutpoints(
          scores[0]!,
          labelled.map((l) => (l as { cls: CapClass }).cls),
        );
    }
  } catch (e) {
    throw new VerityError(`cannot calibrate on ${file}: ${(e as Error).message}`, 'input');
  }
  await writeCalibration(o.out, cal);
}

async function writeCalibration(path: string, cal: Calibration): Promise<void> {
  await AtomicFile.writeWhole(path, `${JSON.stringify(cal, null, 2)}\n`);
  say(`wrote ${path}${cal.threshold !== undefined ? ` (threshold ${cal.threshold})` : ''}`);
}

export function register(p: Command): void {
  common(
    p
      .command('calibrate')
      .argument('<file>', 'a labelled file')
      .description('fit a decision threshold (one metric) or a combination (several)'),
  )
    .requiredOption('--metric <name>', 'metric to calibrate; several (a,b) fit a logistic combination')
    .addOption(new Option('--objective <name>', 'what the threshold maximizes').choices(['mcc', 'accuracy', 'f1']).default('mcc'))
    .requiredOption('--out <file>', 'calibration JSON to write')
    .option(
      '--labels <file>',
      'review labels (.jsonl: id, label, picked): refit the threshold on the reviewed rows, the random slice weighed for the rows it stands for',
    )
    .action(cmdCalibrate);
}
