/** One-object JSON files that hold a table: each pandas orientation reads as the `records` one does. */
import { describe, expect, it } from 'vitest';
import { mapRows } from '../fields.ts';
import { readBlobInput, readInput } from './index.ts';
import { reshapeObject } from './json-shapes.ts';

// Written by pandas 1.5 (DataFrame.to_json(orient=…)) from one two-row frame.
const PANDAS: Record<string, string> = {
  columns: `{"question":{"0":"Capital of France?","1":"Who wrote \\"Hamlet\\"?"},"gold":{"0":["Paris"],"1":["William Shakespeare","Shakespeare"]},"candidate":{"0":"Paris","1":"Marlowe"},"label":{"0":true,"1":false}}`,
  index: `{"0":{"question":"Capital of France?","gold":["Paris"],"candidate":"Paris","label":true},"1":{"question":"Who wrote \\"Hamlet\\"?","gold":["William Shakespeare","Shakespeare"],"candidate":"Marlowe","label":false}}`,
  split: `{"columns":["question","gold","candidate","label"],"index":[0,1],"data":[["Capital of France?",["Paris"],"Paris",true],["Who wrote \\"Hamlet\\"?",["William Shakespeare","Shakespeare"],"Marlowe",false]]}`,
  table: `{"schema":{"fields":[{"name":"index","type":"integer"},{"name":"question","type":"string"},{"name":"gold","type":"string"},{"name":"candidate","type":"string"},{"name":"label","type":"boolean"}],"primaryKey":["index"],"pandas_version":"1.4.0"},"data":[{"index":0,"question":"Capital of France?","gold":["Paris"],"candidate":"Paris","label":true},{"index":1,"question":"Who wrote \\"Hamlet\\"?","gold":["William Shakespeare","Shakespeare"],"candidate":"Marlowe","label":false}]}`,
  records: `[{"question":"Capital of France?","gold":["Paris"],"candidate":"Paris","label":true},{"question":"Who wrote \\"Hamlet\\"?","gold":["William Shakespeare","Shakespeare"],"candidate":"Marlowe","label":false}]`,
};
const bytes = (s: string) => new TextEncoder().encode(s);
const rowsOf = (t: Parameters<typeof mapRows>[0]) =>
  mapRows(t).rows.map((r) => [r.question, r.golds, r.candidate, r.label?.kind === 'binary' ? r.label.correct : null]);

const want = rowsOf(await readInput(bytes(PANDAS.records!)));

describe('one JSON object holding the table', () => {
  it('the frame has two rows as pandas wrote them (records orientation)', () => {
    expect(want).toEqual([
      ['Capital of France?', ['Paris'], 'Paris', true],
      ['Who wrote "Hamlet"?', ['William Shakespeare', 'Shakespeare'], 'Marlowe', false],
    ]);
  });

  for (const orient of ['columns', 'index', 'split', 'table'])
    it(`pandas orient='${orient}' reads as the same rows, and says how`, async () => {
      const t = await readInput(bytes(PANDAS[orient]!));
      expect(t.reshaped).toBe(`pandas to_json, orient='${orient}'`);
      expect(rowsOf(t)).toEqual(want);
      // Pretty-printed, and from a Blob (the app), the same.
      const pretty = JSON.stringify(JSON.parse(PANDAS[orient]!), null, 2);
      expect(rowsOf(await readBlobInput(new Blob([pretty]), 'x.json'))).toEqual(want);
    });

  it('records under one key, beside metadata', async () => {
    const t = await readInput(bytes(JSON.stringify({ version: '1.1', examples: JSON.parse(PANDAS.records!) })));
    expect(t.reshaped).toBe('the records under "examples"');
    expect(rowsOf(t)).toEqual(want);
  });

  it('an object that is a row stays one row; an object holding no table is left as it is', () => {
    expect(reshapeObject({ question: 'q', gold: 'a', candidate: 'b' })).toBeNull();
    expect(reshapeObject({ doc_id: 0, doc: { question: 'q' }, target: 'a', filtered_resps: ['a'] })).toBeNull();
    expect(reshapeObject({ question: 'q', answer: 'a' })).toBeNull();
    expect(reshapeObject({ a: { x: 1 }, b: { x: 2 } })).toBeNull();
    expect(reshapeObject({ data: [1, 2], other: [{ a: 1 }], more: [{ b: 1 }] })).toBeNull();
  });
});
