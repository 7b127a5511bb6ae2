/**
 * @file A person named by the end of the name: the surname with its particles ("Fleming", "da Vinci", "van
 * Gogh"), alone or after initials that fit the first names ("JK Rowling" for "J. K. Rowling", "J.M.W. Turner"
 * for "Joseph Turner").
 *
 * tailName('Who painted the Mona Lisa?', 'Leonardo da Vinci', 'Da Vinci')     // → { extra: [] }
 * tailName('Who wrote Hamlet?', 'William Shakespeare', 'Shakespeare, in 1600.') // → { extra: ['1600'] }
 * tailName('Who was president?', 'George Washington', 'Martha Washington')       // → null
 */
import nlp from 'compromise';
import { foldAccents } from '../text/normalize.ts';
import { lastMemo, textMemo } from '../util/memo.ts';
import { FUNCTION_WORDS } from './words.ts';

const PARTICLES = new Set([
  'da',
  'de',
  'del',
  'della',
  'di',
  'du',
  'van',
  'von',
  'der',
  'den',
  'le',
  'la',
  'bin',
  'ibn',
  'al',
  'el',
  'ter',
]);
const TITLES = new Set(['sir', 'dame', 'lord', 'lady', 'dr', 'mr', 'mrs', 'ms', 'saint', 'st', 'king', 'queen', 'president', 'general']);

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;
/** Words as written, accents folded: "J.M.W. Turner" → J, M, W, Turner. */
const words = (s: string): string[] => foldAccents(s).match(WORD) ?? [];
/** Initials: one to three capitals ("J", "JK", "JMW"); not the article "a". */
const isInitials = (w: string): boolean => w.length <= 3 && /^\p{Lu}+$/u.test(w);

/**
 * Whether compromise reads the gold as a person's name: the whole of it, or all but leading initials it drops
 * ("K. Rowling" of "J. K. Rowling"), or a first name before a particle and a surname ("Leonardo" of "Leonardo da
 * Vinci"). Cached: golds recur across rows.
 */
export const isPerson = textMemo((gold: string): boolean => {
  const g = gold.trim();
  const people = nlp(g).people().out('array') as string[];
  if (people.length !== 1) return false;
  const p = people[0]!;
  if (p === g) return true;
  const rest = words(g.slice(p.length));
  if (g.startsWith(p)) return rest.length === 2 && PARTICLES.has(rest[0]!.toLowerCase()) && /^\p{Lu}/u.test(rest[1]!);
  return g.endsWith(p) && words(g.slice(0, g.length - p.length)).every(isInitials);
});

/**
 * The last candidate's words as written and lower case (tailName is asked once per gold of a row); where each is,
 * only for a candidate with a gold's last word.
 */
const candidateSide = lastMemo((candidate: string) => {
  const text = foldAccents(candidate);
  const written = text.match(WORD) ?? [];
  const low = written.map((w) => w.toLowerCase());
  let placed: { text: string; at: number; end: number }[] | null = null;
  // A word's first occurrence after the one before is where WORD found it: nothing between two words is a letter.
  const c = () => {
    if (placed) return placed;
    let from = 0;
    placed = written.map((w) => {
      const at = text.indexOf(w, from);
      from = at + w.length;
      return { text: w, at, end: from };
    });
    return placed;
  };
  return { text, c, low };
});

/** A question's words, lower case (cached: the rows of a question share it). */
const askedWords = textMemo((question: string): ReadonlySet<string> => new Set(words(question).map((w) => w.toLowerCase())));

/** A gold's words, lower case, titles left out (cached: golds recur across rows). Callers must not mutate it. */
const goldWords = textMemo((gold: string): readonly string[] =>
  words(gold)
    .map((w) => w.toLowerCase())
    .filter((w) => !TITLES.has(w)),
);

/** The most words a person's name is taken to have ("Juan Carlos Alfonso Víctor María de Borbón y Borbón-Dos Sicilias" has 10). */
const MAX_NAME_WORDS = 12;

/** Whether `words` has `run` at `i` (all but its last word compared: the caller found that one there). */
function startsAt(words: readonly string[], i: number, run: readonly string[]): boolean {
  for (let j = 0; j + 1 < run.length; j++) if (words[i + j] !== run[j]) return false;
  return true;
}

/** What the candidate says besides the name: its words that are neither function words nor the question's. */
export interface TailName {
  extra: string[];
}

/**
 * The candidate names the gold person by a proper tail of the name (the surname, with particles), after
 * initials that fit the first names or nothing name-like; null when it does not, or when the gold is no person.
 */
export function tailName(question: string, gold: string, candidate: string): TailName | null {
  const g = goldWords(gold);
  // A person's name is a few words; a longer gold is no name, and the search below grows with gold × candidate.
  if (g.length < 2 || g.length > MAX_NAME_WORDS) return null;
  // Every tail ends with the gold's last word, so a tail can only end where the candidate has it (most golds of a
  // row: nowhere); a last word under three letters names no one.
  const last = g[g.length - 1]!;
  if (last.length < 3) return null;
  const side = candidateSide(candidate);
  const { text, low } = side;
  const ends: number[] = [];
  for (let p = 0; p < low.length; p++) if (low[p] === last) ends.push(p);
  if (ends.length === 0) return null;
  const c = side.c();
  const asked = askedWords(question);
  // The longest tail first: "da Vinci" before "Vinci"; the first place in the candidate first.
  for (let k = g.length - 1; k >= 1; k--) {
    const tail = g.slice(g.length - k);
    // A tail the question says too ("Kevin Scale" for "William Scale") names nothing.
    if (tail.every((t) => asked.has(t))) continue;
    for (const end of ends) {
      const i = end - k + 1;
      if (i < 0 || !startsAt(low, i, tail)) continue;
      // Initials before the tail must fit the first names; another name-like word there is another person.
      let s = i;
      while (s > 0 && isInitials(c[s - 1]!.text)) s--;
      const initials = low.slice(s, i).join('');
      if (initials && initials[0] !== g[0]![0]) continue;
      // A capitalised word right before, with no punctuation between, is another given name ("Martha Washington").
      const before = s > 0 ? c[s - 1]!.text : '';
      const joined = s > 0 && /^\s+$/.test(text.slice(c[s - 1]!.end, c[s]!.at));
      const plain = before.toLowerCase();
      if (joined && /^\p{Lu}/u.test(before) && !FUNCTION_WORDS.has(plain) && !TITLES.has(plain) && !asked.has(plain)) continue;
      if (!isPerson(gold)) return null;
      const name = new Set(low.slice(s, i + k));
      return { extra: low.filter((w, j) => (j < s || j >= i + k) && !name.has(w) && !FUNCTION_WORDS.has(w) && !asked.has(w)) };
    }
  }
  return null;
}
