import { describe, expect, it } from 'vitest';
import { parseTable } from './parse.ts';
import { detectWideLayout, guessSystems, mapSystemFiles, mapSystemRows, systemFromFileName, systemNamesForFiles } from './systems.ts';

const jsonl = (rows: object[]) => parseTable(rows.map((r) => JSON.stringify(r)).join('\n'));

describe('one file with a system column', () => {
  const table = jsonl([
    { id: 1, question: 'Q1', gold: 'a', candidate: 'a', model: 'm1', label: true, split: 'dev' },
    { id: 1, question: 'Q1', gold: 'a', candidate: 'b', model: 'm2', label: false, split: 'dev' },
    { id: 2, question: 'Q2', gold: 'c', candidate: 'c', model: 'm1', split: 'test' },
    { id: 2, question: 'Q2', gold: 'c', candidate: 'c', model: 'm2', split: 'test' },
    { id: 3, question: 'Q3', gold: 'd', candidate: 'x', model: '', split: 'test' },
  ]);

  it('finds the system column by name, pairs by id, keeps extra columns, reports rows without a system', () => {
    const r = mapSystemRows(table);
    expect(r.layout).toBe('system-column');
    expect(r.systemColumn).toBe('model');
    expect(r.keyBy).toBe('id');
    expect(r.systems).toEqual(['m1', 'm2']);
    expect(r.rows.map((x) => [x.system, x.key, x.candidate, x.label?.kind === 'binary' ? x.label.correct : null])).toEqual([
      ['m1', '1', 'a', true],
      ['m1', '2', 'c', null],
      ['m2', '1', 'b', false],
      ['m2', '2', 'c', null],
    ]);
    // The system column stays among the row's own columns: exports keep every input column.
    expect(r.rows[0]!.extra).toEqual({ model: 'm1', split: 'dev' });
    // The same id in two systems is not a duplicate.
    expect(r.issues.map((i) => i.message)).toEqual(['row 5: no system in column "model"; skipped']);
  });

  it("finds a system column under other tools' names and spellings (Model Name, model_id)", () => {
    for (const name of ['Model Name', 'modelName', 'model_id', 'System']) {
      const t = jsonl([
        { question: 'Q1', gold: 'a', candidate: 'a', [name]: 'm1' },
        { question: 'Q1', gold: 'a', candidate: 'b', [name]: 'm2' },
      ]);
      const r = mapSystemRows(t);
      expect(r.systemColumn, name).toBe(name);
      expect(r.systems).toEqual(['m1', 'm2']);
    }
  });

  it('reads the DIVER-QA layout as it is: questions, answers, prediction, model, eval (0/1), dataset kept', () => {
    const t = parseTable(
      'questions,answers,dataset,prediction,model,eval\n' +
        `Who wrote Hamlet?,"['William Shakespeare', 'Shakespeare']",triviaqa,It was Shakespeare.,gpt-4,1\n` +
        `Who wrote Hamlet?,"['William Shakespeare', 'Shakespeare']",triviaqa,Marlowe,llama,0\n` +
        'Capital of France?,Paris,nq,Paris,gpt-4,1\n' +
        'Capital of France?,Paris,nq,Lyon,llama,0\n',
    );
    const r = mapSystemRows(t);
    expect([r.layout, r.systemColumn, r.systems, r.keyBy]).toEqual(['system-column', 'model', ['gpt-4', 'llama'], 'question']);
    expect(r.rows.map((x) => [x.system, x.question, x.golds, x.label?.kind === 'binary' ? x.label.correct : null])).toEqual([
      ['gpt-4', 'Who wrote Hamlet?', ['William Shakespeare', 'Shakespeare'], true],
      ['gpt-4', 'Capital of France?', ['Paris'], true],
      ['llama', 'Who wrote Hamlet?', ['William Shakespeare', 'Shakespeare'], false],
      ['llama', 'Capital of France?', ['Paris'], false],
    ]);
    expect(r.rows[0]!.extra).toEqual({ dataset: 'triviaqa', model: 'gpt-4' });
  });

  it('takes a chosen system column, and says so when it does not exist', () => {
    const r = mapSystemRows(table, { systemColumn: 'split' });
    expect(r.systems).toEqual(['dev', 'test']);
    expect(r.rows.find((x) => x.system === 'dev')!.extra).toEqual({ model: 'm1', split: 'dev' });
    expect(() => mapSystemRows(table, { systemColumn: 'nope' })).toThrow('the system column "nope" is not in the file; the columns are');
  });

  it('a column found by its name whose values answer no question in common is not read as systems', () => {
    // A dataset's "source" column (where each question came from), in a file of one system.
    const one = jsonl([
      { id: 1, question: 'Q1', gold: 'a', candidate: 'a', source: 'wiki' },
      { id: 2, question: 'Q2', gold: 'b', candidate: 'b', source: 'web' },
      { id: 3, question: 'Q3', gold: 'c', candidate: 'x', source: 'web' },
    ]);
    const r = mapSystemRows(one);
    expect([r.layout, r.systems, r.systemColumn, r.rows.length]).toEqual(['single', ['system'], undefined, 3]);
    expect(r.rows[0]!.extra).toEqual({ source: 'wiki' });
    expect(r.notes).toEqual([
      'column "source" is not read as the system column: no question is answered under two of its 2 values, by id or by question text (choose it as the system column to compare them anyway)',
    ]);
    // Chosen, it is taken as it is; one shared question is enough to take it unasked.
    expect(mapSystemRows(one, { systemColumn: 'source' }).systems).toEqual(['wiki', 'web']);
    const shared = jsonl([...one.records.map((r) => r.data), { id: 1, question: 'Q1', gold: 'a', candidate: 'b', source: 'web' }]);
    expect(mapSystemRows(shared).systems).toEqual(['wiki', 'web']);
    // false: no system column even where one would be found.
    expect(mapSystemRows(table, { systemColumn: false }).systems).toEqual(['system']);
  });

  it('without ids pairs by question + gold, the k-th repeat with the k-th repeat', () => {
    const t = jsonl([
      { question: 'Q', gold: 'a', candidate: '1', run: 'r1' },
      { question: 'Q', gold: 'a', candidate: '2', run: 'r1' },
      { question: 'Q', gold: 'a', candidate: '3', run: 'r2' },
      { question: 'Q', gold: 'a', candidate: '4', run: 'r2' },
    ]);
    const r = mapSystemRows(t);
    expect(r.keyBy).toBe('question');
    const keys = r.rows.map((x) => x.key);
    expect(keys[0]).toBe(keys[2]);
    expect(keys[1]).toBe(keys[3]);
    expect(keys[0]).not.toBe(keys[1]);
  });
});

