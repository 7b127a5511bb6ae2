/**
 * taxonomy_text's reasons against their rows: what a reason says the answer holds, adds or shares is checked from
 * the row alone, over every corpus the tests have (the demo set and its comparison, the fixtures, EVOUNA-TQ where it
 * is present) — none false — and the checks find planted false reasons.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSyncMetric } from '../metrics/index.ts';
import { withWordNet } from '../../../test/lexicon.ts';
import { evounaPath, loadEvouna, EVOUNA_NEEDED } from '../../../scripts/evouna.ts';
import { bareWord, contentStems, holdsAsWritten, tokens } from './words.ts';
import { quantities, sameQuantity } from './quantities.ts';
import type { QaItem } from '../types.ts';
import { corpusItems } from '../../../test/corpora.ts';

const taxonomy = createSyncMetric('taxonomy_text', {}, withWordNet);

/** What is not so in a reason of `item`, or null. */
export function checkReason(item: QaItem, reason: string): string | null {
  // A reason that says the answer was read without its non-ASCII letters is about that text.
  const text = reason.includes('read without its non-ASCII letters')
    ? item.candidate.normalize('NFC').replace(/(?![\x00-\x7f])\p{L}/gu, '')
    : item.candidate;
  item = { ...item, candidate: text };
  const cand = text.toLowerCase();
  const whole = (cand.match(/\S+/g) ?? []).map(bareWord);
  // A word is written whole, or as a part of a joined word ("time" in "three-time").
  const words = new Set([...whole, ...whole.flatMap((w) => w.split(/[-–—/.]+/))]);
  // A gold with quotes in it cannot be read back from the reason: left alone.
  // "contains" as a reader takes it: the gold's words in order as written (SQuAD normalisation: no number words read as digits).
  for (const m of reason.matchAll(/contains the gold "([^"]*)"/g))
    if (m[1] && !m[1].endsWith('…') && !holdsAsWritten(item.candidate, m[1])) return `does not contain "${m[1]}" as written`;
  for (const m of reason.matchAll(/has every word of the gold "([^"]*)"/g)) {
    if (m[1]!.endsWith('…')) continue;
    const have = new Set(contentStems(item.candidate));
    const lack = contentStems(m[1]!).filter((t) => !have.has(t));
    if (lack.length) return `lacks ${lack.join(', ')} of "${m[1]}"`;
  }
  for (const m of reason.matchAll(/adds ((?:"[^"]*"(?:, )?)+)/g))
    for (const w of m[1]!.matchAll(/"([^"]*)"/g)) {
      const x = w[1]!.toLowerCase();
      if (x.includes(' ') ? !cand.includes(x) : !words.has(x)) return `the answer has no word "${w[1]}"`;
    }
  // Quantity reasons: each quoted value is the answer's as written, each gold a gold (or a part of one) as written.
  const hasText = (whole: string, part: string) => part.endsWith('…') || whole.toLowerCase().includes(part.toLowerCase());
  const isGold = (g: string) => g.endsWith('…') || item.golds.some((x) => x === g || x.includes(g));
  const inGold = (g: string) => g.endsWith('…') || item.golds.some((x) => x.includes(g));
  for (const m of reason.matchAll(/"([^"]*)" is another value than the gold "([^"]*)" gives/g)) {
    if (!text.includes(m[1]!)) return `the answer does not write "${m[1]}"`;
    if (!isGold(m[2]!)) return `"${m[2]}" is not a gold`;
  }
  for (const m of reason.matchAll(/gives the gold's "([^"]*)" but also "([^"]*)", another amount of it/g)) {
    if (!m[1]!.split(', ').every(inGold)) return `"${m[1]}" is not written in a gold`;
    if (!text.includes(m[2]!)) return `the answer does not write "${m[2]}"`;
  }
  for (const m of reason.matchAll(/"([^"]*)" (?:lacks the gold's unit \("([^"]*)"\)|holds the gold's "([^"]*)" but is less specific)/g)) {
    if (!hasText(text, m[1]!)) return `the answer does not write "${m[1]}"`;
    if (!isGold(m[2] ?? m[3]!)) return `"${m[2] ?? m[3]}" is not a gold`;
  }
  // "The same quantity": the gold's numbers as read are the answer's, or a quantity of the answer converts to one of
  // the gold's (212 °F, 100 °C).
  for (const m of reason.matchAll(/the same quantity as the gold "([^"]*)"/g)) {
    const g = m[1]!;
    if (g.endsWith('…')) continue;
    if (!isGold(g)) return `"${g}" is not a gold`;
    const numbersIn = (x: string) => tokens(x).flatMap((t) => t.match(/\d+(?:\.\d+)?/g) ?? []);
    const read = new Set(numbersIn(text));
    const numbers = numbersIn(g);
    const same = numbers.length > 0 && numbers.every((n) => read.has(n));
    // Or as the quantity reader reads them: a conversion (212 °F, 100 °C), a regnal number ("II" for 2).
    const answer = quantities(text);
    const converts = quantities(g).some((x) => answer.some((y) => sameQuantity(x, y) || y.value === x.value));
    if (!same && !converts) return `no quantity of the answer is the gold "${g}"'s`;
  }
  for (const m of reason.matchAll(/shares the stems of (\d+)% of the gold "([^"]*)"'s words/g)) {
    if (m[2]!.endsWith('…')) continue;
    const g = contentStems(m[2]!);
    const have = new Set(contentStems(item.candidate));
    const share = Math.round((100 * g.filter((t) => have.has(t)).length) / Math.max(1, g.length));
    if (share !== Number(m[1])) return `shares ${share}% of "${m[2]}", not ${m[1]}%`;
  }
  return null;
}

