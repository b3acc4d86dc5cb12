import { Module } from '@nestjs/common';
import { SystemAccounts } from './system/system-accounts.service';
import { SystemSessions } from './system/system-sessions.service';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MailModule } from '../mail';
import { ProfilesModule } from '../profiles';
import { ColorPreference } from './colors/color-preference.entity';
import { ColorsController } from './colors/colors.controller';
import { ColorsService } from './colors/colors.service';
import { IdpLoginService } from './idp/idp-login.service';
import { IdpTokenVerifier } from './idp/idp-token.verifier';
import { IdpController, IdpRedirectController } from './idp/idp.controller';
import { LoginThrottle } from './login/login-throttle.service';
import { LoginService } from './login/login.service';
import { MagicLinkToken } from './magic-link/magic-link-token.entity';
import { MagicLinkTokenRepository } from './magic-link/magic-link-token.repository';
import { MagicLinkService } from './magic-link/magic-link.service';
import { PasswordChangeService } from './passwords/password-change.service';
import { PasswordHasher } from './passwords/password-hasher';
import { TemporaryPassword } from './passwords/temporary-password.entity';
import { TemporaryPasswordRepository } from './passwords/temporary-password.repository';
import { TemporaryPasswordService } from './passwords/temporary-password.service';
import { AccountController } from './registration/account.controller';
import { AccountProvisioning } from './registration/account-provisioning.service';
import { BlocklistEntry } from './registration/blocklist-entry.entity';
import { BlocklistService } from './registration/blocklist.service';
import { RegistrationService } from './registration/registration.service';
import { SessionController } from './sessions/session.controller';
import { SessionRegistry } from './sessions/session-registry.service';
import { SessionService } from './sessions/session.service';
import { UserState } from './state/user-state.entity';
import { UserStateController } from './state/user-state.controller';
import { UserStateService } from './state/user-state.service';
import { TwoFactorThrottle } from './two-factor/two-factor-throttle.service';
import { TwoFactorController } from './two-factor/two-factor.controller';
import { TwoFactorService } from './two-factor/two-factor.service';
import { UsersModule } from './users/users.module';
import { EmailVerificationCode } from './verification/email-verification-code.entity';
import { EmailVerificationCodeRepository } from './verification/email-verification-code.repository';
import { EmailVerificationService } from './verification/email-verification.service';

/** Users, sessions, passwords, e-mail verification, 2FA and identity-provider login (spec 4.1, 5). */
@Module({
  imports: [
    UsersModule,
    MailModule,
    ProfilesModule,
    TypeOrmModule.forFeature([
      EmailVerificationCode,
      TemporaryPassword,
      BlocklistEntry,
      UserState,
      ColorPreference,
      MagicLinkToken,
    ]),
  ],
  controllers: [
    AccountController,
    SessionController,
    TwoFactorController,
    IdpController,
    IdpRedirectController,
    UserStateController,
    ColorsController,
  ],
  providers: [
    SystemAccounts,
    SystemSessions,
    PasswordHasher,
    SessionRegistry,
    SessionService,
    BlocklistService,
    RegistrationService,
    AccountProvisioning,
    EmailVerificationCodeRepository,
    EmailVerificationService,
    TemporaryPasswordRepository,
    TemporaryPasswordService,
    PasswordChangeService,
    LoginThrottle,
    LoginService,
    TwoFactorThrottle,
    TwoFactorService,
    IdpTokenVerifier,
    IdpLoginService,
    MagicLinkTokenRepository,
    MagicLinkService,
    UserStateService,
    ColorsService,
  ],
  exports: [UsersModule, MagicLinkService, AccountProvisioning, SystemAccounts, SystemSessions],
})
export class AuthModule {}
