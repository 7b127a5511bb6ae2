/**
 * Bytes that are not UTF-8 (a file saved as Latin-1 or Windows-1252, a cut multi-byte character): found per
 * line while the file is decoded (whole or in chunks), so that only the records holding them are refused —
 * each with its row, line, byte and offset — and the valid records around them are kept. A mis-decoded
 * record is skipped rather than scored, because "caf�" would silently score wrong.
 */
import type { ParsedTable, RowIssue } from './table.ts';

export interface BadUtf8 {
  /** Byte offset in the file (0-based). */
  offset: number;
  /** 1-based line (counted in \n bytes, as the parsers count lines). */
  line: number;
  byte: number;
}

const EMPTY = new Uint8Array(0);

/** Length of the sequence a lead byte starts (continuation bytes after it), or -1 for a byte that cannot lead. */
const trailing = (c: number): number =>
  c < 0x80 ? 0 : c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;

/** Whether the second byte is allowed after this lead (rules out overlong, surrogate and > U+10FFFF forms). */
const secondOk = (c: number, d: number): boolean =>
  (d & 0xc0) === 0x80 && !((c === 0xe0 && d < 0xa0) || (c === 0xed && d > 0x9f) || (c === 0xf0 && d < 0x90) || (c === 0xf4 && d > 0x8f));

/**
 * Finds the first invalid byte of every line, fed in chunks of any size (a character split across chunks is
 * carried over, not reported).
 */
export class Utf8Scanner {
  /** First bad byte per line. */
  readonly bad = new Map<number, BadUtf8>();
  count = 0;
  private consumed = 0;
  private line = 1;
  private tail: Uint8Array = EMPTY;

  push(chunk: Uint8Array, final: boolean): void {
    const b = concat(this.tail, chunk);
    const base = this.consumed - this.tail.length;
    this.consumed += chunk.length;
    this.tail = EMPTY;
    let i = 0;
    while (i < b.length) {
      const c = b[i]!;
      if (c < 0x80) {
        if (c === 0x0a) this.line++;
        i++;
        continue;
      }
      const n = trailing(c);
      let ok = n > 0;
      let k = 1;
      for (; ok && k <= n && i + k < b.length; k++) {
        const d = b[i + k]!;
        ok = k === 1 ? secondOk(c, d) : (d & 0xc0) === 0x80;
      }
      if (ok && k <= n) {
        // The chunk ends inside a so-far valid character: finish it with the next chunk.
        if (!final) {
          this.tail = b.slice(i);
          return;
        }
        ok = false;
      }
      if (ok) i += n + 1;
      else {
        this.report(base + i, c);
        i++;
      }
    }
  }

  /**
   * `push`, given the chunk's text as a replacing stream decoder gives it (Utf8StreamDecoder): a text without
   * U+FFFD proves the bytes valid up to the character the decoder holds back, so only lines are counted (natively)
   * and that character kept. Otherwise, or with a held character of its own, the chunk is scanned as `push` does.
   */
  pushDecoded(chunk: Uint8Array, final: boolean, text: string): void {
    if (this.tail.length > 0 || text.includes('\uFFFD')) {
      this.push(chunk, final);
      return;
    }
    this.consumed += chunk.length;
    for (let i = chunk.indexOf(0x0a); i >= 0; i = chunk.indexOf(0x0a, i + 1)) this.line++;
    if (!final) this.tail = cutCharacter(chunk);
  }

  private report(offset: number, byte: number): void {
    this.count++;
    if (!this.bad.has(this.line)) this.bad.set(this.line, { offset, line: this.line, byte });
  }
}

/**
 * A stream decoder giving the text a replacing TextDecoder gives (bytes that are not UTF-8 become U+FFFD), but
 * decoding as a fatal one while the bytes are valid: Chromium's fatal decoder is about 1.5 times as fast. At the
 * first chunk that is not UTF-8 it goes on with a replacing decoder, given the cut character the fatal one held.
 */
export class Utf8StreamDecoder {
  #fatal: TextDecoder | null = new TextDecoder('utf-8', { fatal: true });
  #replacing: TextDecoder | null = null;
  /** The last bytes decoded (up to 3): the fatal decoder holds back a character they cut. */
  #recent: Uint8Array = EMPTY;
  /** Bytes the fatal decoder took. */
  #fed = 0;

