/**
 * The real CLI, run as a child process (`node CLI …`, the CLI bundled once per run, see test/cli.ts; cwd = repo
 * root) on files in a temp dir. Each spawn costs about half a second, so assertions are grouped per spawn and
 * independent spawns run together. bin/verity.mjs (tsx, no build step) gets its own test.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTable } from '../core/io/parse.ts';
import { mapRows } from '../core/io/fields.ts';
import { createSyncMetric } from '../core/metrics/index.ts';
import { withWordNet } from '../../test/lexicon.ts';
import { scoreRows } from '../core/scoring.ts';
import { agreement } from '../core/report.ts';
import { CLI } from '../../test/cli.ts';

/** CLI JSON output, read by path in assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const LATIN1 = fileURLToPath(new URL('../../test/fixtures/io/latin1.csv', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function verity(...args: string[]): Promise<Run> {
  return start([CLI, ...args]);
}

/** `node …args` in the repo root. */
function start(args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
    );
  });
}

const lines = (s: string) => s.split('\n').filter((l) => l.length > 0);

let dir: string;
const p = (name: string) => join(dir, name);

// Labelled rows. Scores by hand, SQuAD normalization (lowercase, drop punctuation and a/an/the):
//   id    gold                 candidate            label        EM  token F1                      F1≥0.5
//   q10   Paris                Paris                true         1   1                             1
//   q2    George Washington    Washington           "yes"→true   0   P=1/1 R=1/2 → 2/3             1
//   q1    1945                 1944                 false        0   0                             0
//   q33   Blue whale           the blue whale       1→true       1   1 ("the" dropped)             1
//   q4    Mount Everest        Mount Kilimanjaro    "incorrect"  0   P=1/2 R=1/2 → 1/2             1 (≥ is inclusive)
//   q5    Lyon                 Lyon                 false        1   1                             1
//   q06   Jupiter              the fifth planet     true         0   0                             0
//   q8    Paris                Paris, "the city…"   "maybe"      0   tokens paris city of light in france:
//                                                                       P=1/6 R=1 → 2/7                 0
//         (unknown label: warned, scored, but not used in agreement)
//   q9    (empty)              x                    true         — no gold: reported and skipped
const LABELLED = [
  { id: 'q10', question: 'Capital of France?', gold: 'Paris', candidate: 'Paris', label: true },
  { id: 'q2', question: 'First US president?', gold: ['George Washington'], candidate: 'Washington', label: 'yes' },
  { id: 'q1', question: 'When did WWII end?', gold: '1945', candidate: '1944', label: false },
  { id: 'q33', question: 'Largest animal?', gold: 'Blue whale', candidate: 'the blue whale', label: 1 },
  { id: 'q4', question: 'Highest mountain?', gold: 'Mount Everest', candidate: 'Mount Kilimanjaro', label: 'incorrect' },
  { id: 'q5', question: 'Second city of France?', gold: 'Lyon', candidate: 'Lyon', label: false },
  { id: 'q06', question: 'Largest planet?', gold: 'Jupiter', candidate: 'the fifth planet', label: true },
  { id: 'q8', question: 'Capital of France?', gold: 'Paris', candidate: 'Paris, "the city of light"\nin France', label: 'maybe' },
  { id: 'q9', question: 'Empty gold', gold: '', candidate: 'x', label: true },
];
const SCORED_IDS = ['q10', 'q2', 'q1', 'q33', 'q4', 'q5', 'q06', 'q8']; // input order, q9 skipped

