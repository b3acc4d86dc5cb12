import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** SIGTERM to each; resolves once all exited (those already gone, by code or signal, at once). */
export async function stopAll(children: ChildProcess[]) {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(
    children.map(
      (c) =>
        new Promise((r) =>
          c.exitCode !== null || c.signalCode !== null ? r(null) : c.once('exit', r),
        ),
    ),
  );
  children.length = 0;
}

/** The CPU time a process has used, in ms. */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime, in clock ticks (100 per second on Linux).
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}
