import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../../common';
import { Env, isProduction } from '../../config';

/**
 * The cloud-drive sync is disabled in production (spec 4.4): there every route under
 * `.../google-drive` answers exactly as a path that does not exist, before the session or
 * permission is looked at.
 */
@Injectable()
export class DriveAvailability implements NestMiddleware {
  private readonly disabled: boolean;

  constructor(env: Env) {
    this.disabled = isProduction(env);
  }

  use(_req: Request, _res: Response, next: NextFunction) {
    next(this.disabled ? DomainError.notFound('no such route') : undefined);
  }
}
