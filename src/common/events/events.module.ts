import { BullModule } from '@nestjs/bull';
import { Global, Module } from '@nestjs/common';
import { Env } from '../../config/env.schema';
import { RedisConnections } from '../../redis/redis.module';
import { EventConsumers } from './event-consumers';
import { OutboxRelay } from './outbox-relay.service';
import { OutboxService } from './outbox.service';
import { defaultJobOptions, QueueName } from './queues';

const queues = BullModule.registerQueue(...Object.values(QueueName).map((name) => ({ name })));

/** Outbox, relay and queues: the path from a committed change to its background work. */
@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [RedisConnections, Env],
      useFactory: (redis: RedisConnections, env: Env) => ({
        createClient: (type) => redis.bull(type),
        prefix: `${redis.prefix}bull`,
        defaultJobOptions: defaultJobOptions(env.QUEUE_JOB_ATTEMPTS),
      }),
    }),
    queues,
  ],
  providers: [OutboxService, OutboxRelay, EventConsumers],
  exports: [OutboxService, OutboxRelay, EventConsumers, queues],
})
export class EventsModule {}
