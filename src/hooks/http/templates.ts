/**
 * The templates of hook mappings: `{{payload.a.b}}` (or `{{a.b}}`), `{{messages[0].id}}`,
 * `{{headers.x-github-event}}`, `{{query.x}}`, `{{path}}`, `{{now}}`. A value that is missing
 * renders empty, an object as JSON. Lookups follow own properties only and never `__proto__`,
 * `prototype` or `constructor`: a payload cannot reach anything but its own data.
 */

/** What a template sees; the caller has already taken the token out of headers and query. */
export interface TemplateContext {
  payload: Record<string, unknown>;
  headers: Record<string, unknown>;
  query: Record<string, unknown>;
  /** The sub-path under HOOKS_PATH, without slashes (`gmail`). */
  path: string;
  now: Date;
}

const EXPRESSION = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+|\[\d+\])*$/;
const SEGMENT = /\.?([A-Za-z0-9_-]+)|\[(\d+)\]/g;
const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);

/** `a.b[0].c` → `['a', 'b', 0, 'c']`; null when it is not an expression. */
export function parseExpression(expression: string): (string | number)[] | null {
  if (!EXPRESSION.test(expression)) return null;
  return [...expression.matchAll(SEGMENT)].map(([, key, index]) =>
    index === undefined ? key : Number(index),
  );
}

/** The value at `segments` under `root`, through own properties and array indexes only. */
export function lookUp(root: unknown, segments: readonly (string | number)[]): unknown {
  let value = root;
  for (const segment of segments) {
    if (typeof segment === 'number') {
      value = Array.isArray(value) ? value[segment] : undefined;
    } else if (
      value !== null &&
      typeof value === 'object' &&
      !FORBIDDEN.has(segment) &&
      Object.hasOwn(value, segment)
    ) {
      value = (value as Record<string, unknown>)[segment];
    } else {
      return undefined;
    }
  }
  return value;
}

/** The value an expression names: a root of the context, or else the payload. */
export function resolveExpression(expression: string, ctx: TemplateContext): unknown {
  const segments = parseExpression(expression.trim());
  if (!segments) return undefined;
  const [root, ...rest] = segments;
  if (root === 'path' && !rest.length) return ctx.path;
  if (root === 'now' && !rest.length) return ctx.now.toISOString();
  if (root === 'payload') return lookUp(ctx.payload, rest);
  if (root === 'headers') return lookUp(ctx.headers, rest);
  if (root === 'query') return lookUp(ctx.query, rest);
  return lookUp(ctx.payload, segments);
}

const asText = (value: unknown): string => {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
};

const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;

export function renderTemplate(template: string, ctx: TemplateContext): string {
  return template.replace(PLACEHOLDER, (_, expression: string) =>
    asText(resolveExpression(expression, ctx)),
  );
}

/**
 * A key rendered from a template (`hook:gmail:{{messages[0].id}}`), or undefined when one of its
 * values is missing: payloads without the id must not all share one `hook:gmail:` conversation.
 */
export function renderKey(template: string, ctx: TemplateContext): string | undefined {
  let complete = true;
  const key = template.replace(PLACEHOLDER, (_, expression: string) => {
    const text = asText(resolveExpression(expression, ctx));
    if (!text) complete = false;
    return text;
  });
  return complete && key.trim() ? key.trim() : undefined;
}
