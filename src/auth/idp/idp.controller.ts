import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiConsumes, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  ApiErrors,
  ApiKeyedErrors,
  CsrfExempt,
  DomainError,
  MessageResponse,
  Public,
} from '../../common';
import { Env } from '../../config';
import { LoginResponse } from '../login/login.dto';
import { LoginResult } from '../login/login.service';
import { doubleSubmitMatches } from './g-csrf';
import { IdpLoginService } from './idp-login.service';
import { IdpRedirectForm, IdpTokenDto } from './idp.dto';
import { IdpTokenError } from './idp-token.verifier';

/** Login with an identity-provider ID token (JSON). */
@ApiTags('user')
@Controller('v1/user/idp-auth')
export class IdpController {
  constructor(private readonly idp: IdpLoginService) {}

  @Post()
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Log in (or sign up) with an identity-provider ID token',
    description:
      'A token that does not verify is 400 with the key `Unauthorized`; while the identity ' +
      'provider is not configured (`IDP_CLIENT_ID` unset) no token verifies.',
  })
  @ApiOkResponse({ type: LoginResponse, description: '`{user}`, or `{twoFactorRequired: true}`' })
  @ApiKeyedErrors('Unauthorized', 'EmailBlacklisted', 'DomainBlacklisted')
  @ApiErrors([429, 'The account’s second factor is locked (`Retry-After`)'])
  async logIn(@Req() req: Request, @Body() body: IdpTokenDto): Promise<LoginResult> {
    try {
      return await this.idp.logIn(req, body.token);
    } catch (err) {
      // Also the answer while the provider is not configured: no token verifies then.
      if (err instanceof IdpTokenError) {
        throw DomainError.keyed('Unauthorized', 'the ID token could not be verified');
      }
      throw err;
    }
  }
}

/**
 * The provider's redirect mode: a cross-site form POST from the provider's page, so it is exempt
 * from the app-wide Origin check and protected by the double-submit `g_csrf_token` instead
 * (spec 4.1).
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
  @CsrfExempt('cross-site form post of the identity provider; double-submit g_csrf_token')
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiOperation({
    summary: 'Identity-provider redirect-mode login (form POST); redirects to the frontend',
    description:
      'Checked in this order: a missing `credential` is 400, a missing or different ' +
      '`g_csrf_token` (body and cookie) is 403, then the credential is verified. While the ' +
      'identity provider is not configured (`IDP_CLIENT_ID` unset) no credential verifies.',
  })
  @ApiResponse({
    status: 302,
    description:
      '`FRONTEND_URL/login?authenticated=true` on success, `/login?error=auth_failed` when the ' +
      'credential does not verify or the identity provider is not configured ' +
      '(`/login?twoFactorRequired=true` when the account has 2FA)',
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
  async redirect(@Req() req: Request, @Res() res: Response, @Body() form: IdpRedirectForm) {
    if (!form.credential) throw DomainError.message(400, 'Missing credential');
    if (!doubleSubmitMatches(req, form.g_csrf_token)) {
      throw DomainError.message(403, 'CSRF token validation failed');
    }
    const login = `${this.env.FRONTEND_URL.replace(/\/+$/, '')}/login`;
    try {
      // Without IDP_CLIENT_ID this throws IdpTokenError: the auth_failed redirect below.
      const result = await this.idp.logIn(req, form.credential);
      const query = 'user' in result ? 'authenticated=true' : 'twoFactorRequired=true';
      res.redirect(302, `${login}?${query}`);
    } catch (err) {
      if (!(err instanceof IdpTokenError || err instanceof DomainError)) throw err;
      res.redirect(302, `${login}?error=auth_failed`);
    }
  }
}
