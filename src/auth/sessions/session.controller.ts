import { Body, Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  ApiErrors,
  ApiKeyedErrors,
  Authenticated,
  Clock,
  DomainError,
  Public,
  SuccessResponse,
} from '../../common';
import { Env, isProduction } from '../../config';
import { LoginDto, LoginResponse } from '../login/login.dto';
import { LoginResult, LoginService } from '../login/login.service';
import { UserResponse, UserView } from '../users/user.view';
import { UsersDirectory } from '../users/users.directory';
import { SessionDiagnostic } from './session.dto';
import { diagnoseSession } from './session-diagnostic';
import { SessionService } from './session.service';

/** Password login, the current session, its diagnostic, logout (spec 4.1, 5). */
@ApiTags('user')
@Controller('v1/user')
export class SessionController {
  constructor(
    private readonly login: LoginService,
    private readonly sessions: SessionService,
    private readonly users: UsersDirectory,
    private readonly env: Env,
    private readonly clock: Clock,
  ) {}

  @Post('login')
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Log in with e-mail and password; sets the session cookie' })
  @ApiOkResponse({ type: LoginResponse, description: '`{user}`, or `{twoFactorRequired: true}`' })
  @ApiKeyedErrors('invalidCredentials', 'emailNotVerified')
  @ApiErrors([
    429,
    'Too many failed logins for the account or the IP, or the second factor is locked (`Retry-After`)',
  ])
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
    if (isProduction(this.env)) throw DomainError.notFound('not available in production');
    return diagnoseSession(req, this.clock.now());
  }

  @Post('logout')
  @Authenticated()
  @HttpCode(200)
  @ApiOperation({ summary: 'End the session server-side and clear the cookie' })
  @ApiOkResponse({ type: SuccessResponse })
  async logOut(
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ success: true }> {
    await this.sessions.logOut(req, res);
    return { success: true };
  }
}