describe('pairing rows of a system column', () => {
  // Ids unique per row (`q0-gpt4`), the systems in a `source` column: the layout most multi-system files have.
  const systems = ['evouna/NQ/fid', 'evouna/NQ/gpt4', 'evouna/NQ/newbing'];
  const perRow = jsonl(
    [0, 1, 2, 3].flatMap((q) =>
      systems.map((s) => ({ id: `q${q}-${s.split('/')[2]}`, source: s, question: `Question ${q}?`, gold: `g${q}`, candidate: `a${q}` })),
    ),
  );

  it('ids that name rows pair nothing: the column is found and rows pair by question text, with a note saying so', () => {
    const r = mapSystemRows(perRow);
    expect([r.layout, r.systemColumn, r.systems, r.keyBy]).toEqual(['system-column', 'source', systems, 'question']);
    expect(r.rows.filter((x) => x.key === r.rows[0]!.key).map((x) => x.system)).toEqual(systems);
    expect(r.notes).toEqual([
      'rows paired by question text (no id is shared by two systems: the ids name rows, not questions); every system has 4 questions',
    ]);
    expect(r.pairing).toBe(r.notes[0]);
  });

  it('a column chosen by hand pairs by question text too, and so do files with ids per row', () => {
    const r = mapSystemRows(perRow, { systemColumn: 'source' });
    expect(r.keyBy).toBe('question');
    expect(new Set(r.rows.map((x) => x.key)).size).toBe(4);
    const byFile = mapSystemFiles(
      systems.map((s) => ({
        name: `${s.split('/')[2]}.jsonl`,
        table: jsonl(perRow.records.map((x) => x.data).filter((d) => d.source === s)),
      })),
    );
    expect(byFile.keyBy).toBe('question');
    expect(byFile.coverage.complete).toBe(4);
  });

  it('question text pairs whatever the case, spacing and punctuation; golds tell apart a text that repeats', () => {
    const t = jsonl([
      { question: 'Who wrote  Hamlet?', gold: 'Shakespeare', candidate: 'a', model: 'm1' },
      { question: 'who wrote hamlet', gold: 'Shakespeare', candidate: 'b', model: 'm2' },
      { question: 'Name a colour.', gold: 'red', candidate: 'red', model: 'm1' },
      { question: 'Name a colour.', gold: 'blue', candidate: 'blue', model: 'm1' },
      { question: 'Name a colour!', gold: 'blue', candidate: 'x', model: 'm2' },
    ]);
    const r = mapSystemRows(t);
    const key = (cand: string) => r.rows.find((x) => x.candidate === cand)!.key;
    expect(key('a')).toBe(key('b'));
    expect(key('blue')).toBe(key('x'));
    expect(key('red')).not.toBe(key('blue'));
    expect(r.pairing).toBe(
      'rows paired by question text (no id column); 1 question text that repeats with other gold answers told apart by the golds; questions per system: m1 3, m2 2',
    );
  });

  it('ids shared per question pair by id; ids that mostly pair other questions give way to question text', () => {
    const shared = jsonl(perRow.records.map((x) => ({ ...x.data, id: String(x.data.id).split('-')[0] })));
    expect(mapSystemRows(shared).keyBy).toBe('id');
    // Each system's rows numbered 1, 2, … in its own order: the ids pair, but other questions.
    const numbered = jsonl(
      systems.flatMap((s, k) =>
        [0, 1, 2, 3].map((i) => ({ id: i, source: s, question: `Question ${(i + k) % 4}?`, gold: 'g', candidate: 'a' })),
      ),
    );
    const r = mapSystemRows(numbered);
    expect(r.keyBy).toBe('question');
    expect(r.pairing).toBe(
      'rows paired by question text (4 of the 4 ids shared by two systems give them different questions); every system has 4 questions',
    );
  });

  it('ids that pair rows with other questions or golds pair them, and say so', () => {
    const t = jsonl([
      { id: 'q1', model: 'a', question: 'Q1?', gold: 'x', candidate: 'x' },
      { id: 'q1', model: 'b', question: 'Q1?', gold: 'y', candidate: 'x' },
      { id: 'q2', model: 'a', question: 'Q2?', gold: 'z', candidate: 'z' },
      { id: 'q2', model: 'b', question: 'Q2?', gold: 'z', candidate: 'z' },
    ]);
    const r = mapSystemRows(t);
    expect(r.keyBy).toBe('id');
    expect(r.notes).toContain(
      '1 of the 2 ids shared by two systems give them different questions or gold answers (e.g. id q1): their rows are paired all the same; check the ids, or pair by question text',
    );
    // Ids that agree: no such note.
    expect(mapSystemRows(jsonl(t.records.map((x) => ({ ...x.data, gold: 'z' })))).notes.some((n) => n.includes('check the ids'))).toBe(
      false,
    );
  });

  it('a system column of one value (a dataset name) is not read as systems', () => {
    const one = jsonl([
      { id: 1, question: 'Q1', gold: 'a', candidate: 'a', source: 'kamalloo/nq301' },
      { id: 2, question: 'Q2', gold: 'b', candidate: 'b', source: 'kamalloo/nq301' },
    ]);
    const r = mapSystemRows(one);
    expect([r.layout, r.systems, r.systemColumn]).toEqual(['single', ['system'], undefined]);
    expect(r.rows[0]!.extra).toEqual({ source: 'kamalloo/nq301' });
    expect(r.notes).toEqual([
      'column "source" is not read as the system column: it has one value ("kamalloo/nq301"), so the file holds one system',
    ]);
    // In one of several files, the one value names that file's system (two Inspect logs, say).
    const files = mapSystemFiles([
      { name: 'a.jsonl', table: one },
      { name: 'b.jsonl', table: jsonl([{ id: 1, question: 'Q1', gold: 'a', candidate: 'x', source: 'other' }]) },
    ]);
    expect(files.systems).toEqual(['kamalloo/nq301', 'other']);
  });
});

