import { describe, expect, it } from 'vitest';
import { labelIsCorrect } from '../correctness.ts';
import {
  chooseGoldSeparator,
  GOLD_SEP_SAMPLE,
  SMALL_FILE_GOLDS,
  IdSet,
  mapRows,
  parseLabel,
  pythonStringList,
  resolveColumns,
  type Field,
  type MapOptions,
} from './fields.ts';
import { parseTable, type ParsedTable } from './parse.ts';
import { VerityError, type Label } from '../types.ts';

/** A JSONL table from plain objects (row n is line n). */
const jsonl = (...objs: Record<string, unknown>[]): ParsedTable => parseTable(objs.map((o) => JSON.stringify(o)).join('\n'));
const map = (t: ParsedTable, o: MapOptions = {}) => mapRows(t, o);

function verityError(f: () => unknown, kind: 'usage' | 'input'): VerityError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(VerityError);
    expect((e as VerityError).kind).toBe(kind);
    return e as VerityError;
  }
  throw new Error('expected a VerityError, nothing was thrown');
}

// The recognised column names, written out from the table in docs/inputs.md (not read from FIELD_ALIASES).
const ALIASES: [Field, string[]][] = [
  ['id', ['id', 'qid', 'question_id', 'doc_id', 'example_id', 'sample_id', 'item_id', 'uid']],
  ['question', ['question', 'query', 'prompt', 'question_text', 'problem', 'input', 'user_input', 'q', 'questions']],
  [
    'gold',
    [
      'gold',
      'golds',
      'answer',
      'answers',
      'reference',
      'references',
      'golden_answer',
      'gold_answer',
      'gold_answers',
      'ground_truth',
      'ground_truths',
      'target',
      'targets',
      'expected',
      'expected_answer',
      'expected_output',
      'correct_answer',
      'correct_answers',
      'true_answer',
      'reference_answer',
      'reference_answers',
      'ideal',
      'ideal_answer',
    ],
  ],
  [
    'candidate',
    [
      'candidate',
      'prediction',
      'response',
      'model_answer',
      'output',
      'predicted_answer',
      'pred',
      'predicted',
      'model_output',
      'model_response',
      'model_prediction',
      'completion',
      'generation',
      'generated_answer',
      'generated_text',
      'system_answer',
      'llm_answer',
      'llm_response',
      'hypothesis',
      'predictions',
      'candidate_answer',
      'prediction_text',
      'predicted_text',
      'pred_text',
      'response_text',
      'model_completion',
    ],
  ],
  [
    'label',
    [
      'label',
      'judge',
      'judgment',
      'human_label',
      'correct',
      'judgement',
      'human_judgment',
      'human_judgement',
      'is_correct',
      'correctness',
      'human_correct',
      'human',
      'annotation',
      'verdict',
      'eval',
      'human_eval',
      'human_evaluation',
    ],
  ],
  ['choices', ['choices', 'options']],
  ['wrong_answers', ['wrong_answers', 'incorrect_answers', 'distractors']],
];
const mixedCase = (s: string) => [...s].map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase())).join('');

describe('column aliases', () => {
  for (const [field, names] of ALIASES)
    it(`${field}: ${names.join(', ')} in any case`, () => {
      for (const name of names)
        for (const variant of [name, name.toUpperCase(), mixedCase(name)]) {
          // Alone among unrelated columns; the actual spelling is returned.
          expect(resolveColumns(['zzz', variant, 'yyy'])[field]).toBe(variant);
        }
    });

  it('end to end with upper/mixed-case headers', () => {
    const t = parseTable(
      'QID,Query,Golden_Answer,Model_Answer,Human_Label,Options,Distractors\n' +
        'q1,Capital?,Paris,Paris,Yes,"[""Paris"",""Rome""]",Rome\n',
    );
    const { rows, columns } = map(t);
    expect(columns).toEqual({
      id: 'QID',
      question: 'Query',
      gold: 'Golden_Answer',
      candidate: 'Model_Answer',
      label: 'Human_Label',
      choices: 'Options',
      wrong_answers: 'Distractors',
    });
    expect(rows).toEqual([
      {
        row: 1,
        id: 'q1',
        question: 'Capital?',
        golds: ['Paris'],
        candidate: 'Paris',
        label: { kind: 'binary', correct: true },
        rawLabel: 'Yes',
        choices: ['Paris', 'Rome'],
        wrongAnswers: ['Rome'],
      },
    ]);
  });

  it('names with spaces, hyphens, camelCase or stray underscores are the same names', () => {
    expect(resolveColumns(['Question', 'Gold Answer', 'Model Answer', 'Human Label'])).toEqual({
      question: 'Question',
      gold: 'Gold Answer',
      candidate: 'Model Answer',
      label: 'Human Label',
    });
    expect(resolveColumns(['questionId', 'question', 'goldAnswer', 'modelAnswer', 'isCorrect'])).toEqual({
      id: 'questionId',
      question: 'question',
      gold: 'goldAnswer',
      candidate: 'modelAnswer',
      label: 'isCorrect',
    });
    expect(resolveColumns(['_id', 'model-answer', 'reference-answer '])).toEqual({
      id: '_id',
      candidate: 'model-answer',
      gold: 'reference-answer ',
    });
    // A name as it is wins over another's camelCase reading.
    expect(resolveColumns(['modelAnswer', 'model_answer', 'gold']).candidate).toBe('model_answer');
  });

  it("other tools' names: HELM, simple-evals and pandas exports map without a mapping", () => {
    expect(resolveColumns(['input', 'references', 'prediction'])).toEqual({
      question: 'input',
      gold: 'references',
      candidate: 'prediction',
    });
    expect(resolveColumns(['problem', 'correct_answer', 'completion', 'is_correct'])).toEqual({
      question: 'problem',
      gold: 'correct_answer',
      candidate: 'completion',
      label: 'is_correct',
    });
    expect(resolveColumns(['example_id', 'query', 'ground_truth', 'generated_text', 'human_judgement'])).toEqual({
      id: 'example_id',
      question: 'query',
      gold: 'ground_truth',
      candidate: 'generated_text',
      label: 'human_judgement',
    });
  });

  it('when two aliases are present the first-listed one wins (gold before answer)', () => {
    expect(resolveColumns(['answer', 'gold']).gold).toBe('gold');
    expect(resolveColumns(['output', 'prediction']).candidate).toBe('prediction');
  });
});

