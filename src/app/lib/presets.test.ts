/**
 * Every class's example — the Playground's presets and the demo-set row Learn shows — fits its class's definition
 * (ClassBands' CLASS_DEFINITIONS) as far as the text alone can tell: which golds the answer equals or contains
 *.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PRESETS } from './presets.ts';
import { createSyncMetric } from '../../core/metrics/index.ts';
import { parseTable } from '../../core/io/parse.ts';
import { mapRows } from '../../core/io/fields.ts';
import { CAP_CLASSES, type CapClass } from '../../core/types.ts';
import { squadNormalize } from '../../core/text/normalize.ts';

const em = createSyncMetric('exact_match');
const equals = (a: string, b: string) => em.score({ question: '', golds: [b], candidate: a }).score === 1;
const contains = (a: string, b: string) => ` ${squadNormalize(a)} `.includes(` ${squadNormalize(b)} `);

/** What each definition says about the answer and the golds, checkable on the text. */
function fits(cls: CapClass, golds: readonly string[], candidate: string): boolean {
  const [first, ...others] = golds;
  const equalsAny = golds.some((g) => equals(candidate, g));
  switch (cls) {
    case 'exact':
      return equals(candidate, first!);
    case 'equivalent':
      return !equalsAny;
    case 'alternative-correct':
      // Another accepted gold than the first, or an answer the golds do not list.
      return !equals(candidate, first!) && (others.some((g) => equals(candidate, g)) || !equalsAny);
    case 'overinclusive-valid':
    case 'overinclusive-invalid':
      return golds.some((g) => contains(candidate, g) && !equals(candidate, g));
    case 'partial':
      return !equalsAny && golds.some((g) => contains(g, candidate) || !contains(candidate, g));
    case 'invalid':
      return !equalsAny && !golds.some((g) => contains(candidate, g));
    case 'contradictory':
      return !equalsAny;
  }
}

describe('class examples fit their definitions', () => {
  it('every Playground preset', () => {
    expect(PRESETS.map((p) => p.cls)).toEqual([...CAP_CLASSES]);
    for (const p of PRESETS) expect(fits(p.cls, p.golds, p.candidate), `${p.cls}: ${p.candidate}`).toBe(true);
    // The alternative-correct example teaches what no gold list holds: its answer is none of the golds, nor in one.
    const alt = PRESETS.find((p) => p.cls === 'alternative-correct')!;
    expect(alt.golds.some((g) => equals(alt.candidate, g) || contains(alt.candidate, g) || contains(g, alt.candidate))).toBe(false);
  });

  it("every class's first demo-set row, the example Learn shows", () => {
    const { rows } = mapRows(parseTable(readFileSync(new URL('../../../public/demo/demo-set.jsonl', import.meta.url)), 'demo-set.jsonl'));
    for (const cls of CAP_CLASSES) {
      const r = rows.find((x) => x.label?.kind === 'taxonomy' && x.label.cls === cls)!;
      expect(fits(cls, r.golds, r.candidate), `${cls}: ${r.candidate}`).toBe(true);
    }
  });

  it('every demo-set row; on a multiple-choice question a right answer is one of its choices', () => {
    const { rows } = mapRows(parseTable(readFileSync(new URL('../../../public/demo/demo-set.jsonl', import.meta.url)), 'demo-set.jsonl'));
    const misfits = rows.filter((r) => r.label?.kind === 'taxonomy' && !fits(r.label.cls, r.golds, r.candidate)).map((r) => r.id);
    expect(misfits).toEqual([]);
    const choice = (r: (typeof rows)[number]) => r.choices!.some((c) => equals(r.candidate, c));
    const offChoices = rows
      .filter(
        (r) => r.choices?.length && r.label?.kind === 'taxonomy' && ['exact', 'alternative-correct'].includes(r.label.cls) && !choice(r),
      )
      .map((r) => r.id);
    expect(offChoices).toEqual([]);
  });

  it('the homework template that ships with the demo set: read without an issue, one row per class, each fitting it', () => {
    const t = parseTable(readFileSync(new URL('../../../public/demo/homework-template.csv', import.meta.url)), 'homework-template.csv');
    const { rows, issues, notes } = mapRows(t);
    expect(issues).toEqual([]);
    expect(notes).toEqual([]);
    expect(rows.map((r) => (r.label?.kind === 'taxonomy' ? r.label.cls : null))).toEqual([...CAP_CLASSES]);
    for (const r of rows) expect(fits((r.label as { cls: CapClass }).cls, r.golds, r.candidate), `${r.id}: ${r.candidate}`).toBe(true);
  });

  it('an example that breaks its definition is caught', () => {
    expect(fits('exact', ['Paris'], 'Lyon')).toBe(false);
    expect(fits('alternative-correct', ['platypus', 'echidna'], 'platypus')).toBe(false);
    expect(fits('invalid', ['Paris'], 'It is Paris')).toBe(false);
  });
});
