import { BullModule, getQueueToken } from '@nestjs/bull';
import { BeforeApplicationShutdown, Global, Module } from '@nestjs/common';
import { DiscoveryModule, ModuleRef } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { Queue } from 'bull';
import { Env } from '../config';
import { RedisConnections } from '../redis';
import { EventConsumers } from './event-consumers';
import { EventRoute } from './event-route.entity';
import { EventRoutes } from './event-routes';
import { EventLog } from './event-log.service';
import { OutboxRetention } from './outbox-retention';
import { OutboxEvent } from './outbox-event.entity';
import { OutboxRelay } from './outbox-relay.service';
import { OutboxReRelay } from './outbox-rerelay';
import { OutboxService } from './outbox.service';
import { ProcessedEvent } from './processed-event.entity';
import { ResourceVersion } from './resource-version.entity';
import { defaultJobOptions, QueueName } from './queues';
import { UnitOfWork } from './unit-of-work';

const queues = BullModule.registerQueue(...Object.values(QueueName).map((name) => ({ name })));

/**
 * Transactions, outbox, relay and queues: the path from a committed change to its background work.
 * Global: every domain module writes through the UnitOfWork.
 */
@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [RedisConnections, Env],
      // An earlier version's jobs are moved to the tagged prefix before the workers start (main.ts).
      useFactory: (redis: RedisConnections, env: Env) => ({
        createClient: (type) => redis.bull(type),
        prefix: redis.bullPrefix,
        defaultJobOptions: defaultJobOptions(env.QUEUE_JOB_ATTEMPTS),
        settings: { lockDuration: env.QUEUE_LOCK_MS, stalledInterval: env.QUEUE_LOCK_MS },
      }),
    }),
    queues,
    DiscoveryModule,
    TypeOrmModule.forFeature([EventRoute, OutboxEvent, ProcessedEvent, ResourceVersion]),
  ],
  providers: [
    OutboxService,
    OutboxRelay,
    OutboxReRelay,
    OutboxRetention,
    EventConsumers,
    EventRoutes,
    EventLog,
    UnitOfWork,
  ],
  exports: [OutboxRelay, EventConsumers, EventLog, UnitOfWork, queues],
})
export class EventsModule implements BeforeApplicationShutdown {
  constructor(private readonly moduleRef: ModuleRef) {}

  /** Queues stop before the Redis connections they share are closed. */
  async beforeApplicationShutdown() {
    await Promise.all(
      Object.values(QueueName).map((name) =>
        this.moduleRef.get<Queue>(getQueueToken(name), { strict: false }).close(),
      ),
    );
  }
}
