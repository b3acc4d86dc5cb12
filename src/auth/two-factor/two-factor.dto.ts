import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { UserView } from '../users/user.view';

export class TwoFactorTokenDto {
  @ApiProperty({ example: '123456', description: 'TOTP token of the authenticator app' })
  @IsString()
  @MaxLength(16)
  token: string;
}

export class TwoFactorSetupResponse {
  @ApiProperty({ description: 'Base32 secret, for manual entry' }) secret: string;
  @ApiProperty({ example: 'otpauth://totp/Ledgerline:ada%40example.com?secret=...' })
  otpauthUrl: string;
  @ApiProperty({ description: 'The otpauth URL as a PNG data URL (`data:image/png;base64,...`)' })
  qrCode: string;
}

/**
 * `POST /v1/user/2fa/verify`: `{user}` when it completed a login waiting for its second factor,
 * `{valid: true}` when it checked a token for a logged-in session.
 */
export class TwoFactorVerifyResponse {
  @ApiProperty({
    type: UserView,
    required: false,
    description: 'The logged-in user (a login waiting for its second factor was completed)',
  })
  user?: UserView;

  @ApiProperty({
    required: false,
    example: true,
    description: 'The token is right (a logged-in session checked it; 2FA is not enabled by this)',
  })
  valid?: true;
}
