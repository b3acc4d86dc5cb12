import { CanActivate, ExecutionContext, Injectable, RequestMethod, Type } from '@nestjs/common';
import { METHOD_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { getMetadataStorage } from 'class-validator';
import type { Request } from 'express';
import { DomainError } from '../errors/domain-error';

const READS = new Set(['GET', 'HEAD']);
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type Handler = Function;

/**
 * Every GET route answers 400 `{message}` naming a query parameter it does not know, so a misspelt
 * filter is never taken for "no filter". A route's parameters are what its handler declares:
 * `@Query('name')`, or the validated properties of its `@Query()` DTO. An `@All` route answers
 * every method alike and filters nothing (the gateway hooks' 405): it is left alone. A guard (the
 * last global one, after access) rather than an interceptor: a request path without interceptors
 * runs without rxjs.
 */
@Injectable()
export class QueryParamsGuard implements CanActivate {
  private readonly known = new WeakMap<object, ReadonlySet<string>>();

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    const handler = context.getHandler();
    if (
      READS.has(req.method) &&
      Reflect.getMetadata(METHOD_METADATA, handler) !== RequestMethod.ALL
    ) {
      const allowed = this.allowedFor(context.getClass(), handler);
      const unknown = Object.keys(req.query ?? {}).filter((k) => !allowed.has(k));
      if (unknown.length) {
        const list = unknown.map((k) => `"${k}"`).join(', ');
        throw DomainError.message(
          400,
          `unknown query parameter${unknown.length > 1 ? 's' : ''} ${list}` +
            (allowed.size ? `; this route accepts ${[...allowed].join(', ')}` : ''),
        );
      }
    }
    return true;
  }

  private allowedFor(controller: Type, handler: Handler) {
    let allowed = this.known.get(handler);
    if (!allowed) {
      allowed = queryParamsOf(controller, handler);
      this.known.set(handler, allowed);
    }
    return allowed;
  }
}

export function queryParamsOf(controller: Type, handler: Handler): Set<string> {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler.name) ?? {}) as Record<
    string,
    { index: number; data?: unknown }
  >;
  const types = (Reflect.getMetadata('design:paramtypes', controller.prototype, handler.name) ??
    []) as Type[];
  const names = new Set<string>();
  for (const [key, arg] of Object.entries(args)) {
    if (Number(key.split(':')[0]) !== RouteParamtypes.QUERY) continue;
    if (typeof arg.data === 'string') names.add(arg.data);
    else if (types[arg.index]) dtoProperties(types[arg.index]).forEach((p) => names.add(p));
  }
  return names;
}

const dtoProperties = (dto: Type): string[] =>
  getMetadataStorage()
    .getTargetValidationMetadatas(dto, '', true, false)
    .map((m) => m.propertyName);
