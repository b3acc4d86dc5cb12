import { Body, Controller, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiConsumes, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AppError, HttpError, MessageError } from '../../common/errors/app-error';
import { Public } from '../../common/http/access.decorators';
import { Env } from '../../config/env.schema';
import { CsrfGuard } from '../csrf/csrf.guard';
import { LoginResponse } from '../login/login.dto';
import { LoginResult } from '../login/login.service';
import { ApiCsrf, ApiErrors, ApiKeyedErrors, MessageResponse } from '../openapi';
import { doubleSubmitMatches } from './g-csrf';
import { IdpLoginService } from './idp-login.service';
import { IdpRedirectForm, IdpTokenDto } from './idp.dto';
import { IdpTokenError } from './idp-token.verifier';

const NOT_CONFIGURED = [404, 'The identity provider is not configured (IDP_CLIENT_ID unset)'] as [
  number,
  string,
];

/** Login with an identity-provider ID token (JSON). */
@ApiTags('user')
@UseGuards(CsrfGuard)
@Controller('v1/user/idp-auth')
export class IdpController {
  constructor(private readonly idp: IdpLoginService) {}

  @Post()
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Log in (or sign up) with an identity-provider ID token' })
  @ApiOkResponse({ type: LoginResponse, description: '`{user}`, or `{twoFactorRequired: true}`' })
  @ApiKeyedErrors('EmailBlacklisted', 'DomainBlacklisted')
  @ApiCsrf()
  @ApiErrors([401, 'Invalid, expired or foreign ID token'], NOT_CONFIGURED)
  async logIn(@Req() req: Request, @Body() body: IdpTokenDto): Promise<LoginResult> {
    try {
      return await this.idp.logIn(req, body.token);
    } catch (err) {
      if (err instanceof IdpTokenError) throw HttpError.unauthorized();
      throw err;
    }
  }
}

/**
 * The provider's redirect mode: a cross-site form POST from the provider's page, so it is exempt
 * from the Origin check and protected by the double-submit `g_csrf_token` instead (spec 4.1).
 */
@ApiTags('user')
@Controller('v1/user/idp-auth/redirect')
export class IdpRedirectController {
  constructor(
    private readonly idp: IdpLoginService,
    private readonly env: Env,
  ) {}

  @Post()
  @Public()
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiOperation({
    summary: 'Identity-provider redirect-mode login (form POST); redirects to the frontend',
  })
  @ApiResponse({
    status: 302,
    description:
      '`FRONTEND_URL/login?authenticated=true` on success, `/login?error=auth_failed` when the ' +
      'credential does not verify (`/login?twoFactorRequired=true` when the account has 2FA)',
  })
  @ApiResponse({
    status: 400,
    type: MessageResponse,
    description: '`{message: "Missing credential"}`',
  })
  @ApiResponse({
    status: 403,
    type: MessageResponse,
    description:
      '`{message: "CSRF token validation failed"}`: body and cookie `g_csrf_token` absent or different',
  })
  @ApiErrors(NOT_CONFIGURED)
  async redirect(@Req() req: Request, @Res() res: Response, @Body() form: IdpRedirectForm) {
    if (!this.idp.enabled) throw HttpError.notFound();
    if (!form.credential) throw new MessageError(400, 'Missing credential');
    if (!doubleSubmitMatches(req, form.g_csrf_token)) {
      throw new MessageError(403, 'CSRF token validation failed');
    }
    const login = `${this.env.FRONTEND_URL.replace(/\/+$/, '')}/login`;
    try {
      const result = await this.idp.logIn(req, form.credential);
      const query = 'user' in result ? 'authenticated=true' : 'twoFactorRequired=true';
      res.redirect(302, `${login}?${query}`);
    } catch (err) {
      if (!(err instanceof IdpTokenError || err instanceof AppError)) throw err;
      res.redirect(302, `${login}?error=auth_failed`);
    }
  }
}
