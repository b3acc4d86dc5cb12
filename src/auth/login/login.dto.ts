import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { UserView } from '../users/user.view';

export class LoginDto {
  @ApiProperty({ example: 'ada@example.com' })
  @IsString()
  @MinLength(1)
  @MaxLength(320)
  email: string;

  @ApiProperty()
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  password: string;
}

/** Either the user (logged in) or `{twoFactorRequired: true}` (second factor owed). */
export class LoginResponse {
  @ApiProperty({ type: UserView, required: false }) user?: UserView;
  @ApiProperty({ required: false, example: true }) twoFactorRequired?: true;
}
