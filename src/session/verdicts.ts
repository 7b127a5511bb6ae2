/**
 * The app's label memory (core/review/memory.ts): every verdict given in a review, kept in this browser
 * (IndexedDB `verity-verdicts`, apart from the saved runs, so deleting runs keeps them) with what it judged and
 * when — listed, exported as a file `verity review --known` reads, forgotten on request. A later review of any
 * file offers the ones that match it. Storage failures never stop a review: the verdict is simply not remembered.
 */
import { idbStore, type KeyValueStore } from '../runtime/idb-cache.ts';
import { LabelMemory, verdictKey, type Verdict } from '../core/review/memory.ts';
import { labelJson } from '../core/review/labels.ts';

export class VerdictStore {
  private kv: KeyValueStore<unknown> | null;

  /** `store` for tests; by default IndexedDB (opened on first use). */
  constructor(store?: KeyValueStore<unknown>) {
    this.kv = store ?? null;
  }

  private db(): KeyValueStore<unknown> | null {
    if (this.kv) return this.kv;
    if (typeof indexedDB === 'undefined') return null;
    return (this.kv = idbStore<unknown>('verity-verdicts', 'verdict'));
  }

  /** Remembers a verdict (the later one for the same answer); false when it could not be stored. */
  async add(v: Verdict): Promise<boolean> {
    try {
      const db = this.db();
      await db?.set(verdictKey(v), v);
      return db !== null;
    } catch {
      return false;
    }
  }

  /** Forgets the verdict on an answer (an answer taken back). */
  async remove(v: Pick<Verdict, 'question' | 'golds' | 'candidate'>): Promise<void> {
    try {
      await this.db()?.del(verdictKey(v));
    } catch {
      /* not stored: nothing to forget */
    }
  }

  async all(): Promise<Verdict[]> {
    try {
      return ((await this.db()?.values()) ?? []) as Verdict[];
    } catch {
      return [];
    }
  }

  async memory(): Promise<LabelMemory> {
    const m = new LabelMemory();
    for (const v of await this.all()) m.add(v);
    return m;
  }

  /** The verdicts as a file `verity review --known` (and the app) reads: one JSON line each, with what it judged. */
  async export(): Promise<Blob> {
    const lines = (await this.all()).map((v) =>
      JSON.stringify({
        question: v.question,
        golds: v.golds,
        candidate: v.candidate,
        label: labelJson(v.label),
        ...(v.time !== undefined ? { time: v.time } : {}),
      }),
    );
    return new Blob(lines.length ? [`${lines.join('\n')}\n`] : [], { type: 'application/x-ndjson' });
  }

  async clear(): Promise<void> {
    try {
      await this.db()?.clear();
    } catch {
      /* nothing stored */
    }
  }
}