  decode(bytes: Uint8Array, last: boolean): string {
    if (this.#fatal) {
      try {
        const text = this.#fatal.decode(bytes, { stream: !last });
        this.#fed += bytes.length;
        // Copied: the caller's buffer may be reused for the next chunk.
        this.#recent = bytes.length >= 3 ? bytes.slice(bytes.length - 3) : concat(this.#recent, bytes).slice(-3);
        return text;
      } catch {
        this.#fatal = null;
        const held = cutCharacter(this.#recent);
        // A byte order mark is dropped only at the very start of the text, as the fatal decoder would drop it.
        this.#replacing = new TextDecoder('utf-8', { ignoreBOM: this.#fed > held.length });
        bytes = concat(held, bytes);
      }
    }
    return this.#replacing!.decode(bytes, { stream: !last });
  }
}

const concat = (a: Uint8Array, b: Uint8Array): Uint8Array => {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
};

/** The end of valid UTF-8 that starts a character without finishing it (empty when the last character is whole). */
function cutCharacter(b: Uint8Array): Uint8Array {
  for (let j = b.length - 1; j >= 0 && j >= b.length - 3; j--) {
    const c = b[j]!;
    if ((c & 0xc0) === 0x80) continue;
    return trailing(c) >= b.length - j ? b.slice(j) : EMPTY;
  }
  return EMPTY;
}

/** Scans a whole file. */
export function findBadUtf8(bytes: Uint8Array): Utf8Scanner {
  const s = new Utf8Scanner();
  s.push(bytes, true);
  return s;
}

const hex = (b: number) => `0x${b.toString(16).padStart(2, '0')}`;
const HINT = 'the file may be Latin-1 or Windows-1252: re-save it as UTF-8';

/** The error for a record (starting at `line`) with a bad byte. */
export const badUtf8RecordMessage = (row: number, line: number, bad: BadUtf8): string =>
  `row ${row} (line ${line}) is not valid UTF-8 (byte ${hex(bad.byte)} at offset ${bad.offset}${bad.line === line ? '' : `, line ${bad.line}`}); ${HINT}; row ${row} skipped`;

/** The warning for a bad byte outside any record (or in a CSV header). */
export const badUtf8LineMessage = (bad: BadUtf8, isHeader = false): string =>
  `${isHeader ? `the header (line ${bad.line})` : `line ${bad.line}`} is not valid UTF-8 (byte ${hex(bad.byte)} at offset ${bad.offset})${isHeader ? '; the column names show � for it' : ''}; ${HINT}`;

/**
 * Moves every record that spans a line with a bad byte to the issues (an error naming its row, line, byte and
 * offset); a bad byte in a CSV header or outside any record becomes a warning. A record spans from its line to
 * the line before the next record or reported problem starts.
 */
export function refuseBadUtf8(table: ParsedTable, scan: Utf8Scanner): ParsedTable {
  if (scan.count === 0) return table;
  const badLines = [...scan.bad.keys()].sort((a, b) => a - b);
  const starts = [
    ...table.records.map((r) => r.line ?? 0),
    ...table.issues.filter((i) => i.row > 0 && i.line !== undefined).map((i) => i.line!),
    ...(table.headerLine !== undefined ? [table.headerLine] : []),
  ]
    .filter((l) => l > 0)
    .sort((a, b) => a - b);
  const nextStart = (line: number): number => {
    // First start strictly after `line` (binary search).
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]! <= line) lo = mid + 1;
      else hi = mid;
    }
    return starts[lo] ?? Number.POSITIVE_INFINITY;
  };
  const firstBadIn = (from: number, to: number): BadUtf8 | undefined => {
    let lo = 0;
    let hi = badLines.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (badLines[mid]! < from) lo = mid + 1;
      else hi = mid;
    }
    const l = badLines[lo];
    return l !== undefined && l < to ? scan.bad.get(l) : undefined;
  };

  const covered = new Set<number>();
  const records: ParsedTable['records'] = [];
  const issues: RowIssue[] = [...table.issues];
  for (const r of table.records) {
    const from = r.line ?? 0;
    const to = nextStart(from);
    const bad = from > 0 ? firstBadIn(from, to) : undefined;
    if (!bad) {
      records.push(r);
      continue;
    }
    for (const l of badLines) if (l >= from && l < to) covered.add(l);
    issues.push({
      row: r.row,
      line: from,
      severity: 'error',
      message: badUtf8RecordMessage(r.row, from, bad),
    });
  }
  for (const l of badLines) {
    if (covered.has(l)) continue;
    const bad = scan.bad.get(l)!;
    const isHeader = l === table.headerLine;
    issues.push({
      row: 0,
      line: l,
      severity: 'warning',
      message: badUtf8LineMessage(bad, isHeader),
    });
  }
  issues.sort((a, b) => a.row - b.row || (a.line ?? 0) - (b.line ?? 0));
  const columns = new Set<string>();
  for (const r of records) for (const k of Object.keys(r.data)) columns.add(k);
  return { ...table, columns: table.headerLine !== undefined ? table.columns : [...columns], records, issues };
}
