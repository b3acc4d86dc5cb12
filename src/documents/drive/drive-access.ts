import { Injectable } from '@nestjs/common';
import type { OAuth2Client } from 'google-auth-library';
import { IdpOAuth, providerFailure } from '../../auth';
import { Clock, DomainError } from '../../common';
import { DriveConnectionStore, OpenDriveConnection } from './store/drive-connection.store';

/** The message a connection keeps once the provider refuses its grant. */
export const GRANT_REFUSED =
  'the drive no longer accepts the connection (revoked or expired): connect it again';

/** 409 `driveNotConnected`: the organization has no active drive connection. */
export const driveNotConnected = () =>
  DomainError.keyed(
    'driveNotConnected',
    'no cloud drive is connected to this organization: connect one first',
  );

/** Thrown by `DriveAccess.use` when the provider refused the grant (it is noted on the connection). */
export class DriveGrantRefused extends Error {
  constructor() {
    super(GRANT_REFUSED);
  }
}

/**
 * An organization's drive, through its connection: a client holding the grant for one piece of
 * work, whose refreshed access token is stored after it (unless the grant was replaced
 * meanwhile), and whose refusal by the provider (`invalid_grant`, 401 after a refresh) is noted
 * on the connection as its `syncError`.
 */
@Injectable()
export class DriveAccess {
  constructor(
    private readonly oauth: IdpOAuth,
    private readonly connections: DriveConnectionStore,
    private readonly clock: Clock,
  ) {}

  /** The active connection, or 409 `driveNotConnected`. */
  async connected(organizationId: string): Promise<OpenDriveConnection> {
    const open = await this.connections.open(organizationId);
    if (!open) throw driveNotConnected();
    return open;
  }

  async use<T>(organizationId: string, work: (client: OAuth2Client) => Promise<T>): Promise<T> {
    const open = await this.connected(organizationId);
    const client = this.oauth.clientFor('drive', open.grant);
    try {
      return await work(client);
    } catch (err) {
      const failure = providerFailure(err);
      if (failure === 'invalidGrant' || failure === 'unauthorized') {
        await this.connections.noteSync(organizationId, this.clock.now(), GRANT_REFUSED);
        throw new DriveGrantRefused();
      }
      throw err;
    } finally {
      await this.keepRefreshed(organizationId, open, client);
    }
  }

  private async keepRefreshed(
    organizationId: string,
    open: OpenDriveConnection,
    client: OAuth2Client,
  ) {
    const { access_token, expiry_date, refresh_token } = client.credentials;
    if (!access_token || access_token === open.grant.accessToken) return;
    await this.connections.replace(organizationId, open.version, {
      ...open.grant,
      accessToken: access_token,
      expiryDate: expiry_date ?? null,
      refreshToken: refresh_token ?? open.grant.refreshToken,
    });
  }
}
