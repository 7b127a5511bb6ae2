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
