/**
 * Runs connectors in the background: each connector whose next run is due is started, at most
 * MAX_CONCURRENT_RUNS at a time and one run per connector; a timer wakes up at the earliest due
 * time (at least once a minute). A connector is due
 * - at once after its creation, and after its last run ended interrupted (process killed) or
 *   stopped (shutdown): the new run resumes, skipping what was recorded;
 * - every `interval_minutes` after its last run started; never when paused or on demand only.
 * `runNow` starts a run at once (admin API, CLI). `pause` aborts a running run at its next item;
 * `stop` (shutdown) aborts every run and waits for them to record what they did.
 */
import { conflict } from '../errors.ts';
import { setMaxListeners } from 'node:events';
import { rm } from 'node:fs/promises';
import { moduleOf } from './registry.ts';
import { RunLog, newRunView, type RunTrigger, type RunView } from './run-log.ts';
import { connectorDir, executeRun, type RunnerDeps } from './runner.ts';
import { connectorRecords, type ConnectorRecord } from './state.ts';

export const MAX_CONCURRENT_RUNS = 2;
const MAX_SLEEP_MS = 60_000;

export interface ConnectorStatus {
  state: 'running' | 'idle' | 'paused';
  current_run: RunView | null;
  last_run: RunView | null;
  last_success_at: string | null;
  next_run_at: string | null;
}

interface Active {
  view: RunView;
  controller: AbortController;
  done: Promise<RunView>;
}

export class ConnectorScheduler {
  private readonly logs = new Map<string, RunLog>();
  private readonly active = new Map<string, Active>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private background = false;
  private stopped = false;

  constructor(private readonly deps: RunnerDeps) {}

  /** Open the run records of every connector; with `background`, start scheduling. */
  async start(options: { background: boolean }): Promise<void> {
    for (const id of connectorRecords(this.deps.state).keys()) await this.runLog(id);
    this.background = options.background;
    this.arm();
  }

  /** Abort every run, wait until each has recorded its end, close the files. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    const runs = [...this.active.values()];
    for (const a of runs) a.controller.abort('stop');
    await Promise.all(runs.map((a) => a.done));
    for (const log of this.logs.values()) await log.close();
    this.logs.clear();
  }

  status(record: ConnectorRecord): ConnectorStatus {
    const log = this.logs.get(record.id);
    const current = this.active.get(record.id)?.view ?? null;
    const next = this.nextRunAt(record);
    return {
      state: current ? 'running' : record.paused ? 'paused' : 'idle',
      current_run: current,
      last_run: log?.last ?? null,
      last_success_at: log?.lastSuccessAt ?? null,
      next_run_at: next === null ? null : new Date(next).toISOString(),
    };
  }

  /** Start a run now; resolves with its view once started (`done` resolves at its end). */
  async runNow(record: ConnectorRecord, trigger: RunTrigger): Promise<{ view: RunView; done: Promise<RunView> }> {
    if (this.stopped) throw conflict('the server is stopping');
    const log = await this.runLog(record.id);
    const running = this.active.get(record.id);
    if (running) throw conflict(`connector ${record.id} is already running (run ${running.view.run})`);
    const active = this.launch(record, log, trigger);
    return { view: active.view, done: active.done };
  }

  /** The end of the connector's current run (undefined when none runs). */
  whenIdle(id: string): Promise<RunView> | undefined {
    return this.active.get(id)?.done;
  }

  /** Abort a running run (it ends `paused`); scheduling stops while the record says paused. */
  pause(id: string): void {
    this.active.get(id)?.controller.abort('pause');
    this.arm();
  }

  /** A connector was created or changed: its schedule may have moved. */
  async changed(id: string): Promise<void> {
    await this.runLog(id);
    this.arm();
  }

  /** A connector is being deleted: abort its run, wait for it, drop its files. */
  async remove(id: string): Promise<void> {
    const a = this.active.get(id);
    if (a) {
      a.controller.abort('stop');
      await a.done;
    }
    await this.logs.get(id)?.close();
    this.logs.delete(id);
    await rm(connectorDir(this.deps.config.dataDir, id), { recursive: true, force: true });
    this.arm();
  }

  /** When the connector runs next (epoch ms), or null. */
  private nextRunAt(record: ConnectorRecord): number | null {
    if (record.paused || this.active.has(record.id)) return null;
    const last = this.logs.get(record.id)?.last;
    if (last && (last.state === 'interrupted' || last.state === 'stopped'))
      return Date.parse(last.finished_at ?? last.started_at);
    if (record.interval_minutes === null) return null;
    if (!last) return Date.parse(record.created_at);
    return Date.parse(last.started_at) + record.interval_minutes * 60_000;
  }

  private async runLog(id: string): Promise<RunLog> {
    let log = this.logs.get(id);
    if (!log) {
      log = await RunLog.open(connectorDir(this.deps.config.dataDir, id), this.deps.log);
      if (this.logs.has(id)) await log.close();
      else this.logs.set(id, log);
    }
    return this.logs.get(id)!;
  }

  /** Register and start a run (synchronously registered: no second run can start meanwhile). */
  private launch(record: ConnectorRecord, log: RunLog, trigger: RunTrigger): Active {
    const view = newRunView(log.nextRunNumber, trigger, new Date(this.deps.now()).toISOString());
    const controller = new AbortController();
    // Every in-flight fetch, wait and extraction of the run listens to its signal.
    setMaxListeners(200, controller.signal);
    let finish!: (v: RunView) => void;
    const active: Active = { view, controller, done: new Promise((resolve) => (finish = resolve)) };
    this.active.set(record.id, active);
    void (async () => {
      try {
        await log.started(view);
        const module = moduleOf(record.type);
        if (!module) throw new Error(`unknown connector type ${record.type}`);
        this.deps.log.info('connector run started', { connector: record.id, run: view.run, trigger });
        await executeRun(this.deps, record, module, view, controller.signal);
      } catch (err) {
        view.state = 'failed';
        view.error ??= err instanceof Error ? err.message : String(err);
        view.finished_at ??= new Date(this.deps.now()).toISOString();
      }
      try {
        await log.finished(view);
      } catch (err) {
        this.deps.log.error('could not record the end of a connector run', { connector: record.id, error: err });
      }
      this.deps.log.info('connector run ended', {
        connector: record.id,
        run: view.run,
        state: view.state,
        ...view.counts,
        error: view.error ?? undefined,
      });
      this.active.delete(record.id);
      finish(view);
      this.arm();
    })();
    return active;
  }

  /** Start what is due (within the concurrency limit) and sleep until the next due time. */
  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.background || this.stopped) return;
    const now = this.deps.now();
    let sleep = MAX_SLEEP_MS;
    for (const record of connectorRecords(this.deps.state).values()) {
      const at = this.nextRunAt(record);
      if (at === null || !this.logs.has(record.id)) continue;
      if (at <= now && this.active.size < MAX_CONCURRENT_RUNS) {
        const log = this.logs.get(record.id)!;
        const trigger: RunTrigger =
          log.last?.state === 'interrupted' || log.last?.state === 'stopped' ? 'restart' : 'schedule';
        this.launch(record, log, trigger);
      } else if (at > now) sleep = Math.min(sleep, at - now);
    }
    this.timer = setTimeout(() => this.arm(), Math.max(sleep, 50));
    this.timer.unref();
  }
}
