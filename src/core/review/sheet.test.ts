/**
 * The review as a spreadsheet: a sheet written from review lines reads back as exactly those lines, and a sheet
 * with answers reads as exactly the labels its JSONL form with the same answers gives — also after a spreadsheet
 * reformatted its readable columns and re-sorted its rows. Texts that a spreadsheet would run, or that break naive
 * CSV, survive.
 */
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { designRecord, planReview, reviewLine } from './plan.ts';
import { firstEntries } from './adapt.ts';
import { entryProbabilities } from './design.ts';
import { parseReviewLabels, plainLabelLine } from './labels.ts';
import { isSheet, parseReviewSheet, reviewSheet, sheetLines, SHEET_COLUMNS } from './sheet.ts';

const HOSTILE = ['=1+1', '+33 1 23', '-5', '@SUM(A1)', 'a, "quoted" b', 'two\nlines', 'tab\there', "'=already", 'Ünïcödé 東京 😀', ''];

function lines(): Record<string, unknown>[] {
  const rows = Array.from({ length: 40 }, (_, i) => ({
    id: `r${i}`,
    key: String(i % 10),
    system: ['a', 'b', 'c', 'd'][Math.floor(i / 10)]!,
    question: `${HOSTILE[i % 10]} question ${i % 10}?`,
    golds: [HOSTILE[(i + 3) % 10]!, 'gold | alias'],
    candidate: i % 3 === 0 ? 'gold' : `${HOSTILE[(i + 5) % 10]} ${i % 2}`,
  }));
  const view = {
    judge: { metric: 'j', threshold: 0.5 },
    score: (i: number) => (i % 3 === 0 ? 0.9 : 0.2),
    decision: (i: number) => i % 3 === 0,
    others: () => [],
  };
  const plan = planReview(rows, view, 5, 'h');
  const entries = firstEntries(plan, 8);
  const qs = entryProbabilities(entries);
  const design = designRecord(plan, 8);
  return entries.map((e, k) => {
    const members = plan.groups[e.group]!;
    const first = rows[members[0]!]!;
    return reviewLine({
      order: k + 1,
      rows: members.map((i) => ({ id: `r${i}`, system: rows[i]!.system })),
      question: first.question,
      golds: first.golds,
      candidate: first.candidate,
      judge: { metric: 'j', score: k % 4 === 0 ? null : 0.1 * k, decision: k % 4 === 0 ? null : k % 2 === 0, explanation: HOSTILE[k]! },
      priority: 0.5,
      why: HOSTILE[(k + 1) % 10]!,
      entry: e,
      q: qs[k]!,
      design,
      input: 'h',
    });
  });
}

/** The answers a person gives, as a JSONL line's label and as the cell they type. */
const answers: [unknown, string][] = [
  [true, 'TRUE'],
  [false, 'false'],
  [1, '1'],
  ['incorrect', 'incorrect'],
  ['partial', 'partial'],
  ['skip', 'skip'],
  [null, ''],
  [0, '0'],
];

