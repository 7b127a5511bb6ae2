/**
 * Inspect AI `.eval` logs, the format `inspect eval` writes by default: a zip archive of JSON files. The eval
 * spec is in `header.json` (or, in a log still being written or from an older Inspect, `_journal/start.json` or
 * `start.json`), the status in `header.json` (or `results.json`), and each sample in
 * `samples/<id>_epoch_<epoch>.json`, an object like one of a `.json` log's `samples[]`. This turns the archive
 * into that `.json` log's shape (inspect.ts reads it from there), with the samples in Inspect's own order: by
 * epoch, then by id (numbers as numbers). A sample keeps only the fields inspect.ts reads: its events and model
 * calls, most of a log's size, are dropped as each sample is parsed.
 *
 * Nothing is lost without a word: an archive without its end record (cut off), a sample the central directory
 * lists that cannot be read, or one that is not JSON is an input error.
 *
 * fflate reads the archive: small, dependency-free, and it inflates in Node, browsers and workers alike
 * (Inspect writes deflate; an entry compressed otherwise, deflate64 say, is reported as unreadable).
 */
import { Unzip, UnzipInflate, unzipSync } from 'fflate';
import { VerityError } from '../../types.ts';
import { isPlainObject } from '../parse.ts';
import { LIMITS } from '../../limits.ts';

type Obj = Record<string, unknown>;

/** "PK\x03\x04": a zip archive's first local file header. */
export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

const HEADERS = ['header.json', '_journal/start.json', 'start.json'];
const SAMPLE = /^samples\/.+\.json$/;
/** The sample fields inspect.ts reads. */
const KEPT = ['id', 'epoch', 'input', 'target', 'output', 'scores', 'metadata'] as const;

const utf8 = new TextDecoder('utf-8');
/** Bytes handed to the zip reader at a time (see inspectEvalToLog). */
const UNZIP_PIECE = 1 << 14;
/**
 * Largest entry read, once inflated: one entry is decoded into one string, and past ~512 MB a string cannot be
 * made ("Cannot create a string longer…"). A sample of an evaluation is kilobytes to a few megabytes.
 */
const MAX_ENTRY_BYTES = LIMITS.archiveEntryBytes;
const mb = (n: number) => `${Math.round(n / (1024 * 1024)).toLocaleString('en')} MB`;
const tooLarge = (name: string, bytes: number, declared: boolean) =>
  new VerityError(
    `${name} in the .eval archive ${declared ? 'declares' : 'inflates to over'} ${mb(bytes)} once inflated; Verity reads entries up to ${mb(MAX_ENTRY_BYTES)} (is the archive damaged, or not an Inspect log?)`,
    'input',
  );

function json(name: string, bytes: Uint8Array): unknown {
  try {
    return JSON.parse(utf8.decode(bytes));
  } catch (e) {
    throw new VerityError(`the Inspect log's ${name} is not valid JSON (${(e as Error).message})`, 'input');
  }
}

/** The chunks of one file as one array. */
function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** "PK\x05\x06", the end-of-central-directory record, in the last 22 bytes + the longest archive comment. */
function hasEndRecord(bytes: Uint8Array): boolean {
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--)
    if (bytes[i] === 0x50 && bytes[i + 1] === 0x4b && bytes[i + 2] === 0x05 && bytes[i + 3] === 0x06) return true;
  return false;
}

/** Inspect's sample order: epoch, then id (numeric ids by value, before string ids). */
function bySampleOrder(a: Obj, b: Obj): number {
  const ea = typeof a.epoch === 'number' ? a.epoch : 0;
  const eb = typeof b.epoch === 'number' ? b.epoch : 0;
  if (ea !== eb) return ea - eb;
  if (typeof a.id === 'number' && typeof b.id === 'number') return a.id - b.id;
  if (typeof a.id === 'number') return -1;
  if (typeof b.id === 'number') return 1;
  return String(a.id) < String(b.id) ? -1 : String(a.id) > String(b.id) ? 1 : 0;
}

/**
 * The log of a `.eval` archive, shaped as a `.json` log (`eval`, `status`, `samples`), or null when the archive
 * holds no Inspect header (another zip). A damaged archive is an input error.
 */
