/**
 * A Unicode, case-insensitive pattern (flags `iu`) and its twin without the `u` flag, for text where the two
 * cannot differ. Node 20's V8 (the CLI's) runs the `iu` form of the text signals' patterns three to four times
 * slower than the same pattern without `u` (~1.3 µs against ~0.3 µs over an average EVOUNA answer), and a row tests
 * its answer with several of them; Chromium's newer V8 (the app's) runs most of them about as fast either way.
 *
 * Why the twin gives the same matches: without `u`, case-insensitive matching never folds a non-ASCII character to
 * an ASCII one, and `\w`, `\b` are ASCII; with `iu`, two more characters fold to ASCII letters — 'ſ' (long s, to s)
 * and 'K' (Kelvin sign, to k) — and count as word characters. Apart from them, `u` changes only how astral
 * characters (surrogate pairs) and `\p{…}`, `\u{…}` are read. So for a pattern whose literals are ASCII or have no
 * case, and a text with neither 'ſ', 'K' nor a surrogate, both find the same matches with the same groups.
 */

/** Every pattern given a twin, for the test that holds each to the same matches as its twin. */
export const twinned = new Set<RegExp>();

/** What the twin would read otherwise: the two letters `iu` folds to ASCII, and any surrogate. */
const NEEDS_UNICODE = /[\u017f\u212a\ud800-\udfff]/;

/**
 * For `re`, the pattern to run on `s`: `re` itself when `s` needs it (or `re` lacks the `u` flag), else its twin
 * without `u`. Throws for a pattern the twin cannot stand in for (a property escape, a code point escape, or a cased
 * non-ASCII character, whose case-insensitive match differs between the two).
 */
export function asciiTwin(re: RegExp): (s: string) => RegExp {
  if (!re.flags.includes('u')) return () => re;
  // (Any \u escape is refused: one could name a cased letter that the check below does not see.)
  if (/\\[pPu]/.test(re.source)) throw new Error(`asciiTwin: ${re.source} needs the u flag`);
  for (const c of re.source)
    if (c.charCodeAt(0) > 0x7f && c.toLowerCase() !== c.toUpperCase()) throw new Error(`asciiTwin: ${re.source} has the cased letter ${c}`);
  const twin = new RegExp(re.source, re.flags.replace('u', ''));
  twinned.add(re);
  return (s) => (NEEDS_UNICODE.test(s) ? re : twin);
}
