import { describe, expect, it } from 'vitest';
import { LEXICAL_METRICS, MODEL_METRICS } from '../core/metrics/index.ts';
import { rolesFor } from './roles.ts';

describe('rolesFor', () => {
  it('maps each model metric to the roles it needs, in role order', () => {
    const byName = (n: string) => rolesFor([n]);
    expect(byName('cap')).toEqual(['nli']);
    expect(byName('hierarchy')).toEqual(['nli']);
    expect(byName('nli_lex')).toEqual(['nli']);
    expect(byName('taxonomy')).toEqual(['nli']);
    expect(byName('avert')).toEqual(['reranker']);
    expect(byName('bertscore')).toEqual(['embedder']);
    expect(byName('avert_embedding')).toEqual(['embedder']);
    expect(rolesFor(MODEL_METRICS)).toEqual(['nli', 'reranker', 'embedder']);
  });

  it('adds the statement writer only when a model writer is asked for', () => {
    expect(rolesFor(['bertscore', 'cap'], { modelWriter: true })).toEqual(['nli', 'embedder', 'statements']);
    expect(rolesFor(['nli_lex'], { modelWriter: true })).toEqual(['nli']);
  });

  it('needs nothing for lexical metrics', () => {
    expect(rolesFor(LEXICAL_METRICS)).toEqual([]);
  });
});
