/**
 * Review signals and priority: each signal by hand on small cases (nearness, disagreement, text against decision,
 * the system's share of contested rows, same answer, consensus, the answer's type), and the priority ranking a
 * likely error above a likely right call, with the reasons said in words.
 */
import { describe, expect, it } from 'vitest';
import { reviewSignals, SIGNALS, typeFits, type SignalRow } from './signals.ts';
import { priorityReasons, reviewPriorities } from './priority.ts';
import model from './priority-model.json' with { type: 'json' };

const view = (scores: number[], others: boolean[]) => ({
  judge: { metric: 'judge', threshold: 0.5 },
  score: (i: number) => scores[i]!,
  decision: (i: number) => scores[i]! >= 0.5,
  others: (i: number) => [others[i]!],
});
const at = (name: (typeof SIGNALS)[number]) => SIGNALS.indexOf(name);
const r9 = (v: number) => Math.round(v * 1e9) / 1e9;

describe('reviewSignals', () => {
  it('measures the judge against itself, the other metrics and the words (one system)', () => {
    const rows: SignalRow[] = [
      { question: 'q?', golds: ['Paris'], candidate: 'Paris' },
      { question: 'q?', golds: ['Paris'], candidate: 'Lyon' },
      { question: 'q?', golds: ['Paris'], candidate: 'It is Paris, France' },
    ];
    const s = reviewSignals(rows, view([0.9, 0.55, 0.1], [true, false, true]));
    // near = 1 − |s − 0.5| / 0.5; disagree = the other metric decides otherwise; text: "correct" sharing no gold word,
    // or "wrong" holding the gold; judge_correct; no cross-system signal in a file of one system.
    expect(
      s.map((x) => [at('near_threshold'), at('metrics_disagree'), at('text_disagrees'), at('judge_correct')].map((k) => r9(x[k]!))),
    ).toEqual([
      [0.2, 0, 0, 1],
      [0.9, 1, 1, 1],
      [0.2, 1, 1, 0],
    ]);
    expect(s.map((x) => r9(x[at('system_contested')]!))).toEqual([2 / 3, 2 / 3, 2 / 3].map(r9));
    expect(s.every((x) => x[at('same_answer')] === 0 && x[at('consensus')] === 0)).toBe(true);
  });

  it('reads what the other systems said to the same question', () => {
    const q = 'Which city is the capital of France?';
    const rows: SignalRow[] = [
      { key: '1', system: 'a', question: q, golds: ['Lutetia'], candidate: 'Paris' },
      { key: '1', system: 'b', question: q, golds: ['Lutetia'], candidate: 'paris.' },
      { key: '1', system: 'c', question: q, golds: ['Lutetia'], candidate: 'The capital of France is Paris.' },
      { key: '1', system: 'd', question: q, golds: ['Lutetia'], candidate: 'Lyon' },
    ];
    const s = reviewSignals(rows, view([0.1, 0.1, 0.1, 0.1], [false, false, false, false]));
    // a and b give one answer (1 of the 3 others each); c says Paris in a sentence: it agrees with a and b.
    expect(s.map((x) => r9(x[at('same_answer')]!))).toEqual([1 / 3, 1 / 3, 0, 0].map(r9));
    expect(s.map((x) => r9(x[at('consensus')]!))).toEqual([2 / 3, 2 / 3, 2 / 3, 0].map(r9));
    // The judge rejects them all: consensus where it rejects.
    expect(s.map((x) => r9(x[at('consensus_rejected')]!))).toEqual([2 / 3, 2 / 3, 2 / 3, 0].map(r9));
  });

  it('says whether the answer is of the kind the question asks for', () => {
    expect(typeFits('How many moons has Mars?', 'two')).toBe(1);
    expect(typeFits('In which year did the war end?', 'Paris')).toBe(0);
    expect(typeFits('Who wrote Hamlet?', 'William Shakespeare')).toBe(1);
    expect(typeFits('Who wrote Hamlet?', 'a play about a prince')).toBe(0);
    expect(typeFits('What is the capital of France?', 'Paris')).toBe(0.5);
  });
});

describe('reviewPriorities', () => {
  it('uses a model of exactly the signals, and ranks a doubtful rejection above a confident acceptance', () => {
    expect(model.features).toEqual([...SIGNALS]);
    const sure = new Float64Array(SIGNALS.length);
    sure[at('judge_correct')] = 1;
    sure[at('type_fits')] = 1;
    const doubtful = new Float64Array(SIGNALS.length);
    doubtful[at('near_threshold')] = 0.9;
    doubtful[at('metrics_disagree')] = 1;
    doubtful[at('consensus')] = 1;
    doubtful[at('consensus_rejected')] = 1;
    doubtful[at('type_fits')] = 1;
    const [p0, p1] = reviewPriorities([sure, doubtful]);
    expect(p1).toBeGreaterThan(0.5);
    expect(p0).toBeLessThan(0.1);
    expect(priorityReasons(doubtful).some((r) => /of the other systems' answers agree with it, and the judge rejects it/.test(r))).toBe(
      true,
    );
    expect(priorityReasons(sure).some((r) => /decides? otherwise/.test(r))).toBe(false);
  });
});
