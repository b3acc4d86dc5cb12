import { PickType } from '@nestjs/swagger';
import { NormalizeEmail, Trim } from '../../common';
import { IsEmail, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';

export class AddMemberDto {
  /** Full name; defaults to the e-mail address. Either name or email is required. */
  @Trim()
  @ValidateIf((o: AddMemberDto) => o.name !== undefined || !o.email)
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;

  /** Recorded only: adding a member links no account (the person joins by accepting an invitation). */
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

/** Name, role or title; removal is DELETE. */
export class UpdateMemberDto extends PickType(AddMemberDto, ['role', 'title'] as const) {
  @Trim()
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;
}

export class AcceptInvitationDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  token: string;
}
