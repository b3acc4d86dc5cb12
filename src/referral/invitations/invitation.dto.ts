import { IsEmail, IsOptional, IsString, MaxLength } from 'class-validator';
import { NormalizeEmail, Trim } from '../../common';

/** `POST /v1/invitation/send`. */
export class SendInvitationDto {
  @NormalizeEmail()
  @IsEmail({}, { message: 'email must be an e-mail address' })
  @MaxLength(320)
  email: string;

  /** A personal note in the mail (plain text). */
  @Trim()
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  message?: string;
}
