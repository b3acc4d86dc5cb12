import { Trim, NormalizeEmail } from '../../common/http/transforms';
import {
  IsEmail,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  ValidateIf,
} from 'class-validator';

export class AddMemberDto {
  /** Full name; defaults to the e-mail address. Either name or email is required. */
  @Trim()
  @ValidateIf((o: AddMemberDto) => o.name !== undefined || !o.email)
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;

  /** Linked to the user of that address when one exists. */
  @NormalizeEmail()
  @IsOptional()
  @IsEmail()
  @MaxLength(320)
  email?: string;

  /** Role id, or the name of a built-in or custom role; default Shareholder. */
  @Trim()
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  role?: string;

  @Trim()
  @IsOptional()
  @IsString()
  @MaxLength(120)
  title?: string;
}

export class InviteMemberDto {
  @NormalizeEmail()
  @IsEmail()
  @MaxLength(320)
  email: string;

  /** Role id or role name. */
  @Trim()
  @IsString()
  @IsNotEmpty()
  role: string;

  @Trim()
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  message?: string;
}

export class UpdateMemberDto {
  @Trim()
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;

  @Trim()
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  role?: string;

  @Trim()
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
