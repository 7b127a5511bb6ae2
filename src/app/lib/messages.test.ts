import { describe, expect, it } from 'vitest';
import { say, noteMessage } from './messages.ts';
import { chooseGoldSeparator, mapRows } from '../../core/io/fields.ts';
import { parseTable } from '../../core/io/parse.ts';
import { problemOf } from '../../core/errors.ts';

const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('nothing thrown');
};

describe('app wording of core errors and notes', () => {
  it('a missing candidate column points at the column mapping, never at a CLI flag', () => {
    const m = say(problemOf(thrown(() => mapRows(parseTable('question,gold,answer_gpt4\nq,a,b\n')))));
    expect(m).toBe(
      'no candidate-answer column: expected one of candidate, prediction, response, model_answer, output or 21 other names; the columns are question, gold, answer_gpt4. Choose the candidate column in the column mapping',
    );
    expect(m).not.toMatch(/--/);
  });

  it('an unknown chosen column, and a gold-separator note', () => {
    const t = parseTable('gold,candidate\nParis | Paris France,Paris\nRome | Roma,Rome\n');
    expect(say(problemOf(thrown(() => mapRows(t, { map: { candidate: 'nope' } }))))).toBe(
      'The column "nope" chosen for candidate is not in this file; choose another in the column mapping.',
    );
    const [note] = mapRows(t).notes;
    expect(noteMessage(note!)).toMatch(/: enter " \| " as the gold separator to score each item as its own gold answer\.$/);
    const [chosen] = chooseGoldSeparator([t]).notes;
    expect(noteMessage(chosen!)).toMatch(
      /; each item is read as a gold answer\. Clear the gold separator to read each cell as one gold answer\.$/,
    );
  });
});
