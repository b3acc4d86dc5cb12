import { Module } from '@nestjs/common';
import { OrganizationsModule } from '../organizations/organizations.module';

/** Users, sessions, passwords, e-mail verification, 2FA and identity-provider login (spec 4.1, 5). */
@Module({
  imports: [OrganizationsModule],
})
export class AuthModule {}
