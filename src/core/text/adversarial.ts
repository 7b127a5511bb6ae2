/**
 * Hostile text for the property tests and `npm run fuzz`: pieces that trip up text handling — control
 * characters, every kind of whitespace, lone surrogates, combining marks, right-to-left text and bidi
 * controls, emoji sequences, number words and digits, spreadsheet formulas, JSON and CSV syntax, and the
 * names of Object.prototype members. Not used by Verity itself.
 */
export const ADVERSARIAL_PIECES: readonly string[] = [
  // Words, articles, answers.
  'Paris', 'paris', 'PARIS', 'the', 'The', 'a', 'A', 'an', 'x', 'New York', 'supercalifragilisticexpialidocious', 'not', 'and',
  // Numbers and number words.
  '0', '1', '12', '1945', '3.5', '1,000', '977,633', '-1', '+1', '1e+23', '100000000000', '0.29', '1.005', 'twenty', 'twenty-first',
  'first', 'one', 'hundred', 'thousand', 'million', 'trillion', 'billionth', 'per', 'cent', '%',
  // ASCII punctuation and spreadsheet formulas.
  '.', ',', ';', ':', '!', '?', '"', "'", '`', '-', '_', '=', '@', '+', '(', ')', '[', ']', '{', '}', '\\', '/', '|', '#', '~',
  '=1+1', '@SUM(A1:A2)', '=HYPERLINK("http://x","y")', '-2+3', "'=", "''-x", '+cmd|',
  // Whitespace and control characters.
  ' ', '  ', '\t', '\n', '\r', '\r\n', '\v', '\f', '\x00', '\x01', '\x1b', '\x1c', '\x1f', '\x7f', '\x85', '\u00a0', '\u1680',
  '\u2003', '\u200b', '\u2028', '\u2029', '\u202f', '\u3000', '\ufeff',
  // Case mapping and composition oddities.
  'é', 'e\u0301', 'ß', 'ẞ', 'İ', 'ı', 'Σ', 'ς', 'ﬁ', 'Å', '\u212a', 'ǅ', 'ŉ',
  // Other scripts, right to left, bidi controls.
  '北京', '東京', 'Ωμέγα', 'Привет', 'مرحبا', 'שלום', 'नमस्ते', '\u202e', '\u200f', '\u061c', '\u2066', '\u2069',
  // Emoji: presentation selectors, ZWJ sequences, skin tones, flags.
  '🙂', '👨‍👩‍👧', '🏳️‍🌈', '👍🏽', '🇫🇷', '❤️', '\u{1F600}',
  // Lone surrogates and stacked combining marks.
  '\ud800', '\udfff', '\udc00a', '\u0301\u0301\u0301', 'Z̷̢̛a̴l̸g̵o̶',
  // JSON and CSV syntax.
  '{"gold":"x"}', '["a","b"]', '[', '{', 'null', 'true', 'NaN', ',,', '""', '"a,b"', '\t\t', '"\n"',
  // Label spellings, good and bad.
  'yes', 'No', 'partial', 'overinclusive_valid', 'maybe',
  // Object.prototype members.
  '__proto__', 'constructor', 'toString', 'hasOwnProperty',
];

/** Up to `maxPieces` random pieces, sometimes separated by a space. */
export function adversarialString(rnd: () => number, maxPieces = 12): string {
  const n = Math.floor(rnd() * (maxPieces + 1));
  let s = '';
  for (let i = 0; i < n; i++) {
    s += ADVERSARIAL_PIECES[Math.floor(rnd() * ADVERSARIAL_PIECES.length)];
    if (rnd() < 0.4) s += ' ';
  }
  return s;
}
