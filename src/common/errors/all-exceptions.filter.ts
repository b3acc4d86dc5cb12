import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { EntityNotFoundError, QueryFailedError } from 'typeorm';
import { AppError, HttpError, MessageError } from './app-error';
import { ErrorBody, errorBody } from './error-body';

interface Rendered {
  status: number;
  body: ErrorBody;
  headers?: Record<string, string>;
}

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

/** Renders every error in the formats of spec section 7; never leaks stacks or SQL. */
export function renderError(exception: unknown): Rendered | undefined {
  if (exception instanceof AppError) {
    const extra = exception.detail
      ? { key: exception.wire, message: exception.detail }
      : { key: exception.wire };
    return { status: exception.status, body: errorBody(exception.status, extra) };
  }
  if (exception instanceof HttpError) {
    const extra = {
      ...(exception.detail ? { message: exception.detail } : {}),
      ...exception.extra,
    };
    return {
      status: exception.status,
      body: errorBody(exception.status, extra),
      headers: exception.headers,
    };
  }
  if (exception instanceof MessageError) {
    return { status: exception.status, body: { message: exception.message } };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const response = exception.getResponse();
    const raw =
      typeof response === 'object' && response
        ? (response as { message?: unknown }).message
        : response;
    const message = Array.isArray(raw) ? raw.join('; ') : typeof raw === 'string' ? raw : undefined;
    // Nest's own default messages ("Cannot GET /x", "Forbidden resource") add nothing; validation
    // and pipe messages do.
    const useful = status === 400 || status === 413 || status === 415;
    return { status, body: errorBody(status, useful && message ? { message } : {}) };
  }
  if (exception instanceof EntityNotFoundError) {
    return { status: 404, body: errorBody(404) };
  }
  if (exception instanceof QueryFailedError) {
    const code = (exception as QueryFailedError & { code?: string }).code;
    if (code === '22P02')
      return { status: 400, body: errorBody(400, { message: 'malformed identifier or value' }) };
    if (code === '23505')
      return { status: 409, body: errorBody(409, { message: 'duplicate record' }) };
    if (code === '40001' || code === '40P01')
      return { status: 409, body: errorBody(409, { message: 'concurrent modification, retry' }) };
  }
  const code = (exception as { code?: string } | undefined)?.code;
  if (code && CONNECTION_ERRORS.has(code)) {
    return { status: 503, body: errorBody(503, { key: 'databaseMissing' }) };
  }
  // Body-parser and other express-level errors carry an http status.
  const status =
    (exception as { status?: number; statusCode?: number } | undefined)?.status ??
    (exception as { statusCode?: number } | undefined)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, body: errorBody(status) };
  }
  return undefined;
}

@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost) {
    const res = host.switchToHttp().getResponse<Response>();
    const rendered = renderError(exception) ?? this.unexpected(exception);
    if (res.headersSent) return;
    for (const [name, value] of Object.entries(rendered.headers ?? {})) res.setHeader(name, value);
    res.status(rendered.status).json(rendered.body);
  }

  private unexpected(exception: unknown): Rendered {
    const err = exception instanceof Error ? exception : new Error(String(exception));
    this.logger.error(`${err.name}: ${err.message}`, err.stack);
    return { status: 500, body: errorBody(500) };
  }
}
