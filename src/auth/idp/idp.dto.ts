import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

export class IdpTokenDto {
  @ApiProperty({ description: 'The identity provider ID token (JWT)' })
  @IsString()
  @MaxLength(8192)
  token: string;
}

/** The provider's form POST (`application/x-www-form-urlencoded`); checked by the five rules. */
export class IdpRedirectForm {
  @ApiPropertyOptional({ description: 'The ID token' })
  @IsOptional()
  @IsString()
  @MaxLength(8192)
  credential?: string;

  @ApiPropertyOptional({ description: 'Must equal the `g_csrf_token` cookie' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  g_csrf_token?: string;
}
