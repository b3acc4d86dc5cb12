import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import multer from 'multer';
import { errorBody } from '../errors/error-body';

/**
 * Parses a multipart body (fields and at most `maxFiles` files, in memory) before the guards run,
 * so a permission can be resolved from a form field such as `organization`.
 */
export function multipartMiddleware(maxBytes: number, maxFiles = 1) {
  const parse = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: maxBytes, files: maxFiles, fields: 20 },
  }).any();
  @Injectable()
  class MultipartMiddleware implements NestMiddleware {
    use(req: Request, res: Response, next: NextFunction) {
      parse(req, res, (err?: unknown) => {
        if (!err) return next();
        const code = (err as { code?: string }).code;
        const status = code === 'LIMIT_FILE_SIZE' ? 413 : 400;
        res.status(status).json(errorBody(status, { message: (err as Error).message }));
      });
    }
  }
  return MultipartMiddleware;
}