describe('a column mapping', () => {
  it('overrides the aliases, matching the column case-insensitively', () => {
    const cols = ['question', 'golden_answer', 'candidate', 'answer_gpt4', 'judge_gpt4'];
    expect(resolveColumns(cols, { candidate: 'ANSWER_GPT4', label: 'Judge_GPT4' })).toEqual({
      question: 'question',
      gold: 'golden_answer',
      candidate: 'answer_gpt4',
      label: 'judge_gpt4',
    });
  });

  it('a column mapped to one field is not also taken by alias for another', () => {
    // "answer" is a gold alias; once mapped to candidate, gold must fall back to golden_answer.
    const t = jsonl({ question: 'Who?', golden_answer: 'David Seville', answer: 'Ross Bagdasarian' });
    const { rows, columns } = map(t, { map: { candidate: 'answer' } });
    expect(columns.candidate).toBe('answer');
    expect(columns.gold).toBe('golden_answer');
    expect(rows[0]!.golds).toEqual(['David Seville']);
    expect(rows[0]!.candidate).toBe('Ross Bagdasarian');
  });

  it('EVOUNA layout: candidate=answer_gpt4, label=judge_gpt4, gold separator /', () => {
    const t = jsonl({
      question: 'What star sign is Jamie Lee Curtis?',
      golden_answer: 'Scorpio/Skorpio/Scorpio (disambiguation)',
      answer_fid: 'Libra',
      judge_fid: false,
      answer_gpt4: 'a Sagittarius',
      judge_gpt4: false,
    });
    const { rows } = map(t, { map: { candidate: 'answer_gpt4', label: 'judge_gpt4' }, goldSep: '/' });
    expect(rows[0]).toMatchObject({
      golds: ['Scorpio', 'Skorpio', 'Scorpio (disambiguation)'],
      candidate: 'a Sagittarius',
      label: { kind: 'binary', correct: false },
    });
  });

  it('a column that is not in the file is a usage error naming the columns', () => {
    const e = verityError(() => map(jsonl({ gold: 'a', candidate: 'b' }), { map: { candidate: 'answer_gpt4' } }), 'usage');
    expect(e.message).toBe('the column "answer_gpt4" chosen for candidate is not in the file; the columns are gold, candidate');
    expect([e.code, e.details]).toEqual(['unknown-column', { field: 'candidate', column: 'answer_gpt4', columns: ['gold', 'candidate'] }]);
  });
});

describe('gold answers', () => {
  const golds = (gold: unknown, goldSep?: string) => map(jsonl({ gold, candidate: 'x' }), goldSep ? { goldSep } : {}).rows[0]?.golds;

  it('a string, an array, a JSON-array string, a number', () => {
    expect(golds('Paris')).toEqual(['Paris']);
    expect(golds(['Paris', 'City of Light'])).toEqual(['Paris', 'City of Light']);
    expect(golds('["Paris", "City of Light"]')).toEqual(['Paris', 'City of Light']);
    expect(golds(' ["1945", 1946] ')).toEqual(['1945', '1946']);
    expect(golds(1945)).toEqual(['1945']);
  });

  it('golds are trimmed; empty and null entries are dropped', () => {
    expect(golds(['  a ', '', null, 'b'])).toEqual(['a', 'b']);
    expect(golds('  Paris  ')).toEqual(['Paris']);
  });

  it('a bracketed string that is not JSON stays one gold', () => {
    expect(golds('[citation needed]')).toEqual(['[citation needed]']);
  });

  it('split by goldSep only for plain strings', () => {
    expect(golds('Scorpio / Skorpio /  / Scorpio (disambiguation)', '/')).toEqual(['Scorpio', 'Skorpio', 'Scorpio (disambiguation)']);
    expect(golds('a|b', ' / ')).toEqual(['a|b']);
    expect(golds(['AC/DC'], '/')).toEqual(['AC/DC']);
    expect(golds('["AC/DC"]', '/')).toEqual(['AC/DC']);
  });

  it('from CSV, the JSON-array string that the CSV export writes reads back as a list', () => {
    const t = parseTable('gold,candidate\n"[""Paris"",""Paname""]",Paris\n');
    expect(map(t).rows[0]!.golds).toEqual(['Paris', 'Paname']);
  });

  it('a row without a gold is reported with its row (and line) and skipped', () => {
    const t = jsonl(
      { id: 'ok1', gold: 'a', candidate: 'a' },
      { id: 'empty', gold: '', candidate: 'b' },
      { id: 'null', gold: null, candidate: 'c' },
      { id: 'list', gold: [], candidate: 'd' },
      { id: 'blank', gold: ['  '], candidate: 'd' },
      { id: 'nokey', candidate: 'e' },
      { id: 'ok2', gold: 'f', candidate: 'f' },
    );
    const { rows, issues } = map(t);
    expect(rows.map((r) => r.id)).toEqual(['ok1', 'ok2']);
    expect(rows.map((r) => r.row)).toEqual([1, 7]);
    expect(issues.map((i) => [i.row, i.severity])).toEqual([
      [2, 'error'],
      [3, 'error'],
      [4, 'error'],
      [5, 'error'],
      [6, 'error'],
    ]);
    // JSONL: row = line, so only the row is named.
    expect(issues[0]!.message).toBe('row 2: no gold answer in column "gold"; skipped');
  });

  it('CSV: when the line differs from the row number, both are named', () => {
    // header line 1; row 1 spans lines 2-3; row 2 (no gold) is on line 4.
    const { rows, issues } = map(parseTable('gold,candidate\na,"x\ny"\n,z\n'));
    expect(rows).toHaveLength(1);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ row: 2, line: 4, severity: 'error' });
    expect(issues[0]!.message).toBe('row 2 (line 4): no gold answer in column "gold"; skipped');
  });
});

