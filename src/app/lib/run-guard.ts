/**
 * Keeps a run alive from the page: pings the scoring worker (and the model worker when the run uses models)
 * while a run goes, tells "busy" from "dead", and limits recoveries. The session yields between short slices
 * of rows, so a busy worker answers a ping within a fraction of a second; one that does not answer for
 * `timeout` ms is dead (killed, out of memory), not busy. A run whose saved progress does not move across
 * repeated recoveries is stopped with a message naming the rows, instead of restarting forever.
 */
import type { ModelSpec, Role } from '../../runtime/messages.ts';
import type { Result } from '../../core/errors.ts';
import { loadModels } from './models.ts';
import { connectScoringToModels, modelHostApi } from './workers.ts';

export type Worker_ = 'scoring' | 'models';

export interface GuardOptions {
  /** Pings the scoring worker: a Result, ok while it is alive. */
  pingScore: () => Promise<Result<unknown, unknown>>;
  /** Pings the model worker, or null when the run uses none. */
  pingModels: () => Promise<Result<unknown, unknown>> | null;
  /** A worker did not answer in time. Called at most once per start(). */
  onDead: (who: Worker_) => void;
  interval?: number;
  timeout?: number;
}

/** Starts pinging; returns the function that stops it. */
export function watch(o: GuardOptions): () => void {
  const timeout = o.timeout ?? 8000;
  let waiting = false;
  let stopped = false;
  const late = () => new Promise<'dead'>((r) => setTimeout(() => r('dead'), timeout));
  // Dead: no answer in time, a rejected call, or a ping that answers a failure (a pool worker stopped answering).
  const answered = (p: Promise<Result<unknown, unknown>> | null) =>
    p
      ? Promise.race([
          p.then(
            (r) => (r.ok ? ('alive' as const) : ('dead' as const)),
            () => 'dead' as const,
          ),
          late(),
        ])
      : Promise.resolve('alive' as const);
  const timer = setInterval(() => {
    if (waiting || stopped) return;
    waiting = true;
    void Promise.all([answered(o.pingScore()), answered(o.pingModels())]).then(([s, m]) => {
      waiting = false;
      if (stopped) return;
      if (m === 'dead' || s === 'dead') {
        stop();
        o.onDead(m === 'dead' ? 'models' : 'scoring');
      }
    });
  }, o.interval ?? 2000);
  const stop = () => {
    stopped = true;
    clearInterval(timer);
  };
  return stop;
}

/** Counts recoveries of one run at one saved point; more than `max` without progress stops the run. */
export class RecoveryBudget {
  private key = '';
  private count = 0;
  constructor(private readonly max = 3) {}

  /** Records a failure of `runId` at saved row `done`; false when that point already had `max` recoveries. */
  allow(runId: string, done: number): boolean {
    const key = `${runId}@${done}`;
    if (key !== this.key) {
      this.key = key;
      this.count = 0;
    }
    return ++this.count <= this.max;
  }

  /** Failures at the current point so far. */
  get failures(): number {
    return this.count;
  }
}

/** The message for a run that keeps failing on the same rows (1-based, as the file's rows are counted). */
export function stuckMessage(reason: string, done: number, chunkSize: number, total: number, times: number): string {
  const last = Math.min(total, done + chunkSize);
  return `${reason} ${times} times while scoring rows ${(done + 1).toLocaleString('en')}–${last.toLocaleString('en')} of ${total.toLocaleString('en')}; the run is stopped there (the rows before are saved). Those rows may be too large for this browser: leave them out, or score the file with the CLI.`;
}

/** Loads a run's models in the model worker, then gives the scoring worker its line to them. */
export async function loadForScoring(
  specs: Partial<Record<Role, ModelSpec>>,
  onProgress: (role: Role, p: { loaded: number; total: number }) => void,
): Promise<{ specs: Partial<Record<Role, ModelSpec>>; warnings: string[] }> {
  const { failures } = await loadModels(modelHostApi(), specs, onProgress);
  await connectScoringToModels();
  const ok = { ...specs };
  for (const f of failures) delete ok[f.role];
  return { specs: ok, warnings: failures.map((f) => `${f.message} Its metrics give "not scored" for every row.`) };
}
