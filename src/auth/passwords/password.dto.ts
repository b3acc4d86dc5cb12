import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { IsAcceptablePassword } from './common-passwords';

export class ChangePasswordDto {
  @ApiProperty({ description: 'The current password, or the temporary password this session used' })
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  currentPassword: string;

  @ApiProperty({ minLength: 8, maxLength: 128, description: 'Not a common password' })
  @IsAcceptablePassword()
  newPassword: string;
}