describe('candidate', () => {
  it('null or missing → "" with a warning; the row is kept', () => {
    const { rows, issues } = map(jsonl({ gold: 'a', candidate: null }, { gold: 'b' }, { gold: 'c', candidate: 0 }));
    expect(rows.map((r) => r.candidate)).toEqual(['', '', '0']);
    expect(issues.map((i) => [i.row, i.severity, i.message])).toEqual([
      [1, 'warning', 'row 1: candidate is null; scored as an empty answer'],
      [2, 'warning', 'row 2: candidate is missing; scored as an empty answer'],
    ]);
  });

  it('non-string candidates become text (objects as JSON)', () => {
    const { rows } = map(jsonl({ gold: 'a', candidate: true }, { gold: 'a', candidate: { value: 'x' } }));
    expect(rows.map((r) => r.candidate)).toEqual(['true', '{"value":"x"}']);
  });

  it('no candidate column → one clear input error naming the aliases and the columns, with structured details and no CLI flag', () => {
    const e = verityError(() => map(parseTable('question,gold,answer_gpt4\nq,a,b\nq2,c,d\n')), 'input');
    expect(e.message).toBe(
      'no candidate-answer column: expected one of candidate, prediction, response, model_answer, output or 21 other names; the columns are question, gold, answer_gpt4',
    );
    expect(e.message).not.toMatch(/--/);
    expect(e.code).toBe('missing-column');
    expect(e.details).toMatchObject({ field: 'candidate', columns: ['question', 'gold', 'answer_gpt4'], headerLine: 1 });
    const expected = (e.details as { expected: string[] }).expected;
    expect(expected.slice(0, 5)).toEqual(['candidate', 'prediction', 'response', 'model_answer', 'output']);
    expect(expected).toHaveLength(26);
    expect(expected).toContain('completion');
  });

  it('no gold column → an input error too', () => {
    expect(verityError(() => map(jsonl({ question: 'q', candidate: 'b' })), 'input').message).toMatch(/^no gold-answer column/);
  });
});

describe('gold lists written by Python (pandas CSV exports)', () => {
  // Each cell as Python 3.11 / NumPy 1.24 / pandas 1.5 wrote it (repr, str(np.array), DataFrame.to_csv), with the list it came from.
  const cases: [string, string[]][] = [
    ["['Paris', 'paris']", ['Paris', 'paris']],
    ["[\"Ol' Man River\", 'Lyon']", ["Ol' Man River", 'Lyon']],
    ["['back\\\\slash', 'tab\\there', 'quote\"d']", ['back\\slash', 'tab\there', 'quote"d']],
    ["['été', '北京']", ['été', '北京']],
    ["['a, b', 'c']", ['a, b', 'c']],
    ["['Paris' 'paris' 'Île-de-France']", ['Paris', 'paris', 'Île-de-France']],
  ];
  it('reads a Python list or NumPy array of strings as the list', () => {
    for (const [cell, want] of cases) expect(pythonStringList(cell), cell).toEqual(want);
  });

  it('leaves anything else to be read as it is', () => {
    for (const cell of ['[1, 2]', "['a', 1]", '[see note]', "['unterminated]", "['a'b']", "[['a']]"])
      expect(pythonStringList(cell), cell).toBeNull();
    expect(map(jsonl({ question: 'q', gold: '[see note]', candidate: 'x' })).rows[0]!.golds).toEqual(['[see note]']);
  });

  it('end to end: the CSV pandas writes for a column of lists and of NumPy arrays', () => {
    const t = parseTable("question,gold,candidate\nq1,['Paris' 'paris'],Paris\nq2,\"['Rome', \"\"Ol' Man\"\"]\",Rome\n");
    expect(map(t).rows.map((r) => r.golds)).toEqual([
      ['Paris', 'paris'],
      ['Rome', "Ol' Man"],
    ]);
  });
});

describe('answer objects as Hugging Face datasets hold them', () => {
  it('TriviaQA {aliases, value}, SQuAD {text, answer_start} and [{text, answer_start}], as objects or JSON text', () => {
    const trivia = { aliases: ['Sunset Boulevard', 'Sunset Blvd'], normalized_aliases: ['sunset boulevard'], value: 'Sunset Boulevard' };
    const squad = { text: ['Denver Broncos', 'Denver Broncos', 'Broncos'], answer_start: [177, 177, 184] };
    const t = jsonl(
      { question: 'q1', gold: trivia, candidate: 'x' },
      { question: 'q2', gold: squad, candidate: 'x' },
      {
        question: 'q3',
        gold: [
          { text: 'Paris', answer_start: 3 },
          { text: 'City of Paris', answer_start: 0 },
        ],
        candidate: 'x',
      },
      { question: 'q4', gold: JSON.stringify(squad), candidate: 'x' },
      { question: 'q5', gold: { value: 'Rome' }, candidate: 'x' },
      {
        question: 'q6',
        gold: JSON.stringify([
          { text: 'Paris', answer_start: 3 },
          { text: 'City of Paris', answer_start: 0 },
        ]),
        candidate: 'x',
      },
    );
    expect(map(t).rows.map((r) => r.golds)).toEqual([
      ['Sunset Boulevard', 'Sunset Blvd'],
      ['Denver Broncos', 'Broncos'],
      ['Paris', 'City of Paris'],
      ['Denver Broncos', 'Broncos'],
      ['Rome'],
      ['Paris', 'City of Paris'],
    ]);
    // ARC's choices: {text: [...], label: [...]}.
    const arc = map(jsonl({ question: 'q', gold: 'a', candidate: 'a', choices: { text: ['a', 'b'], label: ['A', 'B'] } }));
    expect(arc.rows[0]!.choices).toEqual(['a', 'b']);
  });

  it('an object with no answer strings is still its JSON text', () => {
    expect(map(jsonl({ question: 'q', gold: { start: 3 }, candidate: 'x' })).rows[0]!.golds).toEqual(['{"start":3}']);
  });
});

