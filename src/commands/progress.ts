/**
 * Progress of a long operator command on stderr: on a TTY a bar redrawn in place with the
 * share done, the counts and an ETA from the rate so far; otherwise one plain line at most
 * every few seconds (logs stay readable).
 */
const PLAIN_EVERY_MS = 5000;
const BAR = 30;

export interface ProgressSink {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface ProgressReporter {
  update(p: { done: number; total: number }): void;
  done(): void;
}

/** `m:ss` (or `h:mm:ss`) of a duration in seconds. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** One progress line: `label [#####-----]  50% 500/1000, ETA 0:12`. */
export function progressLine(label: string, done: number, total: number, elapsedMs: number): string {
  const share = total > 0 ? Math.min(1, done / total) : 1;
  const filled = Math.round(share * BAR);
  const rate = elapsedMs > 0 ? done / elapsedMs : 0;
  const eta = rate > 0 ? clock((total - done) / rate / 1000) : '?';
  const percent = `${Math.floor(share * 100)}%`.padStart(4);
  return `${label} [${'#'.repeat(filled)}${'-'.repeat(BAR - filled)}] ${percent} ${done}/${total}, ETA ${eta}`;
}

export function progressReporter(out: ProgressSink, label: string, now = Date.now): ProgressReporter {
  const started = now();
  let lastPlain = 0;
  let last = { done: 0, total: 0 };
  return {
    update(p) {
      last = p;
      const line = progressLine(label, p.done, p.total, now() - started);
      if (out.isTTY) out.write(`\r${line}`);
      else if (now() - lastPlain >= PLAIN_EVERY_MS) {
        lastPlain = now();
        out.write(`${line}\n`);
      }
    },
    done() {
      const line = `${label}: ${last.done} documents in ${clock((now() - started) / 1000)}`;
      out.write(out.isTTY ? `\r${line}${' '.repeat(BAR + 20)}\n` : `${line}\n`);
    },
  };
}
