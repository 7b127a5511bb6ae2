import { describe, expect, it } from 'vitest';
import { loadEvouna } from '../scripts/evouna.ts';

describe('the EVOUNA data a fresh clone lacks', () => {
  it('the error says where the file comes from, its licence and how to point the commands at a copy', () => {
    expect(() => loadEvouna('/nowhere/TQ.json')).toThrow(
      /EVOUNA data not found at \/nowhere\/TQ\.json\. It is EVOUNA .*EVOUNA\/TQ\.json of the public GitHub repository wangcunxiang\/QA-Eval, Apache-2\.0; save a copy and set VERITY_EVOUNA=/,
    );
  });
});