describe('labels', () => {
  const T: Label = { kind: 'binary', correct: true };
  const F: Label = { kind: 'binary', correct: false };
  const cls = (c: string): Label => ({ kind: 'taxonomy', cls: c }) as Label;

  it('every binary spelling', () => {
    const cases: [unknown, Label][] = [
      [true, T],
      [false, F],
      [1, T],
      [0, F],
      ['1', T],
      ['0', F],
      ['true', T],
      ['false', F],
      ['True', T],
      ['FALSE', F],
      ['yes', T],
      ['no', F],
      ['Yes', T],
      ['NO', F],
      ['correct', T],
      ['incorrect', F],
      ['Correct', T],
      ['INCORRECT', F],
      [' true ', T],
    ];
    for (const [v, want] of cases) expect(parseLabel(v), JSON.stringify(v)).toEqual({ ok: true, value: want });
  });

  it("pandas' float labels and other tools' words: 1.0 / 0.0, Inspect's C / I, pass / fail, accept / reject", () => {
    const cases: [unknown, Label][] = [
      ['1.0', T],
      ['0.0', F],
      ['1.00', T],
      [1.0, T],
      ['C', T],
      ['I', F],
      ['right', T],
      ['wrong', F],
      ['PASS', T],
      ['fail', F],
      ['accepted', T],
      ['Rejected', F],
      // SimpleQA's grades: CORRECT, INCORRECT, NOT_ATTEMPTED.
      ['CORRECT', T],
      ['NOT_ATTEMPTED', F],
      ['not attempted', F],
    ];
    for (const [v, want] of cases) expect(parseLabel(v), JSON.stringify(v)).toEqual({ ok: true, value: want });
    for (const v of ['1.5', '10', '0.01', '.0']) expect(parseLabel(v).ok, v).toBe(false);
  });

  it('the eight class names, with - or _ and in any case', () => {
    const cases: [string, string][] = [
      ['exact', 'exact'],
      ['EXACT', 'exact'],
      ['equivalent', 'equivalent'],
      ['Equivalent', 'equivalent'],
      ['alternative-correct', 'alternative-correct'],
      ['alternative_correct', 'alternative-correct'],
      ['Alternative_Correct', 'alternative-correct'],
      ['overinclusive-valid', 'overinclusive-valid'],
      ['overinclusive_valid', 'overinclusive-valid'],
      ['OverInclusive-Valid', 'overinclusive-valid'],
      ['partial', 'partial'],
      ['PARTIAL', 'partial'],
      ['overinclusive-invalid', 'overinclusive-invalid'],
      ['OVERINCLUSIVE_INVALID', 'overinclusive-invalid'],
      ['invalid', 'invalid'],
      ['Invalid', 'invalid'],
      ['contradictory', 'contradictory'],
      ['Contradictory', 'contradictory'],
    ];
    for (const [v, c] of cases) expect(parseLabel(v), v).toEqual({ ok: true, value: cls(c) });
  });

  it('empty values are "no label" (not an error)', () => {
    for (const v of [null, undefined, '', '  ', 'NaN', 'null', 'None'])
      expect(parseLabel(v), String(v)).toEqual({ ok: true, value: undefined });
  });

  it('unknown values answer why they are not labels', () => {
    for (const v of ['maybe', 2, -1, 0.5, 'over-inclusive-valid'])
      expect(parseLabel(v), String(v)).toMatchObject({ ok: false, error: /^label / });
  });

  it('an unknown label: warning, row kept and scored, but without a label', () => {
    const { rows, issues } = map(
      jsonl(
        { gold: 'a', candidate: 'a', label: 'maybe' },
        { gold: 'b', candidate: 'b', label: 2 },
        { gold: 'c', candidate: 'c', label: 'partial' },
      ),
    );
    expect(rows).toHaveLength(3);
    expect(rows[0]!.label).toBeUndefined();
    expect(rows[1]!.label).toBeUndefined();
    expect(rows[2]!.label).toEqual(cls('partial'));
    expect(rows[2]!.rawLabel).toBe('partial');
    expect(issues.map((i) => [i.row, i.severity])).toEqual([
      [1, 'warning'],
      [2, 'warning'],
    ]);
    expect(issues[0]!.message).toMatch(/^row 1: label "maybe" is not one of .*; the row is scored but not used in agreement reports$/);
    expect(issues[1]!.message).toMatch(/^row 2: label 2 is not 1\/0/);
  });

  it('labels through mapRows keep the raw spelling; a "correct" column of booleans is a label', () => {
    const { rows, columns } = map(jsonl({ gold: 'a', candidate: 'a', correct: true }, { gold: 'a', candidate: 'b', correct: 0 }));
    expect(columns.label).toBe('correct');
    expect(rows.map((r) => [r.label, r.rawLabel])).toEqual([
      [T, 'true'],
      [F, '0'],
    ]);
  });

  it('class labels reduce to correct for exact, equivalent, alternative-correct, overinclusive-valid only', () => {
    const correct = ['exact', 'equivalent', 'alternative-correct', 'overinclusive-valid'];
    const wrong = ['partial', 'overinclusive-invalid', 'invalid', 'contradictory'];
    for (const c of correct) expect(labelIsCorrect(cls(c)), c).toBe(true);
    for (const c of wrong) expect(labelIsCorrect(cls(c)), c).toBe(false);
    expect(labelIsCorrect(T)).toBe(true);
    expect(labelIsCorrect(F)).toBe(false);
  });
});

