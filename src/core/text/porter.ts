/**
 * Porter stemmer, ported rule for rule from nltk 3.8 `nltk/stem/porter.py` in its default
 * NLTK_EXTENSIONS mode (the npm `stemmer` package implements Martin Porter's variant and
 * disagrees with nltk on ~1.5% of English words). Works on code points, not UTF-16 units, so
 * lengths and indices match Python's `str` for any input.
 */

/** nltk's table of irregular forms (checked before any rule). A Map, so 'constructor' is no key. */
const POOL = new Map<string, string>([
  ['sky', 'sky'],
  ['skies', 'sky'],
  ['dying', 'die'],
  ['lying', 'lie'],
  ['tying', 'tie'],
  ['news', 'news'],
  ['innings', 'inning'],
  ['inning', 'inning'],
  ['outings', 'outing'],
  ['outing', 'outing'],
  ['cannings', 'canning'],
  ['canning', 'canning'],
  ['howe', 'howe'],
  ['proceed', 'proceed'],
  ['exceed', 'exceed'],
  ['succeed', 'succeed'],
]);

type W = string[]; // one entry per code point
type Rule = [suffix: string, replacement: string, cond: ((stem: W) => boolean) | null];

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);

function isCons(w: W, i: number): boolean {
  // nltk recurses through runs of 'y' (y after a consonant is a vowel); a loop gives the same answer.
  let k = i;
  while (k >= 0 && w[k] === 'y') k--;
  const base = k < 0 ? 0 : k; // first letter of the run: a leading 'y' is a consonant
  const cons = k < 0 || !VOWELS.has(w[k]!);
  return (i - base) % 2 === 0 ? cons : !cons;
}

function measure(w: W): number {
  let m = 0;
  for (let i = 1; i < w.length; i++) if (!isCons(w, i - 1) && isCons(w, i)) m++;
  return m;
}
const posMeasure = (w: W) => measure(w) > 0;
const measureGt1 = (w: W) => measure(w) > 1;

function hasVowel(w: W): boolean {
  for (let i = 0; i < w.length; i++) if (!isCons(w, i)) return true;
  return false;
}

function endsDouble(w: W): boolean {
  const n = w.length;
  return n >= 2 && w[n - 1] === w[n - 2] && isCons(w, n - 1);
}

function endsCvc(w: W): boolean {
  const n = w.length;
  return (
    (n >= 3 && isCons(w, n - 3) && !isCons(w, n - 2) && isCons(w, n - 1) && !'wxy'.includes(w[n - 1]!)) ||
    (n === 2 && !isCons(w, 0) && isCons(w, 1))
  );
}

function endsWith(w: W, suffix: string): boolean {
  const n = w.length;
  const s = suffix.length; // suffixes are ASCII
  if (s > n) return false;
  for (let i = 0; i < s; i++) if (w[n - s + i] !== suffix[i]) return false;
  return true;
}

const cut = (w: W, n: number): W => w.slice(0, w.length - n);
const plus = (w: W, s: string): W => (s ? w.concat([...s]) : w);

/** nltk's _apply_rule_list: the first rule whose suffix matches decides, even if its condition fails. */
function applyRules(word: W, rules: Rule[]): W {
  for (const [suffix, rep, cond] of rules) {
    if (suffix === '*d' && endsDouble(word)) {
      const stem = cut(word, 2);
      return !cond || cond(stem) ? plus(stem, rep) : word;
    }
    // Like nltk, '*d' also falls through to a literal suffix test when there is no double consonant.
    if (endsWith(word, suffix)) {
      const stem = cut(word, suffix.length);
      return !cond || cond(stem) ? plus(stem, rep) : word;
    }
  }
  return word;
}

function step1a(w: W): W {
  if (endsWith(w, 'ies') && w.length === 4) return plus(cut(w, 3), 'ie');
  return applyRules(w, [
    ['sses', 'ss', null],
    ['ies', 'i', null],
    ['ss', 'ss', null],
    ['s', '', null],
  ]);
}

