/** The pairs of systems a comparison tests, in one order for every test. */

/** All (a, b) index pairs, a < b, in input order. */
export function systemPairs(S: number): [number, number][] {
  const out: [number, number][] = [];
  for (let a = 0; a < S; a++) for (let b = a + 1; b < S; b++) out.push([a, b]);
  return out;
}