describe('ids', () => {
  it('from the id column as text; the row number when absent or empty', () => {
    const { rows } = map(
      jsonl(
        { id: 7, gold: 'a', candidate: 'a' },
        { id: '', gold: 'a', candidate: 'a' },
        { gold: 'a', candidate: 'a' },
        { id: null, gold: 'a', candidate: 'a' },
      ),
    );
    expect(rows.map((r) => r.id)).toEqual(['7', '2', '3', '4']);
  });

  it('no id column: ids are the row numbers', () => {
    expect(map(parseTable('gold,candidate\na,a\nb,b\n')).rows.map((r) => r.id)).toEqual(['1', '2']);
  });

  it('duplicate ids are warned about; every row is kept', () => {
    const { rows, issues } = map(
      jsonl(
        { id: 'x', gold: 'a', candidate: 'a' },
        { id: 'y', gold: 'a', candidate: 'a' },
        { id: 'x', gold: 'a', candidate: 'a' },
        { id: 'x', gold: 'a', candidate: 'a' },
      ),
    );
    expect(rows.map((r) => r.id)).toEqual(['x', 'y', 'x', 'x']);
    expect(issues.map((i) => [i.row, i.severity, i.message])).toEqual([
      [3, 'warning', 'row 3: duplicate id "x"'],
      [4, 'warning', 'row 4: duplicate id "x"'],
    ]);
  });
});

describe('choices and wrong_answers', () => {
  it('arrays, JSON-array strings and single strings; absent → undefined', () => {
    const { rows } = map(
      jsonl(
        { gold: 'a', candidate: 'a', choices: ['a', 'b', 3], wrong_answers: '["b", "c"]' },
        { gold: 'a', candidate: 'a', choices: 'a / b', wrong_answers: 'x' },
        { gold: 'a', candidate: 'a' },
      ),
      { goldSep: '/' },
    );
    expect(rows[0]!.choices).toEqual(['a', 'b', '3']);
    expect(rows[0]!.wrongAnswers).toEqual(['b', 'c']);
    // A plain string is one item (--gold-sep is for golds only).
    expect(rows[1]!.choices).toEqual(['a / b']);
    expect(rows[1]!.wrongAnswers).toEqual(['x']);
    expect(rows[2]!.choices).toBeUndefined();
    expect(rows[2]!.wrongAnswers).toBeUndefined();
  });

  it('the options / distractors aliases', () => {
    const { rows } = map(jsonl({ gold: 'a', candidate: 'a', options: '["a","b"]', distractors: ['b'] }));
    expect(rows[0]!.choices).toEqual(['a', 'b']);
    expect(rows[0]!.wrongAnswers).toEqual(['b']);
  });

  it('null values leave the field unset', () => {
    const { rows } = map(jsonl({ gold: 'a', candidate: 'a', choices: null, wrong_answers: null }));
    expect(rows[0]).not.toHaveProperty('choices');
    expect(rows[0]).not.toHaveProperty('wrongAnswers');
  });
});

describe('issues', () => {
  it('parse issues come first, then mapping issues', () => {
    const t = parseTable('{"gold":"a","candidate":null}\nnot json\n');
    const { issues } = map(t);
    expect(issues.map((i) => [i.row, i.severity])).toEqual([
      [2, 'error'],
      [1, 'warning'],
    ]);
  });
});

describe('app exports', () => {
  it('skips the run header line of an exported JSONL file', () => {
    const text = [JSON.stringify({ verity_run: { verity: '0.1.0' } }), JSON.stringify({ question: 'q', gold: ['a'], candidate: 'a' })].join(
      '\n',
    );
    const { rows, issues } = mapRows(parseTable(text, 'x.jsonl'));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.row).toBe(2);
    expect(issues).toEqual([]);
  });
});

describe('odd-cased keys', () => {
  it('one "Candidate" among 1,000 "candidate" rows: every row keeps its answer, and the spellings are noted once', () => {
    const objs: Record<string, unknown>[] = Array.from({ length: 1000 }, (_, i) => ({ gold: `g${i}`, candidate: `g${i}` }));
    objs.splice(500, 0, { gold: 'x', Candidate: 'x' });
    const { rows, notes, issues } = map(jsonl(...objs));
    expect(rows).toHaveLength(1001);
    expect(rows.every((r) => r.candidate === r.golds[0])).toBe(true);
    expect(issues).toEqual([]);
    expect(notes.filter((n) => n.code === 'key-spellings')).toEqual([
      {
        code: 'key-spellings',
        field: 'candidate',
        column: 'candidate',
        spellings: ['candidate', 'Candidate'],
        message:
          'the key of column "candidate" is spelled differently across rows ("candidate", "Candidate"); every spelling is read as that column',
      },
    ]);
  });

  it('one "Gold" row does not make the other rows lose their gold', () => {
    const { rows, issues } = map(jsonl({ gold: 'a', candidate: 'a' }, { Gold: 'b', candidate: 'b' }, { gold: 'c', candidate: 'c' }));
    expect(rows.map((r) => r.golds)).toEqual([['a'], ['b'], ['c']]);
    expect(issues).toEqual([]);
  });
});

