/**
 * The labelled demo set shipped with the app (public/demo/demo-set.jsonl, used by the Learn page and
 * `verity evaluate`): read through the real core parser, then checked for size, balance and for labels that
 * agree with what the lexical metrics can verify about each class.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseTable } from '../src/core/io/parse.ts';
import { mapRows } from '../src/core/io/fields.ts';
import { createSyncMetric } from '../src/core/metrics/index.ts';
import { CAP_CLASSES, type CapClass, type QaRow } from '../src/core/types.ts';
import { COMPARE_DEMO, DEMO_SET, compareDemo } from '../scripts/demo-compare.ts';

const bytes = readFileSync(new URL('../public/demo/demo-set.jsonl', import.meta.url));
const table = parseTable(bytes, 'demo-set.jsonl');
const { rows, issues } = mapRows(table);

const classOf = (r: QaRow): CapClass | undefined => (r.label?.kind === 'taxonomy' ? r.label.cls : undefined);
const byClass = (cls: CapClass) => rows.filter((r) => classOf(r) === cls);
/** Question key of an id: `sci-03-partial` → `sci-03`. */
const questionOf = (id: string) => id.split('-').slice(0, 2).join('-');
const em = createSyncMetric('exact_match');
const lm = createSyncMetric('lexical_match');
const item = (r: QaRow) => ({ question: r.question, golds: r.golds, candidate: r.candidate });
const show = (r: QaRow) => `${r.id}: "${r.candidate}" (gold ${JSON.stringify(r.golds)})`;

describe('demo set', () => {
  it('parses as JSONL with no issues', () => {
    expect(table.format).toBe('jsonl');
    expect(issues).toEqual([]);
    expect(rows.length).toBe(table.records.length);
    expect(rows.length).toBeGreaterThanOrEqual(160);
  });

  it('every label is a taxonomy class, at least 20 rows per class', () => {
    for (const r of rows) expect(r.label?.kind, r.id).toBe('taxonomy');
    for (const cls of CAP_CLASSES) expect(byClass(cls).length, cls).toBeGreaterThanOrEqual(20);
  });

  it('ids are unique and name their question and class', () => {
    const ids = rows.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of rows) expect(r.id, r.id).toMatch(new RegExp(`^[a-z]+-\\d{2}-${classOf(r)}$`));
  });

  it('each question has one candidate per class, and the same question, golds and choices on every row', () => {
    const groups = new Map<string, QaRow[]>();
    for (const r of rows) groups.set(questionOf(r.id), [...(groups.get(questionOf(r.id)) ?? []), r]);
    for (const [q, rs] of groups) {
      expect(rs.map(classOf).sort(), q).toEqual([...CAP_CLASSES].sort());
      for (const r of rs) {
        expect(r.question, r.id).toBe(rs[0]!.question);
        expect(r.golds, r.id).toEqual(rs[0]!.golds);
        expect(r.choices, r.id).toEqual(rs[0]!.choices);
      }
    }
  });

  it('has both topics, about half each', () => {
    const topics = table.records.map((r) => r.data.topic);
    const science = topics.filter((t) => t === 'science').length;
    const general = topics.filter((t) => t === 'general').length;
    expect(science + general).toBe(rows.length);
    expect(Math.abs(science - general)).toBeLessThanOrEqual(rows.length / 5);
  });

  it('multiple-choice rows list the gold among their choices; at least 6 such questions', () => {
    const mc = rows.filter((r) => r.choices !== undefined);
    for (const r of mc) {
      expect(r.choices!.length, r.id).toBeGreaterThanOrEqual(2);
      expect(new Set(r.choices).size, r.id).toBe(r.choices!.length);
      expect(r.choices, r.id).toContain(r.golds[0]);
    }
    expect(new Set(mc.map((r) => questionOf(r.id))).size).toBeGreaterThanOrEqual(6);
  });

  it('exact rows, and only they, match a gold exactly', () => {
    for (const r of rows) {
      const res = em.score(item(r));
      expect(res.score, show(r)).toBe(classOf(r) === 'exact' ? 1 : 0);
    }
  });

  it('equivalent, alternative-correct and invalid rows do not contain a gold', () => {
    for (const cls of ['equivalent', 'alternative-correct', 'invalid'] as const)
      for (const r of byClass(cls)) {
        const res = lm.score(item(r));
        expect(res.score, show(r)).toBe(0);
        expect(res.decision, show(r)).toBe(false);
      }
  });

  it('over-inclusive rows (valid and invalid) contain a gold', () => {
    for (const cls of ['overinclusive-valid', 'overinclusive-invalid'] as const)
      for (const r of byClass(cls)) {
        const res = lm.score(item(r));
        expect(res.decision, show(r)).toBe(true);
        expect(res.score, show(r)).toBe(1);
      }
  });
});

describe('comparison demo', () => {
  it('is what scripts/demo-compare.ts makes from the demo set: three systems on its 26 questions, every row labelled', () => {
    const text = readFileSync(COMPARE_DEMO, 'utf8');
    expect(text, 'out of date: run npx tsx scripts/demo-compare.ts').toBe(compareDemo(readFileSync(DEMO_SET, 'utf8')));
    const demo = mapRows(parseTable(Buffer.from(text), 'compare-demo.jsonl'));
    // Read as one system, the ids repeat (one per system): warnings, no row lost.
    expect(demo.issues.filter((i) => !/duplicate id/.test(i.message))).toEqual([]);
    expect(demo.rows).toHaveLength(78);
    for (const r of demo.rows) {
      const src = rows.find((x) => x.question === r.question && x.candidate === r.candidate)!;
      expect(src, r.candidate).toBeDefined();
      expect(r.label).toEqual(src.label);
    }
  });
});
