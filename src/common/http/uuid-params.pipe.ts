import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { DomainError } from '../errors/domain-error';

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
    if (typeof value !== 'string' || !isUUID(value)) {
      throw DomainError.badRequest(`${metadata.data} must be a UUID`);
    }
    return value;
  }
}
