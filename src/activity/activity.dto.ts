import { Transform, Type } from 'class-transformer';
import {
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidationArguments,
  Validate,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';

/**
 * `member.added`, `shareholding.created`, `shareholding.statusChanged`, `export`: dot notation,
 * segments of letters, digits, `_` and `-`, led by a letter (no spaces or other punctuation, so
 * a type is safe to filter by and to show).
 */
export const ACTION_TYPE = /^[A-Za-z][A-Za-z0-9_-]*(\.[A-Za-z][A-Za-z0-9_-]*)*$/;
export const MAX_METADATA_BYTES = 16 * 1024;
export const MAX_LIST_LIMIT = 1000;
export const DEFAULT_LIST_LIMIT = 100;

@ValidatorConstraint({ name: 'maxJsonBytes' })
class MaxJsonBytes implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments) {
    try {
      return Buffer.byteLength(JSON.stringify(value), 'utf8') <= (args.constraints[0] as number);
    } catch {
      return false;
    }
  }
  defaultMessage(args: ValidationArguments) {
    return `${args.property} must be at most ${args.constraints[0] as number} bytes as JSON`;
  }
}

export class CreateActionDto {
  /** Dot notation, e.g. `shareholding.created`; letters, digits, `_`, `-`; 1 to 100 characters. */
  @IsString()
  @MaxLength(100)
  @Matches(ACTION_TYPE, {
    message: 'type must be dot notation such as shareholding.created (letters, digits, _ and -)',
  })
  type: string;

  /** Human-readable text, 1 to 2000 characters. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(2000)
  description: string;

  /** Free-form JSON object (not an array or null), at most 16 KB serialised; default `{}`. */
  @ValidateIf((_, v) => v !== undefined)
  @IsObject({ message: 'metadata must be a JSON object' })
  @Validate(MaxJsonBytes, [MAX_METADATA_BYTES])
  metadata?: Record<string, unknown>;
}

export class ListActionsQuery {
  /** How many entries, newest first: 1 to 1000, default 100. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_LIST_LIMIT)
  limit?: number;

  /** Cursor: the id of an entry of this organization; only strictly older entries are returned. */
  @IsOptional()
  @IsUUID()
  before?: string;

  /** Type prefix: `member.` matches `member.added` and `member.removed`. */
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  @Matches(/^[A-Za-z0-9_.-]+$/, { message: 'type must be a prefix of a dot-notation type' })
  type?: string;
}
