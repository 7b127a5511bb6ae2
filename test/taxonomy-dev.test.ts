/**
 * The taxonomy development set (test/fixtures/taxonomy-dev.jsonl, written for this project): read through the
 * core parser and checked for size, balance, a held-out part, and no question shared with the demo set (the
 * untouched test set).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseTable } from '../src/core/io/parse.ts';
import { mapRows } from '../src/core/io/fields.ts';
import { CAP_CLASSES } from '../src/core/types.ts';

const read = (p: string) => mapRows(parseTable(readFileSync(new URL(p, import.meta.url)), p.split('/').at(-1)!));
const dev = read('./fixtures/taxonomy-dev.jsonl');
const demo = read('../public/demo/demo-set.jsonl');
const raw = readFileSync(new URL('./fixtures/taxonomy-dev.jsonl', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { split: string; question: string });

describe('taxonomy development set', () => {
  it('parses with no issues: at least 400 rows, at least 40 per class', () => {
    expect(dev.issues).toEqual([]);
    expect(dev.rows.length).toBeGreaterThanOrEqual(400);
    for (const cls of CAP_CLASSES)
      expect(dev.rows.filter((r) => r.label?.kind === 'taxonomy' && r.label.cls === cls).length, cls).toBeGreaterThanOrEqual(40);
  });
  it('holds out whole questions, and shares none with the demo set', () => {
    const held = new Set(raw.filter((r) => r.split === 'held-out').map((r) => r.question));
    const tune = new Set(raw.filter((r) => r.split === 'tune').map((r) => r.question));
    expect(held.size).toBeGreaterThanOrEqual(10);
    expect([...held].filter((q) => tune.has(q))).toEqual([]);
    const demoQ = new Set(demo.rows.map((r) => r.question.trim().toLowerCase()));
    expect(dev.rows.filter((r) => demoQ.has(r.question.trim().toLowerCase()))).toEqual([]);
  });
  it('a third or more of the candidates are full sentences', () => {
    const sentences = dev.rows.filter((r) => r.candidate.split(/\s+/).length >= 5 && /[.!?]$/.test(r.candidate.trim()));
    expect(sentences.length / dev.rows.length).toBeGreaterThanOrEqual(1 / 3);
  });
});