describe('one system in several files', () => {
  const rows = (cands: string[], model = 'm') =>
    jsonl(cands.map((c, i) => ({ id: `q${i}`, question: `Q${i}`, gold: 'a', candidate: c, model })));

  it('two runs of one model (the same questions) are two systems, named after their files', () => {
    const r = mapSystemFiles([
      { name: 'logs/run1.jsonl', table: rows(['a', 'b']) },
      { name: 'logs/run2.jsonl', table: rows(['a', 'x', 'y']) },
    ]);
    expect(r.systems).toEqual(['m (run1)', 'm (run2)']);
    expect(r.rows.map((x) => [x.system, x.key, x.candidate])).toEqual([
      ['m (run1)', 'q0', 'a'],
      ['m (run1)', 'q1', 'b'],
      ['m (run2)', 'q0', 'a'],
      ['m (run2)', 'q1', 'x'],
      ['m (run2)', 'q2', 'y'],
    ]);
    expect(r.notes).toContain(
      'logs/run1.jsonl, logs/run2.jsonl all name the system "m" and answer the same questions: each file is compared as a system of its own ("m (run1)", "m (run2)")',
    );
  });

  it('shards of one run (no question twice) stay one system', () => {
    const r = mapSystemFiles([
      { name: 'part1.jsonl', table: rows(['a']) },
      { name: 'part2.jsonl', table: jsonl([{ id: 'q9', question: 'Q9', gold: 'a', candidate: 'a', model: 'm' }]) },
    ]);
    expect(r.systems).toEqual(['m']);
    expect(r.rows).toHaveLength(2);
    expect(r.notes.filter((n) => n.includes('already gave') || n.includes('of its own'))).toEqual([]);
  });

  it('says when a question repeats for a system across files that hold several systems each', () => {
    const two = (c: string) =>
      jsonl([
        { id: 'q0', question: 'Q0', gold: 'a', candidate: c, model: 'm1' },
        { id: 'q0', question: 'Q0', gold: 'a', candidate: c, model: 'm2' },
      ]);
    const r = mapSystemFiles([
      { name: 'a.jsonl', table: two('a') },
      { name: 'b.jsonl', table: two('b') },
    ]);
    expect(r.systems).toEqual(['m1', 'm2']);
    expect(r.notes).toContain(
      'm1 (a.jsonl, b.jsonl): 1 row gives a question another of its rows already gave (e.g. q0); only the first row of each is compared; to compare the files as separate systems, give their rows different system names',
    );
  });

  it('names a system after an Inspect .eval file as after any other', () => {
    expect(systemFromFileName('logs/2026-11-23T22-00-00_triviaqa_abc.eval')).toBe('2026-11-23T22-00-00_triviaqa_abc');
  });
});

