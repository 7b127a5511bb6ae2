/**
 * Several systems in the scoring session: the wide layout and several files mapped in one step, the coverage of
 * files that lack rows, the comparison equal to `verity compare --json`, human accuracy equal to a plain count,
 * pages of the questions where systems differ, exports with the system column, and a resumed multi-file run.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { memoryStore } from '../runtime/idb-cache.ts';
import { Journal } from './journal.ts';
import type { Mapping, RunConfig } from './api.ts';
import { ScoringSession } from './session.ts';
import { bundleFiles, unbundleFiles } from './compare.ts';
import { CLI, ROOT } from '../../test/cli.ts';
import { lexicon } from '../../test/lexicon.ts';
import { ok } from '../../test/session.ts';

const SYSTEMS = ['fid', 'gpt35', 'newbing'];
const ANSWERS: Record<string, (gold: string, i: number) => string> = {
  fid: (g, i) => (i % 4 === 0 ? 'Paris' : g),
  gpt35: (g, i) => (i % 3 === 0 ? `I think it is ${g}.` : `Not ${g}`),
  newbing: (g, i) => (i % 5 === 0 ? 'no idea' : `The answer is ${g}, according to several sources.`),
};

/** An EVOUNA-like wide file: answer_<s> + judge_<s> per system, an improper record, a "nan" judgment. */
function wideRecords(n: number): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < n; i++) {
    const gold = `Answer ${i}`;
    const rec: Record<string, unknown> = { question: `Question ${i}?`, golden_answer: `${gold} / A${i}`, note: `n${i}` };
    for (const s of SYSTEMS) {
      const a = ANSWERS[s]!(gold, i);
      rec[`answer_${s}`] = a;
      rec[`judge_${s}`] = i === 7 && s === 'gpt35' ? 'nan' : a.includes(gold) && !a.startsWith('Not');
    }
    rec.improper = i === 3;
    out.push(rec);
  }
  return out;
}

const config = (mapping: Mapping, metrics = ['exact_match', 'token_f1', 'lexical_match']): RunConfig => ({
  metrics,
  settings: {},
  models: {},
  mapping,
});

let ids = 0;
const session = (kv = memoryStore<unknown>()) =>
  new ScoringSession({
    lexicon: () => Promise.resolve(lexicon),
    store: new Journal(kv),
    version: '0.0.0-test',
    newId: () => `run${++ids}`,
  });

