/**
 * The Score page's run, as reactive state and actions: open files, map, run, cancel, continue, resume a saved
 * run, and recover from a dead worker (resume in new workers, smaller models after a model crash). The
 * scoring itself is the session in the scoring worker; this keeps the page's view of it, so Score.svelte is
 * layout only. run-guard.ts does the pinging and the recovery budget.
 */
import { proxy } from 'comlink';
import { DEFAULT_METRICS } from '../../core/metrics/index.ts';
import type { ColumnMap } from '../../core/io/fields.ts';
import type { LoadedModel, ModelSpec, Role } from '../../runtime/messages.ts';
import { fallbackSpecs } from '../../runtime/fallback.ts';
import type { Inspection, MappedSummary, Result, RunConfig, RunEvent, RunOutcome, SavedRunInfo } from '../../session/api.ts';
import type { SystemsMapping } from '../../session/api.ts';
import { runnable, unscorable } from '../../session/scorable.ts';
import {
  connectScoringToModels,
  hasModelHost,
  holdCores,
  modelHostApi,
  onModelWorkerCrash,
  onScoreWorkerCrash,
  resetModelHost,
  resetScoreWorker,
  scoreApi,
  whyNotStarted,
  type WorkerCrash,
} from './workers.ts';
import { loadForScoring, RecoveryBudget, stuckMessage, watch } from './run-guard.ts';
import { specFor } from './settings.svelte.ts';
import { ROLE_NAMES } from './models.ts';
import { rolesFor } from '../../runtime/roles.ts';
import { demoUrl, type Demo } from './demos.ts';
import { holdNextFrame, whenDrawn } from './frames.ts';
import { say } from './messages.ts';
import { refuse } from '../../core/errors.ts';

/** sessionStorage key: the run to resume once the page has been reloaded (see #workerDied). */
const RESUME_AFTER_RELOAD = 'verity:resume-after-reload';

export type Phase = 'empty' | 'inspected' | 'loading-models' | 'running' | 'finished';
type Specs = Partial<Record<Role, ModelSpec>>;
export interface PageMapping {
  map: ColumnMap;
  goldSep: string;
  systems?: SystemsMapping;
}

export class ScoringPage {
  phase = $state<Phase>('empty');
  reading = $state<{ read: number; total: number } | null | 'started'>(null);
  error = $state<string | null>(null);
  /** Why a delete of a saved run did not happen. */
  runNote = $state<string | null>(null);
  warnings = $state<string[]>([]);
  inspection = $state.raw<Inspection | null>(null);
  mapping = $state<PageMapping>({ map: {}, goldSep: '' });
  /** Files open together (one system each). */
  files = $state(1);
  /** Bumped by each calibration: the comparison is rebuilt with the new thresholds. */
  calibrations = $state(0);
  summary = $state.raw<MappedSummary | null>(null);
  chosen = $state<string[]>([...DEFAULT_METRICS]);
  modelWriter = $state(false);
  /** After a model worker crash, retry with the next smaller registry model of the role. */
  allowSmaller = $state(false);
  modelsReady = $state(true);
  loadingRoles = $state<Role[]>([]);
  modelProgress = $state<Partial<Record<Role, { loaded: number; total: number }>>>({});
  loaded = $state<LoadedModel[]>([]);
  progress = $state<{ done: number; total: number; rowsPerSecond: number } | null>(null);
  outcome = $state.raw<RunOutcome | null>(null);
  runConfig = $state.raw<RunConfig | null>(null);
  runId = $state<string | null>(null);
  scored = $state(0);
  saved = $state.raw<SavedRunInfo[]>([]);
  /** "Score N rows" after a cancelled run asks before discarding the rows scored so far. */
  askRestart = $state(false);
  /** This page's worker code is gone (a newer version was installed): only a reload helps. */
  reloadNeeded = $state(false);
  /** Cancel was clicked and the run has not stopped yet. */
  cancelling = $state(false);

