import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsOptional, IsString, MaxLength } from 'class-validator';
import { NormalizeEmail } from '../../common';
import { IsAcceptablePassword } from '../passwords/common-passwords';

export class RegisterDto {
  @ApiProperty({ example: 'ada@example.com', description: 'Stored trimmed and in lower case' })
  @NormalizeEmail()
  @IsString()
  @MaxLength(320)
  @IsEmail()
  email: string;

  @ApiProperty({ minLength: 8, maxLength: 128, description: 'Not a common password' })
  @IsAcceptablePassword()
  password: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({
    maxLength: 64,
    description:
      'The code of the referral invitation, stored as given. An unknown code is ignored (the account is made all the same); a known one links the new account to the code’s owner.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  referralCode?: string;
}
