/** What a metric cannot score in a file is said before the run, and a metric that can score no row is left out. */
import { describe, expect, it } from 'vitest';
import { runnable, unscorable } from './scorable.ts';

describe('unscorable', () => {
  it('A-VERT on a file with no wrong answers: left out, with the reason', () => {
    const s = { rows: 10, withWrongTargets: 0 };
    expect(unscorable(['exact_match', 'avert'], s)).toMatchObject([
      { metric: 'avert', rows: 0, reason: expect.stringContaining('no row has them') },
    ]);
    expect(runnable(['exact_match', 'avert'], s)).toEqual(['exact_match']);
  });

  it('A-VERT on a file where some rows have wrong answers: kept, with how many it can score', () => {
    const s = { rows: 10, withWrongTargets: 3 };
    expect(unscorable(['avert'], s)[0]!.reason).toContain('can score 3 of 10 rows');
    expect(runnable(['avert'], s)).toEqual(['avert']);
    expect(unscorable(['avert', 'cap'], { rows: 10, withWrongTargets: 10 })).toEqual([]);
  });
});
