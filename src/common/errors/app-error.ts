import { HttpStatus } from '@nestjs/common';
import { ERROR_CATALOGUE, ErrorKey } from './error-catalogue';

/** A keyed error of spec section 7, rendered as `{error, key}` (plus `message` when given). */
export class AppError extends Error {
  readonly status: number;
  readonly wire: string;
  constructor(
    readonly key: ErrorKey,
    readonly detail?: string,
  ) {
    super(detail ?? key);
    this.status = ERROR_CATALOGUE[key].status;
    this.wire = ERROR_CATALOGUE[key].wire;
  }
}

/** A plain error `{error}` with an HTTP status, for 401/403/404/409 and friends. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail?: string,
    readonly headers: Record<string, string> = {},
    /** Extra body fields, e.g. per-row `errors` of a bulk upload. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail ?? String(status));
  }

  static notFound(detail?: string) {
    return new HttpError(HttpStatus.NOT_FOUND, detail);
  }
  static forbidden(detail?: string) {
    return new HttpError(HttpStatus.FORBIDDEN, detail);
  }
  static unauthorized(detail?: string) {
    return new HttpError(HttpStatus.UNAUTHORIZED, detail);
  }
  static conflict(detail?: string) {
    return new HttpError(HttpStatus.CONFLICT, detail);
  }
  static badRequest(detail?: string, extra?: Record<string, unknown>) {
    return new HttpError(HttpStatus.BAD_REQUEST, detail, {}, extra);
  }
}

/** The `{message}` format some routes use (redirect login, a few others). */
export class MessageError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
