/**
 * @file Numbers and units: the same quantity in other units is the same answer (212 °F = 100 °C, 1 km =
 * 1000 m, 0.5 = 50% = one half, 1/4 = a quarter), a different value of the same quantity is a conflict, and
 * a number without the gold's unit is incomplete. Units are parsed and converted by js-quantities (a
 * maintained, dependency-free units library with temperature scales, rates and a large alias table) rather
 * than a hand table; only temperature words and signs are mapped to its scale names first.
 *
 * compareQuantities('100 °C', 'It boils at 212 degrees Fahrenheit.') // → { relation: 'same', … }
 * compareQuantities('8', 'Spiders have six legs.')                   // → { relation: 'conflict', … }
 */
import Qty from 'js-quantities';
import { canonicalNumberTokens } from '../text/numbers.ts';
import { boundedMemo, textMemo } from '../util/memo.ts';
import { asciiTwin } from '../text/ascii-twin.ts';

export interface Quantity {
  /** The text it was read from ("212 degrees Fahrenheit"). */
  text: string;
  value: number;
  /** js-quantities unit ("tempC", "km"), or '' for a plain number. */
  unit: string;
  /** js-quantities kind ("length", "temperature"), or 'number'. */
  kind: string;
  /** Said as an approximation ("about 300,000 km/s"). */
  approx?: boolean;
}

const NUMBER_WORD =
  'zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|trillion';
const WORD_RUN = new RegExp(`\\b(?:${NUMBER_WORD})(?:(?:\\s+|-)(?:and\\s+)?(?:${NUMBER_WORD}))*\\b`, 'giu');
const FRACTION_WORDS: [RegExp, string][] = [
  [/\b(?:three[\s-]quarters|three[\s-]fourths)\b/giu, '0.75'],
  [/\b(?:one|a)[\s-]half\b|\bhalf\b(?!\s+(?:of\s+)?(?:an?\s+)?(?:hour|century|mile|dozen))/giu, '0.5'],
  [/\b(?:one|a)[\s-](?:quarter|fourth)\b/giu, '0.25'],
  [/\b(?:one|a)[\s-]third\b/giu, '0.333333'],
  [/\btwo[\s-]thirds\b/giu, '0.666667'],
];
/** Spoken and signed temperatures to js-quantities scale units; other spellings go to js-quantities as written. */
const UNIT_ALIASES: [RegExp, string][] = [
  [/^(?:°\s*c|º\s*c|degrees?\s+(?:celsius|centigrade|c)|celsius|centigrade|c)$/iu, 'tempC'],
  [/^(?:°\s*f|º\s*f|degrees?\s+(?:fahrenheit|f)|fahrenheit|f)$/iu, 'tempF'],
  [/^(?:k|kelvins?|degrees?\s+kelvin)$/iu, 'tempK'],
  [/^(?:%|percent|per\s+cent)$/iu, '%'],
  [/^light[\s-]years?$/iu, 'ly'],
  [/^(?:metric\s+)?tonnes?$/iu, 'tonne'],
  [/^mph$/iu, 'mph'],
  [/^(?:km\/h|kph|kmh|kilometres per hour|kilometers per hour)$/iu, 'km/h'],
  [/^(?:miles per hour)$/iu, 'mph'],
];
/** A number (with thousands commas, a decimal part or a fraction), then up to three unit-ish words. */
const QUANTITY =
  /(?<![\w.])(-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?(?:\s*\/\s*\d+)?)(?:\s*(million|billion|trillion|thousand))?(\s*(?:°\s*[cfk]\b|º\s*[cfk]\b|%|[a-zµ²³/-]+(?:\s+[a-z²³/-]+){0,2}))?/giu;
const TEENS = ['ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS_WORDS = 'twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety';
const YEAR_WORDS = new RegExp(
  `\\b(${TEENS.join('|')})[\\s-]+((?:${TENS_WORDS})(?:[\\s-]+(?:one|two|three|four|five|six|seven|eight|nine))?)\\b`,
  'giu',
);
const ORDINAL_UNITS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth'];
const TENS_ORDINAL = new RegExp(`\\b(${TENS_WORDS})[\\s-]+(${ORDINAL_UNITS.join('|')})\\b`, 'giu');
const wordsNumber = (w: string): number => Number(canonicalNumberTokens(w.split(/[\s-]+/))[0]);
/** Hedges that make a value approximate (compared within 2% instead of 0.1%). */
const APPROX = /\b(?:about|approximately|approx|roughly|around|nearly|almost|some|circa|over|just over|just under)\s*$|~\s*$/iu;
const SCALE: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 };
const MONEY_SCALE: Record<string, string> = { k: 'thousand', m: 'million', mn: 'million', bn: 'billion', b: 'billion' };

