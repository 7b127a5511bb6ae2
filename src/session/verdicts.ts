/**
 * The app's label memory (core/review/memory.ts): every verdict given in a review, kept in this browser
 * (IndexedDB `verity-verdicts`, apart from the saved runs, so deleting runs keeps them) with what it judged, when
 * and in which project — listed, exported as a file `verity review --known` reads, forgotten on request, per
 * project. A later review in the same project offers the ones that match its file; another project's verdicts are
 * never offered (a benchmark's "correct" need not be another's). Storage failures never stop a review: the verdict
 * is simply not remembered.
 */
import { idbStore, type KeyValueStore } from '../runtime/idb-cache.ts';
import { LabelMemory, verdictKey, type Verdict } from '../core/review/memory.ts';
import { labelJson } from '../core/review/labels.ts';

/** The project of a verdict kept without one (as every verdict was before projects). */
export const DEFAULT_PROJECT = 'default';

/** A project's name as typed: trimmed, the default when empty. */
export const projectName = (name: string | undefined): string => name?.trim() || DEFAULT_PROJECT;

/** Where a verdict is kept: the default project's under the answer's key alone (as before projects), others' beside their name. */
function storeKey(project: string, what: Pick<Verdict, 'question' | 'golds' | 'candidate'>): string {
  return project === DEFAULT_PROJECT ? verdictKey(what) : JSON.stringify([project, verdictKey(what)]);
}

/** A project with how many verdicts it keeps and when the last was given (ISO 8601; '' when none says). */
export interface VerdictProject {
  name: string;
  verdicts: number;
  last: string;
}

/** Whether a verdict is of a project. */
const inProject = (project: string | undefined) => (v: Verdict) => projectName(v.project) === projectName(project);

/** Verdicts as a memory (the later verdict for the same answer kept). */
function memoryOf(vs: readonly Verdict[]): LabelMemory {
  const m = new LabelMemory();
  for (const v of vs) m.add(v);
  return m;
}

/** The projects among the verdicts, the one answered last first. */
function projectsOf(all: readonly Verdict[]): VerdictProject[] {
  const by = new Map<string, VerdictProject>();
  for (const v of all) {
    const name = projectName(v.project);
    const p = by.get(name) ?? { name, verdicts: 0, last: '' };
    p.verdicts++;
    if ((v.time ?? '') > p.last) p.last = v.time!;
    by.set(name, p);
  }
  return [...by.values()].sort((a, b) => (a.last === b.last ? a.name.localeCompare(b.name) : a.last < b.last ? 1 : -1));
}

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

  /** Remembers a verdict in its project (the later one for the same answer); false when it could not be stored. */
  async add(v: Verdict): Promise<boolean> {
    const project = projectName(v.project);
    try {
      const db = this.db();
      await db?.set(storeKey(project, v), { ...v, project });
      return db !== null;
    } catch {
      return false;
    }
  }

  /** Forgets the verdict on an answer in a project (an answer taken back). */
  async remove(v: Pick<Verdict, 'question' | 'golds' | 'candidate'>, project?: string): Promise<void> {
    try {
      await this.db()?.del(storeKey(projectName(project), v));
    } catch {
      /* not stored: nothing to forget */
    }
  }

  /** A project's verdicts, or every project's. */
  async all(project?: string): Promise<Verdict[]> {
    let vs: Verdict[];
    try {
      vs = ((await this.db()?.values()) ?? []) as Verdict[];
    } catch {
      return [];
    }
    return project === undefined ? vs : vs.filter(inProject(project));
  }

  /** A project's memory and every project kept (the one answered last first), from one read of the store. */
  async overview(project?: string): Promise<{ memory: LabelMemory; projects: VerdictProject[] }> {
    const all = await this.all();
    return { memory: memoryOf(all.filter(inProject(project))), projects: projectsOf(all) };
  }

  async memory(project?: string): Promise<LabelMemory> {
    return memoryOf(await this.all(projectName(project)));
  }

  /** A project's verdicts as a file `verity review --known` (and the app) reads: one JSON line each, with what it judged. */
  async export(project?: string): Promise<Blob> {
    const lines = (await this.all(projectName(project))).map((v) =>
      JSON.stringify({
        question: v.question,
        golds: v.golds,
        candidate: v.candidate,
        label: labelJson(v.label),
        ...(v.reviewer !== undefined ? { reviewer: v.reviewer } : {}),
        ...(v.time !== undefined ? { time: v.time } : {}),
        project: projectName(v.project),
      }),
    );
    return new Blob(lines.length ? [`${lines.join('\n')}\n`] : [], { type: 'application/x-ndjson' });
  }

  /** Forgets a project's verdicts (the others stay). */
  async clear(project?: string): Promise<void> {
    const name = projectName(project);
    try {
      const db = this.db();
      for (const v of await this.all(name)) await db?.del(storeKey(name, v));
    } catch {
      /* nothing stored */
    }
  }
}
