import { INestApplication, ValidationPipe } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { RedisStore } from 'connect-redis';
import type { NextFunction, Request, Response } from 'express';
import session from 'express-session';
import helmet from 'helmet';
import { DEV_SESSION_SECRET, isProduction } from './config/config.module';
import { Env } from './config/env.schema';
import { AllExceptionsFilter, renderError } from './common/errors/all-exceptions.filter';
import { errorBody } from './common/errors/error-body';
import { requestIdMiddleware } from './common/http/request-id.middleware';
import { UuidParamsPipe } from './common/http/uuid-params.pipe';
import { RedisConnections } from './redis/redis.module';

export const SESSION_COOKIE = 'connect.sid';

/**
 * The one place that wires the HTTP layer: main.ts and every e2e test build the app through it,
 * so the tests exercise exactly what production serves.
 */
export function setupApp(app: INestApplication): INestApplication {
  const env = app.get(Env);
  const redis = app.get(RedisConnections);
  const express = app as NestExpressApplication;

  express.set('trust proxy', true);
  express.disable('x-powered-by');
  express.useBodyParser('json', { limit: '1mb' });
  express.useBodyParser('urlencoded', { extended: false, limit: '1mb' });
  app.use(requestIdMiddleware);
  app.use(helmet());
  app.enableCors({ origin: env.FRONTEND_URL, credentials: true });
  app.use(sessionMiddleware(env, redis));

  app.useGlobalPipes(
    new UuidParamsPipe(),
    new ValidationPipe({ whitelist: true, transform: true, forbidUnknownValues: true }),
  );
  app.useGlobalFilters(new AllExceptionsFilter());
  app.enableShutdownHooks();

  if (!isProduction(env) && env.SWAGGER_ENABLED !== false) mountOpenApi(app);
  return app;
}

/** The session cookie's attributes (spec section 5); clearing the cookie must repeat them. */
export const sessionCookieOptions = (env: Env) => ({
  path: '/',
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: isProduction(env),
});

/**
 * express-session on Redis with the settings of spec section 5. While Redis is unreachable the
 * store fails fast and the request gets 503 instead of hanging; the client reconnects by itself.
 */
function sessionMiddleware(env: Env, redis: RedisConnections) {
  const store = new RedisStore({ client: redis.session(), prefix: `${redis.prefix}sess:` });
  const middleware = session({
    name: SESSION_COOKIE,
    secret: env.SESSION_SECRET ?? DEV_SESSION_SECRET,
    store,
    resave: false,
    saveUninitialized: false,
    rolling: true,
    proxy: true,
    cookie: { ...sessionCookieOptions(env), maxAge: env.API_SESSION_MAX_AGE },
  });
  return (req: Request, res: Response, next: NextFunction) =>
    middleware(req, res, (err?: unknown) => {
      if (!err) return next();
      res.status(503).json(errorBody(503, { message: 'session store unavailable' }));
    });
}

function mountOpenApi(app: INestApplication) {
  const config = new DocumentBuilder()
    .setTitle('Ledgerline API')
    .setDescription(
      'Cap table and organization management. Authentication is a server-side session cookie ' +
        '(`connect.sid`); errors follow spec section 7: `{error}`, `{error, message}` for ' +
        'validation, `{error: "Bad Request", key}` for keyed errors.',
    )
    .setVersion('1')
    .addCookieAuth('connect.sid')
    .build();
  const document = SwaggerModule.createDocument(app, config);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json' });
}

/** Express-level errors (body parser, payload size) rendered like every other error. */
export function expressErrorHandler(
  err: unknown,
  _req: Request,
  res: Response,
  next: NextFunction,
) {
  if (res.headersSent) return next(err);
  const rendered = renderError(err) ?? { status: 500, body: errorBody(500) };
  res.status(rendered.status).json(rendered.body);
}
