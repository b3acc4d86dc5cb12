import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Request } from 'express';
import { MachineVerifier, MachineVerifiers } from '../../common';
import { Env } from '../../config';
import { presentedToken, tokenMatches } from './auth';

/**
 * The gateway hooks' credential (`@Machine('hooksToken')`): HOOKS_TOKEN as `Authorization:
 * Bearer`, `x-service-token` or (deprecated) `?token=`, hashed and compared in constant time. The
 * access guard counts the failures.
 */
@Injectable()
export class HooksTokenVerifier implements MachineVerifier, OnModuleInit {
  /** The hooks' own 401 message (rendered `{ok: false, error}` by `HookErrorsFilter`). */
  readonly refusal = 'unauthorized';

  constructor(
    private readonly env: Env,
    private readonly verifiers: MachineVerifiers,
  ) {}

  onModuleInit() {
    this.verifiers.register('hooksToken', this);
  }

  accepts(req: Request): boolean {
    const { token } = presentedToken(req, new URL(req.originalUrl, 'http://hooks.invalid'));
    return tokenMatches(token, this.env.HOOKS_TOKEN);
  }
}
