import { CanActivate, Injectable, Type } from '@nestjs/common';
import { DomainError } from '../../../common';
import { Env } from '../../../config';
import { IdpPurpose, PURPOSE_REDIRECT } from './idp-oauth';

/** The first variable `purpose` needs that is unset, or null when it can run. */
export function missingIdpVariable(env: Env, purpose: IdpPurpose): string | null {
  const needed = ['IDP_DRIVE_CLIENT_ID', 'IDP_DRIVE_CLIENT_SECRET', PURPOSE_REDIRECT[purpose]];
  return needed.find((name) => !env[name as keyof Env]) ?? null;
}

/**
 * A guard for the routes of one purpose of the identity provider's OAuth client: while a variable
 * it needs is unset, 500 `driveNotConfigured` naming it. Each feature is configured on its own:
 * the client id without the contacts' redirect leaves the drive sync working, and neither
 * refuses start-up. Declared after the session and permission guards, so it tells nothing to a
 * caller who may not use the route.
 */
export function IdpConfiguredGuard(purpose: IdpPurpose): Type<CanActivate> {
  @Injectable()
  class IdpPurposeConfigured implements CanActivate {
    constructor(private readonly env: Env) {}

    canActivate(): boolean {
      const missing = missingIdpVariable(this.env, purpose);
      if (missing) {
        throw DomainError.keyed(
          'driveNotConfigured',
          `the identity provider's OAuth client is not configured for ${purpose}: ${missing} is unset`,
        );
      }
      return true;
    }
  }
  return IdpPurposeConfigured;
}
