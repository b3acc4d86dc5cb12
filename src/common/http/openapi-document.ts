import type { OpenAPIObject } from '@nestjs/swagger';
import { documentedSchemas } from './json-schemas';
import { uncountedPath } from './request-rate-limit';
import { FORMATTED_PARAMS, STRING_PARAMS } from './uuid-params.pipe';

type Json = Record<string, unknown>;
interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: {
    name: string;
    in: string;
    required?: boolean;
    description?: string;
    schema?: Json;
  }[];
  requestBody?: unknown;
  responses: Record<
    string,
    { description?: string; content?: Record<string, { schema?: Json }>; headers?: Json }
  >;
  security?: unknown[];
  'x-permission'?: string;
  'x-machine'?: string;
  'x-csrf-exempt'?: string;
  'x-idempotent'?: boolean;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;
const WRITES = new Set<string>(['put', 'post', 'delete', 'patch']);

/** The one error body of every refusal (spec section 7). */
export const ERROR_BODY = 'ErrorBody';
const ERROR_SCHEMA: Json = {
  type: 'object',
  description:
    '`{error, message}`; `{error, key, message}` for keyed errors; `{message}` on the routes that ' +
    'say so. Some refusals add details (`problems`, `rows`, `fields`).',
  properties: {
    error: { type: 'string', example: 'Bad Request' },
    key: { type: 'string', example: 'resourceNotFound' },
    message: { type: 'string' },
  },
  additionalProperties: true,
  anyOf: [{ required: ['error'] }, { required: ['message'] }],
};

const STANDARD_ERRORS: Record<string, string> = {
  '400': 'Malformed path, query or body `{error, message}`',
  unknownQuery: 'A query parameter the route does not know `{message}`',
  '403':
    'refused as cross-site (an `Origin` other than the frontend or the API, or ' +
    '`Sec-Fetch-Site: cross-site`) `{message}`',
  '415':
    'A body that is not `application/json` (`multipart/form-data` on upload routes), as a ' +
    'cross-site HTML form sends',
  '401': 'No valid session `{error, key, message}`',
  machine401: 'The machine credential is missing or not accepted `{error, key, message}`',
  apiKey401: 'API keys are not accepted yet: every call is refused `{error, key, message}`',
  machine429:
    '10 failed credentials of this kind from the client address within 15 minutes: every call ' +
    'from it until the window ends, a right credential too (`Retry-After`, `X-RateLimit-*`)',
  rateLimited:
    '`tooManyRequests`, with RATE_LIMIT_ENABLED: RATE_LIMIT_PER_MINUTE requests of the session ' +
    '(without one, of the client address) this minute already (`Retry-After`, `X-RateLimit-*`)',
  '503':
    'The database or the session store (Redis) is unavailable, or a statement ran past ' +
    'DATABASE_STATEMENT_TIMEOUT_MS ' +
    '(`{error, key: "databaseTimeout", message}`); try again',
};

/** What `@Idempotent()` routes answer about their `Idempotency-Key` (see src/idempotency). */
const IDEMPOTENCY = {
  header: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Optional; 1 to 255 printable ASCII characters, unique per request (a UUID). The first ' +
      'answer to a key (a success, or a refusal other than 409, 429 and 5xx) is kept 24 hours for ' +
      'the caller; a retry with the same key, method, path and body gets that answer again, with ' +
      '`Idempotent-Replayed: true`, and changes nothing. Keys are per user.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' },
  },
  invalid:
    '`{error, key: "invalidIdempotencyKey", message}`: an `Idempotency-Key` that is not 1 to 255 printable ASCII characters',
  running:
    '`{error, key: "idempotencyKeyInProgress", message}`: the first request with this `Idempotency-Key` is still running; retry later. A request whose server stopped holds its key for its lease (60 seconds, `IDEMPOTENCY_LEASE_MS`) at most, then a retry runs anew, unless it had written: then `{error, key: "idempotencyKeyApplied", message}`, kept 24 hours like any answer (its write is in the records; read the resource)',
  reused:
    '`{error, key: "idempotencyKeyReused", message}`: this `Idempotency-Key` was sent with another method, path or body',
  replayed: {
    'Idempotent-Replayed': {
      description: '`true` when the answer is the one kept for the request’s `Idempotency-Key`',
      schema: { type: 'string', enum: ['true'] },
    },
  },
};

const TAG_DESCRIPTIONS: Record<string, string> = {
  health: 'Liveness of the service and what it depends on',
  identity: 'Registration, login, sessions, two-factor authentication, user state and colors',
};

/**
 * What every route already declares, written into the document so no route has to repeat it:
 * its path parameters (a UUID unless the spec makes it a free string, as the global pipe checks),
 * a 400 for any route that validates a path, query or body (and every GET: unknown query
 * parameters), the cross-site refusals of every write (403, 415) but the `@CsrfExempt` ones, the
 * one error body for every refusal, a machine route's 401 and 429, the request rate limit's 429
 * on every route it counts, a description naming the
 * permission or the machine credential, the `Idempotency-Key` header and its answers on the
 * routes marked `x-idempotent`, the component schemas written as JSON Schema (`documentSchemas`),
 * and the tags the operations use.
 */
