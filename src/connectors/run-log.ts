/**
 * Run records of one connector: what each run did, for its status (last run, last success,
 * failures with their reasons) across restarts. File `DATA_DIR/connectors/<id>/runs.bin`,
 * framed records (src/storage/record-log.ts):
 *   {k: "start", run, at, trigger}   a run began (fsynced before it touches anything)
 *   {k: "end", view}                 its final view (counts, failures, error)
 * A start without an end is a run the process did not finish (killed, crashed): it is reported
 * `interrupted`, and the scheduler runs the connector again at once. The last KEPT_RUNS runs are
 * kept; the file is rewritten with them when it holds more than four times as many records.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../log.ts';
import { encodeFrames } from '../storage/frame.ts';
import { RecordLogWriter, replaceFileDurably, replayFile } from '../storage/record-log.ts';

export type RunState = 'running' | 'completed' | 'failed' | 'paused' | 'stopped' | 'interrupted';
export type RunTrigger = 'schedule' | 'manual' | 'resume' | 'restart' | 'cli';

export interface RunCounts {
  unchanged: number;
  sent: number;
  already_indexed: number;
  skipped: number;
  failed: number;
  deleted: number;
}

export interface RunFailure {
  item: string;
  reason: string;
}

export interface RunView {
  run: number;
  trigger: RunTrigger;
  state: RunState;
  started_at: string;
  finished_at: string | null;
  /** Items handled of the items known (the connector may raise the total while it lists). */
  progress: { done: number; total: number };
  counts: RunCounts;
  /** The first MAX_FAILURES items that failed or were skipped, with their reasons. */
  failures: RunFailure[];
  failures_omitted: number;
  /** Why the run failed as a whole. */
  error: string | null;
  /** Why the listing was incomplete (nothing unseen was deleted). */
  incomplete: string | null;
}

export const MAX_FAILURES = 100;
const KEPT_RUNS = 20;

type Rec = { k: 'start'; run: number; at: string; trigger: RunTrigger } | { k: 'end'; view: RunView };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function newRunView(run: number, trigger: RunTrigger, at: string): RunView {
  return {
    run,
    trigger,
    state: 'running',
    started_at: at,
    finished_at: null,
    progress: { done: 0, total: 0 },
    counts: { unchanged: 0, sent: 0, already_indexed: 0, skipped: 0, failed: 0, deleted: 0 },
    failures: [],
    failures_omitted: 0,
    error: null,
    incomplete: null,
  };
}

export class RunLog {
  private constructor(
    /** Finished runs, oldest first (at most KEPT_RUNS). */
    readonly runs: RunView[],
    private readonly writer: RecordLogWriter,
  ) {}

  static async open(dir: string, log: Logger): Promise<RunLog> {
    await mkdir(dir, { recursive: true });
    const path = join(dir, 'runs.bin');
    const replayed = await replayFile(path, log);
    const runs: RunView[] = [];
    let open: Rec | undefined;
    for (const raw of replayed.records) {
      const rec = JSON.parse(decoder.decode(raw)) as Rec;
      if (rec.k === 'start') {
        if (open?.k === 'start') runs.push(interrupted(open));
        open = rec;
      } else {
        runs.push(rec.view);
        open = undefined;
      }
    }
    if (open?.k === 'start') runs.push(interrupted(open));
    const kept = runs.slice(-KEPT_RUNS);
    let size = replayed.size;
    if (replayed.records.length > 4 * KEPT_RUNS || kept.length < runs.length || open) {
      const bytes = encodeFrames(kept.map((view) => encoder.encode(JSON.stringify({ k: 'end', view } satisfies Rec))));
      await replaceFileDurably(path, bytes);
      size = bytes.byteLength;
    }
    return new RunLog(kept, new RecordLogWriter(path, { size }));
  }

  get last(): RunView | undefined {
    return this.runs[this.runs.length - 1];
  }

  get nextRunNumber(): number {
    return (this.last?.run ?? 0) + 1;
  }

  /** When the last run that completed its listing finished. */
  get lastSuccessAt(): string | null {
    for (let i = this.runs.length - 1; i >= 0; i--)
      if (this.runs[i].state === 'completed') return this.runs[i].finished_at;
    return null;
  }

  started(view: RunView): Promise<void> {
    return this.append({ k: 'start', run: view.run, at: view.started_at, trigger: view.trigger });
  }

  finished(view: RunView): Promise<void> {
    this.runs.push(structuredClone(view));
    if (this.runs.length > KEPT_RUNS) this.runs.shift();
    return this.append({ k: 'end', view });
  }

  close(): Promise<void> {
    return this.writer.close();
  }

  private append(rec: Rec): Promise<void> {
    return this.writer.append(encoder.encode(JSON.stringify(rec)));
  }
}

function interrupted(start: Extract<Rec, { k: 'start' }>): RunView {
  const view = newRunView(start.run, start.trigger, start.at);
  view.state = 'interrupted';
  view.error = 'the process stopped during the run (crash or kill); the next run picks up where it left off';
  return view;
}
