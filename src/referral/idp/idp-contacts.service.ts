import { Injectable, OnModuleDestroy } from '@nestjs/common';
import type { OAuth2Client } from 'google-auth-library';
import type Redis from 'ioredis';
import { AnswerCache, Clock, RateLimiter, SecretBox } from '../../common';
import { IdpOAuth, providerFailure, providerUnavailable, unexpected } from '../../auth';
import { Env } from '../../config';
import { RedisConnections } from '../../redis';
import { ContactsCache } from './contacts-cache';
import { notConnected } from './idp-errors';
import { ConnectionsPage, Contact, contactsOf, Person } from './people';
import { IdpGrants, StoredIdpGrant } from './store/idp-grants';

/** The People API's pages read per listing, and the people asked per page. */
const MAX_PAGES = 10;
const PAGE_SIZE = 200;
/** The most contacts a listing answers. */
export const MAX_CONTACTS = 2_000;

/** Contact lists per user and minute (kept answers included). */
export const CONTACTS_LIMIT = { limit: 30, windowMs: 60_000 };
/** How long a user's contacts are kept between reads. */
export const CONTACTS_TTL_MS = 5 * 60_000;

/** The caller's contacts at the identity provider (People API), with their stored grant. */
@Injectable()
export class IdpContacts implements OnModuleDestroy {
  private readonly redis: Redis;
  private readonly limiter: RateLimiter;
  private readonly kept: ContactsCache;

  constructor(
    private readonly env: Env,
    private readonly oauth: IdpOAuth,
    private readonly grants: IdpGrants,
    box: SecretBox,
    connections: RedisConnections,
    clock: Clock,
  ) {
    this.redis = connections.session();
    this.limiter = new RateLimiter(
      this.redis,
      `${connections.prefix}idp-list:`,
      CONTACTS_LIMIT,
      clock,
    );
    this.kept = new ContactsCache(
      new AnswerCache(this.redis, `${connections.prefix}idp-contacts:`, CONTACTS_TTL_MS),
      box,
    );
  }

  onModuleDestroy() {
    this.redis.disconnect();
  }

  /**
   * The contacts with an e-mail address (`contactsOf`), at most MAX_PAGES pages of the People API
   * and MAX_CONTACTS contacts, kept CONTACTS_TTL_MS for the user and grant. An expired access
   * token is refreshed by the client and the new one stored; a grant the provider no longer
   * accepts is forgotten (404 `idpNotConnected`). CONTACTS_LIMIT a minute per user (429).
   */
  async list(userId: string): Promise<Contact[]> {
    await this.limiter.consume(userId);
    // The grant first: without one nothing is answered, whatever is kept.
    const stored = await this.grants.find(userId);
    if (!stored) throw notConnected();
    const kept = await this.kept.get(userId, stored.version);
    if (kept) return kept;
    const client = this.oauth.clientFor('contacts', stored.grant);
    let people: Person[];
    try {
      people = await this.connections(client);
    } catch (err) {
      const failure = providerFailure(err);
      if (failure === 'invalidGrant' || failure === 'unauthorized') {
        await this.grants.delete(userId, stored.version);
        throw notConnected('the identity provider no longer accepts the grant: connect again');
      }
      await this.keepRefreshed(userId, stored, client);
      if (failure === 'unavailable') throw providerUnavailable();
      throw unexpected(`contacts of user ${userId}`, err);
    }
    const version = (await this.keepRefreshed(userId, stored, client)) ?? stored.version;
    const contacts = contactsOf(people).slice(0, MAX_CONTACTS);
    await this.kept.set(userId, version, contacts);
    return contacts;
  }

  /** Forgets the user's kept contacts (their grant changed or went). */
  forget(userId: string): Promise<void> {
    return this.kept.forget(userId);
  }

  private async connections(client: OAuth2Client): Promise<Person[]> {
    const url = `${this.env.IDP_PEOPLE_API_URL.replace(/\/?$/, '/')}v1/people/me/connections`;
    const people: Person[] = [];
    let pageToken: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const res = await client.request<ConnectionsPage>({
        url,
        params: {
          personFields: 'names,emailAddresses',
          pageSize: PAGE_SIZE,
          ...(pageToken ? { pageToken } : {}),
        },
      });
      const connections = res.data?.connections;
      if (Array.isArray(connections)) people.push(...connections);
      pageToken = res.data?.nextPageToken;
      if (!pageToken || people.length >= MAX_CONTACTS) break;
    }
    return people;
  }

  /**
   * Stores the access token the client refreshed (unless the grant was replaced meanwhile);
   * answers the grant's new version, or null when it was not replaced.
   */
  private async keepRefreshed(
    userId: string,
    stored: StoredIdpGrant,
    client: OAuth2Client,
  ): Promise<string | null> {
    const { access_token, expiry_date, refresh_token } = client.credentials;
    if (!access_token || access_token === stored.grant.accessToken) return null;
    return this.grants.replace(userId, stored.version, {
      ...stored.grant,
      accessToken: access_token,
      expiryDate: expiry_date ?? null,
      refreshToken: refresh_token ?? stored.grant.refreshToken,
    });
  }
}
