/**
 * taxonomy_text's reasons against their rows: what a reason says the answer holds, adds or shares is checked from
 * the row alone, over every corpus the tests have (the demo set and its comparison, the fixtures, EVOUNA-TQ where it
 * is present) — none false — and the checks find planted false reasons.
 */
import { describe, expect, it } from 'vitest';
import { createSyncMetric } from '../metrics/index.ts';
import { withWordNet } from '../../../test/lexicon.ts';
import { bareWord, contentStems, holdsAsWritten, tokens } from './words.ts';
import { quantities, sameQuantity } from './quantities.ts';
import { goldForms } from './aliases.ts';
import type { QaItem } from '../types.ts';
import { corpusItems, falseReasons, itOnEvouna } from '../../../test/corpora.ts';

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
  // Every gold a reason names is one (a part of one, or one of its other names), and a numbered gold is that gold.
  const prefix = (quoted: string) => quoted.replace(/…$/, '');
  const aGold = (g: string) =>
    item.golds.some(
      (x) => x.includes(prefix(g)) || goldForms(x).some((f) => f.includes(prefix(g))) || (g.endsWith('…') && x.startsWith(prefix(g))),
    );
  for (const m of reason.matchAll(/\bgold(?: #(\d+))? "([^"]*)"/g)) {
    if (!aGold(m[2]!)) return `"${m[2]}" is no gold`;
    if (m[1] && !item.golds[Number(m[1]) - 1]?.startsWith(prefix(m[2]!))) return `gold #${m[1]} is not "${m[2]}"`;
  }
  for (const m of reason.matchAll(/the first gold "([^"]*)"/g))
    if (!item.golds[0]?.startsWith(prefix(m[1]!))) return `the first gold is not "${m[1]}"`;
  for (const m of reason.matchAll(/gold #(\d+), an alternative/g)) if (Number(m[1]) > item.golds.length) return `there is no gold #${m[1]}`;
  // What the reason quotes from the answer is written there: list and hedge items, a cue and its clause, a stated
  // answer, a qualifier's head, a surname.
  const written = (x: string) => cand.includes(prefix(x).toLowerCase());
  const quotedIn = (list: string) => [...list.matchAll(/"([^"]*)"/g)].map((x) => x[1]!);
  for (const m of reason.matchAll(
    /(?:hedges between|names every gold item plus wrong|but also wrong|\bnames) ((?:"[^"]*"(?:, )?)+)(?!,? by the surname)(?=$|[:;,]| but| \()/g,
  ))
    for (const x of quotedIn(m[1]!)) if (!written(x)) return `the answer does not name "${x}"`;
  for (const m of reason.matchAll(/: ((?:"[^"]*"(?:, )?)+) wrong/g))
    for (const x of quotedIn(m[1]!)) if (!written(x)) return `the answer does not name "${x}"`;
  for (const m of reason.matchAll(/a non-answer \("([^"]*)"\)/g)) if (!written(m[1]!)) return `the answer has no "${m[1]}"`;
  for (const m of reason.matchAll(/"([^"]*)" in "([^"]*)" denies/g)) {
    if (!written(m[2]!)) return `the answer has no clause "${m[2]}"`;
    // A cue may carry what it stands against: "north (vs south)".
    const cue = m[1]!.replace(/\s*\([^)]*\)$/, '').toLowerCase();
    if (!prefix(m[2]!).toLowerCase().includes(cue) && !m[2]!.endsWith('…')) return `"${m[1]}" is not in "${m[2]}"`;
  }
  for (const m of reason.matchAll(/: "([^"]*)"(?: reads as "([^"]*)"|, with no negation,)/g)) {
    if (!written(m[1]!)) return `the answer has no clause "${m[1]}"`;
    if (m[2] && !m[1]!.endsWith('…') && m[1]!.toLowerCase().includes(m[2].toLowerCase()))
      return `"${m[2]}" is written in "${m[1]}": say so`;
    if (!m[2] && /\b(?:not|no|never|n't)\b/i.test(m[1]!)) return `"${m[1]}" has a negation`;
  }
  for (const m of reason.matchAll(/the stated answer "([^"]*)"/g)) if (!written(m[1]!)) return `the answer does not state "${m[1]}"`;
  for (const m of reason.matchAll(/gives "([^"]*)", the gold "([^"]*)" before its qualifier/g)) {
    // "gives" its words: the head's content words are the answer's ("In Mississippi" for "Mississippi").
    const have = new Set(contentStems(text));
    if (contentStems(prefix(m[1]!)).some((t) => !have.has(t))) return `the answer does not give "${m[1]}"`;
    if (!prefix(m[2]!).toLowerCase().startsWith(prefix(m[1]!).toLowerCase().split(/\s+/)[0]!)) return `"${m[1]}" does not start "${m[2]}"`;
  }
  for (const m of reason.matchAll(/names "([^"]*)" by the surname/g)) {
    const surname = bareWord(prefix(m[1]!).trim().split(/\s+/).at(-1)!).toLowerCase();
    if (!m[1]!.endsWith('…') && !words.has(surname) && !cand.includes(surname)) return `the answer has no "${surname}"`;
  }
  for (const m of reason.matchAll(/less specific than "[^"]*" \([^:]+: "([^"]*)"\)/g))
    if (!written(m[1]!)) return `the answer has no "${m[1]}"`;
  // "equals": the same words as read.
  for (const m of reason.matchAll(/^equals gold(?: #\d+)? "([^"]*)"/g))
    if (!m[1]!.endsWith('…') && tokens(m[1]!).join(' ') !== tokens(text).join(' ')) return `the answer does not equal "${m[1]}"`;
  for (const m of reason.matchAll(/shares the stems of (\d+)% of the gold "([^"]*)"'s words/g)) {
    if (m[2]!.endsWith('…')) continue;
    const g = contentStems(m[2]!);
    const have = new Set(contentStems(item.candidate));
    const share = Math.round((100 * g.filter((t) => have.has(t)).length) / Math.max(1, g.length));
    if (share !== Number(m[1])) return `shares ${share}% of "${m[2]}", not ${m[1]}%`;
  }
  return null;
}

/** This file's false reasons over `items`. */
const falseOf = (items: readonly QaItem[]) => falseReasons(items, taxonomy, checkReason);

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
    expect(falseOf(items)).toEqual([]);
  });

  itOnEvouna("taxonomy_text's reasons", (rows) => expect(falseOf(rows).slice(0, 20)).toEqual([]));

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
    // Golds, numbered golds, list items, cues, surnames, equality.
    const two = { question: 'Who?', golds: ['Paris', 'City of Light'], candidate: 'Not Lyon, Paris and Rome' };
    expect(checkReason(two, 'equals gold #2 "Paris", an alternative to the first gold "Paris"')).not.toBeNull();
    expect(checkReason(two, 'does not give the gold "Lyon"')).not.toBeNull();
    expect(checkReason(two, 'gold #3, an alternative to the first gold "Paris"')).not.toBeNull();
    expect(checkReason(two, 'names every gold item plus wrong "Madrid"')).not.toBeNull();
    expect(checkReason(two, 'names every gold item plus wrong "Rome"')).toBeNull();
    expect(checkReason(two, 'negation "never" in "Not Lyon" denies gold "Paris"')).not.toBeNull();
    expect(checkReason(two, 'negation "not" in "Not Lyon" denies gold "Paris"')).toBeNull();
    expect(checkReason(two, 'yes-no: "Not Lyon", with no negation, reads as a yes and denies gold "Paris"')).not.toBeNull();
    expect(checkReason(two, 'names "Paris Hilton" by the surname')).not.toBeNull();
    expect(checkReason(two, 'equals gold "Paris" after normalization')).not.toBeNull();
    expect(checkReason({ ...two, candidate: 'paris.' }, 'equals gold "Paris" after normalization')).toBeNull();
  });
});
