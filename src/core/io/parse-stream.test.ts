/** The streaming reader gives exactly what parseTable gives, whatever the chunk boundaries. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseBlob } from './parse-stream.ts';
import { parseTable } from './parse.ts';

const blobOf = (s: string | Uint8Array<ArrayBuffer>) => new Blob([s]);
const same = async (text: string, chunkBytes: number) => {
  let want: unknown;
  try {
    want = parseTable(text, 'x.jsonl');
  } catch (e) {
    want = { error: (e as Error).message };
  }
  let got: unknown;
  try {
    got = await parseBlob(blobOf(text), 'x.jsonl', { chunkBytes, sniffBytes: 16 });
  } catch (e) {
    got = { error: (e as Error).message };
  }
  expect(got).toEqual(want);
};

// Longer than the 16-byte sniff used here, so the streaming path runs.
const pad = (lines: string[]) => [JSON.stringify({ question: 'q'.repeat(20), gold: ['g'], candidate: 'c' }), ...lines];

describe('parseBlob', () => {
  it('streams JSONL with the same records, rows, lines and messages as parseTable', async () => {
    const text = pad(['', '{"question":"é ✓ 😀","gold":["a"],"candidate":"b"}', 'not json', '[1]', '{"gold":["x"],"candidate":"y"}', '{"cut": "off']).join('\n');
    for (const size of [1, 7, 4096, 65_536, 1 << 22]) await same(text, size);
  });

  it('a file ending with a newline, CRLF lines, and a BOM', async () => {
    await same(`\uFEFF${pad(['{"a":1}']).join('\r\n')}\r\n`, 1000);
  });

  it('property: any JSONL-ish lines, any chunk size', async () => {
    const line = fc.oneof(
      fc.record({ question: fc.string(), gold: fc.array(fc.string(), { maxLength: 3 }), candidate: fc.string({ unit: 'grapheme' }) }).map((o) => JSON.stringify(o)),
      fc.string(),
      fc.constant(''),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 30 }), fc.integer({ min: 1, max: 300 }), fc.boolean(), async (ls, size, trailing) => {
        await same(pad(ls).join('\n') + (trailing ? '\n' : ''), size);
      }),
      { numRuns: 200 },
    );
  });

  it('non-UTF-8 bytes give the precise whole-file message', async () => {
    const good = new TextEncoder().encode(pad(['{"a":"x"}']).join('\n') + '\n');
    const bad = new Uint8Array([...good, 0xff, 0x0a]);
    await expect(parseBlob(blobOf(bad), 'x.jsonl', { chunkBytes: 7, sniffBytes: 16 })).rejects.toThrow(/not valid UTF-8 \(first bad byte 0xff at offset \d+, line 3\)/);
  });

  it('other formats and small files go through parseTable', async () => {
    await same('a,b\n1,2\n', 3);
    await same('{"question": "q",\n "gold": ["a"], "candidate": "a"}', 3);
  });
});
