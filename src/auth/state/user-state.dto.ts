import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  registerDecorator,
  ValidationOptions,
} from 'class-validator';

export const MAX_PREFERENCES = 100;
const MAX_KEY = 100;
const MAX_VALUE = 2000;

/** An object whose values are all strings (bounded in number and size). */
function IsStringRecord(options?: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isStringRecord',
      target: object.constructor,
      propertyName,
      options,
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          Object.keys(value).length <= MAX_PREFERENCES &&
          Object.entries(value).every(
            ([k, v]) => k.length <= MAX_KEY && typeof v === 'string' && v.length <= MAX_VALUE,
          ),
        defaultMessage: () =>
          `${propertyName} must be an object of at most ${MAX_PREFERENCES} keys with string values`,
      },
    });
}

export class PatchUserStateDto {
  @ApiPropertyOptional({ type: [String], description: 'Replaces the list (duplicates dropped)' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(200)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  completedSteps?: string[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { theme: 'dark' },
    description: 'Merged key by key into the stored preferences; values must be strings',
  })
  @IsOptional()
  @IsObject()
  @IsStringRecord()
  preferences?: Record<string, string>;
}

export class UserStateView {
  @ApiProperty({ type: [String] }) completedSteps: string[];
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  preferences: Record<string, string>;
}

export class UserStateResponse {
  @ApiProperty({ type: UserStateView }) state: UserStateView;
}
