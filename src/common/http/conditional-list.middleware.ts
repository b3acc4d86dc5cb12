import type { INestApplication, Type } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { NextFunction, Request, Response } from 'express';
import './session.types';
import { PERMISSION_CHECKER, PermissionChecker } from './access.guard';
import type { PermissionTarget } from './access.decorators';
import { CACHED_LIST_KEY, ListResponder, ListSpec } from './list-responder';
import { queryParamsOf } from './query-params.guard';
import { routesOf } from './route-table';

/** A `@CachedList` route as the shortcut matches it. */
interface ConditionalRoute {
  pattern: RegExp;
  params: string[];
  permission: string;
  target: PermissionTarget;
  query: ReadonlySet<string>;
  spec: ListSpec;
}

/**
 * Answers a conditional read of a `@CachedList` route with 304 when the caller's copy is current,
 * without the framework's routing, guards and pipes, which the bench's profile shows to cost as
 * much as the rest of such a request. It runs after every app-wide middleware (request id,
 * security headers, CORS, the session with its rolling cookie) and decides access exactly as the
 * route's guard does, with the same checker and the same one query, on every request: nothing
 * about access is cached. It only ever answers 304: for anything else (no session, a refusal, an
 * unknown query parameter, a changed list, any error) it steps aside and the route answers as it
 * always does, decision and all. Module middleware does not run before it, so a route behind one
 * must not be a `@CachedList`.
 */
export function conditionalListShortcut(app: INestApplication) {
  let routes: ConditionalRoute[] | undefined;
  let lists: ListResponder;
  let checker: PermissionChecker;
  const resolve = () => {
    lists = app.get(ListResponder);
    checker = app.get<PermissionChecker>(PERMISSION_CHECKER);
    routes = lists.enabled ? conditionalRoutes(app) : [];
    return routes;
  };

  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' || !req.headers['if-none-match'] || !req.session?.userId) {
      return next();
    }
    const table = routes ?? resolve();
    for (const route of table) {
      const match = route.pattern.exec(req.path);
      if (!match) continue;
      const params = decodeParams(route.params, match);
      if (!params || Object.keys(req.query ?? {}).some((k) => !route.query.has(k))) return next();
      void answer(req, res, next, route, params);
      return;
    }
    next();
  };

  async function answer(
    req: Request,
    res: Response,
    next: NextFunction,
    route: ConditionalRoute,
    params: Record<string, string>,
  ) {
    try {
      req.params = params;
      await checker.authorize(req, route.permission, route.target);
      const { etag } = lists.version(req, req.access!, route.spec);
      if (req.get('if-none-match') === etag && lists.notModified(req, res, etag)) return;
    } catch {
      // The route decides again and answers the refusal (or the error) in its own words.
    }
    delete req.access;
    next();
  }
}

/** The `@CachedList` GET routes with a permission rule, from the controllers' metadata. */
function conditionalRoutes(app: INestApplication): ConditionalRoute[] {
  const routes: ConditionalRoute[] = [];
  for (const wrapper of app.get(DiscoveryService).getControllers()) {
    const metatype = wrapper.metatype as Type | undefined;
    if (!wrapper.instance || !metatype) continue;
    for (const entry of routesOf(metatype)) {
      // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
      const handler = (metatype.prototype as Record<string, Function>)[entry.handler];
      const spec = Reflect.getMetadata(CACHED_LIST_KEY, handler) as ListSpec | undefined;
      if (!spec || entry.method !== 'GET' || entry.access?.kind !== 'permission') continue;
      const params: string[] = [];
      const source = entry.path
        .split('/')
        .map((part) => {
          if (!part.startsWith(':')) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          params.push(part.slice(1));
          return '([^/]+)';
        })
        .join('/');
      routes.push({
        pattern: new RegExp(`^${source}/?$`),
        params,
        permission: entry.access.permission,
        target: entry.access.target,
        query: queryParamsOf(metatype, handler),
        spec,
      });
    }
  }
  return routes;
}

function decodeParams(names: string[], match: RegExpExecArray): Record<string, string> | null {
  const params: Record<string, string> = {};
  try {
    names.forEach((name, i) => (params[name] = decodeURIComponent(match[i + 1])));
  } catch {
    return null;
  }
  return params;
}
