import { describe, expect, it } from 'vitest';
import { knownLine, LabelMemory, lineVerdict, verdictKey } from './memory.ts';

const row = { question: 'Who wrote Hamlet?', golds: ['William Shakespeare', 'Shakespeare'], candidate: 'Shakespeare.' };
const right = { kind: 'binary', correct: true } as const;
const wrong = { kind: 'binary', correct: false } as const;

describe('the label memory', () => {
  it('matches an answer as the judge reads it: case, punctuation, articles, number forms and the golds as a set', () => {
    const m = new LabelMemory();
    m.add({ ...row, label: right });
    expect(
      m.find({ question: 'who wrote  hamlet', golds: ['shakespeare', 'William Shakespeare'], candidate: 'shakespeare' })?.label,
    ).toEqual(right);
    expect(verdictKey({ question: 'How many?', golds: ['12'], candidate: 'twelve' })).toBe(
      verdictKey({ question: 'How many?', golds: ['12'], candidate: '12' }),
    );
    // Another question, another answer or other golds are other verdicts.
    expect(m.find({ ...row, question: 'Who wrote Macbeth?' })).toBeUndefined();
    expect(m.find({ ...row, candidate: 'Marlowe' })).toBeUndefined();
    expect(m.find({ ...row, golds: ['Shakespeare'] })).toBeUndefined();
  });

  it('keeps the later verdict for the same answer: by time, else the one read last', () => {
    const m = new LabelMemory();
    m.add({ ...row, label: right, time: '2026-12-02T10:00:00Z' });
    m.add({ ...row, label: wrong, time: '2026-12-01T10:00:00Z' });
    expect(m.find(row)?.label).toEqual(right);
    m.add({ ...row, label: wrong });
    expect(m.find(row)?.label).toEqual(wrong);
    expect([m.size, m.read]).toEqual([1, 3]);
  });

  it('reads a review line (group label, or one label on every row), a known line, and nothing else', () => {
    const line = { order: 1, ...row, label: true, input: 'x' };
    expect(lineVerdict(line)?.label).toEqual(right);
    expect(
      lineVerdict({
        ...line,
        label: null,
        rows: [
          { id: '1', label: 'wrong' },
          { id: '2', label: false },
        ],
      })?.label,
    ).toEqual(wrong);
    expect(
      lineVerdict({
        ...line,
        label: null,
        rows: [
          { id: '1', label: true },
          { id: '2', label: false },
        ],
      }),
    ).toBeNull();
    expect(lineVerdict({ ...line, label: null })).toBeNull();
    expect(lineVerdict({ id: 'q1', label: true })).toBeNull();
    const known = knownLine({ id: 'q1', system: 'a', ...row }, { ...row, label: right, reviewer: 'ana', time: 't' }, 'hash');
    expect(known).toEqual({ id: 'q1', system: 'a', label: true, known: true, ...row, reviewer: 'ana', time: 't', input: 'hash' });
    expect(lineVerdict(known)).toEqual({ ...row, label: right, reviewer: 'ana', time: 't' });
  });
});
