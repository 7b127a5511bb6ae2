/**
 * The text signals' reason (classify.ts) as typed claims: each says one thing about the row with the values it
 * rests on — the gold (as written, and its place among the golds where that is said), the answer's words as the
 * answer writes them, the quantity as written, the cue and clause that flip the meaning. The step that decides
 * builds them; `renderTextClaims` is the one place they become prose (taxonomy_text's and the NLI taxonomy's
 * reasons). reasons.test.ts checks each claim against its row over every corpus the tests have.
 */
import type { SpecificitySignal } from './extra.ts';
import type { PolaritySignal } from './polarity.ts';

/** What flips the meaning: the signal's kind, its cue and the clause of the answer it is in. */
export type FlipRead = Pick<PolaritySignal, 'kind' | 'cue' | 'clause'>;

/** A quantity of the answer, as written or as read. */
export interface Value {
  value: string;
  asRead: boolean;
}

export type TextClaim =
  | { kind: 'no-gold' }
  /** A non-answer, and the phrase that declines ('' for an answer with no letter or digit). */
  | { kind: 'refusal'; cue: string }
  /** The answer denies `gold`, or `named`, another name of it that the answer uses. */
  | { kind: 'denies'; flip: FlipRead; gold: string; named?: string }
  /**
   * The answer equals gold `index` (0-based) after SQuAD normalisation; for another than the first, whether it
   * shares a content word with the first gold (`first`) or is an alternative to it.
   */
  | { kind: 'equals'; gold: string; index: number; first: string; sharesFirst: boolean }
  /** Alternatives offered, `wrong` among them. */
  | { kind: 'hedge'; items: string[]; wrong: string[] }
  /** Every item of the gold and also wrong ones. */
  | { kind: 'list-plus-wrong'; wrong: string[] }
  /** Some of the gold's items and nothing wrong: `share` of them. */
  | { kind: 'list-part'; correct: string[]; share: number }
  /** Some gold items, wrong ones too, and gold items missed. */
  | { kind: 'list-mixed'; correct: string[]; wrong: string[] }
  /** Every item of a list gold, some by another name. */
  | { kind: 'list-by-name'; gold: string }
  /** A yes/no gold answered the same way; `adds`: the answer's added words as written. */
  | { kind: 'answers'; gold: string; restates: boolean; adds: string[] }
  /**
   * `value` is another value of the gold's quantity; `alsoGold`: the gold's is there too. A quantity's value is as the
   * answer writes it, or (`asRead`) as it was read where no run of the answer's words reads so.
   */
  | ({ kind: 'other-value'; gold: string; alsoGold: boolean } & Value)
  /** The gold's amount (`goldValues`, as the gold writes them, or as read: `goldAsRead`) and another amount of it. */
  | ({ kind: 'other-amount'; goldValues: string[]; goldAsRead: boolean } & Value)
  /** `value` holds the gold's quantity but is less specific (a range, a rounder figure). */
  | ({ kind: 'range'; gold: string } & Value)
  /** `value` is the gold's number without its unit. */
  | ({ kind: 'unit-missing'; gold: string } & Value)
  /** Only some of the gold's numbers. */
  | { kind: 'numbers-part'; gold: string }
  /**
   * The answer gives the gold: holds it as written (`contains`), the same quantity read alike (`same-quantity`), or
   * every word of it in another order or form (`every-word`). `adds`: the answer's added words, as written (empty:
   * it adds no claim).
   */
  | { kind: 'holds'; how: 'contains' | 'same-quantity' | 'every-word'; gold: string; restates: boolean; adds: string[] }
  /** The gold's head before its comma's qualifier ("Gulfstream Park" of "Gulfstream Park, Florida"). */
  | { kind: 'head'; head: string; gold: string; adds: string[] }
  | { kind: 'less-specific'; gold: string; how: SpecificitySignal['kind']; cue: string }
  /** A person's gold named by the surname. */
  | { kind: 'surname'; gold: string; adds: string[] }
  /** `percent` of the gold's content stems are the answer's, and it says something else. */
  | { kind: 'shares-stems'; percent: number; gold: string; adds: string[] }
  /** The answer does not give the gold; `empty`: the gold has no content word to give ("or", "the"). */
  | { kind: 'misses'; gold: string; empty: boolean }
  /** `form`, another name of the gold (an alias, an acronym, other spacing), as the answer gives it. */
  | { kind: 'form'; form: string; gold: string; adds: string[] }
  /**
   * A WordNet relation between the answer's term and the gold's (lower case, as WordNet has them): `steps` hypernym
   * steps for a broader or narrower term; `adds` for a synonym with words added.
   */
  | { kind: 'wordnet'; relation: 'synonym' | 'broader' | 'antonym'; term: string; goldTerm: string; steps?: number; adds?: string[] }
  /** What follows is about the answer's stated final answer, not the whole. */
  | { kind: 'stated'; text: string; cue: string }
  /** The claim before is about gold `index`, an alternative to the first. */
  | { kind: 'alternative'; index: number; first: string }
  /** The claims are about the answer without its non-ASCII letters. */
  | { kind: 'ascii' };

