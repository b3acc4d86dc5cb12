import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleInit,
} from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../common';
import { Env } from '../config';
import { RedisConnections } from '../redis';
import { checkRetention, deleteOlderRows } from './retention-delete';
import { DAY, HOUR, Period, retentionsOf, scheduledOf } from './schedule.decorators';

interface Job {
  name: string;
  /** The period across instances; 0: only when asked (`run`). */
  every: number;
  work: () => Promise<unknown>;
}

/** Asked twice a period (at most hourly), so no instance's timer drift skips a period. */
const askEvery = (every: number) => Math.max(1000, Math.min(every / 2, HOUR));

/**
 * The one scheduler: finds the `@Scheduled` methods and `@Retention` declarations of every
 * provider at start-up and runs each once per period across instances. A period is a slot of the
 * clock's time (`floor(now / every)`); each instance asks twice a period, and the first to take
 * the slot's turn in Redis (`claimTurn`) runs the job, so a stopped instance's turn is taken by
 * another. A run never overlaps the same job's previous run in this instance, and its failure is
 * logged, never thrown into the process: the next period tries again.
 */
@Injectable()
export class Scheduler implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Scheduler');
  private readonly jobs = new Map<string, Job>();
  private readonly running = new Map<string, Promise<unknown>>();
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly redis: RedisConnections,
    private readonly clock: Clock,
    private readonly env: Env,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  onModuleInit() {
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object' || !wrapper.isDependencyTreeStatic()) continue;
      for (const spec of retentionsOf(instance.constructor)) {
        checkRetention(spec);
        this.add({
          name: spec.name,
          every: this.period(spec.every ?? DAY),
          work: () =>
            deleteOlderRows(this.dataSource, spec, this.clock.before(this.period(spec.olderThan))),
        });
      }
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const spec = scheduledOf(instance[method]);
        if (!spec) continue;
        const run = instance[method] as () => Promise<unknown>;
        this.add({
          name: spec.name,
          every: this.period(spec.every),
          work: () => run.call(instance),
        });
      }
    }
  }

  onApplicationBootstrap() {
    for (const job of this.jobs.values()) {
      if (job.every <= 0) continue;
      this.timers.push(setInterval(() => void this.tick(job.name), askEvery(job.every)).unref());
    }
  }

  /** No new run starts; the runs under way end before the connections they use close. */
  async beforeApplicationShutdown() {
    this.timers.forEach((timer) => clearInterval(timer));
    this.timers.length = 0;
    await Promise.allSettled([...this.running.values()]);
  }

  /** The jobs found, with their periods (0: only when asked). */
  list(): { name: string; every: number }[] {
    return [...this.jobs.values()].map(({ name, every }) => ({ name, every }));
  }

  /**
   * Runs `name` if this instance takes the turn of the clock's current period (what each timer
   * does); answers whether it ran. A failure is logged, not thrown.
   */
  async tick(name: string): Promise<boolean> {
    const job = this.job(name);
    if (job.every <= 0 || this.running.has(name)) return false;
    const slot = Math.floor(this.clock.nowMs() / job.every);
    try {
      // The key names its slot, so it only has to outlive the slot (and clocks a little apart).
      if (!(await this.redis.claimTurn(`${name}:${slot}`, 2 * job.every))) return false;
    } catch (err) {
      // Redis did not answer: no turn is taken, so this instance does not run (another may, or
      // the next tick will).
      this.logger.warn(`${name} not run: its turn could not be claimed: ${(err as Error).message}`);
      return false;
    }
    try {
      await this.start(job);
    } catch (err) {
      this.logger.warn(`${name} failed: ${(err as Error).message}`);
    }
    return true;
  }

  /** Runs `name` now, whoever else ran it, and answers its result (a retention: rows deleted). */
  run(name: string): Promise<unknown> {
    return this.start(this.job(name));
  }

  private start(job: Job): Promise<unknown> {
    const run: Promise<unknown> = job.work().finally(() => {
      if (this.running.get(job.name) === run) this.running.delete(job.name);
    });
    this.running.set(job.name, run);
    return run;
  }

  private add(job: Job) {
    if (this.jobs.has(job.name)) throw new Error(`two scheduled jobs are named ${job.name}`);
    this.jobs.set(job.name, job);
  }

  private job(name: string): Job {
    const job = this.jobs.get(name);
    if (!job) throw new Error(`no scheduled job is named ${name}`);
    return job;
  }

  private period(period: Period): number {
    return typeof period === 'function' ? period(this.env) : period;
  }
}