export function inspectEvalToLog(bytes: Uint8Array): Obj | null {
  // The entries are read front to back, so a cut-off archive would give its first samples and no error: its end
  // record says it is whole (Inspect rewrites the whole archive at each flush, so a log in progress has one too).
  if (!hasEndRecord(bytes))
    throw new VerityError('the zip archive is cut off (it has no end-of-central-directory record); is the .eval log complete?', 'input');
  // The central directory names every entry (fflate lists it without inflating anything); the stream below reads
  // the entries' own headers, and a damaged one would otherwise be skipped without a word.
  const listed: string[] = [];
  let huge: VerityError | null = null;
  try {
    unzipSync(bytes, {
      filter: (f) => {
        if (SAMPLE.test(f.name)) listed.push(f.name);
        // Sizes the central directory declares, checked before anything is inflated.
        if (!huge && f.originalSize > MAX_ENTRY_BYTES) huge = tooLarge(f.name, f.originalSize, true);
        return false;
      },
    });
  } catch (e) {
    throw new VerityError(`the zip archive cannot be read (${(e as Error).message}); is the .eval log complete?`, 'input');
  }
  if (huge) throw huge;
  const read = new Set<string>();
  const headers = new Map<string, unknown>();
  let results: unknown;
  const samples: Obj[] = [];
  let failure: Error | null = null;
  // One file at a time, each parsed (and a sample cut down) as soon as it is inflated: the archive's events are
  // never all held at once.
  const unzip = new Unzip((file) => {
    const wanted = HEADERS.includes(file.name) || file.name === 'results.json' || SAMPLE.test(file.name);
    if (!wanted || failure) return;
    const chunks: Uint8Array[] = [];
    let size = 0;
    file.ondata = (err, data, final) => {
      if (failure) return;
      if (err) {
        failure = err;
        return;
      }
      // A declared size can lie: the bytes inflated are counted too.
      size += data.length;
      if (size > MAX_ENTRY_BYTES) {
        failure = tooLarge(file.name, size, false);
        return;
      }
      chunks.push(data);
      if (!final) return;
      try {
        const v = json(file.name, concat(chunks));
        if (SAMPLE.test(file.name)) {
          if (!isPlainObject(v)) throw new VerityError(`the Inspect log's ${file.name} is not a sample object`, 'input');
          const kept: Obj = {};
          for (const k of KEPT) if (k in v) kept[k] = v[k];
          samples.push(kept);
          read.add(file.name);
        } else if (file.name === 'results.json') results = v;
        else headers.set(file.name, v);
      } catch (e) {
        failure = e as Error;
      }
    };
    try {
      file.start();
    } catch (e) {
      failure = new VerityError(`${file.name} in the archive is compressed in a way Verity cannot read (${(e as Error).message})`, 'input');
    }
  });
  unzip.register(UnzipInflate);
  try {
    // In pieces: given the whole archive at once, fflate's reader goes from one entry to the next by recursion,
    // and an archive of 3,000 samples overflowed the call stack. A piece holds a few hundred entries at most.
    for (let at = 0; at < bytes.length && !failure; at += UNZIP_PIECE)
      unzip.push(bytes.subarray(at, at + UNZIP_PIECE), at + UNZIP_PIECE >= bytes.length);
  } catch (e) {
    failure ??= e as Error;
  }
  if (failure) {
    const f = failure as Error;
    if (f instanceof VerityError) throw f;
    throw new VerityError(`the zip archive cannot be read (${f.message}); is the .eval log complete?`, 'input');
  }
  const lost = listed.filter((n) => !read.has(n));
  if (lost.length)
    throw new VerityError(
      `${lost.length} of the archive's ${listed.length} samples cannot be read (${lost.slice(0, 3).join(', ')}${lost.length > 3 ? ', …' : ''}): the .eval log is damaged`,
      'input',
    );
  const header = HEADERS.map((n) => headers.get(n)).find(isPlainObject);
  if (!header || !isPlainObject(header.eval)) return null;
  const status = header.status ?? (isPlainObject(results) ? results.status : undefined) ?? 'started';
  samples.sort(bySampleOrder);
  return { version: header.version, status, eval: header.eval, samples };
}
