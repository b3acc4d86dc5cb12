import { CanActivate, Injectable } from '@nestjs/common';
import { DomainError } from '../../common';
import { Env } from '../../config';

/**
 * The contacts' routes while IDP_DRIVE_CLIENT_ID is unset: 500 `driveNotConfigured` (after the
 * session check, before the body is read).
 */
@Injectable()
export class IdpConfiguredGuard implements CanActivate {
  constructor(private readonly env: Env) {}

  canActivate(): boolean {
    if (!this.env.idpDriveConfigured) {
      throw DomainError.keyed(
        'driveNotConfigured',
        "the identity provider's OAuth client is not configured: IDP_DRIVE_CLIENT_ID is unset",
      );
    }
    return true;
  }
}
