import { Body, Controller, Get, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { HttpError } from '../../common/errors/app-error';
import { Authenticated, Public } from '../../common/http/access.decorators';
import { isProduction } from '../../config/config.module';
import { Env } from '../../config/env.schema';
import { LoginDto, LoginResponse } from '../login/login.dto';
import { LoginResult, LoginService } from '../login/login.service';
import { ApiCsrf, ApiErrors, ApiKeyedErrors, SuccessResponse } from '../openapi';
import { CsrfGuard } from '../csrf/csrf.guard';
import { UserResponse, UserView } from '../users/user.view';
import { UsersService } from '../users/users.service';
import { SessionDiagnostic } from './session.dto';
import { diagnoseSession } from './session-diagnostic';
import { SessionService } from './session.service';

/** Password login, the current session, its diagnostic, logout (spec 4.1, 5). */
@ApiTags('user')
@UseGuards(CsrfGuard)
@Controller('v1/user')
export class SessionController {
  constructor(
    private readonly login: LoginService,
    private readonly sessions: SessionService,
    private readonly users: UsersService,
    private readonly env: Env,
  ) {}

  @Post('login')
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Log in with e-mail and password; sets the session cookie' })
  @ApiOkResponse({ type: LoginResponse, description: '`{user}`, or `{twoFactorRequired: true}`' })
  @ApiKeyedErrors('invalidCredentials', 'emailNotVerified')
  @ApiCsrf()
  @ApiErrors([429, 'Too many failed logins for the account or the IP (`Retry-After`)'])
  logIn(@Req() req: Request, @Body() body: LoginDto): Promise<LoginResult> {
    return this.login.logIn(req, body.email, body.password);
  }

  @Get('session')
  @Authenticated()
  @ApiOperation({ summary: 'The user of the current session' })
  @ApiOkResponse({ type: UserResponse })
  async current(@Req() req: Request): Promise<{ user: UserView }> {
    return { user: await this.users.view(req.session.userId!) };
  }

  @Get('session/diagnostic')
  @Public()
  @ApiOperation({ summary: 'Session diagnostic (development and test only; 404 in production)' })
  @ApiOkResponse({ type: SessionDiagnostic })
  @ApiErrors([404, 'NODE_ENV=production'])
  diagnostic(@Req() req: Request): SessionDiagnostic {
    if (isProduction(this.env)) throw HttpError.notFound();
    return diagnoseSession(req);
  }

  @Post('logout')
  @Authenticated()
  @HttpCode(200)
  @ApiOperation({ summary: 'End the session server-side and clear the cookie' })
  @ApiOkResponse({ type: SuccessResponse })
  @ApiCsrf()
  async logOut(
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ success: true }> {
    await this.sessions.logOut(req, res);
    return { success: true };
  }
}
