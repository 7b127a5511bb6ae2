import { describe, expect, it } from 'vitest';
import { savedBytes } from './saved-runs.ts';
import type { SavedRunInfo } from '../../session/api.ts';

const run = (over: Partial<SavedRunInfo>): SavedRunInfo => ({
  id: 'x',
  fileName: 'f.jsonl',
  done: 1,
  total: 1,
  chunkSize: 1,
  metrics: ['exact_match'],
  status: 'done',
  startedAt: 0,
  updatedAt: 0,
  resultBytes: 10,
  answers: 0,
  fileSize: 1000,
  inputHash: 'aaaaaaaa',
  inputRuns: 1,
  ...over,
});

describe('savedBytes', () => {
  it('counts an input shared by several runs once, and each run results', () => {
    const runs = [
      run({ id: 'a', inputRuns: 2 }),
      run({ id: 'b', inputRuns: 2, resultBytes: 5 }),
      run({ id: 'c', inputHash: 'bbbbbbbb', fileSize: 7 }),
    ];
    expect(savedBytes(runs)).toEqual({ results: 25, inputs: 1007, total: 1032, inputCount: 2 });
  });
  it('counts unshared copies (runs saved before inputs were shared) each', () => {
    expect(savedBytes([run({ id: 'a' }), run({ id: 'b' })]).inputs).toBe(2000);
  });
});
