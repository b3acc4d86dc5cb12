import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { constantTimeEqual, DomainError } from '../common';
import { Env } from '../config';

/**
 * The messaging gateway's routes: `Authorization: Bearer CHAT_GATEWAY_TOKEN`, compared in
 * constant time. While the variable is unset every call is refused (401).
 */
@Injectable()
export class GatewayTokenGuard implements CanActivate {
  constructor(private readonly env: Env) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    const expected = this.env.CHAT_GATEWAY_TOKEN;
    const [scheme, token] = (req.headers.authorization ?? '').split(' ');
    if (!expected || scheme?.toLowerCase() !== 'bearer' || !token) {
      throw DomainError.unauthorized('the gateway token is missing or not accepted');
    }
    if (!constantTimeEqual(token, expected)) {
      throw DomainError.unauthorized('the gateway token is missing or not accepted');
    }
    return true;
  }
}
