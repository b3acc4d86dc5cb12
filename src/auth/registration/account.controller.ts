import { Body, Controller, HttpCode, Post, Put, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import {
  ApiErrors,
  ApiKeyedErrors,
  Authenticated,
  clientIp,
  Public,
  SuccessResponse,
} from '../../common';
import { ChangePasswordDto } from '../passwords/password.dto';
import { PasswordChangeService } from '../passwords/password-change.service';
import { TemporaryPasswordService } from '../passwords/temporary-password.service';
import { UserResponse, UserView } from '../users/user.view';
import { EmailVerificationService } from '../verification/email-verification.service';
import { EmailDto, VerifyEmailDto } from '../verification/verification.dto';
import { RegisterDto } from './registration.dto';
import { RegistrationService } from './registration.service';

/** Accounts: registration, e-mail verification, password reset and change (spec 4.1). */
@ApiTags('user')
@Controller('v1/user')
export class AccountController {
  constructor(
    private readonly registration: RegistrationService,
    private readonly verification: EmailVerificationService,
    private readonly temporaryPasswords: TemporaryPasswordService,
    private readonly passwordChange: PasswordChangeService,
  ) {}

  @Post()
  @Public()
  @ApiOperation({ summary: 'Register an account; mails an e-mail verification code' })
  @ApiCreatedResponse({ type: UserResponse })
  @ApiKeyedErrors('emailUnavailable', 'EmailBlacklisted', 'DomainBlacklisted', 'ipLimitReached')
  async register(@Req() req: Request, @Body() body: RegisterDto): Promise<{ user: UserView }> {
    return { user: await this.registration.register({ ...body, ip: clientIp(req) }) };
  }

  @Post('email/verify')
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Verify the e-mail address with the mailed 6-digit code' })
  @ApiOkResponse({ type: UserResponse })
  @ApiKeyedErrors('invalidEmailVerificationCode')
  async verifyEmail(@Body() body: VerifyEmailDto): Promise<{ user: UserView }> {
    return { user: await this.verification.verify(body.email, body.code.trim()) };
  }

  @Post('email/verify/send')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Mail a new verification code (silent for unknown or verified addresses)',
  })
  @ApiOkResponse({ type: SuccessResponse })
  @ApiKeyedErrors('recentEmailVerification')
  async sendVerification(@Body() body: EmailDto): Promise<{ success: true }> {
    await this.verification.resend(body.email);
    return { success: true };
  }

  @Post('password/reset')
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Mail a temporary password valid for one login within 1 hour' })
  @ApiOkResponse({ type: SuccessResponse })
  @ApiKeyedErrors('userNotFound', 'existingActiveTempPassword')
  async resetPassword(@Body() body: EmailDto): Promise<{ success: true }> {
    await this.temporaryPasswords.request(body.email);
    return { success: true };
  }

  @Put('password')
  @Authenticated()
  @ApiOperation({ summary: 'Set a new password; ends every other session of the user' })
  @ApiOkResponse({ type: SuccessResponse })
  @ApiKeyedErrors('invalidCredentials')
  @ApiErrors([429, 'Too many wrong current passwords (`Retry-After`)'])
  async changePassword(
    @Req() req: Request,
    @Body() body: ChangePasswordDto,
  ): Promise<{ success: true }> {
    await this.passwordChange.change(req, body.currentPassword, body.newPassword);
    return { success: true };
  }
}
