/**
 * lexical_match's reasons against their rows: "gold G occurs in the candidate" only where the candidate holds G as
 * written (case, accents, punctuation and articles aside); "as X" only where the candidate writes X and X reads as G;
 * "no gold occurs" only where none does as read. Over every corpus the tests have, and EVOUNA-TQ where present.
 */
import { describe, expect, it } from 'vitest';
import { createLexicalMatch } from './lexical_match.ts';
import { holdsAsWritten } from '../signals/words.ts';
import { normalizeTokens } from '../text/normalize.ts';
import { corpusItems, falseReasons, itOnEvouna } from '../../../test/corpora.ts';
import type { QaItem } from '../types.ts';
import { quote } from './common.ts';

const metric = createLexicalMatch();
const padded = (s: string) => ` ${normalizeTokens(s, 'numeric').join(' ')} `;

/** What is not so in lexical_match's reason for `item`, or null. */
export function checkLexicalReason(item: QaItem, reason: string): string | null {
  if (reason === 'no gold occurs in the candidate') {
    const held = item.golds.find((g) => normalizeTokens(g, 'numeric').length > 0 && padded(item.candidate).includes(padded(g)));
    return held === undefined ? null : `gold "${held}" occurs in the candidate`;
  }
  if (!reason.startsWith('gold ')) return null;
  // The gold as the reason quotes it (quote(): long ones cut with "…").
  const gold = item.golds.find((g) => reason.startsWith(`gold ${quote(g)} occurs in the candidate`));
  if (gold === undefined) return `the gold in "${reason.slice(0, 60)}" is not one`;
  const rest = reason.slice(`gold ${quote(gold)} occurs in the candidate`.length);
  if (!padded(item.candidate).includes(padded(gold))) return `"${gold}" does not occur in the candidate even as read`;
  const as = / as "(.*)", read alike/.exec(rest)?.[1];
  if (as === undefined && !rest.startsWith(' after') && !holdsAsWritten(item.candidate, gold))
    return `the candidate does not hold "${gold}" as written`;
  if (as !== undefined) {
    if (!item.candidate.includes(as.replace(/…$/, ''))) return `the candidate does not write "${as}"`;
    if (!as.endsWith('…') && !padded(as).includes(padded(gold))) return `"${as}" does not read as "${gold}"`;
  }
  return null;
}

/** This file's false reasons over `items`. */
const falseOf = (items: readonly QaItem[]) => falseReasons(items, metric, checkLexicalReason);

describe("lexical_match's reasons say only what holds of their row", () => {
  it('on the demo set, its comparison, the fixtures and rows written with numbers as words', () => {
    const words: QaItem[] = [
      { question: 'How many?', golds: ['2,100,000'], candidate: 'about 2.1 million' },
      { question: 'How many legs?', golds: ['8'], candidate: 'eight legs' },
      { question: 'Where?', golds: ['Lome'], candidate: 'Lomé.' },
    ];
    expect(falseOf([...corpusItems(), ...words])).toEqual([]);
    expect(metric.score(words[0]!).explanation).toBe(
      'gold "2,100,000" occurs in the candidate as "2.1 million", read alike after numeric normalization (token boundaries)',
    );
  });

  itOnEvouna("lexical_match's reasons", (rows) => expect(falseOf(rows).slice(0, 20)).toEqual([]));

  it('finds planted false reasons', () => {
    const item = { question: 'How many?', golds: ['2,100,000'], candidate: 'about 2.1 million' };
    expect(checkLexicalReason(item, 'gold "2,100,000" occurs in the candidate (token boundaries)')).not.toBeNull();
    expect(checkLexicalReason(item, 'gold "2,100,000" occurs in the candidate as "2.2 million", read alike')).not.toBeNull();
    expect(checkLexicalReason(item, 'gold "3" occurs in the candidate (token boundaries)')).not.toBeNull();
    expect(checkLexicalReason({ ...item, golds: ['2.1 million'] }, 'no gold occurs in the candidate')).not.toBeNull();
  });
});
