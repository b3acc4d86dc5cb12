import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { Clock, clientIp, constantTimeEqual, DomainError, TokenFailureThrottle } from '../common';
import { Env } from '../config';
import { RedisConnections } from '../redis';

/**
 * The messaging gateway's routes: `Authorization: Bearer CHAT_GATEWAY_TOKEN`, compared in
 * constant time. While the variable is unset every call is refused (401). Failed checks are
 * counted per client IP: past TOKEN_FAILURES_PER_IP that address gets 429 until the window ends.
 */
@Injectable()
export class GatewayTokenGuard implements CanActivate {
  private readonly failures: TokenFailureThrottle;

  constructor(
    private readonly env: Env,
    connections: RedisConnections,
    clock: Clock,
  ) {
    this.failures = new TokenFailureThrottle(
      connections.session(),
      `${connections.prefix}chat-gateway-failures:`,
      clock,
    );
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    const ip = clientIp(req);
    await this.failures.assertAllowed(ip);
    if (!this.accepts(req.headers.authorization)) {
      await this.failures.recordFailure(ip);
      throw DomainError.unauthorized('the gateway token is missing or not accepted');
    }
    return true;
  }

  private accepts(authorization = ''): boolean {
    const expected = this.env.CHAT_GATEWAY_TOKEN;
    const [scheme, token] = authorization.split(' ');
    return (
      !!expected &&
      scheme?.toLowerCase() === 'bearer' &&
      !!token &&
      constantTimeEqual(token, expected)
    );
  }
}
