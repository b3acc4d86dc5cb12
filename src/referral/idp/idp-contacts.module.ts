import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdpOAuthModule } from '../../auth';
import { IdpConnections } from './idp-connections.service';
import { IdpContactsController } from './idp-contacts.controller';
import { IdpContacts } from './idp-contacts.service';
import { IdpContactGrant } from './store/idp-contact-grant.entity';
import { IdpGrants } from './store/idp-grants';

/**
 * The identity provider's contacts for referral invitations (spec 4.8, issue 25): a user
 * connects their account through the provider's OAuth 2.0 web-server flow (IDP_DRIVE_*), the
 * grant is stored sealed (`idp_contact_grant`), and the contacts are read from its People API.
 */
@Module({
  imports: [IdpOAuthModule, TypeOrmModule.forFeature([IdpContactGrant])],
  controllers: [IdpContactsController],
  providers: [IdpGrants, IdpConnections, IdpContacts],
})
export class IdpContactsModule {}
