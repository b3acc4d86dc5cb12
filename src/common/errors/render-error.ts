import { HttpException } from '@nestjs/common';
import { EntityNotFoundError, QueryFailedError } from 'typeorm';
import { DomainError } from './domain-error';
import { ErrorBody, errorBody } from './error-body';
import { ERROR_CATALOGUE, isErrorKey } from './error-catalogue';

export interface RenderedError {
  status: number;
  body: ErrorBody;
  headers?: Record<string, string>;
}

/** Connection failures of PostgreSQL (and the network below it): the database is missing. */
const CONNECTION_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  '57P01',
  '57P03',
  '08006',
  '08001',
  '08003',
]);

/**
 * What node-postgres throws, without a code, for a connection it lost (the server or the network
 * gone mid-query, or while connecting) or could not make in time: the database is missing too.
 */
const CONNECTION_LOST =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/** SQLSTATE of a statement cancelled by statement_timeout (or by an operator). */
const QUERY_CANCELED = '57014';

/** Keys of section 7 that every error of a status carries (the spec names them for these). */
const STATUS_KEYS: Partial<Record<number, string>> = {
  401: ERROR_CATALOGUE.unauthorized.wire,
  404: ERROR_CATALOGUE.resourceNotFound.wire,
};

/** Renders a DomainError in the formats of spec section 7. */
export function renderDomainError(error: DomainError): RenderedError {
  const { status, details } = error;
  if (error.key === 'message') {
    return { status, body: { message: error.message }, headers: details.headers };
  }
  const key = isErrorKey(error.key) ? ERROR_CATALOGUE[error.key].wire : STATUS_KEYS[status];
  const body = errorBody(status, {
    ...(key ? { key } : {}),
    ...(error.hasMessage ? { message: error.message } : {}),
    ...details.body,
  });
  return { status, body, headers: details.headers };
}

/**
 * Turns anything thrown while serving a request into the response: DomainError as the service
 * meant it, the framework's own exceptions (unknown route, body parser, validation pipe) and
 * database failures mapped without leaking SQL. Undefined means "unexpected" (a 500).
 */
export function toDomainError(exception: unknown): DomainError | undefined {
  if (exception instanceof DomainError) return exception;
  if (exception instanceof HttpException) return fromHttpException(exception);
  if (exception instanceof EntityNotFoundError) return DomainError.notFound();
  if (exception instanceof QueryFailedError) {
    const code = (exception as QueryFailedError & { code?: string }).code;
    if (code === '22P02') return DomainError.badRequest('malformed identifier or value');
    // numeric_value_out_of_range: a value past its column, which the checks before the write
    // should have caught; the input's fault all the same, and the transaction is rolled back.
    if (code === '22003') {
      return DomainError.keyed(
        'valueOutOfRange',
        'a number is out of range (quantities and amounts: at most 28 digits before the point and 10 after); nothing was changed',
      );
    }
    if (code === '23505') return DomainError.conflict('duplicate record');
    if (code === '40001' || code === '40P01') {
      return DomainError.conflict('concurrent modification, retry');
    }
  }
  const code = (exception as { code?: string } | undefined)?.code;
  const message = (exception as { message?: unknown } | undefined)?.message;
  if (
    (code && CONNECTION_ERRORS.has(code)) ||
    (!code && typeof message === 'string' && CONNECTION_LOST.test(message))
  ) {
    return new DomainError('databaseMissing', 503, 'the database is unavailable');
  }
  // A statement cancelled at its limit (DATABASE_STATEMENT_TIMEOUT_MS), wrapped by TypeORM or not.
  if (code === QUERY_CANCELED) {
    return DomainError.keyed(
      'databaseTimeout',
      'the request took too long in the database and was stopped; try again later',
    );
  }
  // Body-parser and other express-level errors carry an http status (and a safe message).
  const status =
    (exception as { status?: number } | undefined)?.status ??
    (exception as { statusCode?: number } | undefined)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new DomainError(generalKind(status), status, expressMessage(exception, status));
  }
  return undefined;
}

function fromHttpException(exception: HttpException): DomainError {
  const status = exception.getStatus();
  const response = exception.getResponse();
  const raw =
    typeof response === 'object' && response
      ? (response as { message?: unknown }).message
      : response;
  const message = Array.isArray(raw) ? raw.join('; ') : typeof raw === 'string' ? raw : undefined;
  if (status === 404) return DomainError.notFound('no such route');
  return new DomainError(generalKind(status), status, message);
}

function expressMessage(exception: unknown, status: number): string {
  const type = (exception as { type?: string }).type;
  if (type === 'entity.too.large') return 'the request body is too large';
  if (type === 'entity.parse.failed') return 'the request body is not valid JSON';
  if (status === 415) return 'unsupported content type';
  return 'bad request';
}

const KINDS: Record<number, DomainError['key']> = {
  400: 'badRequest',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'notFound',
  409: 'conflict',
  413: 'payloadTooLarge',
  415: 'unsupportedMediaType',
  429: 'tooManyRequests',
};
const generalKind = (status: number) => KINDS[status] ?? 'badRequest';

/**
 * Express error middleware, mounted right after the body parsers: turns their errors into
 * DomainErrors before Nest wraps a JSON syntax error into a bare BadRequestException.
 */
export function mapExpressErrors(
  err: unknown,
  _req: unknown,
  _res: unknown,
  next: (err?: unknown) => void,
) {
  next(toDomainError(err) ?? err);
}
