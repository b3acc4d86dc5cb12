import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiResponse } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ERROR_CATALOGUE, isErrorKey } from '../errors/error-catalogue';

/** `{error, message}`; 401 and 404 add the section 7 key (`unauthorized`, `resourceNotFound`). */
export class ErrorResponse {
  @ApiProperty({ example: 'Bad Request' }) error: string;
  @ApiPropertyOptional() message?: string;
  @ApiPropertyOptional({ example: 'resourceNotFound' }) key?: string;
}

/** `{error: "Bad Request", key}`: the keyed errors of spec section 7. */
export class KeyedErrorResponse {
  @ApiProperty({ example: 'Bad Request' }) error: string;
  @ApiProperty({ example: 'invalidCredentials' }) key: string;
  @ApiPropertyOptional() message?: string;
}

export class MessageResponse {
  @ApiProperty() message: string;
}

export class SuccessResponse {
  @ApiProperty({ example: true }) success: true;
}

/**
 * The listed keys of the error catalogue, each under its own status (`chatNotConfigured` 500,
 * `agentUnavailable` 503, …), and 400 with the 400 ones plus `{error, message}` for a malformed
 * body.
 */
export const ApiKeyedErrors = (...keys: string[]) => {
  const byStatus = new Map<number, string[]>([[400, []]]);
  for (const key of keys) {
    const status = isErrorKey(key) ? ERROR_CATALOGUE[key].status : 400;
    byStatus.set(status, [...(byStatus.get(status) ?? []), key]);
  }
  const listed = (ks: string[]) => ks.map((k) => `\`${ERROR_WIRE(k)}\``).join(', ');
  return applyDecorators(
    ...[...byStatus].map(([status, ks]) =>
      ApiResponse({
        status,
        type: KeyedErrorResponse,
        description:
          status === 400
            ? `${ks.length ? `Keyed errors: ${listed(ks)}; or ` : ''}\`{error, message}\` for a malformed body`
            : `Keyed error${ks.length === 1 ? '' : 's'}: ${listed(ks)}`,
      }),
    ),
  );
};

const ERROR_WIRE = (key: string) => (isErrorKey(key) ? ERROR_CATALOGUE[key].wire : key);

export const ApiValidationError = () =>
  ApiResponse({
    status: 400,
    type: ErrorResponse,
    description:
      'Malformed body `{error, message}` (`{error, key: "invalidFields", message}` when a required field is missing)',
  });

export const ApiErrors = (...errors: [status: number, description: string][]) =>
  applyDecorators(
    ...errors.map(([status, description]) =>
      ApiResponse({ status, type: ErrorResponse, description }),
    ),
  );

/** The body `{}` of a deletion. */
export const EMPTY_OBJECT: SchemaObject = {
  type: 'object',
  properties: {},
  additionalProperties: false,
  description: '`{}`',
};
