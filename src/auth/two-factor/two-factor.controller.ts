import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiErrors, ApiKeyedErrors, Authenticated, Public } from '../../common';
import { UserResponse, UserView } from '../users/user.view';
import {
  TwoFactorSetupResponse,
  TwoFactorTokenDto,
  TwoFactorVerifyResponse,
} from './two-factor.dto';
import { TwoFactorService, TwoFactorSetup } from './two-factor.service';

/** TOTP two-factor authentication (spec 5.8). */
@ApiTags('user')
@Controller('v1/user/2fa')
export class TwoFactorController {
  constructor(private readonly twoFactor: TwoFactorService) {}

  @Get()
  @Authenticated()
  @ApiOperation({ summary: 'A new 2FA secret with its otpauth URL and QR code (not yet enabled)' })
  @ApiOkResponse({ type: TwoFactorSetupResponse })
  @ApiErrors([409, '2FA is already enabled'])
  setUp(@Req() req: Request): Promise<TwoFactorSetup> {
    return this.twoFactor.setUp(req);
  }

  @Post()
  @Authenticated()
  @HttpCode(200)
  @ApiOperation({ summary: 'Enable 2FA with a token of the secret from GET /v1/user/2fa' })
  @ApiOkResponse({ type: UserResponse })
  @ApiKeyedErrors('invalidTwoFactorToken')
  @ApiErrors([409, '2FA is already enabled'])
  async enable(@Req() req: Request, @Body() body: TwoFactorTokenDto): Promise<{ user: UserView }> {
    return { user: await this.twoFactor.enable(req, body.token) };
  }

  @Post('verify')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Verify a TOTP token: completes a waiting login, or checks a token of the session',
    description:
      'With a login that answered `{twoFactorRequired: true}` (session waiting for its second ' +
      'factor, at most 5 minutes old): a right token completes it and answers `{user}`. Else, ' +
      'with a logged-in session: the token is checked against the enabled secret when 2FA is on ' +
      '(a step once accepted is spent), otherwise against the secret of `GET /v1/user/2fa` not ' +
      'yet enabled, and answers `{valid: true}`; this never enables 2FA (`POST /v1/user/2fa` ' +
      'does). Wrong tokens are `invalidTwoFactorToken` and count toward the account’s lock.',
  })
  @ApiOkResponse({
    type: TwoFactorVerifyResponse,
    description: '`{user}` (a waiting login completed) or `{valid: true}` (token of the session)',
  })
  @ApiKeyedErrors('invalidTwoFactorToken')
  @ApiErrors(
    [401, 'No login waiting for its second factor (or it is older than 5 minutes) and no session'],
    [
      429,
      '5 wrong codes within 15 minutes lock the account’s second factor for 15 minutes (`Retry-After`)',
    ],
  )
  verify(
    @Req() req: Request,
    @Body() body: TwoFactorTokenDto,
  ): Promise<{ user: UserView } | { valid: true }> {
    return this.twoFactor.verify(req, body.token);
  }
}
