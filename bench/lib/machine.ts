/**
 * One line describing the machine and its load, printed under every table:
 * timings on a shared 2-core box are only comparable within one run.
 */
import { cpus, loadavg, totalmem } from 'node:os';

export function machineLine(): string {
  const c = cpus();
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  return `machine: ${c[0]?.model ?? 'unknown CPU'} x${c.length}, ${(totalmem() / 2 ** 30).toFixed(0)} GB RAM, Node ${process.version}, load average ${load}, ${new Date().toISOString()}`;
}

/** CPU time (user + system) of this process in ms. */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
