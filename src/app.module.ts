import { Module } from '@nestjs/common';
import { APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { ActivityModule } from './activity';
import { AgentModule } from './agent';
import { ChatModule } from './chat';
import { HooksModule } from './hooks';
import { AuthModule } from './auth';
import { BillingModule } from './billing';
import { CapTableModule } from './cap-table';
import { DocumentsModule } from './documents';
import {
  AccessGuard,
  CommonModule,
  CsrfGuard,
  MACHINE_FAILURES,
  QueryParamsGuard,
  Clock,
  TokenFailureThrottle,
} from './common';
import { ConfigModule } from './config';
import { DatabaseModule } from './database';
import { EventsModule } from './events';
import { HealthModule } from './health';
import { IdempotencyModule } from './idempotency';
import { OcfModule } from './ocf';
import { OrganizationsModule } from './organizations';
import { ProfilesModule } from './profiles';
import { RedisConnections, RedisModule } from './redis';
import { ReferralModule } from './referral';
import { SchedulerModule } from './scheduler';
import { WebhooksModule } from './webhooks';

/**
 * The composition root. Guards run in this order on every route: the cross-site check, the access
 * rule (deny by default), then the check of query parameters.
 */
@Module({
  imports: [
    ConfigModule,
    CommonModule,
    DiscoveryModule,
    DatabaseModule,
    RedisModule,
    EventsModule,
    SchedulerModule,
    IdempotencyModule,
    HealthModule,
    ActivityModule,
    AuthModule,
    ProfilesModule,
    OrganizationsModule,
    CapTableModule,
    DocumentsModule,
    OcfModule,
    BillingModule,
    WebhooksModule,
    AgentModule.register(),
    ChatModule,
    HooksModule.register(),
    ReferralModule,
  ],
  providers: [
    { provide: APP_GUARD, useClass: CsrfGuard },
    { provide: APP_GUARD, useClass: AccessGuard },
    { provide: APP_GUARD, useClass: QueryParamsGuard },
    // Failed checks of machine credentials (`@Machine`), counted per kind and client IP.
    {
      provide: MACHINE_FAILURES,
      inject: [RedisConnections, Clock],
      useFactory: (redis: RedisConnections, clock: Clock) =>
        new TokenFailureThrottle(redis.session(), `${redis.prefix}machine-token-failures:`, clock),
    },
  ],
})
export class AppModule {}
