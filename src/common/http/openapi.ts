import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiResponse } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

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

/** 400 with the listed wire keys, plus `{error, message}` for a malformed body. */
export const ApiKeyedErrors = (...keys: string[]) =>
  ApiResponse({
    status: 400,
    type: KeyedErrorResponse,
    description: `Keyed errors: ${keys.map((k) => `\`${k}\``).join(', ')}; or \`{error, message}\` for a malformed body`,
  });

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
