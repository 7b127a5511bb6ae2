/**
 * Scoring past one machine: `verity score FILE --shard K/N` scores the K-th of N slices of the file's records
 * (contiguous, by record number, so the parts in order are the file in order), and writes a first line naming
 * the shard, the input and the run's configuration; `verity merge OUT PARTS…` checks that the parts are the N
 * slices of one input scored one way, and writes their records, in order, exactly as an unsharded run writes them.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { VerityError } from '../core/types.ts';

/** The slice (1 … n) of record `row` (1-based) of a file of `records` records; a row past the count goes to the last. */
export function sliceOf(row: number, records: number, n: number): number {
  if (records <= 0) return 1;
  return Math.min(n, Math.floor(((row - 1) * n) / records) + 1);
}

/** `--shard K/N`. */
export function parseShard(v: string): { k: number; n: number } {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(v);
  const k = m ? Number(m[1]) : NaN;
  const n = m ? Number(m[2]) : NaN;
  if (!m || !(n >= 1 && n <= 100_000) || !(k >= 1 && k <= n))
    throw new VerityError(`--shard ${v}: expected K/N with 1 ≤ K ≤ N (e.g. 3/8: the third of eight slices)`, 'usage');
  return { k, n };
}

/** The first line of a shard's output. */
export interface ShardHeader {
  verity_shard: {
    k: number;
    n: number;
    /** The input's SHA-256 and its number of records (what the slices divide). */
    input: string;
    records: number;
    /** Everything that decides the records: Verity's version, metrics and thresholds, settings, models. */
    config: unknown;
    /** The input's gold separator (how a CSV / TSV writes the gold cell); absent in parts of older versions. */
    goldSep?: string;
  };
}

/** Reads a part: its header, and its record lines handed to `onLine` in order. */
async function readPart(path: string, onLine?: (line: string) => Promise<void>): Promise<ShardHeader['verity_shard']> {
  let header: ShardHeader['verity_shard'] | null = null;
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      if (header === null) {
        let h: unknown;
        try {
          h = JSON.parse(line);
        } catch {
          h = null;
        }
        const s = (h as Partial<ShardHeader> | null)?.verity_shard;
        if (!s || !Number.isInteger(s.k) || !Number.isInteger(s.n) || typeof s.input !== 'string')
          throw new VerityError(
            `${path} is not a part of a sharded run: its first line is not the shard header verity score --shard writes`,
            'input',
          );
        header = s;
        if (!onLine) break;
        continue;
      }
      if (line) await onLine!(line);
    }
  } catch (e) {
    if (e instanceof VerityError) throw e;
    throw new VerityError(`cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, 'input');
  } finally {
    lines.close();
  }
  if (!header) throw new VerityError(`${path} is empty: not a part of a sharded run`, 'input');
  return header;
}

/**
 * Checks the parts belong together and are complete; returns them in slice order. Refused, with the reason, for
 * parts of another input or another configuration, a slice given twice, or slices missing.
 */
export async function orderParts(paths: readonly string[]): Promise<string[]> {
  if (paths.length === 0) throw new VerityError('verity merge needs the parts to join', 'usage');
  const heads = await Promise.all(paths.map(async (p) => ({ p, h: await readPart(p) })));
  const first = heads[0]!;
  const config = JSON.stringify(first.h.config);
  for (const { p, h } of heads.slice(1)) {
    if (h.n !== first.h.n)
      throw new VerityError(`${p} is slice ${h.k} of ${h.n}, ${first.p} of ${first.h.n}: parts of two different splits`, 'input');
    if (h.input !== first.h.input || h.records !== first.h.records)
      throw new VerityError(
        `${p} scored another input (SHA-256 ${h.input.slice(0, 12)}…) than ${first.p} (${first.h.input.slice(0, 12)}…)`,
        'input',
      );
    if (JSON.stringify(h.config) !== config)
      throw new VerityError(
        `${p} was scored with another configuration than ${first.p} (metrics, thresholds, settings or models differ)`,
        'input',
      );
  }
  const byK = new Map<number, string>();
  for (const { p, h } of heads) {
    if (byK.has(h.k)) throw new VerityError(`slice ${h.k} of ${h.n} is given twice (${byK.get(h.k)} and ${p})`, 'input');
    byK.set(h.k, p);
  }
  const missing = Array.from({ length: first.h.n }, (_, i) => i + 1).filter((k) => !byK.has(k));
  if (missing.length)
    throw new VerityError(
      `slice${missing.length > 1 ? 's' : ''} ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''} of ${first.h.n} ${missing.length > 1 ? 'are' : 'is'} missing`,
      'input',
    );
  return Array.from({ length: first.h.n }, (_, i) => byK.get(i + 1)!);
}

/** Every record line of the parts, in order. */
export async function eachPartRecord(parts: readonly string[], onLine: (line: string) => Promise<void>): Promise<void> {
  for (const p of parts) await readPart(p, onLine);
}
