/**
 * taxonomy_text's reasons against their rows: every typed claim (claims.ts) of every verdict is checked from the row
 * alone — what it says the answer holds, adds, shares, writes or denies, and which gold — over every corpus the
 * tests have (the demo set and its comparison, the fixtures, the walk's examples, generated rows, EVOUNA-TQ where it
 * is present): none false; the reason printed is the claims rendered; and a planted false claim of every kind is found.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSyncMetric } from '../metrics/index.ts';
import { withWordNet } from '../../../test/lexicon.ts';
import { lexicon } from '../../../test/lexicon.ts';
import { bareWord, contentStems, holdsAsWritten, tokens } from './words.ts';
import { quantities, sameQuantity } from './quantities.ts';
import { goldForms } from './aliases.ts';
import { yesNo } from './polarity.ts';
import { classifyText } from './classify.ts';
import { cueWritten, renderTextClaims, type TextClaim, type Value } from './claims.ts';
import { ADVERSARIAL_PIECES } from '../text/adversarial.ts';
import { normalizeTokens } from '../text/normalize.ts';
import type { QaItem } from '../types.ts';
import { corpusItems, itOnEvouna } from '../../../test/corpora.ts';

const squad = (s: string) => normalizeTokens(s, 'squad').join(' ');
const taxonomy = createSyncMetric('taxonomy_text', {}, withWordNet);
const NON_ASCII_LETTER = /(?![\x00-\x7f])\p{L}/gu;

/** The text the claims are about: the stated final answer, the answer without its non-ASCII letters, or the whole. */
function readText(item: QaItem, claims: readonly TextClaim[]): string {
  const stated = claims.find((c) => c.kind === 'stated');
  if (stated?.kind === 'stated') return stated.text;
  return claims.some((c) => c.kind === 'ascii') ? item.candidate.normalize('NFC').replace(NON_ASCII_LETTER, '') : item.candidate;
}

/** Numbers as read (number words as digits). */
const numbersIn = (x: string) => tokens(x).flatMap((t) => t.match(/\d+(?:\.\d+)?/g) ?? []);

