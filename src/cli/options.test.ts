/** The --map option's parsing (CLI wording: the flag is named in its errors). */
import { describe, expect, it } from 'vitest';
import { VerityError } from '../core/types.ts';
import { compileRun, parseMapSpec } from './options.ts';

const usage = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(VerityError);
    expect((e as VerityError).kind).toBe('usage');
    return (e as Error).message;
  }
  throw new Error('no error');
};

describe('--map', () => {
  it('parses field=column pairs (field case-insensitive, spaces trimmed, column kept verbatim)', () => {
    expect(parseMapSpec('candidate=answer_gpt4,label=judge_gpt4')).toEqual({ candidate: 'answer_gpt4', label: 'judge_gpt4' });
    expect(parseMapSpec(' Candidate = Answer GPT4 , LABEL=judge ,')).toEqual({ candidate: 'Answer GPT4', label: 'judge' });
    // Only the first "=" separates.
    expect(parseMapSpec('candidate=a=b')).toEqual({ candidate: 'a=b' });
  });
  it('usage errors: unknown field, malformed pair', () => {
    expect(usage(() => parseMapSpec('bogus=x'))).toMatch(/unknown field "bogus"/);
    for (const bad of ['candidate', '=answer', 'candidate=', 'candidate= ', ' = '])
      expect(usage(() => parseMapSpec(bad))).toMatch(/--map expects field=column pairs/);
  });
});

describe('--metric-option', () => {
  it('puts each metric.option=value in the run, a number where the metric declares one', () => {
    expect(
      compileRun({ metrics: 'cap,lexical_match', metricOption: ['cap.alpha=0.9', ' cap.lambda = 0 ', 'lexical_match.mode=substring'] })
        .settings,
    ).toEqual({
      options: { cap: { alpha: 0.9, lambda: 0 }, lexical_match: { mode: 'substring' } },
    });
    expect(compileRun({ metrics: 'lexical_match', lexicalMode: 'substring' }).settings).toEqual({
      options: { lexical_match: { mode: 'substring' } },
    });
    expect(compileRun({ metrics: 'lexical_match' }).settings).toEqual({});
  });
  it('are kept in the table’s order, whatever the order of the flags (shards given them in another order still merge)', () => {
    const metrics = 'taxonomy,cap';
    const a = compileRun({ metrics, metricOption: ['taxonomy.lambda=0.1', 'cap.lambda=0.2', 'cap.alpha=0.3'] }).settings;
    const b = compileRun({ metrics, metricOption: ['cap.alpha=0.3', 'cap.lambda=0.2', 'taxonomy.lambda=0.1'] }).settings;
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(a)).toBe('{"options":{"cap":{"alpha":0.3,"lambda":0.2},"taxonomy":{"lambda":0.1}}}');
    expect(usage(() => compileRun({ metrics, metricOption: ['cap.alpha=0.3', 'cap.alfa=0.3'] }))).toBe(
      '--metric-option: cap has no option "alfa"; its options: alpha, lambda',
    );
  });
  it('usage errors name the flag, the metric and the option', () => {
    expect(usage(() => compileRun({ metricOption: ['cap'] }))).toBe(
      '--metric-option expects metric.option=value (e.g. cap.alpha=0.9), got "cap"',
    );
    expect(usage(() => compileRun({ metricOption: ['cap.alpha='] }))).toMatch(/expects metric\.option=value/);
    expect(usage(() => compileRun({ metrics: 'cap', metricOption: ['cap.alpha=high'] }))).toBe(
      '--metric-option: cap.alpha expects a number from 0 to 1, got "high"',
    );
    expect(usage(() => compileRun({ metrics: 'cap', metricOption: ['cap.alpha=0.5', 'cap.alpha=0.6'] }))).toBe(
      '--metric-option: cap.alpha is given twice (0.5, 0.6)',
    );
    expect(usage(() => compileRun({ metricOption: ['cap.alpha=0.5'] }))).toBe(
      "--metric-option: cap is not among the run's metrics (exact_match, token_f1, lexical_match, pedants, taxonomy_text)",
    );
    expect(
      usage(() => compileRun({ metrics: 'lexical_match', lexicalMode: 'token', metricOption: ['lexical_match.mode=substring'] })),
    ).toBe('--metric-option: lexical_match.mode is given twice (token, substring)');
  });
});
