/**
 * Number-aware canonical forms for lexical matching: `977,633` → `977633`, `27%` → `27 percent`,
 * `twelve` → `12`, `twenty-first` / `first` → `21st` / `1st`. Works on lowercased text.
 */

const UNITS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const TENS: Record<string, number> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const SCALES: Record<string, number> = { hundred: 100, thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 };
const ORDINAL_UNITS: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
  thirteenth: 13,
  fourteenth: 14,
  fifteenth: 15,
  sixteenth: 16,
  seventeenth: 17,
  eighteenth: 18,
  nineteenth: 19,
  twentieth: 20,
  thirtieth: 30,
  fortieth: 40,
  fiftieth: 50,
  sixtieth: 60,
  seventieth: 70,
  eightieth: 80,
  ninetieth: 90,
};
const ORDINAL_SCALES: Record<string, number> = { hundredth: 100, thousandth: 1e3, millionth: 1e6, billionth: 1e9 };

const has = (o: object, k: string): boolean => Object.hasOwn(o, k);
const isNumberWord = (t: string): boolean => has(UNITS, t) || has(TENS, t) || has(SCALES, t);
/** Whether number word `w` may continue a run ending in `prev` ("twenty" + "one", not "one" + "two"). */
function canFollow(prev: string | undefined, w: string, next: string | undefined): boolean {
  if (prev === undefined) return isNumberWord(w);
  const prevScale = has(SCALES, prev);
  if (w === 'and') return prevScale && next !== undefined && (has(UNITS, next) || has(TENS, next));
  if (has(SCALES, w)) return prev !== 'and' && !(prevScale && SCALES[prev]! >= SCALES[w]!);
  if (has(TENS, w)) return prevScale || prev === 'and';
  if (has(UNITS, w)) return UNITS[w]! > 0 && UNITS[w]! < 10 ? has(TENS, prev) || prevScale || prev === 'and' : prevScale || prev === 'and';
  return false;
}
const isOrdinalWord = (t: string): boolean => has(ORDINAL_UNITS, t) || has(ORDINAL_SCALES, t);
/** Every word that can start or continue a number: a cheap first test for the common non-number token. */
const NUMERIC_WORDS = new Set([
  ...Object.keys(UNITS),
  ...Object.keys(TENS),
  ...Object.keys(SCALES),
  ...Object.keys(ORDINAL_UNITS),
  ...Object.keys(ORDINAL_SCALES),
]);
const startsWithDigit = (t: string): boolean => t.charCodeAt(0) >= 48 && t.charCodeAt(0) <= 57;

/** An integer in plain digits: String() switches to exponent form ("1e+21") from 10^21 on. */
function plainDigits(n: number): string {
  const m = /^(\d)(?:\.(\d+))?e\+(\d+)$/.exec(String(n));
  return m ? m[1]! + (m[2] ?? '').padEnd(Number(m[3]), '0') : String(n);
}

/**
 * Digits `t` (with an optional decimal part) times 10^zeros in plain digits, or null when that is not a
 * whole number. Exact where Number(t) · 10^zeros is not (1.1 trillion, more than 15 digits, 10^21 and up).
 */
function shiftDecimal(t: string, zeros: number): string | null {
  const [int, frac = ''] = t.split('.') as [string, string?];
  const f = frac.replace(/0+$/, '');
  if (f.length > zeros) return null;
  return (int + f + '0'.repeat(zeros - f.length)).replace(/^0+(?=\d)/, '');
}

/** How many zeros a scale word adds (thousand → 3). */
const scaleZeros = (w: string): number => String(SCALES[w]).length - 1;

export function ordinalSuffix(n: number): string {
  const mod100 = n % 100;
  if (mod100 >= 11 && mod100 <= 13) return `${plainDigits(n)}th`;
  return `${plainDigits(n)}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

/** Value of a run of cardinal number words ("one hundred and five" → 105), or null. */
function wordsValue(words: string[]): number | null {
  let total = 0;
  let current = 0;
  let seen = false;
  for (const w of words) {
    if (w === 'and') continue;
    if (has(UNITS, w)) current += UNITS[w]!;
    else if (has(TENS, w)) current += TENS[w]!;
    else if (w === 'hundred') current = (current || 1) * 100;
    else if (has(SCALES, w)) {
      total += (current || 1) * SCALES[w]!;
      current = 0;
    } else return null;
    seen = true;
  }
  return seen ? total + current : null;
}

/**
 * Rewrites number words and ordinals in a token list into digits. Tokens must already be lowercase and
 * free of punctuation (decimal points between digits may remain).
 */
export function canonicalNumberTokens(tokens: string[]): string[] {
  // Most answers have no number at all: hand the list back untouched.
  let any = false;
  for (const t of tokens)
    if (startsWithDigit(t) || NUMERIC_WORDS.has(t)) {
      any = true;
      break;
    }
  if (!any) return tokens;
  const out: string[] = [];
  let i = 0;
  while (i < tokens.length) {
    const t = tokens[i]!;
    if ((startsWithDigit(t) && /^\d+(\.\d+)?$/.test(t)) || (NUMERIC_WORDS.has(t) && (isNumberWord(t) || isOrdinalWord(t)))) {
      // Greedy run: [digits|number words] (and number words)* [scale word]* [ordinal word]
      const run: string[] = [];
      let j = i;
      const digitLead = /^\d+(\.\d+)?$/.test(t) ? t : null;
      let zeros = 0;
      if (digitLead !== null) j++;
      while (j < tokens.length) {
        const w = tokens[j]!;
        const next = tokens[j + 1];
        if (digitLead !== null) {
          // "3 million" → 3000000; digits followed by other number words stay separate.
          if (has(SCALES, w) && w !== 'hundred' && shiftDecimal(digitLead, zeros + scaleZeros(w)) !== null) {
            zeros += scaleZeros(w);
            run.push(w);
            j++;
            continue;
          }
          break;
        }
        if (canFollow(run[run.length - 1], w, next)) {
          run.push(w);
          j++;
        } else break;
      }
      // Trailing ordinal word: "twenty first", "one hundredth".
      let ordinal: number | null = null;
      if (digitLead === null && j < tokens.length && isOrdinalWord(tokens[j]!)) {
        const w = tokens[j]!;
        const base = run.length > 0 ? wordsValue(run) : 0;
        if (base !== null) {
          if (has(ORDINAL_UNITS, w)) ordinal = base + ORDINAL_UNITS[w]!;
          else ordinal = (base || 1) * ORDINAL_SCALES[w]!;
          j++;
        }
      }
      if (ordinal !== null) out.push(ordinalSuffix(ordinal));
      else if (digitLead !== null) out.push(run.length ? shiftDecimal(digitLead, zeros)! : t);
      else {
        const v = wordsValue(run);
        out.push(...(v === null ? run : [plainDigits(v)]));
      }
      i = Math.max(j, i + 1);
      continue;
    }
    out.push(t);
    i++;
  }
  return out;
}
