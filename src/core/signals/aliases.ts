/**
 * @file Other names of a gold that golds seldom list: the gold without a qualifier in parentheses ("Paris" for
 * "Paris (France)"), without its geographic head word ("Pacific" for "Pacific Ocean", "Everest" for "Mount
 * Everest"), "Mt" for "Mount", the usual names of a few countries and the world wars (USA = United States,
 * WWII = Second World War), a decade or century said another way ("60s", "sixties" for "1960s"; "1300s" for
 * "14th century"), and acronyms either way ("USA" for "United States of America", "Fédération Internationale
 * de Football Association" for "FIFA").
 *
 * goldForms('Pacific Ocean')                                          // → ['Pacific']
 * goldForms('Mount Everest')                                          // → ['Mt Everest', 'Everest']
 * acronymIn('FIFA', 'It is the Fédération Internationale de Football Association.')
 *   // → 'Fédération Internationale de Football Association'
 */
import { withoutParentheses } from '../text/parens.ts';
import { lastMemo, textMemo } from '../util/memo.ts';

/** Usual names of one thing (countries, the world wars); a gold that is one of them has the others as forms. */
const SAME_THING: readonly (readonly string[])[] = [
  // Not "America": "South America" would hold it. "US" and "U.S." are matched as written (formStep).
  ['United States', 'United States of America', 'USA', 'U.S.A.', 'U.S.', 'US'],
  ['United Kingdom', 'UK', 'U.K.', 'Great Britain', 'Britain'],
  ['Soviet Union', 'USSR', 'U.S.S.R.'],
  ['United Arab Emirates', 'UAE'],
  ['World War II', 'World War 2', 'Second World War', 'WWII', 'WW2'],
  ['World War I', 'World War 1', 'First World War', 'WWI', 'WW1', 'Great War'],
];
const SAME_AS = new Map(SAME_THING.flatMap((names) => names.map((n) => [n.toLowerCase(), names] as const)));

const DECADE_WORDS = ['', '', 'twenties', 'thirties', 'forties', 'fifties', 'sixties', 'seventies', 'eighties', 'nineties'];
const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;

