import { Injectable } from '@nestjs/common';
import type { SessionData } from 'express-session';
import { IdpGrant, IdpOAuth, providerFailure, providerUnavailable, unexpected } from '../../auth';
import { Clock, constantTimeEqual, DomainError } from '../../common';
import { Env } from '../../config';
import { DriveApi } from './drive-api';
import type { DriveAuthUrlView, DriveConnectedView, DriveStatusView } from './google-drive.view';
import { toConfigurationView } from './google-drive.view';
import { DriveConnectionStore } from './store/drive-connection.store';
import { DriveSyncConfigurationRepository } from './store/drive-sync-configuration.repository';

/** How long an authorization request waits for its code. */
export const AUTHORIZATION_TTL_MS = 10 * 60 * 1000;

/** The part of the session the organizations' authorization requests live in. */
export type DriveSession = Pick<SessionData, 'idpDriveAuth'>;

const startAgain = (organizationId: string) =>
  `start again with GET /v1/organization/${organizationId}/google-drive/auth-url`;

/**
 * Connecting an organization's cloud drive (the OAuth 2.0 web-server flow, purpose `drive`),
 * disconnecting it, and its status. One connection per organization, whoever connected it.
 */
@Injectable()
export class DriveConnections {
  constructor(
    private readonly oauth: IdpOAuth,
    private readonly store: DriveConnectionStore,
    private readonly configurations: DriveSyncConfigurationRepository,
    private readonly clock: Clock,
    private readonly env: Env,
  ) {}

  /**
   * The consent URL; its `state` and PKCE verifier wait in the session under the organization
   * (a random state: the organization id is guessable, so no defence against a forged redirect).
   */
  async authUrl(session: DriveSession, organizationId: string): Promise<DriveAuthUrlView> {
    const { url, state, codeVerifier } = await this.oauth.authorization('drive');
    session.idpDriveAuth = {
      ...this.unexpired(session.idpDriveAuth),
      [organizationId]: {
        state,
        codeVerifier,
        expiresAt: this.clock.nowMs() + AUTHORIZATION_TTL_MS,
      },
    };
    return { url };
  }

  /**
   * Uses up the organization's pending authorization of this session (whatever the outcome),
   * exchanges the code with its verifier and stores the grant as the organization's one
   * connection: a reconnect replaces the tokens, even of another account, and keeps the
   * connection's id and configurations.
   */
  async connect(
    session: DriveSession,
    organizationId: string,
    userId: string,
    input: { organization: string; code: string; state?: string },
  ): Promise<DriveConnectedView> {
    if (input.organization !== organizationId) {
      throw DomainError.badRequest('organization must be the organization of the path');
    }
    const pending = session.idpDriveAuth?.[organizationId];
    if (session.idpDriveAuth) {
      const { [organizationId]: _used, ...others } = session.idpDriveAuth;
      const waiting = this.unexpired(others);
      if (Object.keys(waiting).length) session.idpDriveAuth = waiting;
      else delete session.idpDriveAuth;
    }
    if (
      !pending ||
      pending.expiresAt <= this.clock.nowMs() ||
      (input.state !== undefined && !constantTimeEqual(input.state, pending.state))
    ) {
      throw DomainError.badRequest(
        `no pending authorization of this session for this organization matches (none, ` +
          `expired, already used, or another state): ${startAgain(organizationId)}`,
      );
    }
    const tokens = await this.oauth.redeem('drive', input.code, pending.codeVerifier, {
      owner: `organization ${organizationId}`,
      restart: `GET /v1/organization/${organizationId}/google-drive/auth-url`,
    });
    const previous = await this.store.open(organizationId);
    const grant: IdpGrant = {
      accessToken: tokens.access_token!,
      refreshToken: tokens.refresh_token ?? null,
      expiryDate: tokens.expiry_date ?? null,
      email: this.oauth.emailOf(tokens),
    };
    grant.email ??= await this.aboutEmail(organizationId, grant);
    // Without a new refresh token, the one of the same account's grant it replaces still works.
    if (!grant.refreshToken && previous?.grant.email === grant.email) {
      grant.refreshToken = previous.grant.refreshToken;
    }
    const connection = await this.store.connect(organizationId, userId, grant);
    if (previous && previous.grant.email !== grant.email) {
      // Another account's grant is of no more use here: ended at the provider too.
      await this.oauth.revokeGrant(previous.grant, `organization ${organizationId}`);
    }
    return { success: true, connectionId: connection.id, email: grant.email };
  }

  /**
   * Leaves the connection inactive with its tokens wiped, and revokes the grant at the provider
   * (best effort: a failure is only logged). Configurations and synced documents stay.
   */
  async disconnect(organizationId: string): Promise<void> {
    const open = await this.store.open(organizationId);
    if (!open) throw DomainError.notFound('no cloud drive is connected to this organization');
    await this.store.deactivate(organizationId);
    await this.oauth.revokeGrant(open.grant, `organization ${organizationId}`);
  }

  async status(organizationId: string): Promise<DriveStatusView> {
    const connection = await this.store.row(organizationId);
    if (!connection?.active || !connection.grantCiphertext) return { connected: false };
    const configurations = await this.configurations.live(organizationId);
    return {
      connected: true,
      connectionId: connection.id,
      email: connection.email,
      lastSyncAt: connection.lastSyncAt?.toISOString() ?? null,
      syncError: connection.syncError,
      syncConfigurations: configurations.map(toConfigurationView),
    };
  }

  /** The session's authorizations still waiting (expired ones would only grow the session). */
  private unexpired(pending: DriveSession['idpDriveAuth']) {
    const now = this.clock.nowMs();
    return Object.fromEntries(
      Object.entries(pending ?? {}).filter(([, auth]) => auth.expiresAt > now),
    );
  }

  /** The account's e-mail as the drive names it, when the ID token did not. */
  private async aboutEmail(organizationId: string, grant: IdpGrant): Promise<string | null> {
    const api = new DriveApi(this.oauth.clientFor('drive', grant), this.env.IDP_DRIVE_API_URL);
    try {
      return (await api.about()).email;
    } catch (err) {
      if (providerFailure(err) === 'unavailable') throw providerUnavailable();
      throw unexpected(`drive account of organization ${organizationId}`, err);
    }
  }
}