type Unit = { unit: string; kind: string; text: string } | null;
const unitCache = boundedMemo(findUnit);
/** The unit at the start of `words` (cached: js-quantities reports an unknown unit by throwing, which is slow). */
function unitOf(words: string): Unit {
  return unitCache(words.trim().toLowerCase());
}

function findUnit(w: string): Unit {
  if (!w) return null;
  const parts = w.split(/\s+/);
  // Longest prefix that names a unit.
  for (let n = parts.length; n >= 1; n--) {
    const text = parts.slice(0, n).join(' ');
    const alias = UNIT_ALIASES.find(([re]) => re.test(text))?.[1];
    const unit =
      alias ??
      text
        .replace(/\s+per\s+/, '/')
        .replace(/^kilometres\//, 'km/')
        .replace(/^metres\//, 'm/');
    if (!alias && (unit.length < 1 || /^(?:a|an|the|and|or|of|in|on|at|to|is|it|by|as)$/.test(unit))) continue;
    const kind = unitKind(unit);
    if (kind !== null) return { unit, kind, text };
  }
  return null;
}

/** js-quantities' kind of a unit, or null when it does not know the unit (cached: it says so by throwing, which is slow). */
const unitKind = boundedMemo((unit: string): string | null => {
  // No stack trace for the error that says "not a unit": capturing one costs more than the parse.
  const limit = Error.stackTraceLimit;
  if (typeof limit === 'number') Error.stackTraceLimit = 0;
  try {
    return Qty(1, unit).kind();
  } catch {
    return null;
  } finally {
    if (typeof limit === 'number') Error.stackTraceLimit = limit;
  }
});

/** Cheap test: a digit, or a word that can be a number ("eight", "half", "quarter"). */
const MAYBE_NUMBER = new RegExp(`\\d|\\b(?:${NUMBER_WORD}|half|quarter|third|thirds|fourths?)\\b`, 'iu');
/** The patterns a text's quantities test it with every time, each in its faster form where that reads the same (ascii-twin.ts). */
const maybeNumber = asciiTwin(MAYBE_NUMBER);
const wordRun = asciiTwin(WORD_RUN);

const ORDINAL_WORDS = [
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
  'sixth',
  'seventh',
  'eighth',
  'ninth',
  'tenth',
  'eleventh',
  'twelfth',
  'thirteenth',
  'fourteenth',
  'fifteenth',
  'sixteenth',
  'seventeenth',
  'eighteenth',
  'nineteenth',
  'twentieth',
];
/** 1–89 in Roman numerals. */
const ROMAN = '(?=[IVXL])(?:XL|L?X{0,3})(?:IX|IV|V?I{0,3})';
/**
 * A name and its number: "Henry VIII", "Henry the Eighth", "Henry the 8th". Not "Apollo 11": a name before
 * digits is also a date ("December 25") or a count ("About 40"), and the digits are compared as a number anyway.
 * "I" is no numeral before a verb ("Then I think").
 */
const REGNAL = new RegExp(
  `(?<![\\p{L}\\d])(\\p{Lu}[\\p{Ll}'’-]+)\\s+(?:(${ROMAN})(?![\\p{L}\\d'’])(?!(?<=\\bI)\\s+(?:am|was|think|believe|have|had|know|guess|would|will|can|could|do|did|mean|say|said|recall|remember|suppose|see|feel|found|hope|need|want)\\b)|the\\s+(${ORDINAL_WORDS.map((w) => `[${w[0]!.toUpperCase()}${w[0]}]${w.slice(1)}`).join('|')})\\b|the\\s+(\\d{1,2})(?:st|nd|rd|th)\\b)`,
  'gu',
);
/**
 * Whether a text may hold a name and its number, as a quick test before REGNAL: a capitalised word, then a run of
 * numeral letters ending the word, or "the" before an ordinal's first letter or a digit ("Paris In" and "In the
 * United States" fail it, as REGNAL would). The part after the name is looked for first (it starts at a space), and
 * the name is asked for behind each place found.
 */
function maybeRegnal(text: string): boolean {
  NUMERAL.lastIndex = 0;
  for (let m = NUMERAL.exec(text); m; m = NUMERAL.exec(text)) {
    NAME_BEFORE.lastIndex = m.index;
    if (NAME_BEFORE.test(text)) return true;
    NUMERAL.lastIndex = m.index + 1;
  }
  return false;
}
const NUMERAL = /\s(?:[IVXL]+(?![\p{L}\d'’])|the\s+[\dEFNSTefnst])/gu;
const NAME_BEFORE = /(?<=\p{Lu}[\p{Ll}'’-]+\s*)/uy;
/** The patterns above, for their property test. */
export const REGNAL_TESTS = { REGNAL, maybeRegnal } as const;
const ROMAN_VALUE: Record<string, number> = { I: 1, V: 5, X: 10, L: 50 };
function romanValue(r: string): number {
  let v = 0;
  for (let i = 0; i < r.length; i++) {
    const a = ROMAN_VALUE[r[i]!]!;
    const b = ROMAN_VALUE[r[i + 1] ?? ''] ?? 0;
    v += a < b ? -a : a;
  }
  return v;
}

/**
 * Names with a number ("Elizabeth II", "Louis the Fourteenth", "George the 3rd"): the number, as a quantity of its
 * own kind per name, so that "Elizabeth I" conflicts with "Elizabeth II" and equals "Elizabeth the First".
 */
function regnalNumbers(text: string): Quantity[] {
  if (!maybeRegnal(text)) return [];
  const out: Quantity[] = [];
  for (const m of text.matchAll(REGNAL)) {
    const value = m[2] ? romanValue(m[2]) : m[3] ? ORDINAL_WORDS.indexOf(m[3].toLowerCase()) + 1 : Number(m[4]);
    if (value > 0) out.push({ text: m[0], value, unit: '', kind: `name:${m[1]!.toLowerCase()}` });
  }
  return out;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH_NAME =
  '(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)';
/** The first three letters of every name in MONTH_NAME, lower case as the text dates() reads. */
const MONTH_START = /jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec/;
/** A month by name next to a day or year ("March 3", "3rd of March", "May 1990"; not the verb "may"). */
const MONTH_IN_DATE = new RegExp(`\\b${MONTH_NAME}\\.?(?=\\s+\\d)|(?<=\\d(?:st|nd|rd|th)?\\s+(?:of\\s+)?)${MONTH_NAME}\\b`, 'gu');
/** Numeric dates with a four-digit year: 3/14/1990, 14.3.1990, 1990-03-14. */
const NUMERIC_DATE = /(?<![\d/.-])(?:(\d{1,2})([/.-])(\d{1,2})\2(\d{4})|(\d{4})-(\d{1,2})-(\d{1,2}))(?![\d/-]|\.\d)/gu;
const monthQuantity = (m: number, text: string): Quantity => ({ text, value: m, unit: '', kind: 'month' });

/**
 * A text's dates: their months as quantities of kind "month" (so "April 3, 1990" conflicts with "March 3, 1990"),
 * and the text with each numeric date written as its day and year ("3/14/1990" → "14 1990", as "March 14, 1990"
 * reads). A numeric date whose order is unclear (both parts 12 or less) gives both parts as months.
 */
function dates(s: string): { s: string; months: Quantity[] } {
  const months: Quantity[] = [];
  // (A month is found next to a digit only, and every month's name starts with one of MONTH_START.)
  if (/\d/.test(s) && MONTH_START.test(s))
    for (const m of s.matchAll(MONTH_IN_DATE)) {
      const name = (m[1] ?? m[2])!;
      months.push(monthQuantity(MONTHS.findIndex((x) => x.startsWith(name)) + 1, name));
    }
  if (!/\d[/.-]\d/.test(s)) return { s, months };
  const out = s.replace(NUMERIC_DATE, (all, a?: string, _sep?: string, b?: string, y1?: string, y2?: string, mo?: string, d?: string) => {
    const [first, second, year] = y2 ? [Number(mo), Number(d), y2] : [Number(a), Number(b), y1!];
    let day: number[];
    if (y2) {
      if (first < 1 || first > 12) return all;
      months.push(monthQuantity(first, all));
      day = [second];
    } else if (first > 12 && second <= 12) {
      months.push(monthQuantity(second, all));
      day = [first];
    } else if (second > 12 && first <= 12) {
      months.push(monthQuantity(first, all));
      day = [second];
    } else if (first <= 12 && second <= 12) {
      months.push(monthQuantity(first, all));
      if (second !== first) months.push(monthQuantity(second, all));
      day = first === second ? [first] : [first, second];
    } else return all;
    if (day.some((x) => x < 1 || x > 31)) return all;
    return ` ${day.join(' ')} ${year} `;
  });
  return { s: out, months };
}

/**
 * Amounts said in two units ("6 ft 2 in", "6'2\"", "8 lb 6 oz", "2 hours and 30 minutes"): written as one amount in
 * the smaller unit, so that "1.88 m" is the same height as "6 ft 2 in". The smaller unit may be left out after feet
 * ("6 foot 2").
 */
const COMPOUNDS: [RegExp, number, string][] = [
  [
    /(?<![\d.])(\d+)\s*(?:ft|feet|foot|'|′|’)\s*(?:,\s*|and\s+)?(\d+(?:\.\d+)?)(?:\s*(?:inches|inch|in\b|"|″|”)|(?!\s*[a-z\d%]))/gu,
    12,
    'inches',
  ],
  [/(?<![\d.])(\d+)\s*(?:lbs?|pounds?)\s*(?:,\s*|and\s+)?(\d+(?:\.\d+)?)\s*(?:oz|ounces?)\b/gu, 16, 'ounces'],
  [/(?<![\d.])(\d+)\s*(?:st|stones?)\s*(?:,\s*|and\s+)?(\d+(?:\.\d+)?)\s*(?:lbs?|pounds?)\b/gu, 14, 'pounds'],
  [/(?<![\d.])(\d+)\s*(?:h|hrs?|hours?)\s*(?:,\s*|and\s+)?(\d+(?:\.\d+)?)\s*(?:m|mins?|minutes?)\b/gu, 60, 'minutes'],
  [/(?<![\d.])(\d+)\s*(?:m|mins?|minutes?)\s*(?:,\s*|and\s+)?(\d+(?:\.\d+)?)\s*(?:s|secs?|seconds?)\b/gu, 60, 'seconds'],
];
/** A number, a unit of the table, then another number: the cheap test before the rewrites. */
const MAYBE_COMPOUND = /\d\s*(?:ft|feet|foot|'|′|’|lbs?|pounds?|st|stones?|h|hrs?|hours?|m|mins?|minutes?)\s*(?:,\s*|and\s+)?\d/u;

/** The text with each compound amount rewritten, and what each rewrite was written as (for the quantity's text). */
function compounds(s: string): { s: string; written: Map<string, string> | null } {
  if (!MAYBE_COMPOUND.test(s)) return { s, written: null };
  const written = new Map<string, string>();
  for (const [re, factor, unit] of COMPOUNDS)
    s = s.replace(re, (all: string, a: string, b: string) => {
      const out = `${Number(a) * factor + Number(b)} ${unit}`;
      written.set(out, all.trim());
      return out;
    });
  return { s, written: written.size ? written : null };
}

/** Every quantity in a text, in order (a date's months, then a name's number, after the others). */
export function quantities(text: string): Quantity[] {
  const regnal = regnalNumbers(text);
  if (!maybeNumber(text).test(text)) return regnal;
  const dated = dates(` ${text.toLowerCase()} `);
  // An ordinal's suffix is no unit ("3rd" is not 3 rods, "1st" not 1 stone).
  let s = /\d(?:st|nd|rd|th)\b/.test(dated.s) ? dated.s.replace(/(\d)(?:st|nd|rd|th)\b/g, '$1') : dated.s;
  // Each rewrite below runs only when a word it needs is there (same result: those words have no letter that
  // case folding could reach from another character, as 's' from 'ſ'). Years said in words: "nineteen eighty-nine" → 1989.
  if (s.includes('ty')) {
    s = s.replace(YEAR_WORDS, (_, hi: string, lo: string) => String(TEENS.indexOf(hi) * 100 + 1000 + wordsNumber(lo)));
    // An ordinal in words is its number, as "21st" is: "twenty-first" is 21, not 20 and a word "first".
    s = s.replace(TENS_ORDINAL, (_, tens: string, unit: string) => String(wordsNumber(tens) + ORDINAL_UNITS.indexOf(unit) + 1));
  }
  if (s.includes('half') || s.includes('quarter') || s.includes('fourth') || s.includes('third'))
    for (const [re, v] of FRACTION_WORDS) s = s.replace(re, v);
  s = s.replace(wordRun(s), (run) => {
    const words = run.split(/[\s-]+/);
    // "3 million" is read by QUANTITY with its scale word; a lone scale word is not a number here.
    if (/^(?:hundred|thousand|million|billion|trillion)$/.test(words[0]!)) return run;
    const out = canonicalNumberTokens(words);
    return out.length === 1 && /^\d+$/.test(out[0]!) ? out[0]! : run;
  });
  // "minus 40", "negative 40", "−40" → -40 (not "5 minus 3": a difference, not a sign).
  if (s.includes('minus') || s.includes('negative') || s.includes('−'))
    s = s.replace(/(?<!\d\s*)(?:\b(?:minus|negative)\s+|−\s?)(?=\d)/gu, '-');
  // "40 degrees below zero" → "-40 degrees".
  // ("zero" is "0" by now.)
  if (s.includes('below 0'))
    s = s.replace(
      /(?<![\d.-])(\d+(?:\.\d+)?)((?:\s*[°º]\s*[cf]?|\s+degrees?(?:\s+(?:celsius|centigrade|fahrenheit|c|f)\b)?)?)\s+below\s+0\b(?!\.\d)/gu,
      '-$1$2',
    );
  // Money in short: "£50m", "$1.2bn", "€186k" (not 50 metres).
  if (/[£$€¥]/.test(s))
    s = s.replace(/([£$€¥])\s?(\d+(?:\.\d+)?)\s?(k|m|mn|bn|b)\b/g, (_, c: string, n: string, x: string) => `${c}${n} ${MONEY_SCALE[x]!}`);
  const compound = compounds(s);
  s = compound.s;
  // "365 and a quarter" → 365.25.
  if (s.includes(' and 0.')) s = s.replace(/\b(\d+) and (0\.25|0\.5)\b/giu, (_, n: string, f: string) => String(Number(n) + Number(f)));
  const out: Quantity[] = [];
  for (const m of s.matchAll(QUANTITY)) {
    const raw = m[1]!.replace(/,/g, '');
    let value: number;
    if (raw.includes('/')) {
      const [a, b] = raw.split('/').map((x) => Number(x.trim())) as [number, number];
      if (!b) continue;
      value = a / b;
    } else value = Number(raw);
    if (m[2]) value *= SCALE[m[2]]!;
    if (!Number.isFinite(value)) continue;
    const u = m[3] ? unitOf(m[3]) : null;
    const approx = APPROX.test(s.slice(Math.max(0, m.index - 20), m.index)) || undefined;
    if (u && u.unit === '%')
      out.push({
        text: `${m[1]}${m[2] ? ` ${m[2]}` : ''} ${u.text}`.trim(),
        value: value / 100,
        unit: '',
        kind: 'number',
        ...(approx ? { approx } : {}),
      });
    else if (u) {
      const text = `${m[1]}${m[2] ? ` ${m[2]}` : ''} ${u.text}`.trim();
      out.push({
        text: compound.written?.get(text) ?? text,
        value,
        unit: u.unit,
        kind: u.kind,
        ...(approx ? { approx } : {}),
      });
    } else out.push({ text: `${m[1]}${m[2] ? ` ${m[2]}` : ''}`, value, unit: '', kind: 'number', ...(approx ? { approx } : {}) });
  }
  return regnal.length || dated.months.length ? [...out, ...dated.months, ...regnal] : out;
}

const close = (a: number, b: number, tol = 1e-3) => Math.abs(a - b) <= tol * Math.max(Math.abs(a), Math.abs(b), 1e-9) + 1e-9;

const isYear = (v: number) => Number.isInteger(v) && v >= 1000 && v <= 2100;

/**
 * Two plain numbers. Whole numbers under 10,000 (counts, years) are equal only when equal: the relative
 * tolerance, meant for rounding, made 1889 the same as 1890. Said approximately ("about 40"), they may differ
 * by 2%, but a year stays exact ("around 1890" is not 1889).
 */
function sameNumber(a: number, b: number, approx: boolean): boolean {
  if (Number.isInteger(a) && Number.isInteger(b) && Math.max(Math.abs(a), Math.abs(b)) < 10_000 && (!approx || isYear(a) || isYear(b)))
    return a === b;
  return close(a, b, approx ? 0.02 : 1e-3);
}

/** Whether two quantities are the same amount (converted when both have units of one kind). */
export function sameQuantity(a: Quantity, b: Quantity): boolean {
  if (a.kind !== b.kind) return false;
  const tol = a.approx || b.approx ? 0.02 : 1e-3;
  if (!a.unit) return !b.unit && sameNumber(a.value, b.value, !!(a.approx || b.approx));
  if (!b.unit) return false;
  try {
    return close(Qty(a.value, a.unit).to(b.unit).scalar, b.value, tol);
  } catch {
    return false;
  }
}

const LOWER = /\b(?:more than|over|above|greater than|at least|upwards of)\s+$/iu;
const UPPER = /\b(?:less than|under|below|fewer than|at most|up to)\s+$/iu;
const lower = asciiTwin(LOWER);
const upper = asciiTwin(UPPER);
const betweenOf = asciiTwin(/\bbetween\s+(.+?)\s+and\s+(\S+(?:\s+\S+)?)/iu);

type Range = { lo?: Quantity; hi?: Quantity; text: string } | null;
let lastRange: { text: string; range: Range } | null = null;
/** range(), kept for the last text: it is asked of the candidate once per conflicting gold. `qs`: quantities(text). */
function candidateRange(text: string, qs: Quantity[]): Range {
  if (lastRange?.text !== text) lastRange = { text, range: range(text, qs) };
  return lastRange.range;
}

/** A range a text gives ("more than five", "between 10 and 15"), with the quantities it bounds by (`qs`, the text's). */
function range(text: string, qs: Quantity[]): Range {
  const low = text.toLowerCase();
  const between = betweenOf(low).exec(low);
  if (between) {
    const [a] = quantities(between[1]!);
    const [b] = quantities(between[2]!);
    if (a && b) return { lo: a, hi: { ...b, unit: b.unit || a.unit, kind: b.unit ? b.kind : a.kind }, text: between[0] };
  }
  for (const q of qs) {
    const at = low.indexOf(q.text.split(' ')[0]!);
    const before = low.slice(0, Math.max(0, at));
    const lo = lower(before).exec(before);
    if (lo) return { lo: q, text: `${lo[0]}${q.text}` };
    const hi = upper(before).exec(before);
    if (hi) return { hi: q, text: `${hi[0]}${q.text}` };
  }
  return null;
}

/** Whether quantity g lies within the bounds (converted to g's unit). */
function within(g: Quantity, r: { lo?: Quantity; hi?: Quantity }): boolean {
  const val = (b: Quantity): number | null => {
    if (b.kind !== g.kind) return null;
    if (!b.unit || !g.unit) return b.unit === g.unit ? b.value : null;
    try {
      return Qty(b.value, b.unit).to(g.unit).scalar;
    } catch {
      return null;
    }
  };
  const lo = r.lo ? val(r.lo) : -Infinity;
  const hi = r.hi ? val(r.hi) : Infinity;
  return lo !== null && hi !== null && g.value > lo && g.value < hi;
}

export interface QuantitySignal {
  /**
   * same: every gold quantity is in the candidate (in any unit); conflict: a gold quantity is missing and
   * the candidate gives another value of that kind; missing-unit: the gold's number is there without its
   * unit; range: a bound or interval that holds the gold's value ("more than five" for 6); extra-conflict: the gold's value is there and so is another amount of its kind ("0 °C, which is
   * 0 °F"); fewer: some gold quantities are there, none conflict (a date's year alone); none: nothing to compare.
   */
  relation: 'same' | 'conflict' | 'extra-conflict' | 'missing-unit' | 'range' | 'fewer' | 'none';
  gold: Quantity[];
  candidate: Quantity[];
  /** The candidate quantity that conflicts, or the one that lacks a unit. */
  at?: Quantity;
}

/** A gold's quantities (cached: the rows of a question share its golds). Callers must not mutate the result. */
const goldQuantities = textMemo(quantities);

/** A name's number ("Elizabeth II"), not an amount (js-quantities leaves some units without a kind). */
export const isNameNumber = (q: Quantity): boolean => q.kind?.startsWith('name:') === true;

/** Whether the candidate gives a name's number (a `name:` quantity) in digits right after the name. */
function namedNumber(gq: Quantity, candidate: string): boolean {
  const name = gq.kind.slice('name:'.length).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}])${name}\\s+${gq.value}(?![\\d.,])`, 'iu').test(candidate);
}

/** Plain "degrees" where the gold gives a temperature: the gold's scale ("-40 degrees" for "-40 °C"), not an angle. */
function onGoldScale(g: Quantity[], c: Quantity[]): Quantity[] {
  const t = g.find((x) => x.kind === 'temperature');
  if (!t || !c.some((x) => x.kind === 'angle')) return c;
  return c.map((x) => (x.kind === 'angle' && /^degrees?$/.test(x.unit) ? { ...x, unit: t.unit, kind: t.kind } : x));
}

/** How the quantities of a candidate compare with a gold's (`candidateQuantities`: quantities(candidate), when the caller has it). */
export function compareQuantities(gold: string, candidate: string, candidateQuantities?: Quantity[]): QuantitySignal {
  const g = goldQuantities(gold);
  if (g.length === 0) return { relation: 'none', gold: g, candidate: candidateQuantities ?? [] };
  const own = candidateQuantities ?? quantities(candidate);
  const c = onGoldScale(g, own);
  if (c.length === 0) return { relation: 'none', gold: g, candidate: c };
  const used = new Set<number>();
  let matched = 0;
  let missingUnit: Quantity | undefined;
  let conflict: Quantity | undefined;
  const open: Quantity[] = [];
  const given: Quantity[] = [];
  for (const gq of g) {
    let i = c.findIndex((cq, j) => !used.has(j) && sameQuantity(gq, cq));
    // A bare gold number said with its unit ("6" as "six years") is the same answer.
    if (i < 0 && gq.unit === '' && gq.kind === 'number')
      i = c.findIndex((cq, j) => !used.has(j) && cq.unit !== '' && sameNumber(gq.value, cq.value, !!(gq.approx || cq.approx)));
    // A name's number in digits ("Rocky 3" for "Rocky III"): the plain number right after the name.
    if (i < 0 && isNameNumber(gq) && namedNumber(gq, candidate))
      i = c.findIndex((cq, j) => !used.has(j) && cq.kind === 'number' && cq.value === gq.value);
    if (i >= 0) {
      used.add(i);
      matched++;
      given.push(gq);
    } else open.push(gq);
  }
  // A gold that gives one amount in two units ("5.97 m (19 ft 7 in)") needs it once.
  for (let k = open.length - 1; k >= 0; k--)
    if (given.some((x) => x.unit && sameQuantity({ ...open[k]!, approx: true }, x))) {
      open.splice(k, 1);
      matched++;
    }
  // Only what no gold quantity matched can be missing its unit or conflict.
  for (const gq of open) {
    const bare = c.findIndex((cq, j) => !used.has(j) && gq.unit !== '' && cq.kind === 'number' && close(cq.value, gq.value));
    if (bare >= 0) {
      used.add(bare);
      missingUnit = c[bare];
      continue;
    }
    // A repeat of a value the gold gives ("twenty … twenty" for "twenty, 1912") is no other value.
    const other = c.find((cq, j) => !used.has(j) && cq.kind === gq.kind && !g.some((x) => sameQuantity(x, cq)));
    if (other) conflict = other;
  }
  if (conflict) {
    const r = matched === 0 ? candidateRange(candidate, own) : null;
    if (r && g.every((gq) => within(gq, r))) return { relation: 'range', gold: g, candidate: c, at: { ...(r.lo ?? r.hi)!, text: r.text } };
    return { relation: 'conflict', gold: g, candidate: c, at: conflict };
  }
  // Beyond the matched value: another amount of a measured (not plain-number) quantity the gold gives.
  const extraConflict = c.find(
    // (A rounded restatement in other units, "40,000 km (24,901 mi)", is the same amount: within 2%.)
    (cq, j) =>
      !used.has(j) && cq.unit !== '' && g.some((gq) => gq.kind === cq.kind) && !g.some((gq) => sameQuantity({ ...gq, approx: true }, cq)),
  );
  if (matched > 0 && extraConflict) return { relation: 'extra-conflict', gold: g, candidate: c, at: extraConflict };
  if (missingUnit) return { relation: 'missing-unit', gold: g, candidate: c, at: missingUnit };
  if (matched === g.length) return { relation: 'same', gold: g, candidate: c };
  if (matched > 0) return { relation: 'fewer', gold: g, candidate: c };
  return { relation: 'none', gold: g, candidate: c };
}
