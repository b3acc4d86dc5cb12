import type { Type } from '@nestjs/common';
import { DECORATORS } from '@nestjs/swagger';
import { routesOf } from '../../common';

/**
 * The GET routes that answer a download or an export rather than JSON: those declaring
 * `@ApiProduces`, or documenting a success body of another media type than JSON (CSV, OCF zip,
 * certificate PDFs, file contents), as patterns of the request
 * path that match what Express routes to them (case-insensitive, a trailing slash allowed, a
 * `:param` one non-empty segment).
 */
export function downloadRoutes(controllers: Type[]): RegExp[] {
  const patterns: RegExp[] = [];
  for (const metatype of controllers) {
    const proto = metatype.prototype as Record<string, object>;
    for (const route of routesOf(metatype)) {
      if (route.method !== 'GET') continue;
      const produces = (Reflect.getMetadata(DECORATORS.API_PRODUCES, proto[route.handler]) ??
        Reflect.getMetadata(DECORATORS.API_PRODUCES, metatype)) as string[] | undefined;
      if (!produces?.length && !documentsOtherMedia(proto[route.handler])) continue;
      const source = route.path
        .split('/')
        .map((part) =>
          part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
        )
        .join('/');
      patterns.push(new RegExp(`^${source}/?$`, 'i'));
    }
  }
  return patterns;
}

/** Whether the handler documents a response of a media type other than JSON. */
function documentsOtherMedia(handler: object): boolean {
  const responses = (Reflect.getMetadata(DECORATORS.API_RESPONSE, handler) ?? {}) as Record<
    string,
    { content?: Record<string, unknown> }
  >;
  return Object.values(responses).some((r) =>
    Object.keys(r.content ?? {}).some((media) => !/\bjson\b/.test(media)),
  );
}