/** How many added words a reason names before "…". */
export const ADDED_SHOWN = 8;

const q = (s: string) => `"${s.length > 50 ? `${s.slice(0, 49)}…` : s}"`;
const quoted = (xs: readonly string[]) => xs.map(q).join(', ');
const value = (v: Value) => `${q(v.value)}${v.asRead ? ' (as read)' : ''}`;

/** Added words, each quoted, at most ADDED_SHOWN. */
function addedWords(adds: readonly string[]): string {
  const shown = adds.map((w) => `"${w}"`);
  return shown.length > ADDED_SHOWN ? `${shown.slice(0, ADDED_SHOWN).join(', ')}, …` : shown.join(', ');
}
const addsOrNot = (adds: readonly string[]) =>
  adds.length ? ` (adds ${addedWords(adds)}); no added claim conflicts` : ' and adds no claim';

/**
 * What flips the meaning, as the answer has it: the cue in its clause where the clause writes the cue ("not" in "not
 * Paris"); else what the clause is read as ("False" reads as "no"; "Tooth decay", with no negation, as a yes).
 */
function flipWords(p: FlipRead): string {
  if (cueWritten(p)) return `${p.kind} ${q(p.cue)} in ${q(p.clause)}`;
  if (p.cue === 'no negation') return `${p.kind}: ${q(p.clause)}, with no negation, reads as a yes and`;
  return `${p.kind}: ${q(p.clause)} reads as ${q(p.cue)} and`;
}

/** Whether the clause writes the cue (a cue may carry what it stands against: "north (vs south)"). */
export const cueWritten = (p: FlipRead): boolean =>
  p.clause.toLowerCase().includes(
    p.cue
      .replace(/\s*\([^)]*\)$/, '')
      .replace(/[.,;:]+$/, '')
      .toLowerCase(),
  );

const HOW = { contains: 'contains the gold', 'same-quantity': 'the same quantity as the gold', 'every-word': 'has every word of the gold' };

