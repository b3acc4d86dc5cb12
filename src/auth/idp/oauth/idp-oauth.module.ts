import { Module } from '@nestjs/common';
import { IdpGrantSeal } from './idp-grant-seal';
import { IdpOAuth } from './idp-oauth';

/**
 * The identity provider's OAuth 2.0 web-server flow shared by its features (referral's contacts,
 * the documents' drive sync): the flow itself and how grants are sealed. Each feature keeps its
 * own grants' table and routes, and guards them with `IdpConfiguredGuard(purpose)`.
 */
@Module({
  providers: [IdpOAuth, IdpGrantSeal],
  exports: [IdpOAuth, IdpGrantSeal],
})
export class IdpOAuthModule {}
