import { INestApplication, ValidationPipe } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import helmet from 'helmet';
import { sessionMiddleware } from './auth';
import { BILLING_WEBHOOK_PATH } from './billing';
import {
  AllExceptionsFilter,
  ApiDocument,
  conditionalListShortcut,
  JSON_TYPES,
  jsonBody,
  mapExpressErrors,
  requestIdMiddleware,
  UuidParamsPipe,
  validationError,
} from './common';
import { Env, isProduction } from './config';
import { mountHooks } from './hooks';
import { openApiDocument } from './openapi';
import { RedisConnections } from './redis';

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
  // Gateway hooks (when on): ahead of the body parsers and the session, it reads its own body.
  mountHooks(app);
  // The billing provider signs its webhooks' bytes: that path alone keeps its body raw.
  express.useBodyParser('raw', {
    type: (req: { url?: string }) => req.url?.split('?')[0] === BILLING_WEBHOOK_PATH,
    limit: '1mb',
  });
  // JSON is read as text and parsed by `jsonBody`, which keeps long numbers exact.
  express.useBodyParser('text', { type: JSON_TYPES, limit: '1mb' });
  app.use(jsonBody);
  // Only the identity provider's form post uses this; the CSRF guard refuses it everywhere else.
  express.useBodyParser('urlencoded', { extended: false, limit: '1mb' });
  app.use(mapExpressErrors);
  app.use(helmet());
  app.enableCors({ origin: allowedOrigins(env), credentials: true });
  app.use(sessionMiddleware(env, redis));
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
  app.enableShutdownHooks();

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
