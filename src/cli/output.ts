/**
 * Writing results: --out names checked before any work, files written whole or not at all (AtomicFile: a
 * temporary file renamed on success, removed on failure or a signal), and record sinks for stdout, JSONL, CSV, TSV.
 */
import { constants, createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { access, open, rename, rm, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { DelimitedWriter } from '../core/io/export.ts';
import { VerityError } from '../core/types.ts';
export type OutKind = 'jsonl' | 'csv' | 'tsv';
/** The kind of an --out file from its extension; a usage error for any other. */ export function outKind(
  out: string,
  allowed: readonly OutKind[] = ['jsonl', 'csv', 'tsv'],
): OutKind {
  const kind: OutKind | undefined = /\.jsonl?$/i.test(out)
    ? 'jsonl'
    : /\.csv$/i.test(out)
      ? 'csv'
      : /\.tsv$/i.test(out)
        ? 'tsv'
        : undefined;
  if (!kind || !allowed.includes(kind))
    throw new VerityError(
      `--out ${out}: use a ${allowed
        .map((k) => `.${k}`)
        .join(', ')
        .replace(/, ([^,]*)$/, ' or $1')} file name`,
      'usage',
    );
  return kind;
}
/**  * Checks, before any work, that an output file (--out, or `flag`) can be written: its folder exists and is  * writable, and it is not a folder.  */ export async function checkOut(
  out: string,
  flag = '--out',
): Promise<void> {
  const dir = dirname(resolve(out));
  const st = await stat(dir).catch(() => null);
  if (!st) throw new VerityError(`${flag} ${out}: the folder ${dir} does not exist`, 'output');
  if (!st.isDirectory()) throw new VerityError(`${flag} ${out}: ${dir} is not a folder`, 'output');
  const target = await stat(out).catch(() => null);
  if (target?.isDirectory()) throw new VerityError(`${flag} ${out}: it is a folder; give a file name`, 'output');
  try {
    await access(dir, constants.W_OK);
  } catch {
    throw new VerityError(`${flag} ${out}: the folder ${dir} is not writable`, 'output');
  }
}

/** A write error in words (full disk, permission, read-only file system), else its own message. */
export const ioMessage = (e: unknown): string => {
  const err = e as NodeJS.ErrnoException;
  return err.code === 'ENOSPC'
    ? 'the disk is full'
    : err.code === 'EACCES' || err.code === 'EPERM'
      ? 'permission denied'
      : err.code === 'EROFS'
        ? 'the file system is read-only'
        : err.message;
};

/** Temporary files in progress, removed if the process is interrupted (see onSignal). */
const pending = new Set<AtomicFile>();
/** Temporary folders: the copy of standard input (input.ts; private data: nothing of it may outlive the process). */
export const pendingDirs = new Set<string>();

/** Removes every unfinished temporary file and folder (the process is about to exit). */
export async function removePending(): Promise<void> {
  await Promise.all([
    ...[...pending].map((f) => f.abort()),
    ...[...pendingDirs].map((d) => rm(d, { recursive: true, force: true }).catch(() => {})),
  ]);
  pending.clear();
  pendingDirs.clear();
}

/**
 * A file written whole or not at all: text goes to a temporary file beside the target (same folder, so the
 * rename is atomic), flushed to disk and renamed onto the target on `commit`; `abort` removes it.
 */
export class AtomicFile {
  private readonly tmp: string;
  private stream: WriteStream;
  private failed: Error | null = null;

  constructor(readonly target: string) {
    this.tmp = join(dirname(resolve(target)), `.${basename(target)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
    pending.add(this);
    this.stream = createWriteStream(this.tmp, { flags: 'wx' });
    this.stream.on('error', (e) => (this.failed ??= e));
  }

  private check(): void {
    if (this.failed) throw new VerityError(`cannot write ${this.target}: ${ioMessage(this.failed)}`, 'output');
  }

  async write(text: string): Promise<void> {
    this.check();
    if (!this.stream.write(text))
      await new Promise<void>((res) => {
        // Both listeners go when either fires: one left per batch added up (MaxListenersExceededWarning at 3M rows).
        const done = () => {
          this.stream.off('drain', done);
          this.stream.off('error', done);
          res();
        };
        this.stream.on('drain', done);
        this.stream.on('error', done);
      });
    this.check();
  }

  /** Writes `text` as the whole file: in place only once all of it is on disk, else not at all. */
  static async writeWhole(target: string, text: string): Promise<void> {
    const f = new AtomicFile(target);
    try {
      await f.write(text);
      await f.commit();
    } catch (e) {
      await f.abort();
      throw e;
    }
  }

  /** Ends writing; returns the temporary file's path (still to be committed or aborted). */
  async end(): Promise<string> {
    this.check();
    await new Promise<void>((res) => this.stream.end(() => res()));
    this.check();
    return this.tmp;
  }

  /** Finishes the file, flushes it to disk and renames it onto the target. */
  async commit(): Promise<void> {
    await this.end();
    try {
      const fh = await open(this.tmp, 'r+');
      await fh.sync();
      await fh.close();
      await rename(this.tmp, this.target);
      pending.delete(this);
    } catch (e) {
      await this.abort();
      throw new VerityError(`cannot write ${this.target}: ${ioMessage(e)}`, 'output');
    }
  }

  /**
   * Removes the temporary file. The stream is closed first: a file still being opened when an interrupt comes
   * (the second of two outputs) would otherwise be created after the unlink, and stay.
   */
  async abort(): Promise<void> {
    if (!this.stream.closed)
      await new Promise<void>((res) => {
        this.stream.once('close', () => res());
        this.stream.destroy();
      });
    await unlink(this.tmp).catch(() => {});
    pending.delete(this);
  }
}

/** Where result records go, batch by batch. */
export interface RecordSink {
  /** The --out path, when writing to a file. */
  target?: string;
  write(records: Record<string, unknown>[]): Promise<void>;
  /** Finishes the output (renames an --out file onto its target). */
  close(): Promise<void>;
  abort(): Promise<void>;
}

/** JSONL on stdout. */
/**
 * Records as JSONL lines, handed to `write` in pieces of about 8 MB: a batch of rows that carry the input's own long
 * columns would not fit in one string.
 */
async function jsonLines(records: readonly Record<string, unknown>[], write: (text: string) => Promise<void>): Promise<void> {
  let text = '';
  for (const r of records) {
    text += `${JSON.stringify(r)}\n`;
    if (text.length >= 8 << 20) {
      await write(text);
      text = '';
    }
  }
  if (text) await write(text);
}

export function stdoutSink(): RecordSink {
  const out = async (text: string) => {
    if (!process.stdout.write(text)) await new Promise<void>((res) => process.stdout.once('drain', () => res()));
  };
  return {
    write: (records) => jsonLines(records, out),
    async close() {},
    async abort() {},
  };
}

/**
 * An --out file. JSONL is written as it comes; CSV/TSV columns depend on every record, so the records are
 * kept in a temporary JSONL file and turned into the table at the end (memory stays one batch).
 */
export async function fileSink(
  out: string,
  kind: OutKind,
  metricNames: readonly string[],
  /** The input's gold separator, asked at the end: CSV / TSV gold cells are written as the input wrote them. */
  goldSep: () => string = () => '',
): Promise<RecordSink> {
  const file = new AtomicFile(out);
  if (kind === 'jsonl')
    return {
      target: out,
      write: (records) => jsonLines(records, (t) => file.write(t)),
      close: () => file.commit(),
      abort: () => file.abort(),
    };
  const spool = new AtomicFile(join(dirname(resolve(out)), `.${basename(out)}.spool.jsonl`));
  const table = new DelimitedWriter(metricNames, kind === 'tsv' ? '\t' : ',');
  return {
    target: out,
    async write(records) {
      for (const r of records) table.observe(r);
      await jsonLines(records, (t) => spool.write(t));
    },
    async close() {
      const spooled = await spool.end();
      try {
        await file.write(table.header());
        const lines = createInterface({ input: createReadStream(spooled), crlfDelay: Infinity });
        let batch: Record<string, unknown>[] = [];
        let chars = 0;
        for await (const line of lines) {
          batch.push(JSON.parse(line) as Record<string, unknown>);
          chars += line.length;
          // A thousand rows, or fewer when they carry long columns of the input: each piece fits in one string.
          if (batch.length >= 1024 || chars >= 8 << 20) {
            await file.write(table.rows(batch, goldSep()));
            batch = [];
            chars = 0;
          }
        }
        await file.write(table.rows(batch, goldSep()));
        await file.commit();
      } finally {
        await spool.abort();
      }
    },
    async abort() {
      await Promise.all([spool.abort(), file.abort()]);
    },
  };
}
