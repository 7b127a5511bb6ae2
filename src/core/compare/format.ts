/** How the comparison's numbers are printed, by `verity compare` and by the app alike (three decimals, signed differences, p-values). */
export const f3 = (x: number | null | undefined) => (x === null || x === undefined ? '—' : x.toFixed(3));
export const signed = (x: number | null | undefined) => (x === null || x === undefined ? '—' : `${x >= 0 ? '+' : ''}${x.toFixed(3)}`);
export const ci = (c: [number, number] | null | undefined) => (c ? `[${f3(c[0])}, ${f3(c[1])}]` : '');
export const ciSigned = (c: [number, number] | null | undefined) => (c ? `[${signed(c[0])}, ${signed(c[1])}]` : '');
export function pFmt(p: number | null | undefined): string {
  if (p === null || p === undefined) return '—';
  if (p < 1e-300) return '<1e-300';
  return p < 0.001 ? p.toExponential(1) : p.toFixed(3);
}
/** Two systems named as a pair: " vs ", which no separator-free name confuses (names hold "/", as in "evouna/NQ/fid"). */
export const pairName = (a: string, b: string) => `${a} vs ${b}`;
/** A paired test's verdict: the better system, "n.s.", or no verdict at all when the two share no question. */
export function verdict(better: string | null | undefined, a: string, b: string, n: number): string {
  if (n === 0) return 'no shared questions';
  return better ? `${better} > ${better === a ? b : a}` : 'n.s.';
}
/** Why a metric's ranking against the humans has no Kendall τ ('' when it has one). */
export function noRankingWhy(r: { systems: number; kendallTau: number | null; sharedQuestions: number }): string {
  if (r.kendallTau !== null) return '';
  if (r.systems < 2) return 'fewer than two systems have labelled rows it decided';
  if (r.sharedQuestions === 0) return 'no labelled question is shared by two systems';
  return 'one of the orderings ties every system';
}
/** The ranks a system can hold: "2" when one, "1–3" when several, "—" before any test. */
export const rankRange = (r: readonly [number, number] | null | undefined) => (!r ? '—' : r[0] === r[1] ? String(r[0]) : `${r[0]}–${r[1]}`);
