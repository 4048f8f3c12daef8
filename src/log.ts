/**
 * Structured logging: one JSON object per line on stdout (stderr for errors),
 * with a level filter and child loggers that carry fixed fields such as the
 * request id. Values under secret-looking keys are replaced before writing, so
 * a key or Authorization header can never reach the log by accident.
 */
import type { LogLevel } from './config.ts';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };
const SECRET_KEY = /authorization|secret|password|api[-_]?key|^key$|token$|credential/i;

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

export type LogSink = (line: string, level: LogLevel) => void;

const defaultSink: LogSink = (line, level) => {
  if (level === 'error') process.stderr.write(line + '\n');
  else process.stdout.write(line + '\n');
};

/** Replace secret-looking values (recursively, bounded depth) with "[redacted]". */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return { name: value.name, message: value.message };
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEY.test(k) ? '[redacted]' : redact(v, depth + 1);
  return out;
}

export function createLogger(level: LogLevel, sink: LogSink = defaultSink, base: LogFields = {}): Logger {
  const min = ORDER[level];
  const write = (lvl: Exclude<LogLevel, 'silent'>, msg: string, fields?: LogFields) => {
    if (ORDER[lvl] < min) return;
    const record = {
      time: new Date().toISOString(),
      level: lvl,
      msg,
      ...(redact({ ...base, ...fields }) as LogFields),
    };
    sink(JSON.stringify(record), lvl);
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (fields) => createLogger(level, sink, { ...base, ...fields }),
  };
}

/** A logger that discards everything (tests that do not look at logs). */
export const silentLogger: Logger = createLogger('silent');