export function completeDocument<T extends OpenAPIObject>(doc: T): T {
  doc.components = { ...doc.components, schemas: { ...doc.components?.schemas } };
  doc.components.schemas![ERROR_BODY] = ERROR_SCHEMA;
  for (const [name, schema] of documentedSchemas()) doc.components.schemas![name] = schema;
  const errorContent = {
    'application/json': { schema: { $ref: `#/components/schemas/${ERROR_BODY}` } },
  };
  const tags = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    for (const method of METHODS) {
      const op = (item as Record<string, Operation | undefined>)[method];
      if (!op) continue;
      op.parameters = op.parameters ?? [];
      for (const name of pathParams) {
        const declared = op.parameters.find((p) => p.in === 'path' && p.name === name);
        const formatted = FORMATTED_PARAMS[name];
        const schema = STRING_PARAMS.has(name)
          ? { type: 'string' }
          : formatted
            ? { type: 'string', pattern: formatted.pattern.source }
            : { type: 'string', format: 'uuid' };
        if (declared) declared.schema = { ...schema, ...declared.schema };
        else op.parameters.push({ name, in: 'path', required: true, schema });
      }
      if (!op.parameters.length) delete op.parameters;
      const validated = op.parameters?.length || op.requestBody;
      if (validated && !op.responses['400']) {
        op.responses['400'] = { description: STANDARD_ERRORS['400'] };
      }
      if (op['x-idempotent']) documentIdempotency(op);
      // Every GET refuses a query parameter it does not know (QueryParamsGuard).
      if (method === 'get') {
        const refused = op.responses['400'];
        const unknown = STANDARD_ERRORS.unknownQuery;
        if (!refused) op.responses['400'] = { description: unknown };
        else if (!/query parameter/i.test(refused.description ?? '')) {
          refused.description = `${refused.description}; or ${unknown[0].toLowerCase()}${unknown.slice(1)}`;
        }
      }
      // Every write but the exempt ones is refused cross-site (CsrfGuard): 403, or 415 for a
      // form-encoded body.
      if (WRITES.has(method) && !op['x-csrf-exempt']) {
        const refused = op.responses['403'];
        const crossSite = STANDARD_ERRORS['403'];
        if (!refused)
          op.responses['403'] = { description: crossSite[0].toUpperCase() + crossSite.slice(1) };
        else refused.description = `${refused.description}; or ${crossSite}`;
        op.responses['415'] = op.responses['415'] ?? { description: STANDARD_ERRORS['415'] };
      }
      // A machine route (`@Machine`): its credential's refusal, and the failed-check throttle.
      const machine = op['x-machine'];
      if (machine === 'apiKey') {
        op.responses['401'] = { description: STANDARD_ERRORS.apiKey401 };
      } else if (machine) {
        op.responses['401'] = op.responses['401'] ?? { description: STANDARD_ERRORS.machine401 };
        op.responses['429'] = op.responses['429'] ?? { description: STANDARD_ERRORS.machine429 };
      }
      // The request rate limit counts every route but the health check and machine callers'.
      if (!uncountedPath(path, machine)) {
        const limited = op.responses['429'];
        const text = STANDARD_ERRORS.rateLimited;
        if (!limited) op.responses['429'] = { description: text[0].toUpperCase() + text.slice(1) };
        else limited.description = `${limited.description}; or ${text}`;
      }
      // Any route that reads the database may be cut by the statement time limit.
      op.responses['503'] = op.responses['503'] ?? { description: STANDARD_ERRORS['503'] };
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        // A refusal declared with a body schema of its own, written inline (the health check's
        // 503 `{status, info, error, details}`), keeps it beside the one error body, which the
        // app-wide layers (session store, validation) may answer on any route.
        const own = response.content?.['application/json']?.schema;
        response.content =
          own && !own.$ref
            ? {
                'application/json': {
                  schema: { anyOf: [own, errorContent['application/json'].schema] },
                },
              }
            : errorContent;
      }
      if (!op.tags?.length) op.tags = [path.split('/').filter(Boolean)[1] ?? 'service'];
      for (const tag of op.tags) tags.add(tag);
      if (!op.description) {
        const permission = op['x-permission'];
        const machine = op['x-machine'];
        const access = permission
          ? `Needs \`${permission}\` in the organization the route addresses.`
          : machine
            ? `For machine callers with a \`${machine}\` credential (no session).`
            : op.security?.length
              ? 'Needs a session.'
              : 'Open to anyone.';
        op.description = op.summary ? `${op.summary}. ${access}` : access;
      }
    }
  }
  pruneUnusedSchemas(doc);
  doc.tags = [...tags].sort().map((name) => ({
    name,
    description: TAG_DESCRIPTIONS[name] ?? `The ${name} routes`,
  }));
  return doc;
}

/** The header, its refusals and the replay marker on a route marked `@Idempotent()`. */
function documentIdempotency(op: Operation) {
  op.parameters = [...(op.parameters ?? []), IDEMPOTENCY.header];
  const add = (status: string, description: string) => {
    const declared = op.responses[status];
    if (declared) declared.description = `${declared.description}; or ${description}`;
    else op.responses[status] = { description };
  };
  add('400', IDEMPOTENCY.invalid);
  add('409', IDEMPOTENCY.running);
  add('422', IDEMPOTENCY.reused);
  for (const [status, response] of Object.entries(op.responses)) {
    if (/^2\d\d$/.test(status)) response.headers = { ...response.headers, ...IDEMPOTENCY.replayed };
  }
}

/**
 * Drops component schemas nothing refers to any more (the per-route error classes that the one
 * error body replaced), following references between schemas.
 */
function pruneUnusedSchemas(doc: OpenAPIObject) {
  const schemas = doc.components?.schemas ?? {};
  const refsIn = (value: unknown) =>
    [...JSON.stringify(value).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
  const used = new Set<string>();
  const queue = refsIn(doc.paths);
  while (queue.length) {
    const name = queue.pop()!;
    if (used.has(name)) continue;
    used.add(name);
    queue.push(...refsIn(schemas[name]));
  }
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
}
