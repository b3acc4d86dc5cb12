import { INestApplication, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { Access, ACCESS_KEY } from './access.decorators';

export interface RouteEntry {
  method: string;
  path: string;
  access?: Access;
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
  const scanner = app.get(MetadataScanner);
  const reflector = app.get(Reflector);
  const routes: RouteEntry[] = [];
  for (const wrapper of discovery.getControllers()) {
    const { instance, metatype } = wrapper;
    if (!instance || !metatype) continue;
    const prefixes = ([] as string[]).concat(Reflect.getMetadata(PATH_METADATA, metatype) ?? '');
    const proto = Object.getPrototypeOf(instance);
    for (const name of scanner.getAllMethodNames(proto)) {
      const handler = proto[name];
      const paths = Reflect.getMetadata(PATH_METADATA, handler);
      if (paths === undefined) continue;
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
      const access = reflector.getAllAndOverride<Access | undefined>(ACCESS_KEY, [
        handler,
        metatype,
      ]);
      for (const prefix of prefixes) {
        for (const path of ([] as string[]).concat(paths)) {
          routes.push({
            method,
            path: join(prefix, path),
            access,
            controller: metatype.name,
            handler: name,
          });
        }
      }
    }
  }
  return routes;
}
