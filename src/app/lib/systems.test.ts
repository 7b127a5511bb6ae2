import { describe, expect, it } from 'vitest';
import { guessSystems, wideSystems } from './systems.ts';

describe('guessSystems', () => {
  it('takes the EVOUNA columns as the wide layout, without a candidate or label column', () => {
    const cols = ['question', 'golden_answer', 'answer_fid', 'judge_fid', 'answer_gpt4', 'judge_gpt4', 'improper'];
    const g = guessSystems(cols, { question: 'question', gold: 'golden_answer', candidate: 'answer_fid' });
    expect(g).toEqual({ map: { question: 'question', gold: 'golden_answer' }, systems: { wide: true } });
    expect(wideSystems(cols)?.map((s) => s.system)).toEqual(['fid', 'gpt4']);
  });

  it('leaves a column named like a system column to the session, unless the mapping takes it for another field', () => {
    expect(guessSystems(['question', 'gold', 'candidate', 'Model'], { question: 'question' }).systems).toEqual({ auto: true });
    expect(guessSystems(['q', 'source', 'candidate'], { gold: 'source' }).systems).toBeUndefined();
  });

  it('leaves a single-system file as it is', () => {
    const detected = { question: 'question', gold: 'gold', candidate: 'candidate' };
    expect(guessSystems(['question', 'gold', 'candidate'], detected)).toEqual({ map: detected });
  });
});
