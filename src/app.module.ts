import { Module } from '@nestjs/common';
import { APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { ActivityModule } from './activity/activity.module';
import { AuthModule } from './auth/auth.module';
import { AccessGuard } from './common/http/access.guard';
import { EventsModule } from './common/events/events.module';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';
import { OrganizationsModule } from './organizations/organizations.module';
import { RedisModule } from './redis/redis.module';

@Module({
  imports: [
    ConfigModule,
    DiscoveryModule,
    DatabaseModule,
    RedisModule,
    EventsModule,
    ScheduleModule.forRoot(),
    HealthModule,
    ActivityModule,
    AuthModule,
    OrganizationsModule,
  ],
  providers: [{ provide: APP_GUARD, useClass: AccessGuard }],
})
export class AppModule {}
