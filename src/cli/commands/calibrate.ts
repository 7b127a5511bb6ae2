/** `verity calibrate FILE --metric M --out F`: a decision threshold (one metric) or a combination (several). */
import { Option, type Command } from 'commander';
import { metricDescriptor } from '../../core/metrics/index.ts';
import { labelIsCorrect } from '../../core/io/fields.ts';
import { calibrateThreshold, fitCombination, fitCutpoints, type Calibration, type Objective } from '../../core/agreement/index.ts';
import { VerityError, type QaRow, type CapClass, type Label } from '../../core/types.ts';
import { AtomicFile, checkOut, say } from '../io.ts';
import { modelContext } from '../models.ts';
import { buildMetrics, common, type CommonOptions } from '../options.ts';
import { load, scoreFile } from '../scoring.ts';

async function cmdCalibrate(file: string, o: CommonOptions & { metric: string; objective: Objective; out: string }): Promise<void> {
  const names = o.metric
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const metrics = buildMetrics({ ...o, metrics: names.join(','), calibration: [] });
  if (!/\.json$/i.test(o.out)) throw new VerityError(`--out ${o.out}: use a .json file name`, 'usage');
  await checkOut(o.out);
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
      metrics,
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
      cal = await own(rows, await modelContext(metrics, o), o.objective);
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
  const out = new AtomicFile(o.out);
  try {
    await out.write(`${JSON.stringify(cal, null, 2)}\n`);
    await out.commit();
  } catch (e) {
    await out.abort();
    throw e;
  }
  say(`wrote ${o.out}${cal.threshold !== undefined ? ` (threshold ${cal.threshold})` : ''}`);
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
    .action(cmdCalibrate);
}
