/**
 * The session's input: the file (or several files, one per system), what it parsed to, and the rows a column
 * mapping makes of it, with the mapping's summary, systems and notes. The parsed records are dropped once a run
 * starts (the rows are all a run needs) and read again if the mapping changes.
 */
import type { ParsedTable } from '../core/io/parse.ts';
import type { BlobParseOptions } from '../core/io/parse-stream.ts';
import { nestedPaths, readBlobInput, sourceOf, withPaths } from '../core/io/formats/index.ts';
import { FIELDS, resolveColumns, resolveLayout, type ColumnMap, type MappingNote } from '../core/io/fields.ts';
import { planInput, prepareInput } from '../core/io/prepare.ts';
import { guessSystems } from '../core/io/systems.ts';
import { VerityError, type QaRow } from '../core/types.ts';
import type { InputInfo, SystemFile } from '../core/compare/index.ts';
import { whenCollected } from '../runtime/collect.ts';
import { contentHash } from '../core/io/hash.ts';
import { bundleFiles, bundleName, inputInfo, readFiles, systemsSummary, unbundleFiles, unionTable } from './compare.ts';
import type { Inspection, MappedSummary, Mapping, NamedBlob } from './api.ts';
import { LIMITS } from '../core/limits.ts';

const SAMPLE = 20;
const MAX_ISSUES = LIMITS.issues.app;
/** Records dropped at once, or mapped, that are worth a collection of their own (SessionDeps.collect). */
const COLLECT_RECORDS = 100_000;
/** Bytes of a file read between two collections asked for (SessionDeps.collect). */
export const READ_COLLECT_BYTES = 64 << 20;

export interface InputFile {
  blob: Blob;
  name: string;
  /** Its content hash (the journal's key for it), computed while it was read. */
  hash: Promise<string>;
}

export class SessionInput {
  file: InputFile | null = null;
  /** The rows of the last mapping. */
  rows: QaRow[] = [];
  /** The input's systems, when the mapping has several (compare.ts). */
  systems: InputInfo | null = null;
  /** The gold separator the mapping applied ('' none): exports write golds the same way. */
  goldSep = '';
  private table: ParsedTable | null = null;
  /** The records were dropped once mapped into rows (they would double the memory of a 10^6-row run). */
  private released = false;
  /** The mapping the rows were made with (JSON), so a run with the same one keeps them instead of mapping again. */
  private mappedAs: string | null = null;
  /** Several systems: the open files when there are several. */
  private parts: SystemFile[] | null = null;

  /** `hash`: a file's content hash (SessionDeps.hash); `collect`: SessionDeps.collect. */
  constructor(
    private readonly hash: (blob: Blob) => Promise<string> = contentHash,
    private readonly collect?: (gone?: Promise<void>) => void,
    private readonly collectEveryBytes = READ_COLLECT_BYTES,
  ) {}

  /** Reads and parses a file (or a bundle of several); throws with the reason when it cannot. */
  async open(blob: Blob, name: string, opts: BlobParseOptions & { hash?: string } = {}): Promise<Inspection> {
    // Hashed while the file is parsed (in the app on a thread of its own), not at the run's start: a run waits for
    // it, and hashed there a million-row file also left ~250 MB of spent stream chunks in this thread's heap until
    // its next full collection (the hash allocates almost nothing, so no young collection came to free them).
    const hash = opts.hash !== undefined ? Promise.resolve(opts.hash) : this.hash(blob);
    hash.catch(() => {}); // the run awaits it and says why it failed
    try {
      this.file = { blob, name, hash };
      this.table = await this.parse(blob, name, this.reading(opts.onProgress));
      this.released = false;
      this.rows = [];
      this.mappedAs = null;
      this.systems = null;
      return this.inspection(name, this.table);
    } catch (e) {
      this.file = null;
      this.table = null;
      throw e;
    }
  }

  /** Several files, one per system, as one input (a bundle, saved as one); one file opens as `open` does. */
  openFiles(files: NamedBlob[], opts: BlobParseOptions = {}): Promise<Inspection> {
    if (files.length === 1) return this.open(files[0]!.blob, files[0]!.name, opts);
    return this.open(bundleFiles(files), bundleName(files), opts);
  }

  /** Whether the rows in hand were made with this mapping. */
  isMapped(m: Mapping): boolean {
    return this.mappedAs === JSON.stringify(m);
  }

