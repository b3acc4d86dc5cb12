import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CryptoModule } from '../common/crypto/crypto.module';
import { MailModule } from '../mail/mail.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { ColorPreference } from './colors/color-preference.entity';
import { ColorsController } from './colors/colors.controller';
import { ColorsService } from './colors/colors.service';
import { CsrfGuard } from './csrf/csrf.guard';
import { IdpLoginService } from './idp/idp-login.service';
import { IdpTokenVerifier } from './idp/idp-token.verifier';
import { IdpController, IdpRedirectController } from './idp/idp.controller';
import { LoginThrottle } from './login/login-throttle.service';
import { LoginService } from './login/login.service';
import { MagicLinkToken } from './magic-link/magic-link-token.entity';
import { MagicLinkService } from './magic-link/magic-link.service';
import { MagicLinkStore, TypeOrmMagicLinkStore } from './magic-link/magic-link.store';
import { PasswordChangeService } from './passwords/password-change.service';
import { PasswordHasher } from './passwords/password-hasher';
import { TemporaryPassword } from './passwords/temporary-password.entity';
import { TemporaryPasswordService } from './passwords/temporary-password.service';
import { AccountController } from './registration/account.controller';
import { BlocklistEntry } from './registration/blocklist-entry.entity';
import { BlocklistService } from './registration/blocklist.service';
import { RegistrationService } from './registration/registration.service';
import { SessionController } from './sessions/session.controller';
import { SessionRegistry } from './sessions/session-registry.service';
import { SessionService } from './sessions/session.service';
import { UserState } from './state/user-state.entity';
import { UserStateController } from './state/user-state.controller';
import { UserStateService } from './state/user-state.service';
import { TwoFactorController } from './two-factor/two-factor.controller';
import { TwoFactorService } from './two-factor/two-factor.service';
import { User } from './users/user.entity';
import { UsersService } from './users/users.service';
import { EmailVerificationCode } from './verification/email-verification-code.entity';
import { EmailVerificationService } from './verification/email-verification.service';

/** Users, sessions, passwords, e-mail verification, 2FA and identity-provider login (spec 4.1, 5). */
@Module({
  imports: [
    CryptoModule,
    MailModule,
    OrganizationsModule,
    TypeOrmModule.forFeature([
      User,
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
    UsersService,
    PasswordHasher,
    SessionRegistry,
    SessionService,
    CsrfGuard,
    BlocklistService,
    RegistrationService,
    EmailVerificationService,
    TemporaryPasswordService,
    PasswordChangeService,
    LoginThrottle,
    LoginService,
    TwoFactorService,
    IdpTokenVerifier,
    IdpLoginService,
    { provide: MagicLinkStore, useClass: TypeOrmMagicLinkStore },
    MagicLinkService,
    UserStateService,
    ColorsService,
  ],
  exports: [UsersService, SessionService, MagicLinkService],
})
export class AuthModule {}