describe('the wide layout (EVOUNA)', () => {
  const table = parseTable(
    JSON.stringify([
      {
        question: 'Q1',
        golden_answer: 'David Seville',
        answer_fid: 'David Seville',
        judge_fid: true,
        answer_gpt4: 'Ross Bagdasarian',
        judge_gpt4: 'nan',
        improper: false,
      },
      {
        question: 'Q2',
        golden_answer: 'Lyon',
        answer_fid: 'Paris',
        judge_fid: false,
        answer_gpt4: 'Lyon',
        judge_gpt4: true,
        improper: true,
      },
      { question: 'Q3', golden_answer: 'x', answer_fid: null, judge_fid: false, answer_gpt4: 'x', judge_gpt4: true, improper: false },
    ]),
  );

  it('detects answer_<system> + judge_<system> pairs', () => {
    expect(detectWideLayout(table.columns)).toEqual({
      systems: [
        { system: 'fid', candidate: 'answer_fid', label: 'judge_fid' },
        { system: 'gpt4', candidate: 'answer_gpt4', label: 'judge_gpt4' },
      ],
      shared: ['question', 'golden_answer', 'improper'],
    });
    expect(detectWideLayout(['question', 'gold', 'answer_tokens'])).toBeNull();
  });

  it('other spellings: <system>_answer with its label, spaces or camelCase-free keys, and no field name taken for a system', () => {
    expect(detectWideLayout(['question', 'gold', 'gpt4_answer', 'gpt4_label', 'Llama 3 answer', 'Llama 3 is_correct'])).toEqual({
      systems: [
        { system: 'gpt4', candidate: 'gpt4_answer', label: 'gpt4_label' },
        { system: 'Llama 3', candidate: 'Llama 3 answer', label: 'Llama 3 is_correct' },
      ],
      shared: ['question', 'gold'],
    });
    expect(detectWideLayout(['question', 'Prediction GPT4', 'Judge GPT4', 'prediction-fid', 'judge-fid', 'gold'])?.systems).toEqual([
      { system: 'GPT4', candidate: 'Prediction GPT4', label: 'Judge GPT4' },
      { system: 'fid', candidate: 'prediction-fid', label: 'judge-fid' },
    ]);
    expect(detectWideLayout(['questions', 'answers', 'prediction_gpt4', 'eval_gpt4', 'prediction_llama', 'eval_llama'])?.systems).toEqual([
      { system: 'gpt4', candidate: 'prediction_gpt4', label: 'eval_gpt4' },
      { system: 'llama', candidate: 'prediction_llama', label: 'eval_llama' },
    ]);
    // A single-system file with field names shaped like <x>_answer is not wide, labelled or not.
    expect(detectWideLayout(['question', 'gold_answer', 'model_answer', 'human_label'])).toBeNull();
    expect(detectWideLayout(['question', 'reference_answer', 'predicted_answer'])).toBeNull();
    // The suffix form needs a label beside the answer.
    expect(detectWideLayout(['question', 'gold', 'gpt4_answer', 'fid_answer'])).toBeNull();
  });

  it('maps every system in one step: "nan" is no judgment, improper questions are left out with a note', () => {
    const r = mapSystemRows(table);
    expect(r.layout).toBe('wide');
    expect(r.keyBy).toBe('record');
    expect(r.systems).toEqual(['fid', 'gpt4']);
    expect(
      r.rows.map((x) => [x.system, x.key, x.golds, x.candidate, x.label ? (x.label as { correct: boolean }).correct : 'none']),
    ).toEqual([
      ['fid', 'row 1', ['David Seville'], 'David Seville', true],
      ['fid', 'row 3', ['x'], '', false],
      ['gpt4', 'row 1', ['David Seville'], 'Ross Bagdasarian', 'none'],
      ['gpt4', 'row 3', ['x'], 'x', true],
    ]);
    expect(r.notes[0]).toBe('1 record marked improper: true left out');
    expect(r.rows[0]!.extra).toEqual({ improper: false });
    expect(r.issues.map((i) => i.message)).toEqual(['fid: row 3 (line 1): candidate is null; scored as an empty answer']);
  });

  it('an explicit candidate column means one system, as before', () => {
    const r = mapSystemRows(table, { map: { candidate: 'answer_gpt4', label: 'judge_gpt4' }, system: 'gpt4' });
    expect(r.layout).toBe('single');
    expect(r.rows.map((x) => x.candidate)).toEqual(['Ross Bagdasarian', 'x']);
    expect(r.rows[0]!.extra).toEqual({ answer_fid: 'David Seville', judge_fid: true, improper: false });
  });
});