describe('a review sheet', () => {
  it('has the readable columns first, the label to fill in, and the line itself last', () => {
    const text = reviewSheet(lines());
    const [header, ...rows] = Papa.parse<string[]>(text.trim()).data;
    expect(header).toEqual([...SHEET_COLUMNS]);
    expect(rows).toHaveLength(8);
    const at = (c: string) => header!.indexOf(c);
    // Formula-like cells carry a leading quote a spreadsheet shows as text; the label waits empty.
    expect(rows.every((r) => r[at('label')] === '')).toBe(true);
    for (const r of rows) for (const cell of r) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    // Golds as people write them, a JSON list when one holds the separator.
    expect(rows.map((r) => r[at('golds')])).toContain(JSON.stringify(['=1+1', 'gold | alias']));
  });

  it('reads back as exactly the lines it was written from', () => {
    const ls = lines();
    const r = sheetLines(reviewSheet(ls));
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value.map((x) => x.value)).toEqual(ls);
  });

  it('with answers reads as exactly the labels of its JSONL form, even reformatted and re-sorted', () => {
    const ls = lines();
    const jsonl = ls.map((l, k) => JSON.stringify({ ...l, label: answers[k]![0] })).join('\n');
    const fromJsonl = parseReviewLabels(jsonl, 'f');
    expect(fromJsonl.ok).toBe(true);
    // The person's sheet: answers typed in the label column.
    const filled = Papa.parse<string[]>(reviewSheet(ls).trim()).data;
    const labelAt = SHEET_COLUMNS.indexOf('label');
    filled.slice(1).forEach((r, k) => (r[labelAt] = answers[k]![1]));
    const typed = `${Papa.unparse(filled, { newline: '\n' })}\n`;
    expect(parseReviewSheet(typed, 'f')).toEqual(fromJsonl);
    // A spreadsheet's save: numbers reformatted, the readable texts changed, rows sorted by the judge's score.
    const header = filled[0]!;
    const mangled = [
      header,
      ...filled
        .slice(1)
        .map((r) =>
          r.map((c, i) => (header[i] === 'verity' || header[i] === 'label' ? c : header[i] === 'order' ? `${c}.00` : `${c} (seen)`)),
        )
        .reverse(),
    ];
    expect(parseReviewSheet(`${Papa.unparse(mangled, { newline: '\r\n' })}\r\n`, 'f')).toEqual(fromJsonl);
  });

  it("holds the app's plain label lines too", () => {
    const plainLines = [
      plainLabelLine({ id: 'x1', system: 'a', label: { kind: 'binary', correct: true }, time: '2026-12-04T00:00:00.000Z' }, 'h'),
      plainLabelLine({ id: '=x2', label: { kind: 'taxonomy', cls: 'partial' } }, 'h'),
    ];
    const sheet = reviewSheet(plainLines);
    expect(parseReviewSheet(sheet, 'f')).toEqual(parseReviewLabels(plainLines.map((l) => JSON.stringify(l)).join('\n'), 'f'));
  });

  it('refuses a sheet it cannot read, naming the line and why', () => {
    expect(parseReviewSheet('id,question,label\nr1,Q?,true\n', 'f.csv')).toEqual({
      ok: false,
      error: 'f.csv has no "verity" column: a review sheet is the CSV verity review --out FILE.csv (or the app) writes',
    });
    const text = reviewSheet(lines());
    const rows = Papa.parse<string[]>(text.trim()).data;
    rows[3]![SHEET_COLUMNS.indexOf('verity')] = '{"order": 3, oops';
    expect(parseReviewSheet(`${Papa.unparse(rows, { newline: '\n' })}\n`, 'f.csv')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^f\.csv, line \d+: its "verity" cell is not the JSON Verity wrote there/),
    });
    // A label the JSONL form refuses is refused here too, at its line.
    rows[3] = Papa.parse<string[]>(text.trim()).data[3]!;
    rows[2]![SHEET_COLUMNS.indexOf('label')] = 'maybe';
    // The line the row starts on (a cell above holds a line break).
    const line = `${Papa.unparse(rows.slice(0, 2), { newline: '\n' })}\n`.split('\n').length;
    expect(parseReviewSheet(`${Papa.unparse(rows, { newline: '\n' })}\n`, 'f.csv')).toMatchObject({
      ok: false,
      error: expect.stringMatching(new RegExp(`^f\\.csv, line ${line}: label "maybe" is not one of`)),
    });
  });

  it('is told from JSONL by its name, else by its first character', () => {
    expect(isSheet('r.csv', '{"id":1}')).toBe(true);
    expect(isSheet('r.jsonl', 'order,id')).toBe(false);
    expect(isSheet('-', '  {"id":1}')).toBe(false);
    expect(isSheet('-', 'order,id,system')).toBe(true);
  });
});
