import { Trim } from '../../common';
import { Transform } from 'class-transformer';
import {
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  MinLength,
  ValidateIf,
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
  Validate,
} from 'class-validator';

/** Spaces, dashes, dots and parentheses are dropped: `+1 (555) 010-0000` → `+15550100000`. */
const compactPhone = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.replace(/[\s\-().]/g, '') : value;

/** `utc` → `UTC`, `en-us` → `en-US`; anything invalid is left for the validator to refuse. */
const canonicalTimeZone = ({ value }: { value: unknown }) => {
  if (typeof value !== 'string' || !isTimeZone(value.trim())) return value;
  return new Intl.DateTimeFormat('en-US', { timeZone: value.trim() }).resolvedOptions().timeZone;
};
const canonicalLocale = ({ value }: { value: unknown }) =>
  typeof value === 'string' && isLocale(value.trim())
    ? Intl.getCanonicalLocales(value.trim())[0]
    : value;

let timeZones: ReadonlySet<string> | undefined;

/** True for an IANA time zone name this runtime knows (`Europe/Paris`, `UTC`). */
export function isTimeZone(value: unknown): boolean {
  if (typeof value !== 'string' || !value || value.length > 64) return false;
  timeZones ??= new Set(Intl.supportedValuesOf('timeZone'));
  if (timeZones.has(value)) return true;
  // Aliases (`UTC`, `Etc/GMT+1`, `Asia/Calcutta`) are valid IANA names not always listed above.
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** True for a well-formed BCP 47 language tag (`en`, `en-US`, `zh-Hant-TW`). */
export function isLocale(value: unknown): boolean {
  if (typeof value !== 'string' || !value || value.length > 35) return false;
  if (!/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(value)) return false;
  try {
    return Intl.getCanonicalLocales(value).length === 1;
  } catch {
    return false;
  }
}

@ValidatorConstraint({ name: 'isTimeZone' })
class IsTimeZoneConstraint implements ValidatorConstraintInterface {
  validate(value: unknown) {
    return isTimeZone(value);
  }
  defaultMessage(args: ValidationArguments) {
    return `${args.property} must be an IANA time zone name such as Europe/Paris`;
  }
}

@ValidatorConstraint({ name: 'isLocale' })
class IsLocaleConstraint implements ValidatorConstraintInterface {
  validate(value: unknown) {
    return isLocale(value);
  }
  defaultMessage(args: ValidationArguments) {
    return `${args.property} must be a BCP 47 language tag such as en-US`;
  }
}

/** Profile fields to change; an omitted field is left as it is, `null` clears it. */
export class UpdateProfileDto {
  @Trim()
  @ValidateIf((_, v) => v !== null)
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  firstName?: string | null;

  @Trim()
  @ValidateIf((_, v) => v !== null)
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  lastName?: string | null;

  /** E.164: `+` then 8 to 15 digits, the first not 0 (spaces, dashes, dots and parentheses are ignored). */
  @Transform(compactPhone)
  @ValidateIf((_, v) => v !== null)
  @IsOptional()
  @IsString()
  @Matches(/^\+[1-9]\d{7,14}$/, { message: 'phone must be in E.164 format, e.g. +14155550100' })
  phone?: string | null;

  @Trim()
  @ValidateIf((_, v) => v !== null)
  @IsOptional()
  @IsString()
  @MaxLength(120)
  title?: string | null;

  /** Id of an uploaded file used as the avatar, or null to remove it. */
  @ValidateIf((_, v) => v !== null)
  @IsOptional()
  @IsUUID()
  avatarFileId?: string | null;

  /** BCP 47 language tag, e.g. `en-US`. */
  @Transform(canonicalLocale)
  @ValidateIf((_, v) => v !== null)
  @IsOptional()
  @Validate(IsLocaleConstraint)
  locale?: string | null;

  /** IANA time zone name, e.g. `America/New_York`. */
  @Transform(canonicalTimeZone)
  @ValidateIf((_, v) => v !== null)
  @IsOptional()
  @Validate(IsTimeZoneConstraint)
  timezone?: string | null;
}