describe('several files, one per system', () => {
  const a = jsonl([
    { id: 'q1', question: 'Q1', gold: 'a', candidate: 'a' },
    { id: 'q2', question: 'Q2', gold: 'b', candidate: 'b' },
    { id: 'q3', question: 'Q3', gold: 'c', candidate: 'z' },
  ]);
  const b = parseTable('id,question,gold,candidate,latency\nq2,Q2,b,b,12\nq1,Q1,a,y,30\nq4,Q4,d,d,9\n');

  it('names systems after the files, joins by id, and reports the rows one file lacks', () => {
    const r = mapSystemFiles([
      { name: 'runs/gpt4.jsonl', table: a },
      { name: 'runs/llama.csv', table: b },
    ]);
    expect(r.systems).toEqual(['gpt4', 'llama']);
    expect(r.keyBy).toBe('id');
    expect(r.coverage).toEqual({
      questions: 4,
      complete: 2,
      systems: [
        { system: 'gpt4', rows: 3, missing: 1, examples: ['q4'] },
        { system: 'llama', rows: 3, missing: 1, examples: ['q3'] },
      ],
    });
    expect(r.notes).toContain('gpt4 (runs/gpt4.jsonl): 1 of 4 questions missing (present in another input), e.g. q4');
    expect(r.rows.find((x) => x.system === 'llama' && x.key === 'q1')!.extra).toEqual({ latency: '30' });
  });

  it('pairs by question text when a file has no id, and says so', () => {
    const noId = jsonl([{ question: 'Q2', gold: 'b', candidate: 'b' }]);
    const r = mapSystemFiles([
      { name: 'a.jsonl', table: a },
      { name: 'b.jsonl', table: noId },
    ]);
    expect(r.keyBy).toBe('question');
    expect(r.notes[0]).toBe('rows paired by question text (no id column in b.jsonl); questions per system: a 3, b 1');
    expect(r.coverage.complete).toBe(1);
    expect(r.coverage.systems[1]).toEqual({ system: 'b', rows: 1, missing: 2, examples: ['"Q1"', '"Q3"'] });
  });

  it('keeps two files with the same name apart: by folder, else numbered', () => {
    const byFolder = mapSystemFiles([
      { name: 'runs/gpt4/out.jsonl', table: a },
      { name: 'runs/llama/out.jsonl', table: a },
    ]);
    expect(byFolder.systems).toEqual(['gpt4', 'llama']);
    const numbered = mapSystemFiles([
      { name: 'out.jsonl', table: a },
      { name: 'out.jsonl', table: a },
    ]);
    expect(numbered.systems).toEqual(['out', 'out#2']);
    expect(numbered.notes).toContain('out.jsonl: another file is also named "out"; its system is "out#2"');
  });

  it('lm-evaluation-harness sample files are named after their model folders', () => {
    expect(
      systemNamesForFiles([
        'o/meta-llama__Llama-3-8B/samples_triviaqa_2026-11-23T22-00-00.jsonl',
        'o/gpt2/samples_triviaqa_2026-11-23T23-10-00.jsonl',
      ]),
    ).toEqual(['meta-llama__Llama-3-8B', 'gpt2']);
    expect(systemNamesForFiles(['a/x.jsonl', 'b/y.jsonl'])).toEqual(['x', 'y']);
  });

  it('file names become system names without their extensions', () => {
    expect(systemFromFileName('/tmp/runs/gpt-4o.samples.jsonl')).toBe('gpt-4o.samples');
    expect(systemFromFileName('C:\\x\\llama.parquet')).toBe('llama');
  });
});

