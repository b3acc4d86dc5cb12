import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Request } from 'express';
import { constantTimeEqual, MachineVerifier, MachineVerifiers } from '../common';
import { Env } from '../config';

/**
 * The messaging gateway's credential (`@Machine('gatewayToken')`): `Authorization: Bearer
 * CHAT_GATEWAY_TOKEN`, compared in constant time. While the variable is unset every call is
 * refused. The access guard counts the failures.
 */
@Injectable()
export class GatewayTokenVerifier implements MachineVerifier, OnModuleInit {
  readonly refusal = 'the gateway token is missing or not accepted';

  constructor(
    private readonly env: Env,
    private readonly verifiers: MachineVerifiers,
  ) {}

  onModuleInit() {
    this.verifiers.register('gatewayToken', this);
  }

  accepts(req: Request): boolean {
    const expected = this.env.CHAT_GATEWAY_TOKEN;
    const [scheme, token] = (req.headers.authorization ?? '').split(' ');
    return (
      !!expected &&
      scheme?.toLowerCase() === 'bearer' &&
      !!token &&
      constantTimeEqual(token, expected)
    );
  }
}
