import { INestApplication, ValidationPipe } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { sessionMiddleware } from './auth';
import {
  AllExceptionsFilter,
  ApiDocument,
  conditionalListShortcut,
  JSON_TYPES,
  jsonBody,
  mapExpressErrors,
  markRawBodyRoutes,
  rawBodyOf,
  requestIdMiddleware,
  requestRateLimit,
  UuidParamsPipe,
  validationError,
} from './common';
import { Env, isProduction } from './config';
import { openApiDocument } from './openapi';
import { RedisConnections } from './redis';

/** What the app's body parsers read at most (413 past it); the gateway hooks have their own. */
const BODY_LIMIT = '1mb';

/**
 * The one place that wires the HTTP layer: main.ts and every e2e test build the app through it,
 * so the tests exercise exactly what production serves.
 */
export async function setupApp(app: INestApplication): Promise<INestApplication> {
  const env = app.get(Env);
  const redis = app.get(RedisConnections);
  const express = app as NestExpressApplication;

  // Off unless TRUST_PROXY names the proxies: X-Forwarded-For is the client's to invent.
  express.set('trust proxy', env.trustProxy);
  express.disable('x-powered-by');
  // ETags of list answers are computed by the services from data versions, not by hashing bodies.
  express.set('etag', false);
  app.use(requestIdMiddleware);
  // `@RawBody` routes (the billing provider's signed webhooks, the gateway hooks) take their body
  // as sent: the parsers, CORS and session below leave them alone.
  markRawBodyRoutes(app);
  const parsed = (types: string | string[]) => (req: Request) =>
    rawBodyOf(req) === undefined && Boolean(req.is(types));
  // Signed bytes: read as they are, before the guard checks their signature.
  express.useBodyParser('raw', {
    type: (req: Request) => rawBodyOf(req) === 'bytes',
    limit: BODY_LIMIT,
  });
  // JSON is read as text and parsed by `jsonBody`, which keeps long numbers exact.
  express.useBodyParser('text', { type: parsed(JSON_TYPES), limit: BODY_LIMIT });
  app.use(jsonBody);
  // Nest mounts express's own JSON parser at `init` unless one is mounted already: this one parses
  // nothing (JSON was read as text above), so a `@RawBody('stream')` route's body stays unread.
  express.useBodyParser('json', { type: () => false });
  // Only the identity provider's form post uses this; the CSRF guard refuses it everywhere else.
  express.useBodyParser('urlencoded', {
    type: parsed('application/x-www-form-urlencoded'),
    extended: false,
    limit: BODY_LIMIT,
  });
  app.use(mapExpressErrors);
  app.use(helmet());
  const cors = { origin: allowedOrigins(env), credentials: true };
  app.enableCors((req: Request, answer: (err: Error | null, options: object) => void) =>
    answer(null, rawBodyOf(req) === undefined ? cors : { origin: false }),
  );
  const session = sessionMiddleware(env, redis);
  app.use((req: Request, res: Response, next: NextFunction) =>
    rawBodyOf(req) === undefined ? session(req, res, next) : next(),
  );
  // RATE_LIMIT_ENABLED: after the session (it counts per session), before the 304s (they count).
  app.use(requestRateLimit(app));
  // After everything every request goes through; answers only 304s of cached lists.
  app.use(conditionalListShortcut(app));

  app.useGlobalPipes(
    new UuidParamsPipe(),
    new ValidationPipe({
      whitelist: true,
      transform: true,
      forbidUnknownValues: true,
      exceptionFactory: validationError,
    }),
  );
  app.useGlobalFilters(new AllExceptionsFilter());

  app.get(ApiDocument).provide(() => openApiDocument(app));
  if (!isProduction(env) && env.SWAGGER_ENABLED !== false) await mountOpenApi(app, env);
  return app;
}

function allowedOrigins(env: Env): string[] {
  return [env.FRONTEND_URL, ...env.ALLOWED_ORIGINS].map((u) => new URL(u).origin);
}

async function mountOpenApi(app: INestApplication, env: Env) {
  const document = await openApiDocument(app, env.API_PUBLIC_URL ?? `http://localhost:${env.PORT}`);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json' });
}
