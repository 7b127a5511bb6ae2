/**
 * Why a question is asked, checked against its row: every reason the review gives (priority.ts) is tested on the
 * row's own values — its score and the threshold, its word count, the other metrics' decisions, the other systems'
 * answers — over the demo comparison, generated rows and, where the file is present, EVOUNA-TQ's first 300
 * questions. A planted false reason fails the checker.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { reviewSignals, typeFits, type SignalRow } from './signals.ts';
import { priorityReasons } from './priority.ts';
import { answerGroups } from './groups.ts';
import { createSyncMetric, DEFAULT_METRICS } from '../metrics/index.ts';
import { nodeLexicon } from '../../runtime/lexicon-node.ts';
import { evounaPath, loadEvouna } from '../../../scripts/evouna.ts';
import { mulberry32 } from '../util/random.ts';

const lexicon = nodeLexicon();
const metrics = DEFAULT_METRICS.map((n) => createSyncMetric(n, {}, { lexicon }));
const judge = metrics.find((m) => m.name === 'pedants')!;

interface Row extends SignalRow {
  key: string;
  system: string;
}

/** Each row's reasons and the false ones among them, with why. */
function check(rows: Row[], plant?: (i: number, reasons: string[]) => string[]): string[] {
  const res = rows.map((r) => metrics.map((m) => m.score({ question: r.question, golds: [...r.golds], candidate: r.candidate })));
  const k = metrics.indexOf(judge);
  const decided = (i: number, j: number) => res[i]![j]!.decision ?? null;
  const view = {
    judge: { metric: judge.name, threshold: judge.threshold },
    score: (i: number) => res[i]![k]!.score,
    decision: (i: number) => decided(i, k),
    others: (i: number) => metrics.flatMap((_, j) => (j === k ? [] : [decided(i, j)])),
  };
  const signals = reviewSignals(rows, view);
  const { groupOf } = answerGroups(rows);
  const span = Math.max(judge.threshold, 1 - judge.threshold);
  const wrong: string[] = [];
  rows.forEach((r, i) => {
    let reasons = priorityReasons(signals[i]!);
    if (plant) reasons = plant(i, reasons);
    const s = view.score(i);
    const d = view.decision(i);
    const others = view.others(i).filter((o): o is boolean => o !== null);
    const against = d === null ? 0 : others.filter((o) => o !== d).length;
    const words = r.candidate.split(/\s+/).filter(Boolean).length;
    const peers = rows.filter((x, j) => j !== i && x.key === r.key);
    for (const why of reasons) {
      let ok: boolean;
      if (why === 'the score is near the threshold') ok = s === null || Math.abs(s - judge.threshold) <= 0.15 * span + 1e-9;
      else if (why === 'every other metric decides otherwise') ok = others.length > 0 && against === others.length;
      else if (why === 'most other metrics decide otherwise') ok = against >= others.length / 2 && against > 0;
      else if (why === 'another metric decides otherwise') ok = against > 0;
      else if (why === 'judged correct') ok = d === true;
      else if (why.startsWith('a long answer')) {
        const n = /\((\d+|60 or more) words\)/.exec(why)?.[1];
        ok = n === '60 or more' ? words >= 60 : Number(n) === words && words >= 10;
      } else if (why === 'other systems gave the same answer') ok = peers.some((x) => groupOf[rows.indexOf(x)] === groupOf[i]);
      else if (/% of the other systems' answers agree with it, and the judge rejects it$/.test(why)) ok = d === false && peers.length > 0;
      else if (/% of the other systems' answers agree with it$/.test(why)) ok = peers.length > 0;
      else if (why === 'the answer is of the kind the question asks for') ok = typeFits(r.question, r.candidate) === 1;
      else if (why === 'the words and the decision disagree') ok = d !== null;
      else if (why === "the judge rejects this system's answers more often than the others'")
        ok = new Set(rows.map((x) => x.system)).size > 1;
      else ok = false;
      if (!ok) wrong.push(`${r.system}/${r.key} "${r.candidate.slice(0, 40)}": ${why} (score ${s}, ${words} words)`);
    }
  });
  return wrong;
}

function demoRows(): Row[] {
  const text = readFileSync(new URL('../../../public/demo/compare-demo.jsonl', import.meta.url), 'utf8');
  return text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { id: string; system: string; question: string; gold: string | string[]; candidate: string })
    .map((o) => ({ key: o.id, system: o.system, question: o.question, golds: [o.gold].flat(), candidate: o.candidate }));
}

/** Answers of every length and kind, some shared between systems, some far from and some near the gold. */
function generatedRows(): Row[] {
  const rnd = mulberry32(17);
  const words = ['Paris', 'the', 'capital', 'of', 'France', 'is', 'river', 'Seine', 'in', '1889', 'tower', 'Eiffel', 'maybe', 'Lyon'];
  const rows: Row[] = [];
  for (let q = 0; q < 60; q++) {
    const gold = ['Paris', 'Gustave Eiffel', '1889', 'the Seine'][q % 4]!;
    const question = ['What is the capital of France?', 'Who built the tower?', 'In which year was it built?', 'Which river?'][q % 4]!;
    let shared = '';
    for (const system of ['a', 'b', 'c']) {
      const n = Math.floor(rnd() * 25);
      const candidate =
        system !== 'a' && shared && rnd() < 0.4
          ? shared
          : rnd() < 0.3
            ? gold
            : Array.from({ length: n }, () => words[Math.floor(rnd() * words.length)]!).join(' ');
      shared ||= candidate;
      rows.push({ key: `q${q}`, system, question: `${question} (${q})`, golds: [gold], candidate });
    }
  }
  return rows;
}

describe('why a question is asked: every reason holds for its row', () => {
  it('on the demo comparison and on generated rows, and a planted false reason is caught', () => {
    for (const rows of [demoRows(), generatedRows()]) expect(check(rows)).toEqual([]);
    // The checker is not blind: a "long answer" said of a two-word answer, "near the threshold" of every row.
    const rows = generatedRows();
    const short = rows.findIndex((r) => r.candidate.split(/\s+/).filter(Boolean).length === 2);
    expect(check(rows, (i, r) => (i === short ? [...r, 'a long answer (2 words)'] : r)).length).toBe(1);
    expect(check(rows, (_, r) => [...r, 'the score is near the threshold']).length).toBeGreaterThan(0);
  });

  it.skipIf(!existsSync(evounaPath()))("on EVOUNA-TQ's first 300 questions, five systems", { timeout: 600_000 }, () => {
    const items = loadEvouna().filter((it) => it.qid < 300);
    const rows: Row[] = items.map((it) => ({
      key: `q${it.qid}`,
      system: it.system,
      question: it.question,
      golds: it.golds,
      candidate: it.candidate,
    }));
    expect(check(rows)).toEqual([]);
  });
});
