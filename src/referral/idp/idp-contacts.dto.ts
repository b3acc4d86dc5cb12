import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class IdpConnectDto {
  /** The authorization code the provider put on the redirect URI. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  code: string;

  /** The `state` the provider sent back with the code (that of `GET /v1/idp/auth-url`). */
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  state: string;
}
