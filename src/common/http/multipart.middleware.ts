import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import multer from 'multer';
import { DomainError } from '../errors/domain-error';

/**
 * Parses a multipart body (fields and at most `maxFiles` files, in memory) before the guards run,
 * so a permission can be resolved from a form field such as `organization`. Failures go to the
 * exception filter like every other error.
 */
export function multipartMiddleware(maxBytes: number, maxFiles = 1) {
  const parse = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: maxBytes, files: maxFiles, fields: 20 },
    // Browsers send UTF-8 file names; busboy's default would read them as Latin-1.
    defParamCharset: 'utf8',
  }).any();
  @Injectable()
  class MultipartMiddleware implements NestMiddleware {
    use(req: Request, res: Response, next: NextFunction) {
      if (!req.is('multipart/form-data')) return next();
      parse(req, res, (err?: unknown) => {
        if (!err) return next();
        const code = (err as { code?: string }).code;
        next(
          code === 'LIMIT_FILE_SIZE'
            ? DomainError.payloadTooLarge(`a file is larger than ${maxBytes} bytes`)
            : DomainError.badRequest(`malformed upload: ${(err as Error).message}`),
        );
      });
    }
  }
  return MultipartMiddleware;
}
