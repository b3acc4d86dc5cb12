import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { requestContext } from '../logging/request-context';

const ACCEPTABLE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Takes `X-Request-Id` from the caller when it is sane, otherwise makes one; echoes it back. */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction) {
  const given = req.header('x-request-id');
  const requestId = given && ACCEPTABLE_ID.test(given) ? given : randomUUID();
  (req as Request & { id: string }).id = requestId;
  res.setHeader('X-Request-Id', requestId);
  requestContext.run({ requestId }, next);
}
