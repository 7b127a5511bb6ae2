/**
 * Several input files as one Blob: the app saves one input per run, and the CLI names several files by the same
 * content hash (review labels say which input they belong to by it), so both make it the same way.
 */
import { VerityError } from '../types.ts';
export interface NamedBlob {
  blob: Blob;
  name: string;
}

const MAGIC = 'VERITY-FILES 1\n';

/**
 * Several files as one Blob: a header line naming them and their sizes, then their bytes. The run store saves
 * one input per run; slices of the bundle give the files back without copying them.
 */
export function bundleFiles(files: readonly NamedBlob[]): Blob {
  const header = JSON.stringify({ files: files.map((f) => ({ name: f.name, size: f.blob.size })) });
  return new Blob([MAGIC, header, '\n', ...files.map((f) => f.blob)]);
}

/** The files of a bundle; null when the Blob is not one. */
export async function unbundleFiles(blob: Blob): Promise<NamedBlob[] | null> {
  const magic = new TextEncoder().encode(MAGIC);
  const head = new Uint8Array(await blob.slice(0, magic.length).arrayBuffer());
  if (head.length < magic.length || head.some((b, i) => b !== magic[i])) return null;
  // The header is one line of JSON; names are short, so a megabyte holds thousands of them.
  const rest = new Uint8Array(await blob.slice(magic.length, magic.length + (1 << 20)).arrayBuffer());
  const nl = rest.indexOf(0x0a);
  if (nl < 0) throw new VerityError('the saved input is a damaged bundle of files (no header)', 'input');
  const header = JSON.parse(new TextDecoder().decode(rest.subarray(0, nl))) as { files: { name: string; size: number }[] };
  let at = magic.length + nl + 1;
  const out: NamedBlob[] = [];
  for (const f of header.files) {
    out.push({ name: f.name, blob: blob.slice(at, at + f.size) });
    at += f.size;
  }
  if (at !== blob.size) throw new VerityError('the saved input is a damaged bundle of files (sizes do not add up)', 'input');
  return out;
}

/** One name for several files, as the run list shows it. */
export const bundleName = (files: readonly NamedBlob[]): string => files.map((f) => f.name).join(' + ');
