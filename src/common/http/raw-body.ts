import { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { RawBodyMode } from './access.decorators';
import { listRoutes } from './route-table';

const MARK = Symbol('raw-body');
type Marked = Request & { [MARK]?: RawBodyMode };

/** The mode of the `@RawBody` route the request is for (marked by `markRawBodyRoutes`). */
export const rawBodyOf = (req: Request): RawBodyMode | undefined => (req as Marked)[MARK];

/**
 * Marks the requests of every `@RawBody` route, for the body parsers, session and CORS mounted
 * after it to skip. Express matches the route's own path, as it will when routing the request to
 * the controller, so nothing else is marked. Called by `setupApp` before any of those layers.
 */
export function markRawBodyRoutes(app: INestApplication): void {
  const express = app.getHttpAdapter().getInstance() as {
    all(path: string, handler: (req: Request, res: Response, next: NextFunction) => void): void;
  };
  const marked = new Set<string>();
  for (const { path, rawBody } of listRoutes(app)) {
    if (!rawBody || marked.has(path)) continue;
    marked.add(path);
    express.all(path, (req, _res, next) => {
      (req as Marked)[MARK] = rawBody;
      next();
    });
  }
}