describe('too many systems', () => {
  // Every row its own "model": a column of ids, not of systems. Two rows share each question, so they would pair.
  const table = jsonl(Array.from({ length: 2002 }, (_, i) => ({ question: `Q${i >> 1}`, gold: 'a', candidate: 'a', model: `m${i}` })));

  it('a column found by name with over 1,000 values is not read as systems; chosen, it is refused with the reason', () => {
    const r = mapSystemRows(table);
    expect([r.layout, r.systems.length, r.rows.length]).toEqual(['single', 1, 2002]);
    expect(r.notes).toContain(
      'column "model" has 2,002 values; Verity compares at most 1,000 systems, so it is not read as the system column',
    );
    expect(() => mapSystemRows(table, { systemColumn: 'model' })).toThrow(
      'column "model" has 2,002 values; Verity compares at most 1,000 systems: choose another system column, or none',
    );
  });

  it('the coverage notes name ten systems at most, then one line for the rest', () => {
    const files = Array.from({ length: 30 }, (_, s) => ({
      name: `s${s}.jsonl`,
      table: jsonl([{ id: `q${s}`, question: `Q${s}`, gold: 'a', candidate: 'a' }]),
    }));
    const notes = mapSystemFiles(files).notes.filter((n) => n.includes('missing') || n.includes('more systems'));
    expect(notes).toHaveLength(11);
    expect(notes[10]).toBe('… and 20 more systems lack questions another system has');
  });
});

