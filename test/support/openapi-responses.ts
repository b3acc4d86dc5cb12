import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { NextFunction, Request, Response } from 'express';

/**
 * Holds every answer the e2e suite receives to the OpenAPI document the app serves: the status
 * must be documented for the route, and a JSON body must match the schema documented for that
 * status (ajv on the document's components). A view that drifts from its documentation fails the
 * test that received it (see `openapi-after-each.ts`).
 */

type Json = Record<string, unknown>;
interface OpenApiDoc {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema?: Json }> }> }>
  >;
  components?: { schemas?: Record<string, Json> };
}

const violations: string[] = [];

/** The violations seen since the last call (the after-each hook fails the test on any). */
export const takeViolations = () => violations.splice(0, violations.length);

/** OpenAPI 3.0's `nullable` as JSON Schema: ajv does not know the keyword. */
function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema as Json)) {
    if (key === '$ref' && typeof value === 'string') out.$ref = value.replace('#/', 'openapi#/');
    else if (key === 'example' || key === 'examples' || key === 'discriminator') continue;
    else if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(
        Object.entries(value as Json).map(([k, v]) => [k, toJsonSchema(v)]),
      );
    } else out[key] = toJsonSchema(value);
  }
  if (out.nullable === true) {
    delete out.nullable;
    return { anyOf: [out, { type: 'null' }] };
  }
  delete out.nullable;
  return out;
}

export class ResponseChecker {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction | null>();

  constructor(private readonly doc: OpenApiDoc) {
    addFormats(this.ajv);
    this.ajv.addSchema(
      { components: { schemas: toJsonSchema(doc.components?.schemas ?? {}) } },
      'openapi',
    );
  }

  /** Express middleware, first in the chain: records what each routed request answered. */
  middleware() {
    return (req: Request, res: Response, next: NextFunction) => {
      const chunks: Buffer[] = [];
      const write = res.write.bind(res) as (...args: unknown[]) => boolean;
      const end = res.end.bind(res) as (...args: unknown[]) => Response;
      const keep = (chunk: unknown, encoding?: unknown) => {
        if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
        chunks.push(
          Buffer.isBuffer(chunk)
            ? chunk
            : Buffer.from(
                chunk as string,
                typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8',
              ),
        );
      };
      // An in-process request (`InProcessRequests`: `POST /v1/query`'s reads) answers through
      // light-my-request, whose `end` writes its chunk through `write` and emits `finish` twice:
      // each chunk is kept once, each answer checked once.
      let ending = false;
      res.write = ((chunk: unknown, ...rest: unknown[]) => {
        if (!ending && isJson(res)) keep(chunk, rest[0]);
        return write(chunk, ...rest);
      }) as Response['write'];
      res.end = ((chunk?: unknown, ...rest: unknown[]) => {
        if (isJson(res)) keep(chunk, rest[0]);
        ending = true;
        return end(chunk, ...rest);
      }) as Response['end'];
      res.once('finish', () => {
        const route = (req.route as { path?: string } | undefined)?.path;
        if (!route) return;
        const problem = this.check(
          req.method,
          route,
          res.statusCode,
          isJson(res) ? Buffer.concat(chunks) : null,
        );
        if (problem)
          violations.push(`${req.method} ${req.originalUrl} → ${res.statusCode}: ${problem}`);
      });
      next();
    };
  }

  private check(method: string, route: string, status: number, body: Buffer | null): string | null {
    if (status === 304 || method === 'HEAD' || method === 'OPTIONS') return null;
    const path = route.replace(/:(\w+)/g, '{$1}');
    const operation = this.doc.paths[path]?.[method.toLowerCase()];
    // Routes outside the document (test-only controllers) are not the contract's.
    if (!operation) return null;
    const response = operation.responses[String(status)] ?? operation.responses.default;
    if (!response)
      return `status ${status} is not documented (${Object.keys(operation.responses).join(', ')})`;
    if (!body || !body.length) return null;
    const schema = response.content?.['application/json']?.schema;
    if (!schema) return 'a JSON body where the document gives no JSON schema';
    const key = `${method} ${path} ${status}`;
    if (!this.compiled.has(key))
      this.compiled.set(key, this.ajv.compile(toJsonSchema(schema) as Json));
    const validate = this.compiled.get(key)!;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      return 'a body that is not JSON';
    }
    if (validate(parsed)) return null;
    return this.ajv.errorsText(validate.errors, { dataVar: 'body' }).slice(0, 1000);
  }
}

const isJson = (res: Response) => /\bjson\b/.test(String(res.getHeader('content-type') ?? ''));