// Eight-class labels (severity: exact 7, equivalent 6, overinclusive-valid 5, partial 4, invalid 1, contradictory 0).
//   class                 gold                candidate        EM  token F1
//   exact                 Paris               Paris            1   1
//   equivalent            USA                 United States    0   0
//   partial               George Washington   Washington       0   2/3
//   overinclusive-valid   Paris               Paris or Lyon    0   P=1/3 R=1 → 1/2
//   invalid               Jupiter             Saturn           0   0
//   contradictory         yes                 no               0   0
const TAXONOMY = [
  { gold: 'Paris', candidate: 'Paris', label: 'Exact' },
  { gold: 'USA', candidate: 'United States', label: 'equivalent' },
  { gold: 'George Washington', candidate: 'Washington', label: 'partial' },
  { gold: 'Paris', candidate: 'Paris or Lyon', label: 'Overinclusive_Valid' },
  { gold: 'Jupiter', candidate: 'Saturn', label: 'INVALID' },
  { gold: 'yes', candidate: 'no', label: 'contradictory' },
];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'verity-cli-'));
  writeFileSync(p('labelled.jsonl'), LABELLED.map((r) => JSON.stringify(r)).join('\n') + '\n');
  writeFileSync(p('taxonomy.jsonl'), TAXONOMY.map((r) => JSON.stringify(r)).join('\n') + '\n');
  writeFileSync(p('nocand.csv'), 'question,gold,answer_gpt4\nq,a,b\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('verity score', () => {
  it('JSONL output: fields, input order, stderr report; two runs and --out are byte-identical; CSV re-parses', async () => {
    const [a, b, toFile, toCsv] = await Promise.all([
      verity('score', p('labelled.jsonl')),
      verity('score', p('labelled.jsonl')),
      verity('score', p('labelled.jsonl'), '--out', p('out.jsonl')),
      verity('score', p('labelled.jsonl'), '--out', p('out.csv')),
    ]);
    for (const r of [a, b, toFile, toCsv]) expect(r.code, r.stderr).toBe(0);

    // Byte-identical: the same command twice, and the same records written with --out.
    expect(a.stdout).toBe(b.stdout);
    expect(readFileSync(p('out.jsonl'), 'utf8')).toBe(a.stdout);
    expect(toFile.stdout).toBe('');

    // Bad rows are reported on stderr with their row numbers; the summary counts them.
    expect(a.stderr).toContain('verity: error: row 9: no gold answer in column "gold"; skipped');
    expect(a.stderr).toMatch(/verity: warning: row 8: label "maybe" is not one of/);
    expect(a.stderr).toContain('verity: JSONL, 8 rows read, 1 skipped, 1 warning');

    const recs = lines(a.stdout).map((l) => JSON.parse(l) as Record<string, Json>);
    expect(recs.map((r) => r.id)).toEqual(SCORED_IDS);
    for (const r of recs) {
      expect(Object.keys(r)).toEqual(['id', 'question', 'gold', 'candidate', 'label', 'metrics']);
      expect(Object.keys(r.metrics)).toEqual(['exact_match', 'token_f1', 'lexical_match', 'pedants', 'taxonomy_text']);
      for (const [name, m] of Object.entries(r.metrics) as [string, Record<string, unknown>][]) {
        // The taxonomy also says which class.
        expect(Object.keys(m)).toEqual(
          name === 'taxonomy_text' ? ['score', 'decision', 'class', 'explanation'] : ['score', 'decision', 'explanation'],
        );
        expect(typeof m.score).toBe('number');
        expect(typeof m.decision).toBe('boolean');
        expect(typeof m.explanation).toBe('string');
        expect((m.explanation as string).length).toBeGreaterThan(0);
      }
    }
    const byId = Object.fromEntries(recs.map((r) => [r.id, r]));
    expect(byId.q10).toMatchObject({ question: 'Capital of France?', gold: ['Paris'], candidate: 'Paris', label: true });
    expect(byId.q2).toMatchObject({ gold: ['George Washington'], label: true }); // "yes" → true
    expect(byId.q4!.label).toBe(false); // "incorrect"
    expect(byId.q8).toMatchObject({ candidate: 'Paris, "the city of light"\nin France', label: null });
    // Scores from the table above.
    expect(recs.map((r) => r.metrics.exact_match.score)).toEqual([1, 0, 0, 1, 0, 1, 0, 0]);
    const f1 = recs.map((r) => r.metrics.token_f1.score as number);
    [1, 2 / 3, 0, 1, 0.5, 1, 0, 2 / 7].forEach((want, i) => expect(f1[i]).toBeCloseTo(want, 12));
    expect(recs.map((r) => r.metrics.token_f1.decision)).toEqual([true, true, false, true, true, true, false, false]);
    // lexical_match: q8's candidate contains "Paris" on token boundaries; q5 "Lyon" = "Lyon".
    expect(recs.map((r) => r.metrics.lexical_match.decision)).toEqual([true, false, false, true, false, true, false, true]);
    expect(byId.q10!.metrics.exact_match.explanation).toBe('equals gold "Paris" after normalization');
    expect(byId.q2!.metrics.token_f1.explanation).toBe('best gold "George Washington": P=1 R=0.5 F1=0.667');
    const ped = recs.map((r) => r.metrics.pedants.score as number);
    for (const s of ped) {
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThanOrEqual(1);
    }

    // CSV: fixed columns, then <metric>.score/.decision/.explanation per metric; re-parses to the same rows.
    const csvText = readFileSync(p('out.csv'), 'utf8');
    const header = csvText.slice(0, csvText.indexOf('\n'));
    const names = ['exact_match', 'token_f1', 'lexical_match', 'pedants', 'taxonomy_text'];
    expect(header).toBe(
      [
        'id',
        'question',
        'gold',
        'candidate',
        'label',
        ...names.flatMap((n) => [`${n}.score`, `${n}.decision`, ...(n === 'taxonomy_text' ? [`${n}.class`] : []), `${n}.explanation`]),
      ].join(','),
    );
    const t = parseTable(readFileSync(p('out.csv')), 'out.csv');
    expect(t.format).toBe('csv');
    expect(t.issues).toEqual([]);
    expect(t.records.map((r) => r.data.id)).toEqual(SCORED_IDS);
    expect(t.records.map((r) => r.data.candidate)).toEqual(recs.map((r) => r.candidate));
    expect(t.records.map((r) => JSON.parse(r.data.gold as string))).toEqual(recs.map((r) => r.gold));
    expect(t.records.map((r) => r.data.label)).toEqual(['true', 'true', 'false', 'true', 'false', 'false', 'true', '']);
    expect(t.records.map((r) => r.data['exact_match.score'])).toEqual(['1', '0', '0', '1', '0', '1', '0', '0']);
    expect(t.records.map((r) => r.data['token_f1.decision'])).toEqual(['true', 'true', 'false', 'true', 'true', 'true', 'false', 'false']);
    expect(t.records.map((r) => Number(r.data['pedants.score']))).toEqual(ped);
  });
});