function falseReasons(items: readonly QaItem[]): string[] {
  const out: string[] = [];
  for (const item of items) {
    const why = checkReason(item, taxonomy.score(item).explanation);
    if (why) out.push(`${JSON.stringify(item.candidate)} / ${JSON.stringify(item.golds.slice(0, 3))}: ${why}`);
  }
  return out;
}

describe("taxonomy_text's reasons say only what holds of their row", () => {
  it('on the demo set, its comparison, the fixtures and the walk’s examples', () => {
    const walk = [
      ['Which colours?', 'red and green', 'Green and red.'],
      ['When?', 'March 1995', 'March 18, 1995'],
      ['What do they do in winter?', 'flying south', 'they fly south'],
      ['How does he run?', 'running quickly', 'he runs quick'],
      ['Is it Lyon?', 'Paris', 'Not Lyon, but Paris.'],
      ['Who discovered X-rays?', 'Wilhelm Röntgen', "Röntgen, who isn't French"],
      ['Which bird?', 'Ostrich', 'The ostrich, the first and fifth highest-pitch bird'],
      ['How far?', '2,100,000', 'about 2.1 million'],
      ['How many legs?', '8 legs', 'eight legs'],
      ['How hot?', '100 °C', '212 °F'],
    ].map(([question, gold, candidate]) => ({ question: question!, golds: [gold!], candidate: candidate! }));
    const items = [...corpusItems(), ...walk];
    expect(falseReasons(items)).toEqual([]);
  });

  if (!existsSync(evounaPath())) console.log(`skipped: taxonomy_text's reasons on EVOUNA-TQ ${EVOUNA_NEEDED}`);
  it.skipIf(!existsSync(evounaPath()))('on every row of EVOUNA-TQ', { timeout: 600_000 }, () => {
    expect(falseReasons(loadEvouna()).slice(0, 20)).toEqual([]);
  });

  it('finds planted false reasons', () => {
    const item = { question: 'Where?', golds: ['Paris'], candidate: 'Paris, Texas' };
    expect(checkReason(item, 'contains the gold "Lyon"')).not.toBeNull();
    expect(checkReason(item, 'has every word of the gold "Paris France"')).not.toBeNull();
    expect(checkReason(item, 'contains the gold "Paris" (adds "texa")')).not.toBeNull();
    expect(checkReason(item, 'shares the stems of 50% of the gold "Paris"\'s words')).not.toBeNull();
    expect(checkReason(item, 'contains the gold "Paris" (adds "Texas")')).toBeNull();
    // Quantities: the answer's value as written, the gold a gold, the same quantity only where it is.
    const hot = { question: 'How hot?', golds: ['100 °C'], candidate: 'six hundred, or 212 °F' };
    expect(checkReason(hot, '"600" is another value than the gold "100 °C" gives')).not.toBeNull();
    expect(checkReason(hot, '"six hundred" is another value than the gold "100 °F" gives')).not.toBeNull();
    expect(checkReason(hot, '"six hundred" is another value than the gold "100 °C" gives')).toBeNull();
    expect(checkReason(hot, 'the same quantity as the gold "100 °C"')).toBeNull();
    expect(checkReason({ ...hot, candidate: '300 °F' }, 'the same quantity as the gold "100 °C"')).not.toBeNull();
    expect(checkReason(hot, 'gives the gold\'s "100 °C" but also "6", another amount of it')).not.toBeNull();
    expect(checkReason(hot, '"212 °F" lacks the gold\'s unit ("100 °K")')).not.toBeNull();
  });
});