  notes = $derived(this.summary ? unscorable(this.chosen, this.summary) : []);
  toRun = $derived(this.summary ? runnable(this.chosen, this.summary) : this.chosen);
  roles = $derived(rolesFor(this.toRun, { modelWriter: this.modelWriter }));
  busy = $derived(this.phase === 'running' || this.phase === 'loading-models');
  /**
   * The results (and the comparison) are on the page: from Run on, not from the first rows, by when the scoring
   * workers fill the cores and mounting them made a main-thread task over 50 ms (bench:app).
   */
  showsResults = $derived(this.scored > 0 || this.phase === 'running');
  /** A run of this page that stopped before its last row (cancelled, failed, stuck): it can go on. */
  partial = $derived(this.phase === 'finished' && this.runId !== null && this.progress !== null && this.scored < this.progress.total);
  /** Several systems to compare once rows are scored. */
  comparing = $derived((this.summary?.systems?.systems.length ?? 0) > 1);

  #budget = new RecoveryBudget(3);
  #starting = false;
  #cancelEarly = false;
  #stopGuard = () => {};
  #onEvent = (e: RunEvent): void => {
    if (e.type === 'started') this.runId = e.id;
    else if (e.type === 'progress') {
      // One that lands after the outcome is older than the outcome's counts.
      if (this.outcome) return;
      // Twice a second while scoring: the frame that shows it gets the cores (bench:app --trace).
      holdNextFrame(holdCores);
      this.progress = { done: e.done, total: e.total, rowsPerSecond: e.rowsPerSecond };
      this.scored = e.done;
    } else if (e.type === 'model-loaded') this.loaded = [...this.loaded.filter((m) => m.role !== e.model.role), e.model];
    else this.warnings = [...this.warnings, e.message];
  };

  /** Listens for worker crashes and lists the saved runs, or resumes the run a reload was asked for; returns the cleanup (for onMount). */
  attach(): () => void {
    onScoreWorkerCrash((c) => void this.#workerDied(c, () => this.#scoringDied(c.reason)));
    onModelWorkerCrash((c) => this.phase === 'running' && void this.#workerDied(c, () => this.#recoverModels(c.reason)));
    const pending = sessionStorage.getItem(RESUME_AFTER_RELOAD);
    sessionStorage.removeItem(RESUME_AFTER_RELOAD);
    if (pending) void this.resume(pending);
    else void this.refreshRuns();
    return () => {
      this.#stopGuard();
      onScoreWorkerCrash(null);
      onModelWorkerCrash(null);
    };
  }

  async refreshRuns() {
    this.saved = await scoreApi().runs();
  }

  /** Forgets everything computed from the previous file or mapping (results, report, exports, progress). */
  #resetRun() {
    this.outcome = this.progress = this.runConfig = this.runId = null;
    [this.scored, this.warnings, this.askRestart, this.cancelling] = [0, [], false, false];
  }

  /** One file, or several (one per system, compared after the run). */
  async openFiles(fs: File[]) {
    this.#resetRun();
    [this.error, this.phase, this.inspection, this.summary, this.reading] = [null, 'empty', null, null, 'started'];
    try {
      const onRead = proxy((read: number, total: number) => void (this.reading = { read, total }));
      const r =
        fs.length === 1
          ? await scoreApi().open(fs[0]!, fs[0]!.name, onRead)
          : await scoreApi().openFiles(
              fs.map((f) => ({ blob: f, name: f.name })),
              onRead,
            );
      if (!r.ok) return void (this.error = fs.length === 1 ? `${fs[0]!.name}: ${say(r.error)}` : say(r.error));
      this.inspection = r.value;
      this.files = fs.length;
      // The systems as verity compare would find them: the wide layout, a system column, else one per file.
      const { guess } = r.value;
      this.mapping = { map: guess.map, goldSep: r.value.goldSep ?? '', ...(guess.systems ? { systems: guess.systems } : {}) };
      this.phase = 'inspected';
      await this.remap();
    } finally {
      this.reading = null;
    }
  }

  /** A demo file that ships with the app, scored at once with the embedded default (the first screen's buttons). */
  async tryDemo(demo: Demo) {
    this.error = null;
    const res = await fetch(demoUrl(demo)).catch(() => null);
    if (!res?.ok) return void (this.error = `the demo file ${demo.file} could not be loaded${res ? ` (HTTP ${res.status})` : ''}`);
    await this.openFiles([new File([await res.blob()], demo.file, { type: 'application/x-ndjson' })]);
    if (!this.summary || this.error) return;
    this.chosen = [...DEFAULT_METRICS];
    await this.run();
  }

  async remap() {
    // The session drops results of the old mapping; so does the page, and its exports with them.
    this.#resetRun();
    this.phase = 'inspected';
    const r = await scoreApi().map($state.snapshot(this.mapping));
    this.summary = r.ok ? r.value : null;
    this.error = r.ok ? null : say(r.error);
  }

  /** Loads the models of the chosen metrics (the user agreed); a role that fails gives "not scored" rows. */
  async #prepareModels(specs: Specs): Promise<Specs> {
    if (Object.keys(specs).length === 0) return {};
    [this.phase, this.loadingRoles, this.modelProgress] = ['loading-models', Object.keys(specs) as Role[], {}];
    const r = await loadForScoring(specs, (role, p) => void (this.modelProgress = { ...this.modelProgress, [role]: p }));
    this.warnings = [...this.warnings, ...r.warnings];
    this.loadingRoles = [];
    return r.specs;
  }

  /** Runs (or continues) in the scoring worker under the watchdog, then shows the outcome and the report. */
  async #go(start: () => Promise<Result<RunOutcome>>) {
    [this.error, this.outcome, this.askRestart, this.phase] = [null, null, false, 'running'];
    this.#stopGuard();
    this.#stopGuard = watch({
      pingScore: () => scoreApi().ping(),
      pingModels: () => (this.runConfig && Object.keys(this.runConfig.models).length > 0 && hasModelHost() ? modelHostApi().ping() : null),
      onDead: (who) =>
        void (who === 'models'
          ? this.#recoverModels('the model worker stopped answering')
          : this.#scoringDied('the scoring worker stopped answering')),
    });
    // The results (and the comparison) mount before the scoring workers take the cores: mounted after, while
    // the workers start up on every core, it was a main-thread task near 50 ms (bench:app).
    this.#starting = true;
    await whenDrawn();
    this.#starting = false;
    const started = start();
    if (this.#cancelEarly) {
      this.#cancelEarly = false;
      this.cancel();
    }
    const r = await started;
    this.cancelling = false;
    this.#stopGuard();
    if (this.phase !== 'running') return; // a recovery took over
    // The counts from the outcome: its last progress event comes on another channel and may land after it.
    if (r.ok) {
      [this.outcome, this.scored] = [r.value, r.value.done];
      this.progress = { done: r.value.done, total: r.value.total, rowsPerSecond: this.progress?.rowsPerSecond ?? 0 };
    } else this.error = say(r.error);
    this.phase = this.scored > 0 ? 'finished' : 'inspected';
    void this.refreshRuns();
  }

  /** Scores every row from the first; after a partial run only once the user `confirmed` discarding it. */
  async run(confirmed = false) {
    if (!this.summary || this.summary.rows === 0) return;
    if (this.partial && !confirmed) return void (this.askRestart = true);
    const total = this.summary.rows;
    this.#resetRun();
    [this.error, this.loaded] = [null, []];
    const models = await this.#prepareModels(Object.fromEntries(this.roles.map((role) => [role, $state.snapshot(specFor(role))])) as Specs);
    const config: RunConfig = { metrics: [...this.toRun], settings: {}, models, mapping: $state.snapshot(this.mapping) };
    this.runConfig = config;
    this.progress = { done: 0, total, rowsPerSecond: 0 };
    await this.#go(() => scoreApi().run(config, proxy(this.#onEvent)));
  }

  cancel() {
    this.cancelling = true;
    // Cancelled while the results mount: the run is cancelled as soon as it has started.
    if (this.#starting) this.#cancelEarly = true;
    else void scoreApi().cancel();
  }

  /** Goes on from the first unscored row of a stopped run. */
  continueRun() {
    return this.#go(() => scoreApi().continueRun(proxy(this.#onEvent)));
  }

  /** Deletes a saved run, unless it gained review answers since the list was shown: then the list is refreshed and the person asked again. */
  async deleteRun(id: string) {
    const seen = this.saved.find((r) => r.id === id)?.answers ?? 0;
    const r = await scoreApi().deleteRun(id, seen);
    await this.refreshRuns();
    this.runNote = r.deleted
      ? null
      : `Not deleted: this run now holds ${r.answers.toLocaleString('en')} review answer${r.answers === 1 ? '' : 's'} (given in another tab since this list was shown). Delete again to delete them with it, or export the review first.`;
  }

  clearRuns() {
    return scoreApi()
      .clearRuns()
      .then(() => this.refreshRuns());
  }

  /** Shows a saved run as it was left, finished or not (table, report, comparison, exports), scoring nothing. */
  open(id: string) {
    return this.resume(id, { go: false, open: true });
  }

  /** Brings a saved run back into a (new) scoring worker; `keep` warnings survive, `go` scores the rest. */
  async resume(id: string, opts: { models?: Specs; keep?: string[]; go?: boolean; stopped?: string; open?: boolean } = {}) {
    this.#resetRun();
    const r = await scoreApi().resume(id, opts.models);
    if (!r.ok) {
      const why = `cannot resume: ${say(r.error)}`;
      this.error = /open the file again/i.test(why) ? why : `${why}. Open the file again to start over.`;
      this.phase = this.inspection ? 'inspected' : 'empty';
      return void this.refreshRuns();
    }
    const info = r.value;
    [this.inspection, this.summary, this.runConfig, this.runId, this.scored, this.warnings] = [
      info.inspection,
      info.summary,
      info.config,
      id,
      info.done,
      opts.keep ?? [],
    ];
    const sys = info.config.mapping.systems;
    this.mapping = { map: { ...info.config.mapping.map }, goldSep: info.config.mapping.goldSep ?? '', ...(sys ? { systems: sys } : {}) };
    this.files = info.summary.systems?.layout === 'files' ? info.summary.systems.systems.length : 1;
    this.chosen = [...info.config.metrics];
    this.progress = { done: info.done, total: info.summary.rows, rowsPerSecond: 0 };
    if (Object.keys(info.config.models).length) await connectScoringToModels();
    if (opts.open) {
      const value: RunOutcome = {
        status: info.done >= info.summary.rows ? 'done' : 'cancelled',
        done: info.done,
        total: info.summary.rows,
        ms: 0,
        models: {},
      };
      await this.#go(async () => ({ ok: true, value }));
    } else if (opts.go === false) await this.#go(async () => refuse('other', opts.stopped ?? ''));
    else await this.continueRun();
  }

  /**
   * A worker died. One that never answered could not load its script (this page's files were replaced by a newer
   * version): a new one would die the same way at once, so the page asks for a reload and resumes the run then.
   */
  async #workerDied(c: WorkerCrash, recover: () => Promise<void>) {
    if (!c.neverStarted) return recover();
    if (this.reloadNeeded) return;
    this.reloadNeeded = true;
    this.#stopGuard();
    const running = this.phase === 'running' || this.phase === 'loading-models';
    const resumable = running && this.runId !== null;
    if (resumable) sessionStorage.setItem(RESUME_AFTER_RELOAD, this.runId!);
    if (running) this.phase = this.scored > 0 ? 'finished' : 'inspected';
    this.error = `${await whyNotStarted(c)}${resumable ? '; the run goes on from its last saved rows after the reload' : ''}.`;
  }

  /** A worker died mid-run: resume the saved run in new workers, unless it keeps dying on the same rows. */
  async #recover(reason: string, note: string, models?: Specs) {
    this.#stopGuard();
    resetScoreWorker();
    const id = this.runId;
    // Counted at the saved point (a worker that cannot even start is not re-created: see #workerDied).
    const run = id ? (await scoreApi().runs()).find((r) => r.id === id) : undefined;
    if (!run) {
      this.error = `${reason}, and the run could not be saved in this browser, so it cannot be resumed. Open the file again.`;
      return void (this.phase = this.inspection ? 'inspected' : 'empty');
    }
    const keep = [...this.warnings, note];
    if (this.#budget.allow(run.id, run.done)) await this.resume(run.id, { ...(models ? { models } : {}), keep });
    else
      await this.resume(run.id, {
        keep: this.warnings,
        go: false,
        stopped: stuckMessage(reason, run.done, run.chunkSize, run.total, this.#budget.failures),
      });
  }

  #scoringDied(reason: string) {
    return this.#recover(reason, `${reason}; a new worker resumed the run from the last saved rows.`);
  }

  /** The model worker died mid-run: new model and scoring workers, fallback models, resume from the saved rows. */
  async #recoverModels(reason: string) {
    if (!this.runConfig) return;
    resetModelHost();
    const fb = fallbackSpecs(this.runConfig.models, this.allowSmaller);
    const changes = [...fb.smaller.map((s) => `${ROLE_NAMES[s.role]}: ${s.from} → ${s.to}`), 'models run on WASM'];
    await this.#recover(
      reason,
      `${reason} (often: out of memory loading a large model); resumed with new workers: ${changes.join('; ')}.`,
      fb.specs,
    );
  }
}