describe('verity score --metric-option', () => {
  it('reaches the scoring threads: lexical_match.mode=substring (or --lexical-mode) finds a gold inside a word; a bad one is a usage error', async () => {
    writeFileSync(p('inside.jsonl'), '{"question":"Capital?","gold":"Paris","candidate":"Parisian cafés"}\n');
    const score = (...flags: string[]) => verity('score', p('inside.jsonl'), '--metrics', 'lexical_match', '--threads', '2', ...flags);
    const [plain, option, shorthand, bad] = await Promise.all([
      score(),
      score('--metric-option', 'lexical_match.mode=substring'),
      score('--lexical-mode', 'substring'),
      score('--metric-option', 'lexical_match.mode=sub'),
    ]);
    const value = (r: Run) => (JSON.parse(r.stdout) as Json).metrics.lexical_match.score as number;
    expect([value(plain), value(option), value(shorthand)]).toEqual([0, 1, 1]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('verity: --metric-option: lexical_match.mode expects one of token, substring, got "sub"\n');
  });
});

describe('verity evaluate, as text', () => {
  it('gives every statistic its interval, and says why a statistic has no value', async () => {
    writeFileSync(
      p('no-exact.jsonl'),
      [
        { id: '1', question: 'Where?', gold: 'Paris', candidate: 'It is Paris, France', label: true },
        { id: '2', question: 'Where?', gold: 'Lyon', candidate: 'Lyon city', label: true },
        { id: '3', question: 'Where?', gold: 'Rome', candidate: 'Milan', label: false },
        { id: '4', question: 'Where?', gold: 'Nice', candidate: 'I think Nice', label: true },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    const r = await verity('evaluate', p('no-exact.jsonl'), '--metrics', 'exact_match,token_f1');
    expect(r.code, r.stderr).toBe(0);
    const at = r.stdout.indexOf('95% bootstrap intervals:');
    expect(at).toBeGreaterThan(0);
    const intervals = r.stdout.slice(at).split('\n');
    expect(intervals[1]).toMatch(/^metric\s+accuracy\s+precision\s+recall\s+f1\s+mcc\s+balanced_accuracy\s+kappa\s+roc_auc$/);
    expect(intervals.find((l) => l.startsWith('token_f1'))).toMatch(/^token_f1(\s+\[[\d.]+, [\d.]+\]){8}$/);
    // exact_match accepts no answer here: its precision and MCC have no value, and the report says why.
    expect(r.stdout).toMatch(/exact_match: precision, mcc — the metric judged no row correct \(precision is 0\/0\)/);
  });
});

describe('verity evaluate --json', () => {
  it('binary labels: accuracy / F1 / MCC / balanced accuracy / κ as computed by hand; taxonomy labels: the CAP report', async () => {
    const [bin, tax] = await Promise.all([
      verity('evaluate', p('labelled.jsonl'), '--json', '--metrics', 'exact_match,token_f1'),
      verity('evaluate', p('taxonomy.jsonl'), '--json', '--metrics', 'exact_match,token_f1', '--resamples', '0'),
    ]);
    expect(bin.code, bin.stderr).toBe(0);
    expect(tax.code, tax.stderr).toBe(0);

    const r = JSON.parse(bin.stdout) as Record<string, Json>;
    // 7 labelled rows; skipped = q8 (unknown label) + q9 (no gold).
    expect(r).toMatchObject({ n: 7, skipped: 2, label_kind: 'binary' });
    expect(Object.keys(r.metrics)).toEqual(['exact_match', 'token_f1']);

    // exact_match: decisions 1,0,0,1,0,1,0 vs labels T,T,F,T,F,F,T → TP 2 (q10,q33), FN 2 (q2,q06), TN 2 (q1,q4), FP 1 (q5).
    const em = r.metrics.exact_match;
    expect(em.confusion).toEqual({ tp: 2, fp: 1, tn: 2, fn: 2 });
    expect(em.threshold).toBe(1);
    expect(em.accuracy).toBeCloseTo(4 / 7, 4);
    expect(em.precision).toBeCloseTo(2 / 3, 4);
    expect(em.recall).toBeCloseTo(2 / 4, 4);
    expect(em.f1).toBeCloseTo(4 / 7, 4); // 2TP/(2TP+FP+FN) = 4/7
    expect(em.mcc).toBeCloseTo((2 * 2 - 1 * 2) / Math.sqrt(3 * 4 * 3 * 4), 4); // = 1/6
    expect(em.balanced_accuracy).toBeCloseTo((2 / 4 + 2 / 3) / 2, 4);
    expect(em.kappa).toBeCloseTo(4 / 25, 4); // po = 28/49, pe = (3·4 + 4·3)/49 = 24/49 → (4/49)/(25/49)

    // token_f1 (threshold 0.5): decisions 1,1,0,1,1,1,0 → TP 3 (q10,q2,q33), FP 2 (q4,q5), TN 1 (q1), FN 1 (q06).
    const tf = r.metrics.token_f1;
    expect(tf.confusion).toEqual({ tp: 3, fp: 2, tn: 1, fn: 1 });
    expect(tf.threshold).toBe(0.5);
    expect(tf.accuracy).toBeCloseTo(4 / 7, 4);
    expect(tf.f1).toBeCloseTo(6 / 9, 4);
    expect(tf.mcc).toBeCloseTo((3 * 1 - 2 * 1) / Math.sqrt(5 * 4 * 3 * 2), 4); // 1/√120
    expect(tf.balanced_accuracy).toBeCloseTo((3 / 4 + 1 / 3) / 2, 4);
    expect(tf.kappa).toBeCloseTo(2 / 23, 4); // pe = (5·4 + 2·3)/49 = 26/49

    for (const m of [em, tf]) {
      expect(m.n).toBe(7);
      for (const k of ['accuracy', 'f1', 'mcc', 'balanced_accuracy', 'kappa']) {
        const ci = m.ci[k] as [number, number];
        expect(ci, k).toHaveLength(2);
        expect(ci[0]).toBeLessThanOrEqual(ci[1]);
        expect(ci[0]).toBeGreaterThanOrEqual(-1);
        expect(ci[1]).toBeLessThanOrEqual(1);
      }
    }

    const x = JSON.parse(tax.stdout) as Record<string, Json>;
    expect(x).toMatchObject({ n: 6, skipped: 0, label_kind: 'taxonomy' });
    // exact_match scores 1,0,0,0,0,0 vs severities 7,6,4,5,1,0.
    //   Spearman: score ranks 6,3,3,3,3,3; severity ranks 6,5,3,4,2,1 → 7.5/√(7.5·17.5) = √(3/7).
    //   Kendall τ-b: 15 pairs, 5 concordant (row 1 with each other), 0 discordant, 10 tied in score only → 5/√(5·15).
    //   Pairwise accuracy: 5 agreeing + ½·10 tied over 15 pairs.
    const e = x.metrics.exact_match;
    expect(e.spearman).toBeCloseTo(Math.sqrt(3 / 7), 4);
    expect(e.kendall).toBeCloseTo(5 / Math.sqrt(75), 4);
    expect(e.pairwise_accuracy).toBeCloseTo(10 / 15, 4);
    // Six classes present, all of different severity → C(6,2) = 15 ordered pairs, none violated; the 10 without
    // exact are tied (both means 0), each half a violation.
    expect(e.violations).toEqual({ count: 0, of: 15, ties: 10, weighted: 5, pairs: [], excluding_ov_partial: { count: 0, of: 14 } });
    // Eq vs Part and OV vs Part: both 0 → a tie → ½; OV>OI and Alt>Inv have an absent class → null.
    expect(e.hard_pairs).toEqual({ 'Eq>Part': 0.5, 'OV>Part': 0.5, 'OV>OI': null, 'Alt>Inv': null });
    expect(e.class_means.exact).toEqual({ n: 1, mean: 1, std: null });
    expect(e.class_means.partial).toEqual({ n: 1, mean: 0, std: null });
    expect(e.class_means['alternative-correct']).toEqual({ n: 0, mean: null, std: null });
    expect(Object.keys(e.class_means)).toHaveLength(8);

    // token_f1 scores 1,0,2/3,1/2,0,0.
    //   Spearman: score ranks 6,2,5,4,2,2 vs 6,5,3,4,2,1 → 9.5/√(15.5·17.5).
    //   Kendall: concordant 9, discordant 3 (eq<part, eq<OV, part>OV), 3 tied in score → (9−3)/√(12·15).
    //   Pairwise: (9 + ½·3)/15 = 0.7.
    const f = x.metrics.token_f1;
    expect(f.spearman).toBeCloseTo(9.5 / Math.sqrt(15.5 * 17.5), 4);
    expect(f.kendall).toBeCloseTo(6 / Math.sqrt(180), 4);
    expect(f.pairwise_accuracy).toBeCloseTo(0.7, 4);
    // Class means: equivalent 0 < OV 0.5 < partial 0.667 → three violations; two without the OV/partial pair.
    expect(f.violations.count).toBe(3);
    expect(f.violations.of).toBe(15);
    expect(f.violations.excluding_ov_partial).toEqual({ count: 2, of: 14 });
    expect(f.violations.pairs).toEqual([
      { higher: 'equivalent', lower: 'overinclusive-valid', mean_higher: 0, mean_lower: 0.5 },
      { higher: 'equivalent', lower: 'partial', mean_higher: 0, mean_lower: 0.6667 },
      { higher: 'overinclusive-valid', lower: 'partial', mean_higher: 0.5, mean_lower: 0.6667 },
    ]);
    expect(f.hard_pairs['Eq>Part']).toBe(0);
    expect(f.hard_pairs['OV>Part']).toBe(0);
  });
});

describe('verity evaluate: empty rows', () => {
  it('a metric that scored no labelled row adds no n = 0 row: it is listed as left out, with the reason', async () => {
    // A-VERT needs choices or wrong answers; this file has none, so it scores nothing (and loads no model).
    const args = [
      'evaluate',
      p('labelled.jsonl'),
      '--metrics',
      'exact_match,avert',
      '--ranker-model',
      join(ROOT, 'test/models/tiny-reranker'),
      '--resamples',
      '0',
    ];
    const [json, text] = await Promise.all([verity(...args, '--json'), verity(...args)]);
    expect(json.code, json.stderr).toBe(0);
    const r = JSON.parse(json.stdout) as { metrics: Record<string, unknown>; omitted: Record<string, string> };
    expect(Object.keys(r.metrics)).toEqual(['exact_match']);
    expect(r.omitted.avert).toMatch(/^no labelled row was scored: not applicable: no wrong targets/);
    expect(text.stdout).not.toMatch(/^avert /m);
    expect(text.stdout).toContain('left out: avert (no labelled row was scored');
  });
});

describe('verity evaluate: one rounding', () => {
  it('text and JSON print each statistic rounded once from its exact value (demo set rouge_l ρ = 0.22146 → 0.2215, never 0.222)', async () => {
    const demo = join(ROOT, 'public/demo/demo-set.jsonl');
    const names = ['token_f1', 'rouge_l', 'pedants'];
    const [text, json] = await Promise.all([
      verity('evaluate', demo, '--metrics', names.join(','), '--resamples', '0'),
      verity('evaluate', demo, '--metrics', names.join(','), '--resamples', '0', '--json'),
    ]);
    expect(text.code, text.stderr).toBe(0);
    expect(json.code, json.stderr).toBe(0);
    // The exact statistics, computed here from the core.
    const mapped = mapRows(parseTable(readFileSync(demo), 'demo-set.jsonl'));
    const metrics = names.map((n) => createSyncMetric(n, {}, withWordNet));
    const exact = agreement(mapped.rows, await scoreRows(mapped.rows, metrics), metrics).taxonomy!;
    expect(exact.rouge_l!.spearman).toBeCloseTo(0.221458, 6); // the case that printed 0.222 (0.2215 rounded again)
    const j = JSON.parse(json.stdout) as { metrics: Record<string, { spearman: number; kendall: number; pairwise_accuracy: number }> };
    for (const n of names) {
      const row = lines(text.stdout).find((l) => l.startsWith(`${n} `))!;
      const [rho, tau, pa] = row.trim().split(/\s+/).slice(1, 4);
      for (const [shown, value, inJson] of [
        [rho!, exact[n]!.spearman!, j.metrics[n]!.spearman],
        [tau!, exact[n]!.kendall!, j.metrics[n]!.kendall],
        [pa!, exact[n]!.pairwiseAccuracy!, j.metrics[n]!.pairwise_accuracy],
      ] as const) {
        const digits = shown.split('.')[1]!.length;
        // Within half a unit of the last printed digit of the exact value: rounded once, not twice.
        expect(Math.abs(Number(shown) - value), `${n} ${shown} vs ${value}`).toBeLessThanOrEqual(0.5 * 10 ** -digits + 1e-12);
        // The JSON carries the same number the text prints.
        expect(inJson).toBe(Number(shown));
      }
    }
  });
});

describe('verity calibrate → score --calibration', () => {
  it('the calibrated token_f1 threshold changes the decisions it should', async () => {
    // token_f1 on the 7 labelled rows: 1 T, 2/3 T, 0 F, 1 T, 1/2 F, 1 F, 0 T (P = 4, N = 3).
    //   "positive iff score ≥ v":  v=1 → TP2 FP1 TN2 FN2, MCC 2/12;  v=2/3 → TP3 FP1 TN2 FN1, MCC 5/12;
    //   v=1/2 → TP3 FP2 TN1 FN1, MCC 1/√120;  v=0 → all positive, MCC undefined.
    // Best v = 2/3; the threshold is the midpoint to the next lower score: (2/3 + 1/2)/2 = 7/12.
    const cal = await verity('calibrate', p('labelled.jsonl'), '--metric', 'token_f1', '--out', p('cal.json'));
    expect(cal.code, cal.stderr).toBe(0);
    const c = JSON.parse(readFileSync(p('cal.json'), 'utf8')) as Record<string, unknown>;
    expect(c).toMatchObject({ version: 1, metric: 'token_f1', objective: 'mcc' });
    expect(c.threshold as number).toBeCloseTo(7 / 12, 12);
    expect(cal.stderr).toMatch(/verity: wrote .*cal\.json \(threshold 0\.58333/);

    const [plain, calibrated] = await Promise.all([
      verity('score', p('labelled.jsonl'), '--metrics', 'token_f1'),
      verity('score', p('labelled.jsonl'), '--metrics', 'token_f1', '--calibration', p('cal.json')),
    ]);
    expect(plain.code).toBe(0);
    expect(calibrated.code, calibrated.stderr).toBe(0);
    const dec = (r: Run) =>
      lines(r.stdout).map((l) => (JSON.parse(l) as { metrics: { token_f1: { decision: boolean } } }).metrics.token_f1.decision);
    const score = (r: Run) =>
      lines(r.stdout).map((l) => (JSON.parse(l) as { metrics: { token_f1: { score: number } } }).metrics.token_f1.score);
    // Only q4 (F1 exactly 0.5) changes: true at 0.5, false at 7/12; q2 (2/3) stays true. Scores are unchanged.
    expect(dec(plain)).toEqual([true, true, false, true, true, true, false, false]);
    expect(dec(calibrated)).toEqual([true, true, false, true, false, true, false, false]);
    expect(score(calibrated)).toEqual(score(plain));
  });
});

describe('exit codes and messages', () => {
  const oneLine = (r: Run) => {
    expect(lines(r.stderr), r.stderr).toHaveLength(1);
    expect(r.stderr.startsWith('verity: ')).toBe(true);
    expect(r.stdout).toBe('');
  };

  it('1 for usage errors, 2 for input errors, each with one "verity:" line on stderr', async () => {
    const [metric, option, missing, nocand] = await Promise.all([
      verity('score', p('labelled.jsonl'), '--metrics', 'exact_match,nope'),
      verity('score', p('labelled.jsonl'), '--bogus'),
      verity('score', p('missing.jsonl')),
      verity('score', p('nocand.csv')),
    ]);
    expect(metric.code).toBe(1);
    oneLine(metric);
    expect(metric.stderr).toMatch(/^verity: unknown metric "nope"/);

    expect(option.code).toBe(1);
    oneLine(option);
    expect(option.stderr).toMatch(/^verity: unknown option '--bogus'/);

    expect(missing.code).toBe(2);
    oneLine(missing);
    expect(missing.stderr).toBe(`verity: cannot read ${p('missing.jsonl')}: no such file\n`);

    expect(nocand.code).toBe(2);
    oneLine(nocand);
    expect(nocand.stderr).toMatch(
      /^verity: no candidate-answer column: .*the columns are question, gold, answer_gpt4\. Use --map candidate=COLUMN$/m,
    );
  });

  it('a row with bytes that are not UTF-8 is skipped with its row, line, byte and offset; the other rows are scored', async () => {
    const r = await verity('score', LATIN1, '--metrics', 'exact_match');
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { id: string }).id),
    ).toEqual(['1']);
    expect(r.stderr).toContain(
      'verity: error: row 2 (line 3) is not valid UTF-8 (byte 0xe1 at offset 35); the file may be Latin-1 or Windows-1252: re-save it as UTF-8; row 2 skipped',
    );
    expect(r.stderr).toContain('1 row read, 1 skipped');
  });

  it('--help for the program and every command exits 0 with usage on stdout', async () => {
    const cmds = ['score', 'evaluate', 'calibrate', 'review', 'metrics'];
    const runs = await Promise.all([verity('--help'), ...cmds.map((c) => verity(c, '--help'))]);
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
    }
    expect(runs[0]!.stdout).toMatch(/^Usage: verity /);
    for (const c of cmds) expect(runs[0]!.stdout).toContain(c);
    cmds.forEach((c, i) => expect(runs[i + 1]!.stdout).toMatch(new RegExp(`^Usage: verity ${c} `)));
    expect(runs[3]!.stdout).toContain('--metric <name>');
    expect(runs[3]!.stdout).toContain('--objective <name>');
  });

  it('bin/verity.mjs runs the TypeScript sources through tsx, as `npx verity` does right after `npm ci`', async () => {
    const [bin, bundled] = await Promise.all([
      start(['bin/verity.mjs', 'score', p('labelled.jsonl')]),
      verity('score', p('labelled.jsonl')),
    ]);
    expect(bin.code, bin.stderr).toBe(0);
    expect(bin.stdout).toBe(bundled.stdout);
    expect(bin.stdout.length).toBeGreaterThan(0);
  });
});
