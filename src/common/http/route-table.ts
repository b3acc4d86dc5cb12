import { INestApplication, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { Access, ACCESS_KEY, RAW_BODY_KEY, RawBodyMode } from './access.decorators';

export interface RouteEntry {
  method: string;
  path: string;
  access?: Access;
  /** `@RawBody`'s mode, when the route takes its body raw. */
  rawBody?: RawBodyMode;
  controller: string;
  handler: string;
}

const join = (...parts: string[]) =>
  '/' +
  parts
    .flatMap((p) => p.split('/'))
    .filter(Boolean)
    .join('/');

/** Every route the app serves with its declared access rule (used by the route-table tests). */
export function listRoutes(app: INestApplication): RouteEntry[] {
  const discovery = app.get(DiscoveryService);
  return discovery
    .getControllers()
    .filter((w) => w.instance && w.metatype)
    .flatMap((w) => routesOf(w.metatype as new (...args: never[]) => unknown));
}

/** The routes one controller class declares (read from its metadata; nothing is instantiated). */
export function routesOf(metatype: new (...args: never[]) => unknown): RouteEntry[] {
  const scanner = new MetadataScanner();
  const reflector = new Reflector();
  const routes: RouteEntry[] = [];
  const prefixes = ([] as string[]).concat(Reflect.getMetadata(PATH_METADATA, metatype) ?? '');
  const proto = metatype.prototype as Record<string, unknown>;
  for (const name of scanner.getAllMethodNames(proto)) {
    const handler = proto[name] as object;
    const paths = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
    if (paths === undefined) continue;
    const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
    const access = reflector.getAllAndOverride<Access | undefined>(ACCESS_KEY, [
      handler as () => void,
      metatype,
    ]);
    const rawBody = reflector.getAllAndOverride<RawBodyMode | undefined>(RAW_BODY_KEY, [
      handler as () => void,
      metatype,
    ]);
    for (const prefix of prefixes) {
      for (const path of ([] as string[]).concat(paths)) {
        routes.push({
          method,
          path: join(prefix, path),
          access,
          ...(rawBody && { rawBody }),
          controller: metatype.name,
          handler: name,
        });
      }
    }
  }
  return routes;
}