describe('at size', () => {
  it('maps 300,000 rows of a system column in one file (no spread of the rows into one call)', () => {
    const records = Array.from({ length: 300_000 }, (_, i) => ({
      row: i + 1,
      data: { id: `q${i >> 1}`, system: i % 2 ? 'b' : 'a', question: `Q${i >> 1}`, gold: 'x', candidate: 'x' },
    }));
    const r = mapSystemFiles([
      { name: 'big.jsonl', table: { format: 'jsonl', columns: ['id', 'system', 'question', 'gold', 'candidate'], records, issues: [] } },
    ]);
    expect(r.rows).toHaveLength(300_000);
    expect(r.systems).toEqual(['a', 'b']);
    expect(r.coverage.complete).toBe(150_000);
  });
});

describe("what the columns' mapping notices, for several systems", () => {
  it('is said once for a file of several systems, and once per file (named) for several files', () => {
    // "Question" and "question" across rows: one column, spelled two ways.
    const spelled = jsonl([
      { id: 1, Question: 'Q1', gold: 'a', candidate: 'a', model: 'm1' },
      { id: 1, question: 'Q1', gold: 'a', candidate: 'b', model: 'm2' },
      { id: 2, Question: 'Q2', gold: 'c', candidate: 'c', model: 'm1' },
      { id: 2, question: 'Q2', gold: 'c', candidate: 'd', model: 'm2' },
    ]);
    const one = mapSystemFiles([{ name: 'all.jsonl', table: spelled }]);
    expect(one.systems).toEqual(['m1', 'm2']);
    expect(one.mappingNotes.map((n) => [n.code, n.message])).toEqual([
      [
        'key-spellings',
        'the key of column "Question" is spelled differently across rows ("Question", "question"); every spelling is read as that column',
      ],
    ]);
    const plain = jsonl([{ id: 1, question: 'Q1', gold: 'a', candidate: 'x' }]);
    const files = mapSystemFiles([
      { name: 'a.jsonl', table: spelled },
      { name: 'b.jsonl', table: plain },
    ]);
    expect(files.mappingNotes.map((n) => n.message)).toEqual([
      'a.jsonl: the key of column "Question" is spelled differently across rows ("Question", "question"); every spelling is read as that column',
    ]);
  });
});

describe('guessSystems', () => {
  it('takes the EVOUNA columns as the wide layout, without a candidate or label column', () => {
    const cols = ['question', 'golden_answer', 'answer_fid', 'judge_fid', 'answer_gpt4', 'judge_gpt4', 'improper'];
    const g = guessSystems(cols, { question: 'question', gold: 'golden_answer', candidate: 'answer_fid' });
    expect(g.map).toEqual({ question: 'question', gold: 'golden_answer' });
    expect(g.systems).toEqual({ wide: true });
    expect(g.wide?.map((s) => s.system)).toEqual(['fid', 'gpt4']);
  });

  it('leaves a column named like a system column to the mapping, unless the detected mapping takes it for another field', () => {
    expect(guessSystems(['question', 'gold', 'candidate', 'Model'], { question: 'question' }).systems).toEqual({ auto: true });
    expect(guessSystems(['q', 'source', 'candidate'], { gold: 'source' }).systems).toBeUndefined();
  });

  it('leaves a single-system file as it is', () => {
    const detected = { question: 'question', gold: 'gold', candidate: 'candidate' };
    expect(guessSystems(['question', 'gold', 'candidate'], detected)).toEqual({ map: detected, wide: null });
  });
});
