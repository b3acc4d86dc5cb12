import { randomUUID } from 'node:crypto';
import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { from, Observable, of, switchMap, catchError, finalize, mergeMap } from 'rxjs';
import { DomainError, renderDomainError, toDomainError, withBeforeCommit } from '../common';
import { repeatEvery } from '../scheduler';
import { IdempotencyStore, KeyedRequest, LostAnswer } from './idempotency-store';
import { requestFingerprint } from './request-fingerprint';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** 1 to 255 printable ASCII characters (a UUID, a ULID, a client's own counter). */
const VALID_KEY = /^[\x20-\x7e]{1,255}$/;

/**
 * Answers kept for a retry: successes and refusals of the request itself. Not 409 and 429, which
 * say "try again" (another import running, a concurrent modification, too many uploads), nor any
 * 5xx: the key is given up and a retry runs the request anew.
 */
const keptStatus = (status: number) => status < 500 && status !== 409 && status !== 429;

/**
 * The answer to a key whose first request wrote but could not keep its answer (its server
 * stopped, or it failed after its write): kept like any answer, so every retry gets it.
 */
function lostAnswer(): LostAnswer {
  const rendered = renderDomainError(
    DomainError.keyed(
      'idempotencyKeyApplied',
      `the first request with this ${IDEMPOTENCY_HEADER} was applied, but its answer was lost; ` +
        'read the resource to see the result, and do not send the request again with a new key',
    ),
  );
  return { status: rendered.status, body: JSON.stringify(rendered.body) };
}

/** Renewals a lease: one late or failed does not let a retry take over a live request. */
const RENEWALS_PER_LEASE = 3;

/**
 * `Idempotency-Key` on a write (see `@Idempotent`). Runs after the guards: a request refused
 * for its session or permission never claims a key, so another caller cannot learn of one.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');

  constructor(private readonly store: IdempotencyStore) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const key = req.get(IDEMPOTENCY_HEADER);
    const userId = req.session?.userId;
    if (key === undefined || !userId) return next.handle();
    if (!VALID_KEY.test(key)) {
      throw DomainError.keyed(
        'invalidIdempotencyKey',
        `${IDEMPOTENCY_HEADER} must be 1 to 255 printable ASCII characters`,
      );
    }
    // The fingerprint of an upload needs its form: `@Idempotent` must come before `@Multipart`.
    if (req.is('multipart/form-data') && req.files === undefined) {
      throw new Error(
        `${req.method} ${req.route?.path}: @Idempotent must be written above @Multipart`,
      );
    }
    const request: KeyedRequest = {
      userId,
      key,
      method: req.method,
      path: req.originalUrl,
      fingerprint: requestFingerprint(req),
      claimId: randomUUID(),
    };
    return from(this.store.claim(request, lostAnswer())).pipe(
      switchMap((earlier) => {
        if (earlier === 'claimed') return this.run(request, res, next);
        if (earlier.fingerprint !== request.fingerprint) {
          throw DomainError.keyed(
            'idempotencyKeyReused',
            `this ${IDEMPOTENCY_HEADER} was sent with another request (method, path or body); use a new key`,
          );
        }
        if (earlier.state === 'running') {
          throw DomainError.keyed(
            'idempotencyKeyInProgress',
            `the first request with this ${IDEMPOTENCY_HEADER} is still running; retry when it has finished`,
          );
        }
        res.status(earlier.status!);
        res.setHeader(REPLAYED_HEADER, 'true');
        return of(earlier.responseBody === null ? undefined : JSON.parse(earlier.responseBody));
      }),
    );
  }

  /**
   * Runs the request, renewing its claim meanwhile, and keeps its answer before it is sent, so no
   * retry finds it running.
   */
  private run(request: KeyedRequest, res: Response, next: CallHandler): Observable<unknown> {
    const stopRenewing = repeatEvery(
      this.store.leaseMs / RENEWALS_PER_LEASE,
      () => void this.renew(request),
    );
    // Every write the request commits marks the claim applied, in the write's own transaction.
    const handled = new Observable<unknown>((subscriber) =>
      withBeforeCommit(
        (manager) => this.store.markApplied(manager, request),
        () => next.handle().subscribe(subscriber),
      ),
    );
    return handled.pipe(
      mergeMap(async (body: unknown) => {
        const text = body === undefined || body === null ? null : JSON.stringify(body);
        await this.keep(request, res.statusCode, text);
        return body;
      }),
      catchError(async (err: unknown) => {
        const known = toDomainError(err);
        if (known && keptStatus(known.status)) {
          const rendered = renderDomainError(known);
          await this.keep(request, rendered.status, JSON.stringify(rendered.body));
        } else {
          await this.release(request);
        }
        throw err;
      }),
      finalize(stopRenewing),
    );
  }

  private async renew(request: KeyedRequest) {
    try {
      await this.store.renew(request);
    } catch (err) {
      this.logger.warn(`could not renew the claim of ${request.key}: ${(err as Error).message}`);
    }
  }

  private async keep(request: KeyedRequest, status: number, body: string | null) {
    if (!keptStatus(status)) return this.release(request);
    try {
      await this.store.complete(request, status, body);
    } catch (err) {
      // The request is done; its answer still goes out. Left running, the key answers 409 until
      // its lease ends: whether the request wrote is known, not what it answered.
      this.logger.error(`could not keep the answer of ${request.key}: ${(err as Error).message}`);
    }
  }

  private async release(request: KeyedRequest) {
    try {
      await this.store.release(request, lostAnswer());
    } catch (err) {
      this.logger.error(`could not release ${request.key}: ${(err as Error).message}`);
    }
  }
}
