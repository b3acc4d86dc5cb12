import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { DomainError } from '../errors/domain-error';

/** An event id (spec section 6): `evt_` + 32 lowercase hex characters. */
export const EVENT_ID = /^evt_[0-9a-f]{32}$/;
/** A webhook endpoint id: `wh_` + 32 lowercase hex characters. */
export const WEBHOOK_ID = /^wh_[0-9a-f]{32}$/;

/** Path parameters that are ids of a format of their own (spec section 6), not UUIDs. */
export const FORMATTED_PARAMS: Record<string, { pattern: RegExp; format: string }> = {
  event: { pattern: EVENT_ID, format: '`evt_` + 32 hex characters' },
  webhook: { pattern: WEBHOOK_ID, format: '`wh_` + 32 hex characters' },
};

/** Path parameters that are free strings in the spec, not record ids. */
export const STRING_PARAMS = new Set(['name', 'target', 'teamId', 'chatUserId']);

/**
 * Every other path parameter is a record id and must be a UUID: 400 before any lookup. Global, so
 * no route can forget it.
 */
@Injectable()
export class UuidParamsPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata) {
    if (metadata.type !== 'param' || !metadata.data || STRING_PARAMS.has(metadata.data))
      return value;
    const formatted = FORMATTED_PARAMS[metadata.data];
    if (formatted) {
      if (typeof value !== 'string' || !formatted.pattern.test(value)) {
        throw DomainError.badRequest(`${metadata.data} must be ${formatted.format}`);
      }
    } else if (typeof value !== 'string' || !isUUID(value)) {
      throw DomainError.badRequest(`${metadata.data} must be a UUID`);
    }
    return value;
  }
}
