import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { DomainError } from './domain-error';
import { errorBody } from './error-body';
import { RenderedError, renderDomainError, toDomainError } from './render-error';

/**
 * The one place an error becomes a response, in the formats of spec section 7. Registered as the
 * global filter, it also receives what express middleware passes on (body parser, session store,
 * multipart): Nest routes those errors through its global filters too. Stacks and SQL are logged,
 * never sent.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost) {
    this.send(host.switchToHttp().getResponse<Response>(), exception);
  }

  private send(res: Response, exception: unknown) {
    if (res.headersSent) return;
    const rendered = this.render(exception);
    for (const [name, value] of Object.entries(rendered.headers ?? {})) res.setHeader(name, value);
    res.status(rendered.status).json(rendered.body);
  }

  render(exception: unknown): RenderedError {
    const known = toDomainError(exception);
    if (known) {
      if (known.status >= 500) this.logger.error(describe(exception));
      return renderDomainError(known);
    }
    const err = exception instanceof Error ? exception : new Error(String(exception));
    this.logger.error(`${err.name}: ${err.message}`, err.stack);
    return { status: 500, body: errorBody(500) };
  }
}

const describe = (e: unknown) =>
  e instanceof DomainError ? `${e.key}: ${e.message}` : e instanceof Error ? e.message : String(e);
