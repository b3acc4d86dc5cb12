import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsString, Matches, MaxLength } from 'class-validator';
import { NormalizeEmail } from '../../common';

export class EmailDto {
  @ApiProperty({ example: 'ada@example.com' })
  @NormalizeEmail()
  @IsString()
  @MaxLength(320)
  @IsEmail()
  email: string;
}

export class VerifyEmailDto extends EmailDto {
  @ApiProperty({ example: '042137', description: 'The 6-digit code of the mail' })
  @IsString()
  @Matches(/^\s*\d{6}\s*$/, { message: 'code must be 6 digits' })
  code: string;
}
