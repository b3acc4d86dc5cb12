import { Controller, Get, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import {
  HealthCheck,
  HealthCheckService,
  HealthIndicatorService,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import type { Response } from 'express';
import type Redis from 'ioredis';
import { Public, ShutdownState } from '../common';
import { OutboxRelay } from '../events';
import { RedisConnections } from '../redis';

/**
 * Liveness and readiness: database and Redis (200 when both answer, 503 otherwise), 503 while
 * the process stops (a balancer then sends it nothing new), and the outbox: events waiting for
 * a consumer this process does not run are counted in its details (they do not make the service
 * unhealthy; they are kept until such a consumer exists).
 */
@ApiTags('health')
@Controller('health')
export class HealthController {
  private readonly redis: Redis;

  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    private readonly relay: OutboxRelay,
    private readonly shutdown: ShutdownState,
    connections: RedisConnections,
  ) {
    this.redis = connections.session();
  }

  @Get()
  @Public()
  @HealthCheck()
  @ApiOperation({ summary: 'Database, Redis and outbox health (outside /v1)' })
  @ApiServiceUnavailableResponse({
    description:
      'The database, Redis or the outbox is down, or the process is stopping (`serving` down): ' +
      '`{status: "error", info, error, details}`. ' +
      'A request with a session cookie while Redis is down is answered by the session layer ' +
      'first, with the one error body.',
  })
  async check(@Res({ passthrough: true }) res: Response) {
    try {
      return await this.checkAll();
    } catch (err) {
      // Terminus's report as documented, not the one error body (and not logged as an error):
      // a balancer's probe reads which check is down.
      if (!(err instanceof ServiceUnavailableException)) throw err;
      res.status(503);
      return err.getResponse();
    }
  }

  private checkAll() {
    return this.health.check([
      () => this.serving(),
      () => this.db.pingCheck('database', { timeout: 1500 }),
      () => this.pingRedis(),
      () => this.outbox(),
    ]);
  }

  private serving() {
    const indicator = this.indicators.check('serving');
    return this.shutdown.draining
      ? indicator.down({ message: 'shutting down: finishing the requests it holds' })
      : indicator.up();
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

  private async outbox() {
    const indicator = this.indicators.check('outbox');
    try {
      return indicator.up({ unrouted: await this.relay.countUnrouted() });
    } catch (err) {
      return indicator.down({ message: (err as Error).message });
    }
  }
}
