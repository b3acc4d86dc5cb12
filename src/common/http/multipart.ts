import {
  applyDecorators,
  CallHandler,
  ExecutionContext,
  Inject,
  Injectable,
  NestInterceptor,
  SetMetadata,
  UseInterceptors,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiConsumes, ApiResponse } from '@nestjs/swagger';
import type { Request, RequestHandler, Response } from 'express';
import multer from 'multer';
import { from, Observable, switchMap } from 'rxjs';
import { Env } from '../../config';
import { DomainError } from '../errors/domain-error';
import {
  Access,
  ACCESS_KEY,
  MULTIPART_KEY,
  MultipartBody,
  MultipartOptions,
} from './access.decorators';
import { PERMISSION_CHECKER, PermissionChecker } from './access.guard';
import { KeyedErrorResponse } from './openapi';
import { UploadSlots } from './upload-slots';

/**
 * An upload route: its `multipart/form-data` body (fields, and at most `maxFiles` files of at most
 * `maxFileBytes` each, in memory) is read only after the guards have decided the session, the
 * cross-site check and the permission, and while the caller holds one of their upload places
 * (UPLOAD_CONCURRENCY_PER_USER). Whatever the permission needs from the form (a linked record,
 * the organization of a route without one in its path) is decided again once it is read.
 */
export const Multipart = (options: MultipartOptions) =>
  applyDecorators(
    SetMetadata(MULTIPART_KEY, options),
    MultipartBody(),
    UseInterceptors(MultipartInterceptor),
    ApiConsumes('multipart/form-data'),
    ApiResponse({
      status: 413,
      type: KeyedErrorResponse,
      description: '`payloadTooLarge`: a file is larger than the route’s limit',
    }),
    ApiResponse({
      status: 429,
      type: KeyedErrorResponse,
      description:
        '`tooManyUploads`: the caller already has UPLOAD_CONCURRENCY_PER_USER uploads in progress',
    }),
  );

/** Reads the form of a `@Multipart` route; see there. */
@Injectable()
export class MultipartInterceptor implements NestInterceptor {
  private readonly parsers = new WeakMap<object, RequestHandler>();

  constructor(
    private readonly reflector: Reflector,
    private readonly env: Env,
    private readonly slots: UploadSlots,
    @Inject(PERMISSION_CHECKER) private readonly checker: PermissionChecker,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    if (!req.is('multipart/form-data')) return next.handle();
    return from(this.readForm(context, req)).pipe(switchMap(() => next.handle()));
  }

  private async readForm(context: ExecutionContext, req: Request): Promise<void> {
    const res = context.switchToHttp().getResponse<Response>();
    const handler = context.getHandler();
    const options = this.reflector.get<MultipartOptions>(MULTIPART_KEY, handler);
    const userId = req.session?.userId;
    // Upload routes are never public; without a user there would be no place to count.
    if (!userId) throw DomainError.unauthorized('no valid session');
    // A client gone while the guards ran: its stream will never end or close again.
    if (req.destroyed) throw DomainError.badRequest('the upload was abandoned');
    await this.slots.take(userId, res);
    const maxBytes = options.maxFileBytes(this.env);
    await new Promise<void>((resolve, reject) =>
      this.parserFor(handler, options, maxBytes)(req, res, (err?: unknown) =>
        err ? reject(uploadError(err, maxBytes)) : resolve(),
      ),
    );
    const access = this.reflector.getAllAndOverride<Access | undefined>(ACCESS_KEY, [
      handler,
      context.getClass(),
    ]);
    if (access?.kind === 'permission') {
      await this.checker.authorize(req, access.permission, access.target, 'read');
    }
  }

  private parserFor(handler: object, options: MultipartOptions, maxBytes: number) {
    let parse = this.parsers.get(handler);
    if (!parse) {
      parse = multer({
        storage: multer.memoryStorage(),
        limits: { fileSize: maxBytes, files: options.maxFiles ?? 1, fields: 20 },
        // Browsers send UTF-8 file names; busboy's default would read them as Latin-1.
        defParamCharset: 'utf8',
      }).any();
      this.parsers.set(handler, parse);
    }
    return parse;
  }
}

function uploadError(err: unknown, maxBytes: number): DomainError {
  if (err instanceof DomainError) return err;
  return (err as { code?: string }).code === 'LIMIT_FILE_SIZE'
    ? DomainError.payloadTooLarge(`a file is larger than ${maxBytes} bytes`)
    : DomainError.badRequest(`malformed upload: ${(err as Error).message}`);
}
