import { Transform } from 'class-transformer';
import {
  IsEmail,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  ValidateIf,
} from 'class-validator';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const email = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim().toLowerCase() : value;

export class AddMemberDto {
  /** Full name; defaults to the e-mail address. Either name or email is required. */
  @Transform(trim)
  @ValidateIf((o: AddMemberDto) => o.name !== undefined || !o.email)
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;

  /** Linked to the user of that address when one exists. */
  @Transform(email)
  @IsOptional()
  @IsEmail()
  @MaxLength(320)
  email?: string;

  /** Role id, or the name of a built-in or custom role; default Shareholder. */
  @Transform(trim)
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  role?: string;

  @Transform(trim)
  @IsOptional()
  @IsString()
  @MaxLength(120)
  title?: string;
}

export class InviteMemberDto {
  @Transform(email)
  @IsEmail()
  @MaxLength(320)
  email: string;

  /** Role id or role name. */
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  role: string;

  @Transform(trim)
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  message?: string;
}

export class UpdateMemberDto {
  @Transform(trim)
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;

  @Transform(trim)
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  role?: string;

  @Transform(trim)
  @IsOptional()
  @IsString()
  @MaxLength(120)
  title?: string;

  /** Only `active` ↔ nothing else through PATCH; removal is DELETE. */
  @IsOptional()
  @IsIn(['active'])
  status?: 'active';
}

export class AcceptInvitationDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  token: string;
}

export class MemberUploadDto {
  /** Organization the members are added to (multipart field). */
  @IsString()
  @IsNotEmpty()
  organization: string;
}
