/**
 * One versioned shape for the JSON reports: `verity evaluate --json`, the Score page's report export
 * and the comparison's JSON (CLI and app) all validate against docs/report.schema.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { memoryStore } from '../runtime/idb-cache.ts';
import { Journal } from './journal.ts';
import { ScoringSession } from './session.ts';
import { CLI, ROOT } from '../../test/cli.ts';
import { lexicon } from '../../test/lexicon.ts';
import { ok } from '../../test/session.ts';

const schema = JSON.parse(readFileSync(join(ROOT, 'docs/report.schema.json'), 'utf8')) as object;
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
const valid = (x: unknown) => (validate(x) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`));

const cli = (args: string[]) =>
  JSON.parse(execFileSync('node', [CLI, ...args], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as Record<
    string,
    unknown
  >;

const dir = mkdtempSync(join(tmpdir(), 'verity-schema-'));
const binary = join(dir, 'binary.jsonl');
writeFileSync(
  binary,
  ['m1', 'm2']
    .flatMap((model) =>
      [0, 1, 2, 3, 4, 5].map((i) =>
        JSON.stringify({
          id: `q${i}`,
          model,
          question: `Q${i}?`,
          gold: `g${i}`,
          candidate: model === 'm1' || i % 2 ? `g${i}` : 'no',
          label: i % 3 !== 0,
        }),
      ),
    )
    .join('\n'),
);
const demo = join(ROOT, 'public/demo/demo-set.jsonl');

describe('docs/report.schema.json', () => {
  it('verity evaluate --json, binary and class labels, validates and says its version', () => {
    for (const file of [binary, demo]) {
      const json = cli(['evaluate', file, '--json', '--metrics', 'exact_match,token_f1', '--resamples', '50']);
      expect(json.schema).toBe('verity-report/1');
      expect(valid(json), file).toEqual([]);
    }
  });

  it("the Score page's report export has the same form, and validates", async () => {
    for (const [name, file] of [
      ['binary.jsonl', binary],
      ['demo.jsonl', demo],
    ] as const) {
      const s = new ScoringSession({
        lexicon: () => Promise.resolve(lexicon),
        store: new Journal(memoryStore()),
        version: '0.0.0-test',
        newId: () => name,
      });
      const insp = ok(await s.open(new Blob([readFileSync(file)]), name));
      ok(await s.run({ metrics: ['exact_match', 'token_f1'], settings: {}, models: {}, mapping: { map: insp.detected } }));
      const json = JSON.parse(await ok(await s.exportFile('report')).text()) as Record<string, unknown>;
      expect(valid(json), name).toEqual([]);
      const fromCli = cli(['evaluate', file, '--json', '--metrics', 'exact_match,token_f1']);
      // The same statistics under the same names; the export adds the run and the page's distributions.
      expect(Object.keys(json).filter((k) => k !== 'run' && k !== 'distributions' && !k.includes('binary'))).toEqual(Object.keys(fromCli));
      expect(json.metrics).toEqual(fromCli.metrics);
      expect(json.label_kind).toBe(fromCli.label_kind);
    }
  });

  it("the comparison's JSON validates, from the CLI and from the app", async () => {
    const json = cli(['compare', binary, '--json', '--metrics', 'exact_match', '--resamples', '50']);
    expect(json.schema).toBe('verity-compare/1');
    expect(valid(json)).toEqual([]);
    const s = new ScoringSession({
      lexicon: () => Promise.resolve(lexicon),
      store: new Journal(memoryStore()),
      version: '0.0.0-test',
      newId: () => 'cmp',
    });
    const insp = ok(await s.open(new Blob([readFileSync(binary)]), 'binary.jsonl'));
    const mapping = { map: insp.detected, systems: { auto: true } };
    ok(await s.run({ metrics: ['exact_match'], settings: {}, models: {}, mapping }));
    const app = JSON.parse(await ok(await s.compare.exportFile('leaderboard-json')).text()) as unknown;
    expect(valid(app)).toEqual([]);
  });

  it('refuses what is not the form: the shape the app exported before, an unknown version', () => {
    expect(valid({ run: { verity: '0', metrics: [] }, report: { rows: 5, labelKind: 'binary' } }).length).toBeGreaterThan(0);
    const json = cli(['evaluate', binary, '--json', '--metrics', 'exact_match', '--resamples', '0']);
    expect(valid({ ...json, schema: 'verity-report/2' }).length).toBeGreaterThan(0);
  });
});