describe('known layouts', () => {
  it('ragas v0.1: answer is the candidate, ground_truth the gold, and the note says why', () => {
    const { rows, columns, notes } = map(
      jsonl({ question: 'Capital of France?', answer: 'Paris', contexts: ['…'], ground_truth: 'Paris, France' }),
    );
    expect(columns).toEqual({ question: 'question', candidate: 'answer', gold: 'ground_truth' });
    expect(rows[0]).toMatchObject({ question: 'Capital of France?', candidate: 'Paris', golds: ['Paris, France'] });
    expect(notes[0]).toMatchObject({ code: 'layout', layout: 'ragas', alternatives: [] });
    expect(notes[0]!.message).toBe(
      'the columns answer, ground_truth are those of a ragas dataset: read as question = question, gold = ground_truth, candidate = answer',
    );
  });

  it("an answer beside a gold and no candidate column: the answer is the model's, and the note says so", () => {
    const { rows, columns, notes } = map(jsonl({ question: 'Capital?', answer: 'Lyon', expected_answer: 'Paris', label: 0 }));
    expect(columns).toEqual({ question: 'question', candidate: 'answer', gold: 'expected_answer', label: 'label' });
    expect(rows[0]).toMatchObject({ candidate: 'Lyon', golds: ['Paris'], label: { kind: 'binary', correct: false } });
    expect(notes[0]).toMatchObject({ code: 'layout', layout: 'answer-candidate', alternatives: [] });
    expect(notes[0]!.message).toBe(
      'the columns answer, expected_answer are those of an answer column beside a gold one: read as question = question, gold = expected_answer, candidate = answer',
    );
    expect(resolveColumns(['question', 'gold', 'answer'])).toEqual({ question: 'question', gold: 'gold', candidate: 'answer' });
    // With a candidate column, `answer` stays a gold name.
    expect(resolveColumns(['question', 'answer', 'target', 'prediction'])).toEqual({
      question: 'question',
      gold: 'answer',
      candidate: 'prediction',
    });
    // Alone, `answer` is the gold, and the candidate is missing as before.
    expect(resolveColumns(['question', 'answer'])).toEqual({ question: 'question', gold: 'answer' });
  });

  it('ragas ground_truths lists are several golds', () => {
    const { rows } = map(jsonl({ question: 'q', answer: 'a', ground_truths: ['a', 'b'] }));
    expect(rows[0]).toMatchObject({ candidate: 'a', golds: ['a', 'b'] });
  });

  it('ragas v0.2: user_input / response / reference', () => {
    const { rows, notes } = map(jsonl({ user_input: 'Who?', response: 'Me', reference: 'You', retrieved_contexts: [] }));
    expect(rows[0]).toMatchObject({ question: 'Who?', candidate: 'Me', golds: ['You'] });
    expect(notes[0]).toMatchObject({ code: 'layout', layout: 'ragas-v0.2' });
  });

  it('columns that fit two readings: the note names the chosen layout, the alternative and why', () => {
    // "answer" + "response" also fit the generic names (gold = answer, candidate = response).
    const { columns, notes } = map(jsonl({ question: 'q', answer: 'a', ground_truth: 'g', response: 'r' }));
    expect(columns).toMatchObject({ candidate: 'answer', gold: 'ground_truth' });
    const n = notes[0]!;
    expect(n).toMatchObject({ code: 'layout', layout: 'ragas', alternatives: ['generic'] });
    expect(n.message).toMatch(
      /also fit the generic names \(question = question, gold = answer, candidate = response\), but a ragas dataset is the only reading that uses all of answer, ground_truth/,
    );
  });

  it('an explicit mapping of candidate and gold wins over a layout', () => {
    const { columns, notes } = map(jsonl({ question: 'q', answer: 'a', ground_truth: 'g' }), {
      map: { candidate: 'ground_truth', gold: 'answer' },
    });
    expect(columns).toMatchObject({ candidate: 'ground_truth', gold: 'answer' });
    expect(notes).toEqual([]);
  });

  it('lm-eval samples: the first filtered response, not a stringified array; target is the gold', () => {
    const { rows, notes } = map(
      jsonl(
        { doc_id: 0, target: 'Paris', resps: [['Paris is the capital.']], filtered_resps: ['Paris'] },
        { doc_id: 1, target: 'Rome', resps: [['Rome']], filtered_resps: [['Rome', 'x']] },
      ),
    );
    expect(rows.map((r) => [r.id, r.candidate, r.golds])).toEqual([
      ['0', 'Paris', ['Paris']],
      ['1', 'Rome', ['Rome']],
    ]);
    expect(notes[0]).toMatchObject({ code: 'layout', layout: 'lm-eval' });
  });

  it('a candidate that is what a model API returned reads as its text', () => {
    const { rows, issues } = map(
      jsonl(
        { id: 1, gold: 'Paris', response: { role: 'assistant', content: 'Paris' } },
        {
          id: 2,
          gold: 'Paris',
          response: [
            { role: 'user', content: 'Capital?' },
            { role: 'assistant', content: 'It is Paris.' },
          ],
        },
        { id: 3, gold: 'Paris', response: { choices: [{ message: { role: 'assistant', content: 'Paris!' } }] } },
        {
          id: 4,
          gold: 'Paris',
          response: {
            content: [
              { type: 'text', text: 'Par' },
              { type: 'text', text: 'is' },
            ],
          },
        },
        { id: 5, gold: 'Paris', response: ['Paris'] },
        { id: 6, gold: 'Paris', response: { text: 'Paris' } },
        // Not an answer shape: written out as JSON, as before.
        { id: 7, gold: 'Paris', response: { city: 'Paris' } },
        { id: 8, gold: 'Paris', response: ['Paris', 'Lyon'] },
      ),
    );
    expect(rows.map((r) => r.candidate)).toEqual([
      'Paris',
      'It is Paris.',
      'Paris!',
      'Paris',
      'Paris',
      'Paris',
      '{"city":"Paris"}',
      '["Paris","Lyon"]',
    ]);
    expect(issues).toEqual([]);
  });

  it("a prompt given as chat messages (OpenAI evals' input) reads as its last user message", () => {
    const { rows } = map(
      jsonl({
        input: [
          { role: 'system', content: 'Answer briefly.' },
          { role: 'user', content: 'Capital of France?' },
        ],
        ideal: 'Paris',
        completion: 'Paris',
      }),
    );
    expect([rows[0]!.question, rows[0]!.golds, rows[0]!.candidate]).toEqual(['Capital of France?', ['Paris'], 'Paris']);
  });

  it('lm-eval with the columns chosen explicitly (as the app passes them): still the first response', () => {
    const { rows } = map(jsonl({ doc_id: 0, target: 'Paris', filtered_resps: ['Paris'] }), {
      map: { candidate: 'filtered_resps', gold: 'target' },
    });
    expect(rows[0]!.candidate).toBe('Paris');
  });

  it("lm-eval: the question is the task document's (doc.question), read from each record as it is", () => {
    const t = jsonl(
      { doc_id: 0, doc: { question: 'Capital of France?', answer: { value: 'Paris' } }, target: 'Paris', filtered_resps: ['Paris'] },
      { doc_id: 1, doc: { query: 'no question key' }, target: 'Rome', filtered_resps: ['Rome'] },
    );
    const { rows, columns, notes } = map(t);
    expect(columns).toMatchObject({ id: 'doc_id', question: 'doc.question', gold: 'target', candidate: 'filtered_resps' });
    expect(rows.map((r) => r.question)).toEqual(['Capital of France?', '']);
    expect(notes[0]!.message).toContain('read as question = doc.question, gold = target, candidate = filtered_resps');
    // Chosen explicitly, a path into any object column reads the same way; one into no column is still refused.
    expect(map(t, { map: { gold: 'doc.answer.value' } }).rows[0]!.golds).toEqual(['Paris']);
    expect(() => map(t, { map: { question: 'nope.question' } })).toThrow(/"nope\.question" chosen for question is not in the file/);
  });

  it('lm-eval with resps only', () => {
    const { rows } = map(jsonl({ doc_id: 3, target: 'x', resps: [['y']] }));
    expect(rows[0]!.candidate).toBe('y');
  });

  it('a plain file gets no layout note', () => {
    expect(map(jsonl({ question: 'q', gold: 'a', candidate: 'b' })).notes).toEqual([]);
  });
});