function render(c: TextClaim): string {
  switch (c.kind) {
    case 'no-gold':
      return 'no gold answer';
    case 'refusal':
      return c.cue ? `a non-answer (${q(c.cue)})` : 'a non-answer (no letter or digit)';
    case 'denies':
      return c.named === undefined
        ? `${flipWords(c.flip)} denies gold ${q(c.gold)}`
        : `${flipWords(c.flip)} denies ${q(c.named)}, the gold ${q(c.gold)}`;
    case 'equals':
      if (c.index === 0) return `equals gold ${q(c.gold)} after normalization`;
      return c.sharesFirst
        ? `equals gold #${c.index + 1} ${q(c.gold)}, which shares words with the first gold`
        : `equals gold #${c.index + 1} ${q(c.gold)}, an alternative to the first gold ${q(c.first)}`;
    case 'hedge':
      return `hedges between ${quoted(c.items)}: ${quoted(c.wrong)} wrong`;
    case 'list-plus-wrong':
      return `names every gold item plus wrong ${quoted(c.wrong)}`;
    case 'list-part':
      return `names ${quoted(c.correct)}: ${Math.round(c.share * 100)}% of the gold's items`;
    case 'list-mixed':
      return `names ${quoted(c.correct)} but also wrong ${quoted(c.wrong)}, and misses gold items`;
    case 'list-by-name':
      return `names every item of the gold ${q(c.gold)}, some by another name`;
    case 'answers':
      return c.adds.length
        ? `answers ${q(c.gold)} and adds ${addedWords(c.adds)}`
        : `answers ${q(c.gold)}${c.restates ? ', restating the question' : ''}`;
    case 'other-value':
      return c.alsoGold
        ? `gives the gold's value and also ${value(c)}, another value of the same quantity`
        : `${value(c)} is another value than the gold ${q(c.gold)} gives`;
    case 'other-amount':
      return `gives the gold's ${q(c.goldValues.join(', '))}${c.goldAsRead ? ' (as read)' : ''} but also ${value(c)}, another amount of it`;
    case 'range':
      return `${value(c)} holds the gold's ${q(c.gold)} but is less specific`;
    case 'unit-missing':
      return `${value(c)} lacks the gold's unit (${q(c.gold)})`;
    case 'numbers-part':
      return `gives only part of the gold's numbers (${q(c.gold)})`;
    case 'holds':
      return `${HOW[c.how]} ${q(c.gold)}${c.how === 'every-word' ? ' (in another order or form)' : ''}${c.adds.length === 0 && c.restates ? ', restating the question' : ''}${addsOrNot(c.adds)}`;
    case 'head':
      return `gives ${q(c.head)}, the gold ${q(c.gold)} before its qualifier${c.adds.length ? ` (adds ${addedWords(c.adds)})` : ''}`;
    case 'less-specific':
      return `less specific than ${q(c.gold)} (${c.how}: ${q(c.cue)})`;
    case 'surname':
      return `names ${q(c.gold)} by the surname${c.adds.length ? ` (adds ${addedWords(c.adds)})` : ''}`;
    case 'shares-stems':
      return `shares the stems of ${c.percent}% of the gold ${q(c.gold)}'s words but says something else${c.adds.length ? ` (adds ${addedWords(c.adds)})` : ''}`;
    case 'misses':
      return c.empty ? `the gold ${q(c.gold)} has no content word to give` : `does not give the gold ${q(c.gold)}`;
    case 'form':
      return `${q(c.form)} names the gold ${q(c.gold)}${addsOrNot(c.adds)}`;
    case 'wordnet': {
      const steps = (dir: string) => `(WordNet: ${c.steps} hypernym step${c.steps === 1 ? '' : 's'} ${dir} it)`;
      if (c.relation === 'antonym') return `'${c.term}' is a WordNet antonym of '${c.goldTerm}' in the gold's frame`;
      if (c.relation === 'broader')
        return `'${c.term}' is a broader term of '${c.goldTerm}' ${steps('above')}: less specific than the gold`;
      const synonym = `'${c.term}' and '${c.goldTerm}' share a WordNet synonym set`;
      return c.adds?.length ? `${synonym}${addsOrNot(c.adds)}` : `${synonym}, and adds no claim`;
    }
    case 'stated':
      return `the stated answer ${q(c.text)} (${c.cue}) `;
    case 'alternative':
      return `; gold #${c.index + 1}, an alternative to the first gold ${q(c.first)}`;
    case 'ascii':
      return ' (read without its non-ASCII letters, as the gold is written)';
  }
}

/** The claims in words: the text signals' reason. */
export const renderTextClaims = (claims: readonly TextClaim[]): string => claims.map(render).join('');