  /** Maps the columns into rows (replacing the last mapping's), with what the page shows about them. */
  async map(m: Mapping): Promise<MappedSummary> {
    this.mappedAs = null;
    // Nested fields the mapping names (lm-eval's doc.question) become columns, as with verity compare --map.
    const table = await this.ensureTable();
    // The parse's spent pieces go before the rows are made beside the records.
    if (table.records.length >= COLLECT_RECORDS) this.collect?.();
    const t = withPaths(table, Object.values(m.map));
    // Several systems (several files, a system column, the wide layout) are mapped as verity compare maps them.
    // No separator given (a caller other than the page): chosen as the CLI chooses it. The page always gives one
    // ('' for none), starting from Inspection.goldSep, and is told about the detected one either way.
    const s = m.systems;
    const prepared = prepareInput(this.parts ?? [{ name: this.file!.name, table: t }], {
      map: m.map,
      ...(m.goldSep !== undefined ? { goldSep: m.goldSep } : {}),
      ...(this.parts || s
        ? {
            systems: {
              ...(s?.column ? { systemColumn: s.column } : s?.auto || s?.wide ? {} : { systemColumn: false as const }),
              layout: s?.wide ? ('wide' as const) : ('long' as const),
              ...(s?.pairBy ? { keyBy: s.pairBy } : {}),
            },
          }
        : {}),
    });
    this.goldSep = prepared.goldSep ?? '';
    const many = prepared.systems;
    // One system found (a one-valued column, or files of one system) is no comparison: no system badge or column.
    this.systems = many && many.systems.length > 1 ? inputInfo(many) : null;
    this.rows = prepared.rows;
    this.mappedAs = JSON.stringify(m);
    const rows = this.rows;
    const kinds = new Set(rows.filter((r) => r.label).map((r) => r.label!.kind));
    const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();
    const hasWrong = (r: QaRow) => !!r.wrongAnswers?.length || !!r.choices?.some((c) => !r.golds.some((g) => norm(g) === norm(c)));
    return {
      rows: rows.length,
      labelled: rows.filter((r) => r.label).length,
      labelKind: kinds.size === 0 ? null : kinds.size === 2 ? 'mixed' : ([...kinds][0] as 'binary' | 'taxonomy'),
      withChoices: rows.filter((r) => r.choices?.length).length,
      withWrongTargets: rows.filter(hasWrong).length,
      columns: prepared.columns,
      issues: prepared.issues.slice(0, MAX_ISSUES),
      issueCount: prepared.issues.length,
      notes: [...prepared.separatorNotes, ...prepared.givenNotes, ...(many ? prepared.notes : this.notesOf(t, m, prepared.notes))],
      ...(many ? { systems: systemsSummary(many) } : {}),
    };
  }

  /**
   * Drops the parsed records (the rows are mapped); when they were many and there is a `collect`, a promise that
   * settles once they were collected.
   */
  release(): Promise<void> | null {
    const records = this.table!.records;
    const gone = records.length >= COLLECT_RECORDS && this.collect ? whenCollected(records) : null;
    this.table = { ...this.table!, records: [] };
    this.parts = null;
    this.released = true;
    return gone;
  }

  /** Parse options that pass the reading's progress on and ask for a collection every `collectEveryBytes` read. */
  private reading(onProgress?: (read: number, total: number) => void): BlobParseOptions {
    const collect = this.collect;
    if (!collect) return onProgress ? { onProgress } : {};
    const every = this.collectEveryBytes;
    let next = every;
    return {
      onProgress: (read, total) => {
        if (read >= next) {
          next = read + every;
          collect();
        }
        onProgress?.(read, total);
      },
    };
  }

  /** Reads the input: one file in any format core/io/formats reads, or the bundle of several files (compare.ts). */
  private async parse(blob: Blob, name: string, opts: BlobParseOptions = {}): Promise<ParsedTable> {
    const files = await unbundleFiles(blob);
    this.parts = files && (await readFiles(files, opts.onProgress));
    return this.parts ? unionTable(this.parts) : readBlobInput(blob, name, opts);
  }

  /** The gold separator the detected mapping's gold cells use, for the page to start from. */
  private detectedSeparator(t: ParsedTable, detected: ColumnMap): { goldSep?: string } {
    const { found } = planInput(this.parts?.map((p) => p.table) ?? [t], { map: detected });
    // A suggestion (a small file, one joined cell) is not applied: the page asks.
    return found && !found.suggested ? { goldSep: found.separator } : {};
  }

  private inspection(name: string, t: ParsedTable): Inspection {
    const detected = resolveColumns(t.columns);
    return {
      fileName: name,
      format: sourceOf(t),
      columns: t.columns,
      sample: t.records.slice(0, SAMPLE).map((r) => r.data),
      records: t.records.length,
      detected,
      guess: guessSystems(t.columns, detected),
      ...this.detectedSeparator(t, detected),
      paths: nestedPaths(t),
      issues: t.issues.slice(0, MAX_ISSUES),
      issueCount: t.issues.length,
    };
  }

  /** The parsed file; read again when its records were released for a run. */
  private async ensureTable(): Promise<ParsedTable> {
    if (!this.file) throw new VerityError('open a file first', 'usage', 'not-ready');
    if (!this.table || this.released) {
      this.table = await this.parse(this.file.blob, this.file.name, this.reading());
      this.released = false;
    }
    return this.table;
  }

  /**
   * The mapping's notes, plus why the columns were detected as they were while the page keeps the detected
   * mapping (the page always passes its mapping explicitly, so mapRows alone would not say it).
   */
  private notesOf(t: ParsedTable, m: Mapping, notes: MappingNote[]): MappingNote[] {
    if (notes.some((n) => n.code === 'layout')) return notes;
    const detected = resolveLayout(t.columns);
    const kept = FIELDS.every((f) => m.map[f] === detected.columns[f]);
    return kept ? [...detected.notes, ...notes] : notes;
  }
}