describe('gold separators', () => {
  it('most gold cells hold short items joined by " | ": a note with the separator and the share', () => {
    const t = parseTable('gold,candidate\nParis | Paris France,Paris\nNYC | New York,NYC\nRome,Rome\n');
    const n = map(t).notes.find((x) => x.code === 'gold-separator');
    expect(n).toEqual({
      code: 'gold-separator',
      column: 'gold',
      separator: ' | ',
      applied: false,
      share: 2 / 3,
      cells: 3,
      message:
        '2 of 3 gold cells (67%) in column "gold" hold short items joined by " | "; they are read as one gold answer each unless " | " is set as the gold separator',
    });
  });

  it('";" and " / " (EVOUNA) are found too; none when a separator is set or for long sentences', () => {
    const semi = parseTable('gold,candidate\n1945;1944,1945\nUSA;United States,USA\n');
    expect(map(semi).notes.find((x) => x.code === 'gold-separator')).toMatchObject({ separator: ';', share: 1 });
    const slash = jsonl({ gold: 'David Seville / Ross Bagdasarian', candidate: 'x' }, { gold: 'Lyon / Lugdunum', candidate: 'x' });
    expect(map(slash).notes[0]).toMatchObject({ code: 'gold-separator', separator: ' / ' });
    expect(map(slash, { goldSep: ' / ' }).notes).toEqual([]);
    const prose = jsonl({
      gold: 'The war ended in 1945 when both Germany and Japan surrendered to the Allies; it had lasted six years',
      candidate: 'x',
    });
    expect(map(prose).notes).toEqual([]);
  });

  it('a minority of such cells gives no note in a file of more than SMALL_FILE_GOLDS golds', () => {
    const singles = Array.from({ length: SMALL_FILE_GOLDS }, (_, i) => ({ gold: `answer ${i}`, candidate: 'x' }));
    expect(map(jsonl({ gold: 'a | b', candidate: 'x' }, ...singles)).notes).toEqual([]);
  });

  it("in a small file one joined cell is a suggestion, not applied: a teacher's France|Portugal|Andorra", () => {
    const t = parseTable(
      'question,gold,candidate\n' +
        'Name a country that borders Spain.,France|Portugal|Andorra,Portugal\n' +
        Array.from({ length: 9 }, (_, i) => `Question ${i}?,answer ${i},answer ${i}`).join('\n'),
    );
    const chosen = chooseGoldSeparator([t]);
    expect(chosen.options).toEqual({ goldSep: '' });
    expect(chosen.found).toMatchObject({ separator: '|', suggested: true });
    expect(chosen.notes).toEqual([
      {
        code: 'gold-separator',
        column: 'gold',
        separator: '|',
        applied: false,
        suggested: true,
        share: 0.1,
        cells: 10,
        message:
          '1 of 10 gold cells (10%) in column "gold" holds short items joined by "|", as a list of answers would be; it is read as one gold answer unless "|" is set as the gold separator',
      },
    ]);
    const mapped = mapRows(t, chosen.options);
    expect(mapped.rows[0]!.golds).toEqual(['France|Portugal|Andorra']);
    // No second note from the row mapper.
    expect(mapped.notes.filter((n) => n.code === 'gold-separator')).toEqual([]);
    // Once the user says so, the cell is three golds.
    expect(mapRows(t, { goldSep: '|' }).rows[0]!.golds).toEqual(['France', 'Portugal', 'Andorra']);
  });
});

