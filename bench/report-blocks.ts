/**
 * bench/REPORT.md is written by hand and by `npm run bench`: the benchmarks' own tables sit between marker comments
 * (`<!-- bench:core -->` … `<!-- /bench:core -->`), and a run replaces only those. Everything around them (each
 * section's history, the hand-measured sections) stays as it is, so rendering the report never loses what was
 * written there; a block whose figures are missing (not run on this machine) keeps what it had.
 */

const open = (key: string) => `<!-- bench:${key} -->`;
const close = (key: string) => `<!-- /bench:${key} -->`;

/** `doc` with each block of `blocks` replaced by its lines; a null block is kept. Throws when a block's markers are missing or out of order. */
export function replaceBlocks(doc: string, blocks: Record<string, readonly string[] | null>): string {
  let out = doc;
  for (const [key, lines] of Object.entries(blocks)) {
    const start = out.indexOf(open(key));
    const end = out.indexOf(close(key));
    if (start < 0 || end < 0 || end < start || out.indexOf(open(key), start + 1) >= 0)
      throw new Error(`bench/REPORT.md needs one "${open(key)}" … "${close(key)}" pair (where the ${key} figures go)`);
    if (lines === null) continue;
    const body = lines.length ? `\n${lines.join('\n').trim()}\n` : '\n';
    out = out.slice(0, start + open(key).length) + body + out.slice(end);
  }
  return out;
}
