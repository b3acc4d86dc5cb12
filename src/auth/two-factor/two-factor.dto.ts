import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';

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
