/**
 * `verity evaluate` / `score` with NLI probabilities carried by the input rows (no model): the CAP
 * monotonicity report on taxonomy labels. Expected values: CAP by hand from each row's probabilities
 * (α = 0.85, λ = 0.3), Spearman / Kendall τ-b from scipy 1.10 on those scores vs the ordinal severity.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTable } from '../core/io/parse.ts';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI } from '../../test/cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FILE = 'test/fixtures/nli-taxonomy.jsonl';
const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8' });

// CAP = 0.85·(P_ent + 0.3·P_neu)(g→p) + 0.15·(P_ent + 0.3·P_neu)(p→g), best gold:
//  1 exact       0.85·0.962 + 0.15·0.955 = 0.96095
//  2 equivalent  0.85·0.880 + 0.15·0.845 = 0.87475
//  3 OV          0.85·0.480 + 0.15·0.924 = 0.5466
//  4 partial     0.85·0.775 + 0.15·0.410 = 0.72025
//  5 OI          0.85·0.290 + 0.15·0.760 = 0.3605
//  6 invalid     0.85·0.410 + 0.15·0.340 = 0.3995
//  7 contra.     0.85·0.044 + 0.15·0.051 = 0.04505
//  8 alt-correct gold 1: 0.85·0.845 + 0.15·0.810 = 0.83975 (gold 2: 0.69)
const CAP = [0.96095, 0.87475, 0.5466, 0.72025, 0.3605, 0.3995, 0.04505, 0.83975];

describe('CAP monotonicity report from input NLI probabilities', () => {
  it('scores each row with its best gold and the statements used', () => {
    const r = run('score', FILE, '--metrics', 'cap,hierarchy,taxonomy');
    expect(r.status).toBe(0);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    rows.forEach((row, i) => expect(row.metrics.cap.score).toBeCloseTo(CAP[i]!, 10));
    expect(rows[7].metrics.cap.details.chosen_gold).toBe('Leonardo da Vinci');
    expect(rows[0].metrics.hierarchy.set).toBe('equivalent');
    expect(rows[6].metrics.hierarchy.set).toBe('incorrect');
    expect(rows[2].metrics.hierarchy.set).toBe('superior'); // p→g 0.9 ≥ 0.5, g→p 0.3 < 0.5
    expect(rows[3].metrics.hierarchy.set).toBe('inferior');
    expect(rows[6].metrics.taxonomy.class).toBe('contradictory');
    expect(rows[0].metrics.taxonomy.class).toBe('exact');
    for (const row of rows) expect(row.metrics.cap.details.nli_source).toBe('input');
  });

  it('prints ρ, τ, pairwise accuracy, violations out of 27 and the hard pairs', () => {
    const r = run('evaluate', FILE, '--metrics', 'cap', '--json');
    expect(r.status).toBe(0);
    const rep = JSON.parse(r.stdout);
    expect(rep.label_kind).toBe('taxonomy');
    expect(rep.n).toBe(8);
    const cap = rep.metrics.cap;
    expect(cap.spearman).toBeCloseTo(0.9461247469114746, 4);
    expect(cap.kendall).toBeCloseTo(0.836501912571304, 4);
    // Two inversions among the 27 strictly ordered class pairs: OV (0.5466) < partial (0.72025)
    // and overinclusive-invalid (0.3605) < invalid (0.3995).
    expect(cap.violations.of).toBe(27);
    expect(cap.violations.count).toBe(2);
    expect(cap.violations.excluding_ov_partial).toEqual({ count: 1, of: 26 });
    expect(cap.hard_pairs).toEqual({ 'Eq>Part': 1, 'OV>Part': 0, 'OV>OI': 1, 'Alt>Inv': 1 });
    // 27 item pairs with different severity (8 items, one tied pair eq/alt); 2 discordant → 25/27.
    expect(cap.pairwise_accuracy).toBeCloseTo(25 / 27, 4);
  });

  it('CSV output carries the class and the entailment set as their own columns', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'verity-csv-')), 'r.csv');
    expect(run('score', FILE, '--metrics', 'hierarchy,taxonomy', '--out', out).status).toBe(0);
    const table = parseTable(readFileSync(out, 'utf8'));
    expect(table.columns).toEqual([
      'id',
      'question',
      'gold',
      'candidate',
      'label',
      'hierarchy.score',
      'hierarchy.decision',
      'hierarchy.set',
      'hierarchy.explanation',
      'taxonomy.score',
      'taxonomy.decision',
      'taxonomy.class',
      'taxonomy.explanation',
    ]);
    expect(table.records[6]!.data['taxonomy.class']).toBe('contradictory');
    expect(table.records[0]!.data['hierarchy.set']).toBe('equivalent');
  });

  it('rejects malformed probabilities row by row and keeps the row', () => {
    const bad = JSON.stringify({
      id: 'x',
      question: 'q',
      gold: ['a', 'b'],
      candidate: 'a',
      nli: [{ gold_to_candidate: [0.5, 0.5, 0.5], candidate_to_gold: [1, 0, 0] }],
    });
    const r = spawnSync(process.execPath, [CLI, 'score', '-', '--metrics', 'exact_match,cap', '--mirror', 'http://127.0.0.1:9/'], {
      cwd: ROOT,
      encoding: 'utf8',
      input: `${bad}\n`,
    });
    // The row without probabilities needs the model, which cannot be downloaded here: exit 2, said once.
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('verity: the NLI model did not load');
    expect(r.stderr).toMatch(/row 1: nli: has 1 entries but the row has 2 gold answers/);
    const row = JSON.parse(r.stdout);
    expect(row.metrics.exact_match.score).toBe(1);
    expect(row.metrics.cap.score).toBeNull();
    // No probabilities for this row and the model cannot be fetched (a closed port on this machine, so the
    // test never reaches outside): a reason, never a made-up score.
    expect(row.metrics.cap.explanation).toMatch(/NLI model failed: cannot download .*--nli-model DIR/);
  });
});