describe('chooseGoldSeparator (the separator used when none is given)', () => {
  const golds = (...gs: string[]) => jsonl(...gs.map((gold) => ({ gold, candidate: 'x' })));

  it('EVOUNA\'s "/": chosen, each item a gold, with a note saying so', () => {
    const t = golds('Scorpio/Skorpio', 'David Seville', '7/seven/VII');
    const chosen = chooseGoldSeparator([t]);
    expect(chosen.options).toEqual({ goldSep: '/' });
    expect(chosen.notes).toEqual([
      {
        code: 'gold-separator',
        column: 'gold',
        separator: '/',
        applied: true,
        share: 2 / 3,
        cells: 3,
        message: '2 of 3 gold cells (67%) in column "gold" hold short items joined by "/"; each item is read as a gold answer',
      },
    ]);
    const mapped = mapRows(t, chosen.options);
    expect(mapped.rows.map((r) => r.golds)).toEqual([['Scorpio', 'Skorpio'], ['David Seville'], ['7', 'seven', 'VII']]);
    expect(mapped.notes.filter((n) => n.code === 'gold-separator')).toEqual([]);
  });

  it('a slash in a fraction, a date, an acronym pair or a unit joins nothing', () => {
    const t = golds('AC/DC', '60 km/h', '1/2', '12/05/2001', 'TCP/IP', 'mg/L', '9.8 m/s^2');
    expect(chooseGoldSeparator([t])).toEqual({ options: {}, notes: [], givenNotes: [] });
    expect(mapRows(t).rows.map((r) => r.golds)).toEqual([
      ['AC/DC'],
      ['60 km/h'],
      ['1/2'],
      ['12/05/2001'],
      ['TCP/IP'],
      ['mg/L'],
      ['9.8 m/s^2'],
    ]);
  });

  it('chosen from a fifth of the cells (and two), by hand: 2 of 10 yes, 2 of 11 and 1 of 2 only suggested', () => {
    const single = (n: number) => Array.from({ length: n }, (_, i) => `answer ${i}`);
    expect(chooseGoldSeparator([golds('a; b', 'c; d', ...single(8))]).options.goldSep).toBe('; ');
    for (const t of [golds('a; b', 'c; d', ...single(9)), golds('a; b', 'c')]) {
      const c = chooseGoldSeparator([t]);
      expect(c.options.goldSep).toBe('');
      expect(c.found?.suggested).toBe(true);
    }
    // Past SMALL_FILE_GOLDS cells, under a fifth is nothing at all.
    expect(chooseGoldSeparator([golds('a; b', 'c; d', ...single(SMALL_FILE_GOLDS))])).toEqual({ options: {}, notes: [], givenNotes: [] });
  });

  it('a given separator, or none (""), is kept: nothing is split or noted (what was detected is told apart)', () => {
    const t = golds('Scorpio/Skorpio', 'Paris/Paname');
    expect(chooseGoldSeparator([t], { goldSep: '' })).toMatchObject({ options: { goldSep: '' }, notes: [], found: { separator: '/' } });
    expect(chooseGoldSeparator([t], { goldSep: ' | ' })).toMatchObject({ options: { goldSep: ' | ' }, notes: [] });
    // The page, which always gives one, is told how the given one stands to the detected one: split on it, a hint
    // when none is given, nothing for another one.
    const given = (goldSep: string) =>
      chooseGoldSeparator([t], { goldSep }).givenNotes.map((n) => n.code === 'gold-separator' && n.applied);
    expect([given('/'), given(''), given(' | ')]).toEqual([[true], [false], []]);
    const whole = mapRows(t, { goldSep: '' });
    expect(whole.rows.map((r) => r.golds)).toEqual([['Scorpio/Skorpio'], ['Paris/Paname']]);
    expect(whole.notes).toEqual([]);
  });

  it('only the first GOLD_SEP_SAMPLE cells decide; a later majority is a hint, not a split', () => {
    const t = golds(
      ...Array.from({ length: GOLD_SEP_SAMPLE }, (_, i) => `answer ${i}`),
      ...Array.from({ length: GOLD_SEP_SAMPLE }, (_, i) => `alpha${i}/beta${i}`),
    );
    const chosen = chooseGoldSeparator([t]);
    expect(chosen.options.goldSep).toBeUndefined();
    const mapped = mapRows(t, chosen.options);
    expect(mapped.rows.at(-1)!.golds).toEqual([`alpha${GOLD_SEP_SAMPLE - 1}/beta${GOLD_SEP_SAMPLE - 1}`]);
    expect(mapped.notes.find((n) => n.code === 'gold-separator')).toMatchObject({ separator: '/', applied: false, share: 0.5 });
  });

  it('several tables are read together; a nested gold (--map gold=doc.answer) is read by its path', () => {
    const a = golds('x', 'y');
    const b = golds('Paris/Paname', 'Rome/Roma');
    expect(chooseGoldSeparator([a, b]).options.goldSep).toBe('/');
    const nested = jsonl({ doc: { answer: 'Paris/Paname' }, candidate: 'x' }, { doc: { answer: 'Rome/Roma' }, candidate: 'x' });
    expect(chooseGoldSeparator([nested], { map: { gold: 'doc.answer' } }).options).toEqual({ map: { gold: 'doc.answer' }, goldSep: '/' });
  });
});

describe('IdSet (duplicate ids in bounded memory)', () => {
  it('200,000 distinct ids: none reported; each repeat is', () => {
    const s = new IdSet();
    let dups = 0;
    for (let i = 0; i < 200_000; i++) if (s.add(`q${i}`)) dups++;
    expect(dups).toBe(0);
    expect([s.add('q0'), s.add('q199999'), s.add(''), s.add('')]).toEqual([true, true, false, true]);
  });
});

describe('repeated cells', () => {
  it('rows repeating a question, gold cell or label share one copy; each keeps its own values', () => {
    const t = jsonl(
      { question: 'Q?', gold: ['a', ' b '], candidate: 'x', label: true },
      { question: 'Q?', gold: ['a', ' b '], candidate: 'y', label: 'yes' },
      { question: 'Q?', gold: 'a', candidate: 'z', label: 0 },
      { question: 'R?', gold: ['a', 'b'], candidate: 'w', label: 1 },
    );
    const { rows } = map(t);
    expect(rows.map((r) => [r.question, r.golds, r.candidate, r.label, r.rawLabel])).toEqual([
      ['Q?', ['a', 'b'], 'x', { kind: 'binary', correct: true }, 'true'],
      ['Q?', ['a', 'b'], 'y', { kind: 'binary', correct: true }, 'yes'],
      ['Q?', ['a'], 'z', { kind: 'binary', correct: false }, '0'],
      ['R?', ['a', 'b'], 'w', { kind: 'binary', correct: true }, '1'],
    ]);
    expect(rows[1]!.golds).toBe(rows[0]!.golds);
    expect(rows[3]!.golds).toBe(rows[0]!.golds);
    expect(rows[1]!.label).toBe(rows[0]!.label);
    expect(rows[3]!.label).toBe(rows[0]!.label);
  });
});
