/**
 * The CLI with model-backed metrics on the project's tiny fixture models (test/models, from the global setup):
 * --nli-model with a local folder, calibrating nli_lex, the statements and explain commands.
 * The tiny models have random weights, so these tests check plumbing and provenance, not judgement quality; they
 * fail every role's canary, so they run with --skip-canary, the switch a user flips for an unchecked model.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI } from '../../test/cli.ts';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NLI = 'test/models/tiny-nli';
const FILE = 'test/fixtures/labelled-small.jsonl';
const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8' });
const dir = mkdtempSync(join(tmpdir(), 'verity-cli-models-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('CLI with a local NLI model folder', () => {
  it('scores CAP / hierarchy / taxonomy offline and records the model, device and dtype per row', () => {
    const r = run('score', FILE, '--metrics', 'exact_match,cap,hierarchy,taxonomy', '--nli-model', NLI, '--skip-canary');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/nli model .*tiny-nli@local on cpu\/fp32 \(canary: not checked/);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows).toHaveLength(6);
    for (const row of rows) {
      expect(row.models.nli).toMatchObject({ revision: 'local', device: 'cpu', dtype: 'fp32', canary: 'skipped' });
      expect(row.metrics.cap.score).toBeGreaterThanOrEqual(0);
      expect(row.metrics.cap.score).toBeLessThanOrEqual(1);
      expect(row.metrics.cap.details.nli_source).toBe('model');
      expect(['superior', 'inferior', 'equivalent', 'incorrect']).toContain(row.metrics.hierarchy.set);
      expect(typeof row.metrics.taxonomy.class).toBe('string');
    }
    // The same run twice gives byte-identical output.
    expect(run('score', FILE, '--metrics', 'exact_match,cap,hierarchy,taxonomy', '--nli-model', NLI, '--skip-canary').stdout).toBe(
      r.stdout,
    );
  });

  it('without --skip-canary a random-weight model folder is refused with the reason, and no row gets a score from it', () => {
    const r = run('score', FILE, '--metrics', 'exact_match,cap', '--nli-model', NLI);
    // The rows are written; the run says once why cap has no model, and ends with exit 2.
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr.match(/^verity: the NLI model did not load: .*; the metrics that need it are not scored$/gm)).toHaveLength(1);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows).toHaveLength(6);
    for (const row of rows) {
      expect(row.metrics.exact_match.score).not.toBeNull();
      expect(row.metrics.cap.score).toBeNull();
      expect(row.metrics.cap.explanation).toMatch(
        /gives wrong outputs on cpu\/fp32: pair \d: expected (entailment|contradiction).*--skip-canary/,
      );
      expect(row.models).toBeUndefined();
    }
  });

  it('evaluate --json records the skipped check with the models', () => {
    const r = run('evaluate', FILE, '--metrics', 'cap', '--nli-model', NLI, '--skip-canary', '--json', '--resamples', '0');
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).models.nli).toMatchObject({ revision: 'local', canary: 'skipped' });
  });

  it('calibrates nli_lex weights and applies them with --calibration', () => {
    const cal = join(dir, 'nli_lex.json');
    const c = run('calibrate', FILE, '--metric', 'nli_lex', '--nli-model', NLI, '--skip-canary', '--out', cal);
    expect(c.status, c.stderr).toBe(0);
    const json = JSON.parse(readFileSync(cal, 'utf8'));
    expect(json.metric).toBe('nli_lex');
    for (const k of ['se', 'lm', 'bias']) expect(Number.isFinite(json.nliLex[k])).toBe(true);
    // lm (gold contained in the answer) separates these six rows, so the fitted lm weight is positive.
    expect(json.nliLex.lm).toBeGreaterThan(0);
    const s = run('score', FILE, '--metrics', 'nli_lex', '--nli-model', NLI, '--skip-canary', '--calibration', cal);
    expect(s.status, s.stderr).toBe(0);
    const rows = s.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const labels = readFileSync(join(ROOT, FILE), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).label);
    // Decisions under the calibrated weights agree with the labels on the rows they were fitted on.
    expect(rows.map((r) => r.metrics.nli_lex.decision)).toEqual(labels);
  });

  it('--model-dir finds the registry default offline, and its canary refuses a model that judges wrongly', () => {
    // A random-weight model posing as the default NLI model: the registry canary (clear-cut SNLI-style pairs)
    // must catch it on q8 and again on fp32, and no row may get a score from it.
    const base = join(dir, 'models');
    mkdirSync(join(base, 'Xenova'), { recursive: true });
    symlinkSync(join(ROOT, NLI), join(base, 'Xenova', 'nli-deberta-v3-xsmall'));
    const r = run('score', FILE, '--metrics', 'cap', '--model-dir', base);
    expect(r.status).toBe(2);
    const row = JSON.parse(r.stdout.trim().split('\n')[0]!);
    expect(row.metrics.cap.score).toBeNull();
    expect(row.metrics.cap.explanation).toMatch(
      /gives wrong outputs .*expected entailment.*cpu\/q8: canary failed.*cpu\/fp32: canary failed/,
    );
  });

  it('--model-dir with a typo, or without the model, is a usage error, never a silent download', () => {
    const typo = run('score', FILE, '--metrics', 'cap', '--model-dir', join(dir, 'modles'), '--mirror', 'http://127.0.0.1:9/');
    expect(typo.status).toBe(1);
    expect(typo.stderr).toMatch(/--model-dir .*modles is not a folder/);
    mkdirSync(join(dir, 'empty'), { recursive: true });
    const empty = run('score', FILE, '--metrics', 'cap', '--model-dir', join(dir, 'empty'), '--mirror', 'http://127.0.0.1:9/');
    expect(empty.status).toBe(1);
    expect(empty.stderr).toMatch(/has no Xenova\/nli-deberta-v3-xsmall folder for the NLI model/);
    expect(empty.stdout).toBe('');
  });

  it('a model id with ".." is a usage error (exit 1) before anything, as every other malformed id', () => {
    for (const id of ['../evil', 'owner/..', 'x/../y']) {
      const r = run('score', FILE, '--metrics', 'cap', '--nli-model', id, '--mirror', 'http://127.0.0.1:9/');
      expect([r.status, r.stdout], id).toEqual([1, '']);
      expect(r.stderr).toMatch(new RegExp(`^verity: --nli-model: "${id.replace(/\./g, '\\.')}" is (not|neither)`, 'm'));
    }
  });

  it('a folder that is not an NLI model is refused with a reason on every row', () => {
    const r = run('score', FILE, '--metrics', 'cap', '--nli-model', 'test/models/tiny-nli-nolabels');
    expect(r.status).toBe(2);
    const row = JSON.parse(r.stdout.trim().split('\n')[0]!);
    expect(row.metrics.cap.score).toBeNull();
    expect(row.metrics.cap.explanation).toMatch(/not an NLI classifier/);
  });
});

describe('statements and explain', () => {
  it("statements prints one JSONL line per row with the rule writer: the candidate's statement and each gold's", () => {
    const r = run('statements', FILE);
    expect(r.status, r.stderr).toBe(0);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows).toHaveLength(6);
    expect(rows[1]).toEqual({
      id: '2',
      question: 'Who wrote Hamlet?',
      answer: 'Marlowe',
      statement: 'Marlowe wrote Hamlet.',
      golds: ['Shakespeare'],
      gold_statements: ['Shakespeare wrote Hamlet.'],
      writer: 'rules',
    });
  });

  it('explain shows every metric for one example, model metrics with their reason', () => {
    const r = run(
      'explain',
      '--question',
      'How many legs does a spider have?',
      '--gold',
      '8',
      '--gold',
      'eight legs',
      '--candidate',
      'A spider has eight legs.',
      '--json',
      // Model metrics run when asked for by name; without --metrics explain runs the embedded ones only.
      '--metrics',
      'lexical_match,cap,bertscore,avert',
      '--nli-model',
      NLI,
      '--skip-canary',
      '--mirror',
      'http://127.0.0.1:9/',
    );
    expect(r.status, r.stderr).toBe(2);
    const rec = JSON.parse(r.stdout);
    expect(rec.gold).toEqual(['8', 'eight legs']);
    expect(rec.metrics.lexical_match.score).toBe(1);
    expect(rec.metrics.cap.details.gold_statements[0]).toBe('A spider has 8 legs.');
    expect(rec.metrics.cap.details.gold_statements).toHaveLength(2);
    // BERTScore's embedder cannot be fetched (a closed local port stands in for the hub): a reason, not a score.
    expect(rec.metrics.bertscore.score).toBeNull();
    expect(rec.metrics.bertscore.explanation).toMatch(/cannot download/);
    expect(rec.metrics.avert.score).toBeNull(); // no wrong targets
    expect(rec.metrics.avert.explanation).toMatch(/no wrong targets/);
  });
});
