/** Several systems from the other input formats in the session: Parquet files, an Inspect log, an lm-eval samples file. */
import { describe, expect, it } from 'vitest';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { newSession as session, ok, runConfig as config } from '../../test/session.ts';

describe('several systems in other formats', () => {
  it('Parquet files (one per system) and an Inspect log open as the CLI reads them', async () => {
    const parquet = (answers: string[]) =>
      new Blob([
        parquetWriteBuffer({
          columnData: [
            { name: 'id', data: answers.map((_, i) => `q${i}`) },
            { name: 'question', data: answers.map((_, i) => `Q${i}?`) },
            { name: 'gold', data: answers.map((_, i) => `g${i}`) },
            { name: 'candidate', data: answers },
          ],
        }),
      ]);
    const s = session();
    const insp = ok(
      await s.openFiles([
        { name: 'llama.parquet', blob: parquet(['g0', 'g1', 'no']) },
        { name: 'qwen.parquet', blob: parquet(['g0', 'no', 'no']) },
      ]),
    );
    // Named as what they are, not as the JSON the readers make of them.
    expect(insp.format).toBe('parquet');
    const sum = ok(await s.map({ map: insp.detected }));
    expect(sum.systems).toMatchObject({ systems: ['llama', 'qwen'], keyBy: 'id', coverage: { questions: 3, complete: 3 } });
    ok(await s.run(config({ map: insp.detected }, ['exact_match'])));
    const lb = ok(await s.compare.report()).report.leaderboard.metrics[0]!.entries;
    expect(lb.map((e) => [e.system, e.accuracy.value])).toEqual([
      ['llama', 2 / 3],
      ['qwen', 1 / 3],
    ]);

    const { readFileSync } = await import('node:fs');
    const log = readFileSync(new URL('../../test/fixtures/formats/inspect-triviaqa.json', import.meta.url));
    const one = session();
    const i2 = ok(await one.open(new Blob([log]), 'inspect-triviaqa.json'));
    expect(i2.format).toBe('inspect');
    // Read as an Inspect log (samples flattened, the model as a column a system select can take), not as one JSON object.
    expect(i2.columns).toEqual(expect.arrayContaining(['question', 'gold', 'candidate', 'model']));
    const samples = (JSON.parse(log.toString('utf8')) as { samples: unknown[] }).samples.length;
    expect(ok(await one.map({ map: i2.detected, systems: { column: 'model' } })).rows).toBe(samples);
  });

  it('an lm-evaluation-harness samples file maps its nested doc.question', async () => {
    const { readFileSync } = await import('node:fs');
    const bytes = readFileSync(new URL('../../test/fixtures/formats/samples_triviaqa_2026-11-23T22-00-00.000000.jsonl', import.meta.url));
    const first = JSON.parse(bytes.toString('utf8').split('\n')[0]!) as { doc: { question: string } };
    const s = session();
    const insp = ok(await s.open(new Blob([bytes]), 'samples_triviaqa.jsonl'));
    expect(insp.paths).toContain('doc.question');
    const map = { ...insp.detected, question: 'doc.question' };
    expect(ok(await s.map({ map })).columns.question).toBe('doc.question');
    ok(await s.run(config({ map }, ['exact_match'])));
    expect(s.detail(0)?.question).toBe(first.doc.question);
  });
});