/** A decade or century said another way: "1960s" as "60s" and "sixties", "14th century" as "1300s" and back. */
function periodForms(g: string): string[] {
  const decade = /^(\d{2})([1-9])0(?:'|’)?s$/.exec(g);
  if (decade) return [`${decade[2]}0s`, DECADE_WORDS[Number(decade[2])]!].filter(Boolean);
  const century = /^(\d{1,2})(?:st|nd|rd|th) century$/i.exec(g);
  // Not "1000s" or "2000s": those read as a thousand or a decade.
  if (century && Number(century[1]) >= 2 && (Number(century[1]) - 1) % 10 !== 0) return [`${Number(century[1]) - 1}00s`];
  // "2000s" is a decade (the 2000s), not the 21st century.
  const hundreds = /^(1?[1-9])00(?:'|’)?s$/.exec(g);
  if (hundreds) return [`${ordinal(Number(hundreds[1]) + 1)} century`];
  return [];
}

/** Head words a place's name is often given without. */
const HEAD_AFTER = new Set([
  'ocean',
  'sea',
  'river',
  'lake',
  'mountains',
  'island',
  'islands',
  'desert',
  'falls',
  'canal',
  'bay',
  'gulf',
  'strait',
  'peninsula',
]);
const HEAD_BEFORE = new Set(['mount', 'lake', 'river', 'cape', 'isle']);
/** Words that name nothing once the head is gone ("Red" of "Red Sea", "North" of "North Sea"). */
const NOT_ALONE = new Set([
  'red',
  'black',
  'white',
  'dead',
  'yellow',
  'north',
  'south',
  'east',
  'west',
  'great',
  'little',
  'big',
  'new',
  'old',
]);

/** Forms of a gold besides itself (cached: golds recur across rows). */
export const goldForms = textMemo((gold: string): string[] => {
  const g = gold.trim();
  const out: string[] = [];
  const bare = withoutParentheses(g).trim();
  if (bare && bare !== g) out.push(bare);
  const base = bare || g;
  const words = base.split(/\s+/);
  if (words.length === 2 || words.length === 3) {
    const last = words.at(-1)!.toLowerCase();
    const first = words[0]!.toLowerCase();
    // The longer form first: "Mt. Everest" is all of "Mt Everest", not "Everest" plus a word.
    if (first === 'mount') out.push(['Mt', ...words.slice(1)].join(' '));
    const rest = HEAD_AFTER.has(last) ? words.slice(0, -1) : HEAD_BEFORE.has(first) ? words.slice(1) : null;
    if (rest && !NOT_ALONE.has(rest[0]!.toLowerCase()) && rest.join('').length >= 4) out.push(rest.join(' '));
  }
  const key = base.replace(/^the\s+/i, '');
  for (const name of SAME_AS.get(key.toLowerCase()) ?? []) if (name.toLowerCase() !== key.toLowerCase()) out.push(name);
  out.push(...periodForms(key));
  // "Harry Connick Jnr" is "Harry Connick Jr." and "Harry Connick Junior".
  const suffix = /^(.+?),?\s+(jr|jnr|junior|sr|snr|senior)\.?$/i.exec(base);
  if (suffix) {
    const junior = /^j/i.test(suffix[2]!);
    for (const s of junior ? ['Jr.', 'Jr', 'Jnr', 'Junior'] : ['Sr.', 'Sr', 'Snr', 'Senior'])
      if (s.toLowerCase() !== suffix[2]!.toLowerCase()) out.push(`${suffix[1]} ${s}`);
  }
  return out;
});

/** Words that may sit inside a name without giving it a letter ("United States of America" → USA). */
const LINKS = new Set(['of', 'and', 'the', 'de', 'du', 'des', 'la', 'le', 'for', 'in', 'on', '&']);
const ACRONYM = /^(?:\p{Lu}{2,6}|(?:\p{Lu}\.){2,6})$/u;
const letters = (s: string) => s.replace(/\./g, '');

/** What separates the words an acronym is looked for among. */
const SEPARATORS = /[\s,;:!?"“”()]+/;

/** Runs of capitalised words (links allowed inside), with their initials. */
function capitalRuns(text: string): { text: string; initials: string }[] {
  const out: { text: string; initials: string }[] = [];
  const words = text.split(SEPARATORS).filter(Boolean);
  let run: string[] = [];
  const flush = () => {
    while (run.length && LINKS.has(run.at(-1)!.toLowerCase())) run.pop();
    const caps = run.filter((w) => !LINKS.has(w.toLowerCase()));
    if (caps.length >= 2) out.push({ text: run.join(' '), initials: caps.map((w) => w[0]!.toUpperCase()).join('') });
    run = [];
  };
  for (const w of words) {
    if (/^\p{Lu}[\p{L}'’.-]*$/u.test(w) && !ACRONYM.test(w)) run.push(w.replace(/\.$/, ''));
    else if (run.length && LINKS.has(w.toLowerCase())) run.push(w);
    else flush();
  }
  flush();
  return out;
}

/** What a gold asks of the candidate: a name with these initials (the gold is an acronym), or this acronym. */
const goldAcronym = textMemo((gold: string): { spelled: string } | { acronym: string } | null => {
  const g = gold.trim();
  if (ACRONYM.test(g)) return letters(g).length >= 3 ? { spelled: letters(g) } : null;
  const runs = capitalRuns(g);
  const whole = g.replace(/[,;:!?"“”()]/g, '').replace(/\s+/g, ' ');
  return runs.length === 1 && runs[0]!.text === whole && runs[0]!.initials.length >= 3 ? { acronym: runs[0]!.initials } : null;
});

/** The last candidate's capital runs and acronyms (by their letters), asked once per gold of a row. */
const candidateSide = lastMemo((candidate: string) => {
  const acronyms = new Map<string, string>();
  for (const w of candidate.split(SEPARATORS)) {
    // "USA." at a sentence's end; "U.S.A." keeps its last dot.
    const t = w.replace(/\.$/, '');
    const form = ACRONYM.test(t) ? t : ACRONYM.test(`${t}.`) ? `${t}.` : null;
    if (form && !acronyms.has(letters(t))) acronyms.set(letters(t), form);
  }
  return { runs: capitalRuns(candidate), acronyms };
});

/**
 * Where the candidate gives the gold as an acronym or spelled out: the candidate's text that does (a name whose
 * initials are the gold, or the gold's initials in capitals), or null. Three letters at least, capitals as
 * written: "LA" is not "Los Angeles", "la" not "L.A.".
 */
export function acronymIn(gold: string, candidate: string): string | null {
  const want = goldAcronym(gold);
  if (!want) return null;
  const side = candidateSide(candidate);
  if ('spelled' in want) return side.runs.find((r) => r.initials === want.spelled)?.text ?? null;
  return side.acronyms.get(want.acronym) ?? null;
}