/** What is not so in claim `c` of a verdict on `item`, or null. */
export function checkTextClaim(item: QaItem, claims: readonly TextClaim[], c: TextClaim): string | null {
  const text = readText(item, claims);
  const lower = text.toLowerCase();
  const whole = (lower.match(/\S+/g) ?? []).map(bareWord);
  // A word is written whole, or as a part of a joined word ("time" in "three-time").
  const words = new Set([...whole, ...whole.flatMap((w) => w.split(/[-–—/.]+/))]);
  const written = (x: string) => lower.includes(x.toLowerCase());
  const isGold = (g: string) => item.golds.includes(g);
  const notGold = (g: string) => (isGold(g) ? null : `"${g}" is not a gold`);
  const stems = new Set(contentStems(text));
  /** Added words: each a word of the answer as written (several words: written in it). */
  const adds = (xs: readonly string[]) => {
    for (const w of xs) {
      const x = w.toLowerCase();
      if (x.includes(' ') ? !lower.includes(x) : !words.has(x)) return `the answer has no word "${w}"`;
    }
    return null;
  };
  const allWritten = (xs: readonly string[]) =>
    xs.map((x) => (written(x) ? null : `the answer does not name "${x}"`)).find(Boolean) ?? null;
  /** A quantity's value: written in the answer, or (as read) a quantity the answer is read to give, written nowhere. */
  const valueIn = (v: Value) => {
    if (!v.asRead) return written(v.value) ? null : `the answer does not write "${v.value}"`;
    if (written(v.value)) return `the answer writes "${v.value}": not only as read`;
    return quantities(text).some((x) => x.text === v.value) ? null : `the answer is not read as "${v.value}"`;
  };
  const aGoldItem = (x: string) => item.golds.some((g) => tokens(g).join(' ') === tokens(x).join(' '));
  switch (c.kind) {
    case 'no-gold':
      return item.golds.length === 0 ? null : 'the row has golds';
    case 'refusal':
      if (!c.cue) return /[\p{L}\p{N}]/u.test(item.candidate) ? 'the answer has a letter or digit' : null;
      return written(c.cue) ? null : `the answer has no "${c.cue}"`;
    case 'denies': {
      if (!isGold(c.gold)) return notGold(c.gold);
      if (
        c.named !== undefined &&
        !goldForms(c.gold).includes(c.named) &&
        !written(c.named) &&
        !tokens(c.gold).join('').includes(c.named.replace(/\s+/g, ''))
      )
        return `"${c.named}" is not another name of "${c.gold}"`;
      if (!written(c.flip.clause)) return `the answer has no clause "${c.flip.clause}"`;
      if (c.flip.kind === 'negation' && !cueWritten(c.flip)) return `"${c.flip.cue}" is not in "${c.flip.clause}"`;
      if (!cueWritten(c.flip) && c.flip.cue === 'no negation' && /\b(?:not|no|never|n't)\b/i.test(c.flip.clause))
        return `"${c.flip.clause}" has a negation`;
      return null;
    }
    case 'equals': {
      if (item.golds[c.index] !== c.gold) return `gold #${c.index + 1} is not "${c.gold}"`;
      if (item.golds[0] !== c.first) return `the first gold is not "${c.first}"`;
      if (squad(c.gold) !== squad(text)) return `the answer does not equal "${c.gold}" after SQuAD normalisation`;
      if (c.index > 0) {
        const first = contentStems(c.first);
        const shares = [...stems].some((t) => first.some((f) => f.slice(0, 5) === t.slice(0, 5)));
        if (c.sharesFirst !== shares)
          return c.sharesFirst ? 'it shares no word with the first gold' : 'it shares a word with the first gold';
      }
      return null;
    }
    case 'hedge':
      if (c.wrong.some((w) => !c.items.includes(w))) return 'a wrong item is not among the items';
      return allWritten(c.items) ?? (c.wrong.find(aGoldItem) !== undefined ? `"${c.wrong.find(aGoldItem)}" is a gold` : null);
    case 'list-plus-wrong':
      return allWritten(c.wrong) ?? (c.wrong.find(aGoldItem) !== undefined ? `"${c.wrong.find(aGoldItem)}" is a gold` : null);
    case 'list-part':
      return c.share > 0 && c.share < 1 ? allWritten(c.correct) : `a share of ${c.share} is not a part`;
    case 'list-mixed':
      return allWritten(c.correct) ?? allWritten(c.wrong);
    case 'list-by-name':
      return notGold(c.gold);
    case 'answers':
      if (!isGold(c.gold)) return notGold(c.gold);
      return yesNo(c.gold) === null ? `"${c.gold}" is no yes or no` : adds(c.adds);
    case 'other-value': {
      const v = valueIn(c);
      if (v) return v;
      if (!isGold(c.gold)) return notGold(c.gold);
      // Another value: no quantity read from it is one of the gold's (212 °F is 100 °C).
      const gold = quantities(c.gold);
      const same = quantities(c.value).some((v) => gold.some((g) => sameQuantity(g, v)));
      return same ? `"${c.value}" is the gold's quantity` : null;
    }
    case 'other-amount':
      if (c.goldAsRead) {
        const read = item.golds.flatMap((g) => quantities(g).map((x) => x.text));
        if (!c.goldValues.every((v) => read.includes(v))) return `"${c.goldValues.join(', ')}" is not read from a gold`;
      } else if (!c.goldValues.every((v) => item.golds.some((g) => g.includes(v))))
        return `"${c.goldValues.join(', ')}" is not written in a gold`;
      return valueIn(c);
    case 'range':
    case 'unit-missing':
      return valueIn(c) ?? notGold(c.gold);
    case 'numbers-part': {
      if (!isGold(c.gold)) return notGold(c.gold);
      // As the quantity reader reads them ("Daniel 5:1-5" has 5, 1 and 5).
      const read = quantities(text).map((x) => x.value);
      const gold = quantities(c.gold).map((x) => x.value);
      // As multisets: how many of the gold's the answer gives.
      const given = gold.filter((n) => {
        const at = read.indexOf(n);
        if (at >= 0) read.splice(at, 1);
        return at >= 0;
      }).length;
      return given > 0 && given < gold.length ? null : `the answer does not give part of "${c.gold}"'s numbers`;
    }
    case 'holds': {
      if (!isGold(c.gold)) return notGold(c.gold);
      if (c.how === 'contains' && !holdsAsWritten(text, c.gold)) return `does not contain "${c.gold}" as written`;
      if (c.how === 'every-word') {
        const lack = contentStems(c.gold).filter((t) => !stems.has(t));
        if (lack.length) return `lacks ${lack.join(', ')} of "${c.gold}"`;
      }
      if (c.how === 'same-quantity') {
        const read = new Set(numbersIn(text));
        const numbers = numbersIn(c.gold);
        const same = numbers.length > 0 && numbers.every((n) => read.has(n));
        // Or as the quantity reader reads them: a conversion (212 °F, 100 °C), a regnal number ("II" for 2).
        const answer = quantities(text);
        const converts = quantities(c.gold).some((x) => answer.some((y) => sameQuantity(x, y) || y.value === x.value));
        if (!same && !converts) return `no quantity of the answer is the gold "${c.gold}"'s`;
      }
      return adds(c.adds);
    }
    case 'head': {
      if (!isGold(c.gold)) return notGold(c.gold);
      if (!c.gold.startsWith(`${c.head},`)) return `"${c.head}" is not the head of "${c.gold}"`;
      if (contentStems(c.head).some((t) => !stems.has(t))) return `the answer does not give "${c.head}"`;
      return adds(c.adds);
    }
    case 'less-specific':
      if (!isGold(c.gold)) return notGold(c.gold);
      return written(c.cue) ? null : `the answer has no "${c.cue}"`;
    case 'surname': {
      if (!isGold(c.gold)) return notGold(c.gold);
      const surname = bareWord(c.gold.trim().split(/\s+/).at(-1)!).toLowerCase();
      if (!words.has(surname) && !lower.includes(surname)) return `the answer has no "${surname}"`;
      return adds(c.adds);
    }
    case 'shares-stems': {
      if (!isGold(c.gold)) return notGold(c.gold);
      const g = contentStems(c.gold);
      const share = Math.round((100 * g.filter((t) => stems.has(t)).length) / Math.max(1, g.length));
      return share !== c.percent ? `shares ${share}% of "${c.gold}", not ${c.percent}%` : adds(c.adds);
    }
    case 'misses':
      if (!isGold(c.gold)) return notGold(c.gold);
      if (c.empty) return contentStems(c.gold).length ? `"${c.gold}" has content words` : null;
      // Gives it: as written, and every content word as read ("first" is not given by "twenty-first").
      return holdsAsWritten(text, c.gold) && contentStems(c.gold).every((t) => stems.has(t)) ? `the answer contains "${c.gold}"` : null;
    case 'form': {
      if (!isGold(c.gold)) return notGold(c.gold);
      const given = contentStems(c.form).length > 0 ? contentStems(c.form).every((t) => stems.has(t)) : text.includes(c.form);
      if (!given && !tokens(text).join('').includes(c.form.replace(/\s+/g, ''))) return `the answer does not give "${c.form}"`;
      return adds(c.adds);
    }
    case 'wordnet': {
      const mine = c.term.split(/\s+/).every((w) => written(w));
      if (!mine) return `the answer has no "${c.term}"`;
      if (!item.golds.some((g) => g.toLowerCase().includes(c.goldTerm.split(/\s+/)[0]!))) return `no gold has "${c.goldTerm}"`;
      return adds(c.adds ?? []);
    }
    case 'stated':
      return item.candidate.toLowerCase().includes(c.text.toLowerCase()) ? null : `the answer does not state "${c.text}"`;
    case 'alternative':
      if (c.index < 1 || c.index >= item.golds.length) return `there is no gold #${c.index + 1} besides the first`;
      return item.golds[0] === c.first ? null : `the first gold is not "${c.first}"`;
    case 'ascii':
      return /(?![\x00-\x7f])\p{L}/u.test(item.candidate) ? null : 'the answer has no non-ASCII letter';
  }
}

/** The false claims of taxonomy_text's verdicts over `items`: row, claim and what is not so. */
function falseClaims(items: readonly QaItem[]): string[] {
  const out: string[] = [];
  for (const item of items) {
    if (item.golds.length === 0) continue;
    const v = classifyText(item, lexicon);
    // The reason printed is the claims, rendered in one place.
    expect(taxonomy.score(item).explanation).toContain(renderTextClaims(v.claims));
    for (const c of v.claims) {
      const wrong = checkTextClaim(item, v.claims, c);
      if (wrong) out.push(`${JSON.stringify(item.candidate)} / ${JSON.stringify(item.golds.slice(0, 3))}: ${c.kind}: ${wrong}`);
    }
  }
  return out;
}

const WALK: QaItem[] = [
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

describe("taxonomy_text's reasons say only what holds of their row", () => {
  it('on the demo set, its comparison, the fixtures and the walk’s examples', () => {
    expect(falseClaims([...corpusItems(), ...WALK])).toEqual([]);
  });

  it('on generated rows: golds and answers from words, numbers, units, negations, lists and hostile pieces', () => {
    const word = fc.constantFrom(
      ...['Paris', 'paris', 'France', 'not', 'no', 'and', 'or', 'the', 'city', '20', '20%', 'twenty', '1912', 'km', '°C', 'Texas'],
      ...["isn't", 'Röntgen', 'J.G.', 'yes', 'twenty-first', '45,000', 'feet'],
      ...['William', 'Shakespeare', 'Bard', 'of', 'Avon', 'cow', 'cattle', 'Lyon,', 'Rome', 'March', '18,', '1995', 'about', '2.1'],
      ...['million', '2,100,000', 'Europe', 'a', 'bird', 'penguin', 'So the answer is', 'Final answer:', 'Gulfstream Park, Florida'],
      ...['W.', 'false', 'true', "I don't know"],
    );
    const hostile = fc.constantFrom(...ADVERSARIAL_PIECES);
    const text = fc.oneof(
      { arbitrary: fc.array(word, { minLength: 1, maxLength: 7 }).map((w) => w.join(' ')), weight: 5 },
      { arbitrary: fc.array(hostile, { maxLength: 4 }).map((w) => w.join(' ')), weight: 1 },
    );
    // A gold names something: at least one content word ("or" alone is no answer to judge against).
    const gold = text.filter((g) => contentStems(g).length > 0);
    const item = fc.record({
      question: fc.constantFrom('Where?', 'How hot?', 'Is it Paris?', 'Who wrote Hamlet?', 'Which animal?', 'When?'),
      golds: fc.array(gold, { minLength: 1, maxLength: 3 }),
      candidate: text,
    });
    fc.assert(
      fc.property(item, (it) => {
        expect(falseClaims([it])).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  itOnEvouna("taxonomy_text's reasons", (rows) => expect(falseClaims(rows).slice(0, 20)).toEqual([]));

  it('finds a planted false claim of every kind', () => {
    const item = { question: 'Where?', golds: ['Paris', 'City of Light'], candidate: 'Not Lyon, Paris, Texas and 212 °F' };
    const flip = { kind: 'negation', cue: 'never', clause: 'Not Lyon' } as const;
    const planted: TextClaim[] = [
      { kind: 'no-gold' },
      { kind: 'refusal', cue: 'I do not know' },
      { kind: 'denies', flip, gold: 'Paris' },
      { kind: 'denies', flip: { ...flip, cue: 'not' }, gold: 'Lyon' },
      { kind: 'equals', gold: 'Paris', index: 0, first: 'Paris', sharesFirst: true },
      { kind: 'hedge', items: ['Lyon', 'Rome'], wrong: ['Rome'] },
      { kind: 'list-plus-wrong', wrong: ['Paris'] },
      { kind: 'list-part', correct: ['Madrid'], share: 0.5 },
      { kind: 'list-mixed', correct: ['Paris'], wrong: ['Madrid'] },
      { kind: 'list-by-name', gold: 'Lyon' },
      { kind: 'answers', gold: 'Paris', restates: false, adds: [] },
      { kind: 'other-value', value: '100 °C', asRead: false, gold: 'Paris', alsoGold: false },
      { kind: 'other-value', value: '212', asRead: true, gold: 'Paris', alsoGold: false },
      { kind: 'other-amount', goldValues: ['100'], goldAsRead: false, value: '212 °F', asRead: false },
      { kind: 'range', value: '300', asRead: false, gold: 'Paris' },
      { kind: 'unit-missing', value: '212', asRead: false, gold: 'Lyon' },
      { kind: 'numbers-part', gold: 'Paris' },
      { kind: 'holds', how: 'contains', gold: 'City of Light', restates: false, adds: [] },
      { kind: 'holds', how: 'every-word', gold: 'City of Light', restates: false, adds: [] },
      { kind: 'holds', how: 'same-quantity', gold: 'Paris', restates: false, adds: [] },
      { kind: 'holds', how: 'contains', gold: 'Paris', restates: false, adds: ['texa'] },
      { kind: 'head', head: 'City', gold: 'City of Light', adds: [] },
      { kind: 'less-specific', gold: 'Paris', how: 'region', cue: 'Europe' },
      { kind: 'surname', gold: 'Paris Hilton', adds: [] },
      { kind: 'shares-stems', percent: 50, gold: 'Paris', adds: [] },
      { kind: 'misses', gold: 'Paris', empty: false },
      { kind: 'misses', gold: 'Paris', empty: true },
      { kind: 'form', form: 'Lutetia', gold: 'Paris', adds: [] },
      { kind: 'wordnet', relation: 'synonym', term: 'lutetia', goldTerm: 'paris' },
      { kind: 'stated', text: 'Rome' },
      { kind: 'alternative', index: 2, first: 'Paris' },
      { kind: 'ascii' },
    ].map((c) => (c.kind === 'stated' ? { ...c, cue: 'after "So"' } : c)) as TextClaim[];
    for (const c of planted) expect(checkTextClaim(item, [c], c), JSON.stringify(c)).not.toBeNull();
    // Every kind is planted, and the same claims made true hold.
    const kinds = new Set(planted.map((c) => c.kind));
    expect(kinds.size).toBe(
      new Set<TextClaim['kind']>([
        'no-gold',
        'refusal',
        'denies',
        'equals',
        'hedge',
        'list-plus-wrong',
        'list-part',
        'list-mixed',
        'list-by-name',
        'answers',
        'other-value',
        'other-amount',
        'range',
        'unit-missing',
        'numbers-part',
        'holds',
        'head',
        'less-specific',
        'surname',
        'shares-stems',
        'misses',
        'form',
        'wordnet',
        'stated',
        'alternative',
        'ascii',
      ]).size,
    );
    const hot = { question: 'How hot?', golds: ['100 °C'], candidate: 'six hundred, or 212 °F' };
    expect(
      checkTextClaim(hot, [], { kind: 'other-value', value: 'six hundred', asRead: false, gold: '100 °C', alsoGold: false }),
    ).toBeNull();
    expect(
      checkTextClaim(hot, [], { kind: 'other-value', value: '212 °F', asRead: false, gold: '100 °C', alsoGold: false }),
    ).not.toBeNull();
    expect(checkTextClaim(hot, [], { kind: 'holds', how: 'same-quantity', gold: '100 °C', restates: false, adds: [] })).toBeNull();
    const texas = { question: 'Where?', golds: ['Paris'], candidate: 'Paris, Texas' };
    expect(checkTextClaim(texas, [], { kind: 'holds', how: 'contains', gold: 'Paris', restates: false, adds: ['Texas'] })).toBeNull();
    expect(checkTextClaim(item, [], { kind: 'denies', flip: { ...flip, cue: 'not' }, gold: 'Paris' })).toBeNull();
  });
});
