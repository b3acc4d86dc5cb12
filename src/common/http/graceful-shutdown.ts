import { Injectable, LoggerService } from '@nestjs/common';
import { HttpDrain } from './http-drain';

/** Whether the process is stopping: `/health` answers 503 then, so a balancer stops sending. */
@Injectable()
export class ShutdownState {
  draining = false;
}

export interface ShutdownPlan {
  /** SHUTDOWN_GRACE_MS: what the drain may take before the process exits regardless. */
  graceMs: number;
  logger: LoggerService;
  state: ShutdownState;
  http: HttpDrain;
  /** Starts no more background work (relay, schedules); resolves when the runs under way end. */
  stopBackgroundWork(): Promise<unknown>;
  /** Takes no more jobs; resolves when the active ones have finished. */
  finishJobs(): Promise<unknown>;
  /** Closes everything else (the app: queues, Redis, database pools). */
  close(): Promise<void>;
  exit(code: number): void;
}

const CONTEXT = 'Shutdown';

/**
 * SIGTERM, SIGINT or SIGHUP stops the process gracefully: it stops accepting connections and
 * says it is draining (`/health` 503); the requests it holds are answered, the relay and the
 * schedules stop, its active jobs finish (the others stay queued for the other instances); then
 * the app closes and the process exits 0. Past `graceMs` it exits 1 at once, saying what was
 * left: a job cut there is retried by Bull once its lock lapses. A second signal exits at once
 * too. Answers the stop itself (what a signal calls).
 */
export function stopGracefullyOn(
  plan: ShutdownPlan,
  signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'],
) {
  let stopping = false;
  let hardExit: NodeJS.Timeout | undefined;
  const exit = (code: number) => {
    clearTimeout(hardExit);
    plan.exit(code);
  };
  const left = new Set<string>();
  const step = (name: string, work: Promise<unknown>) => {
    left.add(name);
    return work.finally(() => left.delete(name));
  };
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) {
      plan.logger.warn(`${signal} again: exiting without waiting`, CONTEXT);
      return exit(1);
    }
    stopping = true;
    plan.logger.log(`${signal}: draining (at most ${plan.graceMs} ms)`, CONTEXT);
    hardExit = setTimeout(() => {
      const what = [...left].map((s) => (s === 'requests' ? `${plan.http.pending} requests` : s));
      plan.logger.error(
        `Not stopped within SHUTDOWN_GRACE_MS (${plan.graceMs} ms): exiting with ${what.join(', ') || 'the close'} unfinished`,
        undefined,
        CONTEXT,
      );
      exit(1);
    }, plan.graceMs);
    plan.state.draining = true;
    try {
      await Promise.all([
        step('requests', plan.http.drain()),
        step('background work', plan.stopBackgroundWork()),
        step('jobs', plan.finishJobs()),
      ]);
      await step('the close', plan.close());
    } catch (err) {
      plan.logger.error(`Shutdown failed: ${(err as Error).message}`, undefined, CONTEXT);
      return exit(1);
    }
    plan.logger.log('Stopped', CONTEXT);
    exit(0);
  };
  for (const signal of signals) process.on(signal, (s: NodeJS.Signals) => void stop(s));
  return stop;
}
