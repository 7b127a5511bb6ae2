/**
 * The one content hash of an input file: the journal keys saved inputs by it, and review labels name the input
 * they belong to by it (the app and the CLI compute the same value for the same file).
 */
import { blobPieces } from './pieces.ts';

/** Bytes hashed at a time: a file of one piece is hashed in one call. */
export const HASH_PIECE = 16 * 1024 * 1024;
const hex = (b: ArrayBuffer) => [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, '0')).join('');

/**
 * SHA-256 of a file, read in 16 MiB pieces (a 1 GB file never sits in memory whole): the hash of the pieces'
 * hashes when there is more than one piece.
 */
export async function contentHash(blob: Blob): Promise<string> {
  if (blob.size <= HASH_PIECE) return hex(await crypto.subtle.digest('SHA-256', await blob.arrayBuffer()));
  const parts: Uint8Array[] = [];
  // One buffer for every piece (see blobPieces): each piece is hashed before the next is read into it.
  for await (const piece of blobPieces(blob, HASH_PIECE)) parts.push(new Uint8Array(await crypto.subtle.digest('SHA-256', piece)));
  const all = new Uint8Array(parts.length * 32);
  parts.forEach((p, i) => all.set(p, i * 32));
  return hex(await crypto.subtle.digest('SHA-256', all));
}
