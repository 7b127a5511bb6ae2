import { describe, expect, it } from 'vitest';
import { toCsv, toTsv } from './export.ts';
import { parseTable } from './parse.ts';
import { mapRows } from './fields.ts';

const rec = (id: string, candidate: string, gold: string[] = ['x']) => ({
  id,
  question: 'Q',
  gold,
  candidate,
  label: null,
  metrics: { exact_match: { score: 0, decision: false, explanation: '-1 point' } },
});

describe('CSV injection (OWASP): cells a spreadsheet would run as formulas', () => {
  const cases = ['=1+1', '+1', '-2+3', '@SUM(A1:A2)', '\tx', '\rx', "'=1", "''-x", 'plain', "'plain", "it's =1", '-'];
  const out = toCsv(
    cases.map((c, i) => rec(String(i), c)),
    ['exact_match'],
  );

  it('get a leading quote and are quoted; a run of quotes before a trigger gets one more; others are untouched', () => {
    const candidates = out
      .trim()
      .split(/\n(?=\d+,)/)
      .slice(1)
      .map((line) => line.split(',')[3]);
    expect(candidates).toEqual([
      '"\'=1+1"',
      '"\'+1"',
      '"\'-2+3"',
      '"\'@SUM(A1:A2)"',
      '"\'\tx"',
      '"\'\rx"',
      '"\'\'=1"',
      "\"'''-x\"",
      'plain',
      "'plain",
      "it's =1",
      '"\'-"',
    ]);
    // Text cells of any column (here the explanation) too; numbers such as scores are left as they are.
    expect(out).toContain(',0,false,"\'-1 point"\n');
  });

  it('read back exactly as written, through parseTable and mapRows', () => {
    const t = parseTable(out);
    expect(t.records.map((r) => r.data.candidate)).toEqual(cases);
    expect(t.records.map((r) => r.data['exact_match.explanation'])).toEqual(cases.map(() => '-1 point'));
    expect(mapRows(t).rows.map((r) => r.candidate)).toEqual(cases);
  });

  it('gold lists are JSON text, so they never start with a trigger; an id can', () => {
    const t = parseTable(toCsv([rec('=id', 'c', ['=g', '-h'])], []));
    expect(t.records[0]!.data).toMatchObject({ id: '=id', gold: '["=g","-h"]' });
    expect(mapRows(t).rows[0]).toMatchObject({ id: '=id', golds: ['=g', '-h'] });
  });
});

describe('toTsv', () => {
  it('the same columns, tab-separated; cells with tabs, quotes or line breaks are quoted', () => {
    const out = toTsv([rec('1', 'a\tb "c"\nd')], ['exact_match']);
    const [header, ...rest] = out.split('\n');
    expect(header).toBe(
      ['id', 'question', 'gold', 'candidate', 'label', 'exact_match.score', 'exact_match.decision', 'exact_match.explanation'].join('\t'),
    );
    expect(rest.join('\n')).toBe('1\tQ\t"[""x""]"\t"a\tb ""c""\nd"\t\t0\tfalse\t"\'-1 point"\n');
    const t = parseTable(out);
    expect(t.format).toBe('tsv');
    expect(t.records[0]!.data.candidate).toBe('a\tb "c"\nd');
  });
});

describe('provenance columns', () => {
  it('writes models and verity_run as trailing JSON columns when records carry them', () => {
    const rec = {
      id: '1',
      question: 'q',
      gold: ['g'],
      candidate: 'c',
      label: null,
      metrics: { exact_match: { score: 0, decision: false, explanation: 'no' } },
      models: { nli: { id: 'm', revision: 'r', device: 'cpu', dtype: 'fp32' } },
      verity_run: '{"verity":"0.1.0"}',
    };
    const t = parseTable(toCsv([rec], ['exact_match']), 'x.csv');
    expect(t.columns.slice(-2)).toEqual(['models', 'verity_run']);
    expect(JSON.parse(t.records[0]!.data.models as string)).toEqual(rec.models);
    expect(t.records[0]!.data.verity_run).toBe('{"verity":"0.1.0"}');
    expect(toCsv([{ ...rec, models: undefined, verity_run: undefined }], ['exact_match']).split('\n')[0]).not.toContain('models');
  });
});
