import { ERROR_CATALOGUE, ErrorKey } from './error-catalogue';

/**
 * Kinds of error without a key of their own in spec section 7; rendered `{error, message}`
 * (`{message}` alone for `message`, the format of the redirect login and a few other routes).
 */
export const GENERAL_KINDS = [
  'badRequest',
  'unauthorized',
  'forbidden',
  'notFound',
  'conflict',
  'payloadTooLarge',
  'unsupportedMediaType',
  'tooManyRequests',
  'serviceUnavailable',
  'message',
] as const;
export type GeneralKind = (typeof GENERAL_KINDS)[number];

export type DomainErrorKey = ErrorKey | GeneralKind;

export interface DomainErrorDetails {
  /** Extra body fields, e.g. the per-row `errors` of a bulk upload. */
  body?: Record<string, unknown>;
  /** Response headers, e.g. `Retry-After`. */
  headers?: Record<string, string>;
}

/** Default messages: 401, 403 and 404 always say something (issue: bodies carry a message). */
const DEFAULT_MESSAGES: Partial<Record<number, string>> = {
  401: 'authentication required',
  403: 'not allowed',
  404: 'not found',
};

/**
 * The one error type services throw. `key` is a key of spec section 7 (rendered `{error, key}`)
 * or a general kind (rendered `{error, message}`); the global exception filter turns it into the
 * response, so no code writes an error response itself.
 */
export class DomainError extends Error {
  constructor(
    readonly key: DomainErrorKey,
    readonly status: number,
    message?: string,
    readonly details: DomainErrorDetails = {},
  ) {
    super(message ?? DEFAULT_MESSAGES[status] ?? '');
    this.name = 'DomainError';
  }

  /** True when `message` was given or defaulted, i.e. worth rendering. */
  get hasMessage(): boolean {
    return this.message.length > 0;
  }

  /** A keyed error of section 7 with its catalogued status. */
  static keyed(key: ErrorKey, message?: string, details?: DomainErrorDetails) {
    return new DomainError(key, ERROR_CATALOGUE[key].status, message, details);
  }
  static badRequest(message: string, details?: DomainErrorDetails) {
    return new DomainError('badRequest', 400, message, details);
  }
  static unauthorized(message?: string) {
    return new DomainError('unauthorized', 401, message);
  }
  static forbidden(message?: string) {
    return new DomainError('forbidden', 403, message);
  }
  static notFound(message?: string) {
    return new DomainError('notFound', 404, message);
  }
  static conflict(message: string) {
    return new DomainError('conflict', 409, message);
  }
  static payloadTooLarge(message: string) {
    return new DomainError('payloadTooLarge', 413, message);
  }
  static unsupportedMediaType(message: string) {
    return new DomainError('unsupportedMediaType', 415, message);
  }
  /** 429 `tooManyRequests` with the rate-limit headers (`rateLimitHeaders`) as of `nowMs`. */
  static tooManyRequests(
    nowMs: number,
    retryAfterSeconds: number,
    message = 'too many attempts, retry later',
    limit?: number,
  ) {
    return new DomainError('tooManyRequests', 429, message, {
      headers: rateLimitHeaders(nowMs, retryAfterSeconds, limit),
    });
  }
  static serviceUnavailable(message: string) {
    return new DomainError('serviceUnavailable', 503, message);
  }
  /** The `{message}` body format (spec section 7). */
  static message(status: number, message: string) {
    return new DomainError('message', status, message);
  }
}

/**
 * The headers of every 429 (spec section 8): `Retry-After` (seconds), `X-RateLimit-Limit` (the
 * calls allowed, when the limit counts calls), `X-RateLimit-Remaining` (0) and `X-RateLimit-Reset`
 * (when to retry, a unix timestamp in seconds, counted from `nowMs`: the caller's clock).
 */
export function rateLimitHeaders(
  nowMs: number,
  retryAfterSeconds: number,
  limit?: number,
): Record<string, string> {
  const retryAfter = Math.max(1, Math.ceil(retryAfterSeconds));
  return {
    'Retry-After': String(retryAfter),
    ...(limit === undefined ? {} : { 'X-RateLimit-Limit': String(limit) }),
    'X-RateLimit-Remaining': '0',
    'X-RateLimit-Reset': String(Math.ceil(nowMs / 1000) + retryAfter),
  };
}
