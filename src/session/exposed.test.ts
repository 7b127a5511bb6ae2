/**
 * The scoring worker exposes the session with comlink as it is (workers/score.worker.ts): every member of
 * SessionApi, the review's and the comparison's included, answers through comlink's member paths over a
 * message channel, so a new session method needs no forwarding table.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { expose, proxy, wrap, type Remote } from 'comlink';
import { memoryStore } from '../runtime/idb-cache.ts';
import { Journal } from './journal.ts';
import { ScoringSession, type SessionApi } from './session.ts';
import type { CompareApi } from './compare.ts';
import type { ReviewApi } from './review-facade.ts';
import { lexicon } from '../../test/lexicon.ts';

type Exposed = Remote<Omit<SessionApi, 'review' | 'compare'>> & { review: Remote<ReviewApi>; compare: Remote<CompareApi> };

const ports: MessagePort[] = [];
afterEach(() => ports.splice(0).forEach((p) => p.close()));

function remoteSession(): Exposed {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  const session = new ScoringSession({ lexicon: () => Promise.resolve(lexicon), store: new Journal(memoryStore()), version: '0' });
  expose(session, port1);
  return wrap<SessionApi>(port2) as unknown as Exposed;
}

const rows = (systems: string[]) =>
  systems.flatMap((sys, k) =>
    Array.from({ length: 6 }, (_, i) =>
      JSON.stringify({
        id: `q${i}`,
        system: sys,
        question: `Q${i}?`,
        gold: `a${i}`,
        candidate: i % (k + 2) ? `a${i}` : 'no',
        label: i % 2 === 0,
      }),
    ),
  );

describe('the session over comlink', () => {
  it('answers the run, the review and the comparison through member paths', async () => {
    const s = remoteSession();
    const seen: number[] = [];
    const o = await s.open(
      new Blob([`${rows(['A', 'B']).join('\n')}\n`]),
      'two.jsonl',
      proxy((read: number) => void seen.push(read)),
    );
    expect(o.ok).toBe(true);
    if (!o.ok) return;
    expect(o.value.records).toBe(12);
    const mapping = { map: o.value.detected, systems: { auto: true } };
    const m = await s.map(mapping);
    expect(m).toMatchObject({ ok: true, value: { rows: 12 } });
    const r = await s.run({ metrics: ['exact_match'], settings: {}, models: {}, mapping });
    expect(r).toMatchObject({ ok: true });
    expect(await s.ping()).toEqual({ ok: true, value: { done: 12, running: false } });

    expect(await s.review.state()).toEqual({ ok: true, value: null });
    const started = await s.review.start({ budget: 2, seed: 1 });
    expect(started).toMatchObject({ ok: true });
    expect(await s.review.answer(0, true)).toMatchObject({ ok: true, value: { answered: 1 } });
    expect(await s.review.undo()).toMatchObject({ ok: true, value: { answered: 0 } });

    const view = await s.compare.report();
    expect(view.ok && view.value.report.systems).toEqual(['A', 'B']);
    expect(await s.compare.splits('nope')).toMatchObject({ ok: false });
  });

  it('answers a refusal as data, not as a thrown error', async () => {
    const s = remoteSession();
    expect(await s.review.start({ budget: 2 })).toMatchObject({
      ok: false,
      error: { message: 'nothing is scored: run the metrics first' },
    });
    expect(await s.compare.report()).toMatchObject({ ok: false });
  });

  it('answers a method added to the session as written, with no other edit (docs/development.md)', async () => {
    class Counted extends ScoringSession {
      /** Rows scored of the run in hand (0 without one). */
      scored(): number {
        return 0;
      }
    }
    const { port1, port2 } = new MessageChannel();
    ports.push(port1, port2);
    expose(new Counted({ lexicon: () => Promise.resolve(lexicon), store: new Journal(memoryStore()), version: '0' }), port1);
    const remote = wrap<Pick<Counted, keyof Counted>>(port2);
    expect(await remote.scored()).toBe(0);
  });
});