function step1b(w: W): W {
  if (endsWith(w, 'ied')) return plus(cut(w, 3), w.length === 4 ? 'ie' : 'i');
  if (endsWith(w, 'eed')) {
    const stem = cut(w, 3);
    return measure(stem) > 0 ? plus(stem, 'ee') : w;
  }
  let inter: W | null = null;
  for (const suffix of ['ed', 'ing']) {
    if (endsWith(w, suffix)) {
      const s = cut(w, suffix.length);
      if (hasVowel(s)) {
        inter = s;
        break;
      }
    }
  }
  if (!inter) return w;
  const last = inter[inter.length - 1]!;
  return applyRules(inter, [
    ['at', 'ate', null],
    ['bl', 'ble', null],
    ['iz', 'ize', null],
    ['*d', last, () => last !== 'l' && last !== 's' && last !== 'z'],
    ['', 'e', (stem) => measure(stem) === 1 && endsCvc(stem)],
  ]);
}

function step1c(w: W): W {
  return applyRules(w, [['y', 'i', (stem) => stem.length > 1 && isCons(stem, stem.length - 1)]]);
}

const STEP2: Rule[] = (
  [
    ['ational', 'ate'],
    ['tional', 'tion'],
    ['enci', 'ence'],
    ['anci', 'ance'],
    ['izer', 'ize'],
    ['bli', 'ble'],
    ['alli', 'al'],
    ['entli', 'ent'],
    ['eli', 'e'],
    ['ousli', 'ous'],
    ['ization', 'ize'],
    ['ation', 'ate'],
    ['ator', 'ate'],
    ['alism', 'al'],
    ['iveness', 'ive'],
    ['fulness', 'ful'],
    ['ousness', 'ous'],
    ['aliti', 'al'],
    ['iviti', 'ive'],
    ['biliti', 'ble'],
    ['fulli', 'ful'],
  ] as const
).map(([s, r]): Rule => [s, r, posMeasure]);

function step2(w: W): W {
  // NLTK applies ALLI -> AL first and re-runs step 2 on the result.
  if (endsWith(w, 'alli') && posMeasure(cut(w, 4))) return step2(plus(cut(w, 4), 'al'));
  // 'logi' -> 'log' keeps the 'l' with the stem for the measure test.
  return applyRules(w, [...STEP2, ['logi', 'log', () => posMeasure(cut(w, 3))]]);
}

const STEP3: Rule[] = (
  [
    ['icate', 'ic'],
    ['ative', ''],
    ['alize', 'al'],
    ['iciti', 'ic'],
    ['ical', 'ic'],
    ['ful', ''],
    ['ness', ''],
  ] as const
).map(([s, r]): Rule => [s, r, posMeasure]);

const STEP4: Rule[] = [
  ...['al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent'].map((s): Rule => [s, '', measureGt1]),
  ['ion', '', (stem) => measure(stem) > 1 && (stem[stem.length - 1] === 's' || stem[stem.length - 1] === 't')],
  ...['ou', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize'].map((s): Rule => [s, '', measureGt1]),
];

function step5a(w: W): W {
  // Both E rules are tried (unlike _apply_rule_list).
  if (endsWith(w, 'e')) {
    const stem = cut(w, 1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) return stem;
  }
  return w;
}

function step5b(w: W): W {
  return applyRules(w, [['ll', 'l', () => measure(cut(w, 1)) > 1]]);
}

/** nltk 3.8 `PorterStemmer().stem(word)` (NLTK_EXTENSIONS, to_lowercase=True). */
export function porterStem(word: string): string {
  const lower = word.toLowerCase();
  if (POOL.has(word)) return POOL.get(lower) ?? lower; // nltk tests the raw word, looks up the lowered one
  if ([...word].length <= 2) return lower;
  let w: W = [...lower];
  w = step1a(w);
  w = step1b(w);
  w = step1c(w);
  w = step2(w);
  w = applyRules(w, STEP3);
  w = applyRules(w, STEP4);
  w = step5a(w);
  w = step5b(w);
  return w.join('');
}
