import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  HealthCheck,
  HealthCheckService,
  HealthIndicatorService,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import { Public } from '../common/http/access.decorators';
import { RedisConnections } from '../redis/redis.module';
import type Redis from 'ioredis';

/** Liveness and readiness: database and Redis. 200 when both answer, 503 otherwise. */
@ApiTags('health')
@Controller('health')
export class HealthController {
  private readonly redis: Redis;

  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    connections: RedisConnections,
  ) {
    this.redis = connections.session();
  }

  @Get()
  @Public()
  @HealthCheck()
  @ApiOperation({ summary: 'Database and Redis health (outside /v1)' })
  check() {
    return this.health.check([
      () => this.db.pingCheck('database', { timeout: 1500 }),
      () => this.pingRedis(),
    ]);
  }

  private async pingRedis() {
    const indicator = this.indicators.check('redis');
    try {
      await this.redis.ping();
      return indicator.up();
    } catch (err) {
      return indicator.down({ message: (err as Error).message });
    }
  }
}
