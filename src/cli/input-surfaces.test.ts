/**
 * One input pipeline: the same files read by every surface give the same rows, notes and skipped rows — the CLI's
 * streamed reader (cli/input.ts readRows, for JSONL over 64 KiB, with small chunks), the CLI's and the app session's
 * whole-file path (readBlobInput → prepareInput) and Learn's (parseTable → prepareInput). The files hold what made
 * the surfaces differ before: joined golds, gold cells too long to be a list, a bad row, a missing candidate,
 * a small file whose one joined cell is only a suggestion.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRows } from './input.ts';
import { readBlobInput } from '../core/io/formats/index.ts';
import { parseTable } from '../core/io/parse.ts';
import { prepareInput } from '../core/io/prepare.ts';
import type { MappingNote } from '../core/io/fields.ts';
import type { QaRow } from '../core/types.ts';

interface Read {
  rows: Pick<QaRow, 'row' | 'id' | 'question' | 'golds' | 'candidate' | 'label'>[];
  notes: string[];
  skipped: number;
}
const pick = (r: QaRow) => ({ row: r.row, id: r.id, question: r.question, golds: r.golds, candidate: r.candidate, label: r.label });

async function streamed(path: string): Promise<Read> {
  const rows: Read['rows'] = [];
  const noted: MappingNote[] = [];
  const stderr = process.stderr.write;
  process.stderr.write = () => true;
  try {
    const s = await readRows(path, {
      mapOptions: {},
      batch: 100,
      onRows: async (b) => void rows.push(...b.map(pick)),
      onNote: (n) => (noted.push(n), n.message),
      chunkBytes: 4096,
    });
    return { rows, notes: noted.map((n) => n.message), skipped: s.skipped };
  } finally {
    process.stderr.write = stderr;
  }
}

const fromPrepared = (p: ReturnType<typeof prepareInput>): Read => ({
  rows: p.rows.map(pick),
  notes: [...p.separatorNotes, ...p.notes].map((n) => n.message),
  skipped: p.issues.filter((i) => i.severity === 'error').length,
});

const whole = async (path: string, name: string): Promise<Read> =>
  fromPrepared(prepareInput([{ name, table: await readBlobInput(new Blob([readFileSync(path)]), name) }]));
const learn = (path: string, name: string): Read =>
  fromPrepared(prepareInput([{ name, table: parseTable(readFileSync(path, 'utf8'), name) }]));

describe('every surface reads a file the same way', () => {
  const dir = mkdtempSync(join(tmpdir(), 'verity-surfaces-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const long = `${'a very long gold answer that is no list '.repeat(120)}`; // over 4,000 characters
  const lines: string[] = [];
  for (let i = 0; i < 900; i++) {
    // A third long, a sixth joined: a fifth of the short cells, not of all cells, are joined — the long ones decide.
    const gold = i % 3 === 0 ? long : i % 4 === 0 ? `Paris | City of Light` : `Answer ${i}`;
    lines.push(JSON.stringify({ id: `q${i}`, question: `Question ${i}?`, gold, candidate: `Answer ${i}`, label: i % 2 === 0 }));
  }
  lines[10] = '{"id": "q10", "question": "broken'; // not JSON: skipped with its line
  lines[20] = JSON.stringify({ id: 'q20', question: 'Q?', gold: 'Answer 20', label: true }); // no candidate: warned, scored empty
  const big = join(dir, 'big.jsonl');
  writeFileSync(big, `${lines.join('\n')}\n`);
  const small = join(dir, 'small.jsonl');
  writeFileSync(
    small,
    ['Paris / City of Light', 'Rome', 'Oslo', 'Lima']
      .map((g, i) => JSON.stringify({ id: i, question: `Capital ${i}?`, gold: g, candidate: g.split(' / ')[0] }))
      .join('\n'),
  );

  // The same rows as a JSON array (read whole by every surface) and a CSV (streamed by the CLI).
  const smallJson = join(dir, 'small.json');
  writeFileSync(smallJson, `[${readFileSync(small, 'utf8').trim().split('\n').join(',')}]`);
  const bigCsv = join(dir, 'big.csv');
  const q = (v: unknown) => `"${String(v).replaceAll('"', '""')}"`;
  writeFileSync(
    bigCsv,
    [
      'id,question,gold,candidate,label',
      ...lines
        .filter((l) => l.startsWith('{"id"') && l.endsWith('}'))
        .map((l) => {
          const r = JSON.parse(l) as Record<string, unknown>;
          return ['id', 'question', 'gold', 'candidate', 'label'].map((k) => (r[k] === undefined ? '' : q(r[k]))).join(',');
        }),
    ].join('\n'),
  );

  it.each([
    ['big.jsonl (streamed by the CLI)', big],
    ['big.csv (streamed by the CLI)', bigCsv],
    ['small.jsonl (one joined cell: a suggestion)', small],
    ['small.json (a JSON array)', smallJson],
  ])('%s: the same rows, notes and skipped rows on every surface', async (_label, path) => {
    const name = path.split('/').pop()!;
    const cli = await streamed(path);
    const session = await whole(path, name);
    const page = learn(path, name);
    expect(cli.rows.length).toBeGreaterThan(0);
    expect(session).toEqual(cli);
    expect(page).toEqual(cli);
  });

  it('the big file splits its joined golds, reads long cells whole, and names the bad row', async () => {
    const cli = await streamed(big);
    expect(cli.skipped).toBe(1);
    expect(cli.rows.find((r) => r.id === 'q4')!.golds).toEqual(['Paris', 'City of Light']);
    expect(cli.rows.find((r) => r.id === 'q3')!.golds).toEqual([long.trim()]);
    // The note counts the short cells only: 149 of 599 (the bad row's cell is not read).
    expect(cli.notes.join(' ')).toContain('149 of 599 gold cells (25%)');
  });
});