function cliJson(files: string[], extra: string[] = []): Record<string, unknown> {
  const out = execFileSync('node', [CLI, 'compare', ...files, '--json', '--metrics', 'exact_match,token_f1,lexical_match', ...extra], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return JSON.parse(out) as Record<string, unknown>;
}

describe('bundles of several files', () => {
  it('give the files back as they were, and refuse a damaged bundle', async () => {
    const files = [
      { name: 'a.jsonl', blob: new Blob(['{"x":1}\n']) },
      { name: 'b.csv', blob: new Blob(['q,a\nwhé,1\n']) },
    ];
    const back = (await unbundleFiles(bundleFiles(files)))!;
    expect(back.map((f) => f.name)).toEqual(['a.jsonl', 'b.csv']);
    expect(await back[1]!.blob.text()).toBe('q,a\nwhé,1\n');
    expect(await unbundleFiles(new Blob(['{"x":1}\n']))).toBeNull();
    const cut = bundleFiles(files).slice(0, -2);
    await expect(unbundleFiles(cut)).rejects.toThrow(/damaged/);
  });
});

describe('the wide layout in one step', () => {
  const recs = wideRecords(60);
  const text = JSON.stringify(recs);

  it('maps each answer_<s> with its judge_<s>, and the comparison equals verity compare --json', async () => {
    const s = session();
    const insp = ok(await s.open(new Blob([text]), 'tq.json'));
    const mapping: Mapping = {
      map: { question: insp.detected.question!, gold: insp.detected.gold! },
      goldSep: '/',
      systems: { wide: true },
    };
    const sum = ok(await s.map(mapping));
    expect(sum.systems?.systems).toEqual(SYSTEMS);
    expect(sum.systems?.layout).toBe('wide');
    expect(sum.rows).toBe(59 * 3);
    expect(sum.systems?.notes.join('\n')).toMatch(/1 record marked improper: true left out/);
    // Golds split as asked; without a separator, the page is told the cells look like " / "-joined answers.
    const unsplit = ok(await s.map({ ...mapping, goldSep: '' }));
    expect(unsplit.notes).toEqual([expect.objectContaining({ code: 'gold-separator', separator: ' / ', applied: false })]);
    expect(ok(await s.map(mapping)).notes).toEqual([]);
    // What the columns' mapping notices reaches the page for several systems too (once, not once a system).
    const spelled = recs.map((r, i) =>
      i % 2 ? Object.fromEntries(Object.entries(r).map(([k, v]) => [k === 'question' ? 'Question' : k, v])) : r,
    );
    ok(await s.open(new Blob([JSON.stringify(spelled)]), 'tq.json'));
    expect(ok(await s.map(mapping)).notes).toEqual([
      expect.objectContaining({ code: 'key-spellings', spellings: ['question', 'Question'] }),
    ]);
    ok(await s.open(new Blob([text]), 'tq.json'));
    // The page starts from the separator the file's gold cells use; a mapping without one gets it, and is told.
    expect(insp.goldSep).toBe(' / ');
    const auto = ok(await s.map({ map: mapping.map, systems: mapping.systems! }));
    expect(auto.notes).toEqual([expect.objectContaining({ code: 'gold-separator', separator: ' / ', applied: true })]);
    expect(auto.rows).toBe(sum.rows);
    const out = ok(await s.run(config(mapping)));
    expect(out.status).toBe('done');
    const view = ok(await s.compare.report());

    const dir = mkdtempSync(join(tmpdir(), 'verity-cmp-'));
    writeFileSync(join(dir, 'tq.json'), text);
    const cli = cliJson([join(dir, 'tq.json')], ['--gold-sep', '/']);
    expect(view.report.leaderboard).toEqual(cli.leaderboard);
    expect(view.report.paired).toEqual(cli.paired);
    expect(view.report.ranking).toEqual(cli.ranking);
    expect(view.report.splits).toEqual(cli.splits);
    expect(view.input.coverage).toEqual(cli.coverage);

    // Human accuracy per system is a plain count of the labels (improper record and "nan" left out).
    for (const sys of SYSTEMS) {
      const kept = recs.filter((r) => r.improper !== true && r[`judge_${sys}`] !== 'nan');
      const correct = kept.filter((r) => r[`judge_${sys}`] === true).length;
      const e = view.report.leaderboard.metrics[0]!.entries.find((x) => x.system === sys)!;
      expect(e.human).toMatchObject({ correct, labelled: kept.length, accuracy: correct / kept.length });
    }
  });

  it('pages the questions where systems differ, filtered by split, with every answer side by side', async () => {
    const s = session();
    ok(await s.open(new Blob([text]), 'tq.json'));
    const mapping: Mapping = { map: { question: 'question', gold: 'golden_answer' }, goldSep: '/', systems: { wide: true } };
    ok(await s.run(config(mapping)));
    const api = s.compare;
    const all = ok(await api.differences({ metric: 'exact_match' }, 0, 1000));
    expect(all.total).toBeGreaterThan(0);
    for (const r of all.rows) {
      const yes = r.decisions.filter((d) => d === 1).length;
      const decided = r.decisions.filter((d) => d >= 0).length;
      expect(yes > 0 && yes < decided).toBe(true);
      expect(r.split).toBe(`${yes}/${decided}`);
    }
    const split = all.rows[0]!.split;
    const some = ok(await api.differences({ metric: 'exact_match', split }, 0, 5));
    expect(some.total).toBe(all.rows.filter((r) => r.split === split).length);
    expect(some.rows.length).toBe(Math.min(5, some.total));
    const page2 = ok(await api.differences({ metric: 'exact_match', split }, 5, 5));
    expect(page2.rows[0]?.position ?? 5).toBe(5);

    const d = ok(await api.detail(all.rows[0]!.q));
    expect(d.answers.map((a) => a.system)).toEqual(SYSTEMS);
    const rec = recs.filter((r) => r.improper !== true)[all.rows[0]!.q]!;
    expect(d.question).toBe(rec.question);
    for (const a of d.answers) {
      expect(a.candidate).toBe(rec[`answer_${a.system}`]);
      expect(a.metrics.exact_match!.decision).toBe(all.rows[0]!.decisions[SYSTEMS.indexOf(a.system)] === 1);
    }
    expect(await api.differences({ metric: 'nope' }, 0, 5)).toMatchObject({ ok: false });
  });

  it('exports every row with its system and the input columns, and the leaderboard as the CLI writes it', async () => {
    const s = session();
    ok(await s.open(new Blob([text]), 'tq.json'));
    const mapping: Mapping = { map: { question: 'question', gold: 'golden_answer' }, goldSep: '/', systems: { wide: true } };
    ok(await s.run(config(mapping)));
    const lines = (await ok(await s.exportFile('jsonl')).text()).trim().split('\n').slice(1);
    const first = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(first.system).toBe('fid');
    expect(first.note).toBe('n0');
    // No internal pairing key leaks into the user's rows.
    expect(Object.keys(first)).not.toContain('question_key');
    expect(lines).toHaveLength(59 * 3);
    // The CSV has them too: the system first, the input's own columns after the metrics.
    const rowsCsv = Papa.parse<Record<string, string>>(await ok(await s.exportFile('csv')).text(), { header: true, skipEmptyLines: true });
    expect(rowsCsv.meta.fields?.[0]).toBe('system');
    expect(rowsCsv.meta.fields).toContain('note');
    expect(rowsCsv.data.map((r) => [r.system, r.id, r.note])).toEqual(
      lines.map((l) => JSON.parse(l) as Record<string, string>).map((r) => [r.system, r.id, r.note]),
    );

    const dir = mkdtempSync(join(tmpdir(), 'verity-cmp-'));
    writeFileSync(join(dir, 'tq.json'), text);
    execFileSync(
      'node',
      [
        CLI,
        'compare',
        join(dir, 'tq.json'),
        '--metrics',
        'exact_match,token_f1,lexical_match',
        '--out',
        join(dir, 'lb.csv'),
        '--gold-sep',
        '/',
      ],
      { cwd: ROOT, stdio: 'ignore' },
    );
    const csv = await ok(await s.compare.exportFile('leaderboard-csv')).text();
    const { readFileSync } = await import('node:fs');
    expect(csv).toBe(readFileSync(join(dir, 'lb.csv'), 'utf8'));
    const json = JSON.parse(await ok(await s.compare.exportFile('leaderboard-json')).text()) as Record<string, unknown>;
    expect(json.systems).toEqual(SYSTEMS);

    // The page to share: the same bytes as verity compare --html on the same file and options.
    execFileSync(
      'node',
      [CLI, 'compare', 'tq.json', '--metrics', 'exact_match,token_f1,lexical_match', '--gold-sep', '/', '--html', 'report.html'],
      { cwd: dir, stdio: 'ignore' },
    );
    const html = await ok(await s.compare.exportFile('report-html')).text();
    expect(html).toContain('data-testid="html-leaderboard-lexical_match"');
    // This test's session calls itself 0.0.0-test; the worker gives it package.json's version, as the CLI has.
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(html.replaceAll('0.0.0-test', version)).toBe(readFileSync(join(dir, 'report.html'), 'utf8'));
  });
});

describe('several files, one per system', () => {
  const rows = (sys: string, skip: number) =>
    new Blob([
      Array.from({ length: 12 }, (_, i) => i)
        .filter((i) => i !== skip)
        .map((i) => {
          // b half-answers the even questions: "g<i> x" has a token F1 of 2/3, which its label calls wrong.
          const candidate = sys === 'a' || i % 2 ? `g${i}` : `g${i} x`;
          return JSON.stringify({ id: `q${i}`, question: `Q${i}?`, gold: `g${i}`, candidate, label: candidate === `g${i}` });
        })
        .join('\n'),
    ]);

  it('are named after the files, joined by id, and the row one file lacks is reported', async () => {
    const s = session();
    const insp = ok(
      await s.openFiles([
        { name: 'a.jsonl', blob: rows('a', -1) },
        { name: 'b.jsonl', blob: rows('b', 5) },
      ]),
    );
    expect(insp.fileName).toBe('a.jsonl + b.jsonl');
    expect(insp.records).toBe(23);
    const sum = ok(await s.map({ map: insp.detected }));
    expect(sum.systems?.systems).toEqual(['a', 'b']);
    expect(sum.systems?.keyBy).toBe('id');
    expect(sum.systems?.coverage).toMatchObject({ questions: 12, complete: 11 });
    expect(sum.systems?.coverage.systems[1]).toMatchObject({ system: 'b', missing: 1, examples: ['q5'] });
    expect(sum.systems?.notes.some((n) => /b \(b\.jsonl\): 1 of 12 questions missing/.test(n) || /^b: 1 of 12/.test(n))).toBe(true);
    ok(await s.run(config({ map: insp.detected }, ['exact_match'])));
    const view = ok(await s.compare.report());
    const pair = view.report.paired.metrics[0]!.pairs[0]!;
    expect(pair.accuracy.n).toBe(11);
    expect(pair.accuracy.mcnemar).toMatchObject({ b: 6, c: 0 });
  });

  it('a calibration re-decides the rows and the comparison follows its thresholds', async () => {
    const s = session();
    const insp = ok(
      await s.openFiles([
        { name: 'a.jsonl', blob: rows('a', -1) },
        { name: 'b.jsonl', blob: rows('b', 5) },
      ]),
    );
    ok(await s.run(config({ map: insp.detected }, ['token_f1'])));
    const before = ok(await s.compare.report()).report.leaderboard.metrics[0]!.threshold;
    const { thresholds } = ok(await s.calibrate());
    const after = ok(await s.compare.report()).report.leaderboard.metrics[0]!.threshold;
    expect(after).toBe(thresholds.token_f1);
    expect(after).not.toBe(before);
  });

  it('a run of several files is saved as one bundle and resumes', async () => {
    const kv = memoryStore<unknown>();
    const s1 = session(kv);
    const insp = ok(
      await s1.openFiles([
        { name: 'a.jsonl', blob: rows('a', -1) },
        { name: 'b.jsonl', blob: rows('b', 5) },
      ]),
    );
    ok(await s1.run(config({ map: insp.detected }, ['exact_match'])));
    const id = (await s1.runs())[0]!.id;
    const s2 = session(kv);
    const back = ok(await s2.resume(id));
    expect(back.summary.systems?.systems).toEqual(['a', 'b']);
    expect(back.done).toBe(23);
    expect(ok(await s2.compare.report()).report.rows).toBe(23);
  });

  it('a single file without systems maps as before, and has no comparison', async () => {
    const s = session();
    const insp = ok(await s.open(rows('a', -1), 'a.jsonl'));
    const sum = ok(await s.map({ map: insp.detected }));
    expect(sum.systems).toBeUndefined();
    ok(await s.run(config({ map: insp.detected }, ['exact_match'])));
    expect(await s.compare.report()).toMatchObject({ ok: false, error: { message: expect.stringMatching(/one system/) } });
  });

  it('ids unique per row with a source column pair by question text; "pair rows by" overrides', async () => {
    const s = session();
    const systems = ['una/NQ/fid', 'una/NQ/gpt35', 'una/NQ/gpt4'];
    const text = systems
      .flatMap((m, k) =>
        [0, 1, 2, 3].map((i) =>
          JSON.stringify({ id: `q${i}-${k}`, source: m, question: `Q${i}?`, gold: `g${i}`, candidate: k === 0 || i % 2 ? `g${i}` : 'x' }),
        ),
      )
      .join('\n');
    const insp = ok(await s.open(new Blob([text]), 'nq.jsonl'));
    const auto = ok(await s.map({ map: insp.detected, systems: { auto: true } })).systems!;
    expect(auto).toMatchObject({ systems, systemColumn: 'source', keyBy: 'question', coverage: { questions: 4, complete: 4 } });
    expect(auto.pairing).toBe(
      'rows paired by question text (no id is shared by two systems: the ids name rows, not questions); every system has 4 questions',
    );
    // The column chosen by hand pairs the same way; by id, on request, nothing pairs.
    expect(ok(await s.map({ map: insp.detected, systems: { column: 'source' } })).systems).toMatchObject({ keyBy: 'question' });
    const byId = ok(await s.map({ map: insp.detected, systems: { column: 'source', pairBy: 'id' } })).systems!;
    expect([byId.keyBy, byId.coverage.complete]).toEqual(['id', 0]);
    // Run by question: every pair has its shared questions and a verdict or "n.s.".
    ok(await s.run(config({ map: insp.detected, systems: { auto: true } }, ['exact_match'])));
    const rep = ok(await s.compare.report()).report;
    expect(rep.paired.metrics[0]!.pairs.map((p) => p.accuracy.n)).toEqual([4, 4, 4]);
  });

  it('a source column of one value is no system: no badge, no system column in exports', async () => {
    const s = session();
    const text = [0, 1, 2]
      .map((i) => JSON.stringify({ id: i, source: 'kamalloo/nq301', question: `Q${i}?`, gold: 'g', candidate: 'g' }))
      .join('\n');
    const insp = ok(await s.open(new Blob([text]), 'nq301.jsonl'));
    const sum = ok(await s.map({ map: insp.detected, systems: { auto: true } }));
    expect(sum.systems?.systems).toEqual(['nq301']);
    ok(await s.run(config({ map: insp.detected, systems: { auto: true } }, ['exact_match'])));
    s.view({});
    expect(s.rowsAt([0, 1, 2]).rows.map((r) => r.row.system)).toEqual([undefined, undefined, undefined]);
    const rec = JSON.parse((await ok(await s.exportFile('jsonl')).text()).trim().split('\n')[1]!) as Record<string, unknown>;
    expect(rec.system).toBeUndefined();
    expect(await s.compare.report()).toMatchObject({ ok: false });
  });

  it('a system column in one file is chosen in the mapping', async () => {
    const s = session();
    const text = ['m1', 'm2']
      .flatMap((m) => [0, 1, 2].map((i) => JSON.stringify({ model: m, question: `Q${i}`, gold: 'g', candidate: m === 'm1' ? 'g' : 'h' })))
      .join('\n');
    const insp = ok(await s.open(new Blob([text]), 'runs.jsonl'));
    const sum = ok(await s.map({ map: insp.detected, systems: { column: 'model' } }));
    expect(sum.systems).toMatchObject({ systems: ['m1', 'm2'], layout: 'system-column', systemColumn: 'model', keyBy: 'question' });
    // Left to the session it finds the same column; with none asked for, one system.
    expect(ok(await s.map({ map: insp.detected, systems: { auto: true } })).systems).toMatchObject({
      systems: ['m1', 'm2'],
      systemColumn: 'model',
    });
    expect(ok(await s.map({ map: insp.detected })).systems).toBeUndefined();
  });

  it('systems named __proto__, constructor and hasOwnProperty map, score and compare like any other', async () => {
    const s = session();
    const names = ['__proto__', 'constructor', 'hasOwnProperty'];
    const text = names
      .flatMap((m, k) => [0, 1].map((i) => JSON.stringify({ model: m, question: `Q${i}`, gold: 'g', candidate: k === 0 ? 'g' : 'h' })))
      .join('\n');
    const insp = ok(await s.open(new Blob([text]), 'proto.jsonl'));
    const mapping: Mapping = { map: insp.detected, systems: { column: 'model' } };
    const sum = ok(await s.map(mapping));
    expect(sum.systems?.systems).toEqual(names);
    expect(Object.entries(sum.systems!.rows)).toEqual(names.map((n) => [n, 2]));
    ok(await s.run(config(mapping)));
    const rep = ok(await s.compare.report()).report;
    expect(rep.systems).toEqual(names);
  });
});
