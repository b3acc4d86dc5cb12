import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { toDomainError } from '../../common';
import { HookReply, hookFailure, hookRefusal } from './hook-requests';

/**
 * The hooks answer every refusal in their own `{ok: false, error}` shape, the guards' too (401 of
 * a wrong token, 429 of an address out of failed checks, with their headers); anything unexpected
 * is logged and answered 500 `internal error`.
 */
@Catch()
export class HookErrorsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Hooks');

  catch(exception: unknown, host: ArgumentsHost) {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    if (res.headersSent) return;
    sendHookReply(res, this.reply(exception, req));
  }

  private reply(exception: unknown, req: Request): HookReply {
    const known = toDomainError(exception);
    if (known && known.status < 500) return hookRefusal(known);
    const err = exception as Error | undefined;
    this.logger.error(`hook ${req.method} ${req.path} failed: ${err?.stack ?? String(exception)}`);
    return hookFailure(500, 'internal error');
  }
}

export function sendHookReply(res: Response, { status, body, headers }: HookReply) {
  for (const [name, value] of Object.entries(headers ?? {})) res.setHeader(name, value);
  if (body) res.status(status).json(body);
  else res.status(status).end();
}
