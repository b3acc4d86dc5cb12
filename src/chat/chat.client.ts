import { Inject, Injectable, Optional } from '@nestjs/common';
import { networkError, OutboundHttp, OutboundHttpError, OutboundResponse } from '../common';
import { Env } from '../config';
import { ChatApiError } from './chat-api.error';
import type {
  ChatChannel,
  ChatChannelMember,
  ChatErrorBody,
  ChatPost,
  ChatTeam,
  ChatTeamMember,
  ChatToken,
  ChatUser,
  NewChatChannel,
  NewChatTeam,
  NewChatUser,
} from './chat.wire';

/** Overrides of the defaults (10 s per call), for tests. */
export const CHAT_CLIENT_OPTIONS = Symbol('CHAT_CLIENT_OPTIONS');

export interface ChatClientOptions {
  /** Per call, from sending the request to the end of the answer's body. */
  timeoutMs: number;
  /**
   * The most pages a listing reads: 500 of 200 = 100,000 members, far above any team of ours,
   * so that a server answering full pages forever cannot hold us.
   */
  maxPages: number;
}

const DEFAULTS: ChatClientOptions = { timeoutMs: 10_000, maxPages: 500 };

/** The server's largest page (`per_page` above it is cut to it). */
const PER_PAGE = 200;

interface Call {
  method: 'GET' | 'POST' | 'DELETE';
  /** A route of `/api/v4` with `{name}` placeholders: also how errors name the call. */
  route: string;
  params?: Record<string, string>;
  query?: Record<string, string | number>;
  body?: unknown;
  /** A user's token instead of the admin's. */
  token?: string;
  timeoutMs?: number;
}

/**
 * The messaging server (Mattermost) over its REST API v4, as the admin bot (CHAT_ADMIN_TOKEN)
 * unless a method says otherwise: one method per call the chat module makes, answering the
 * server's records (chat.wire.ts). No retries: provisioning and sync are repeated by their
 * callers, and a lost answer to a write must be re-read, not re-sent. Every failure is a
 * ChatApiError (the server's status and error id; status 0 when no answer came); lookups answer
 * null on 404. Tokens never appear in errors or logs.
 */
@Injectable()
export class ChatClient {
  private readonly options: ChatClientOptions;
  private readonly http: OutboundHttp;

  constructor(
    private readonly env: Env,
    @Optional() @Inject(CHAT_CLIENT_OPTIONS) options: Partial<ChatClientOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.http = new OutboundHttp({ provider: 'chat', timeoutMs: this.options.timeoutMs });
  }

  // Users

  userByEmail(email: string): Promise<ChatUser | null> {
    return this.orNull(
      this.call({ method: 'GET', route: '/users/email/{email}', params: { email } }),
    );
  }

  /** Taken names answer 400 `app.user.save.username_exists.app_error` or `...email_exists...`. */
  createUser(user: NewChatUser): Promise<ChatUser> {
    return this.call({ method: 'POST', route: '/users', body: user });
  }

  /** 501 `app.user_access_token.disabled` unless the server enables personal access tokens. */
  createToken(userId: string, description: string): Promise<ChatToken> {
    return this.call({
      method: 'POST',
      route: '/users/{user_id}/tokens',
      params: { user_id: userId },
      body: { description },
    });
  }

  async revokeToken(tokenId: string): Promise<void> {
    await this.call({ method: 'POST', route: '/users/tokens/revoke', body: { token_id: tokenId } });
  }

  /** The owner of `userToken` (sent as the bearer): 401 when it is revoked or unknown. */
  me(userToken: string, timeoutMs = this.options.timeoutMs): Promise<ChatUser> {
    return this.call({ method: 'GET', route: '/users/me', token: userToken, timeoutMs });
  }

  /** The account CHAT_ADMIN_TOKEN belongs to (the service's own). */
  self(): Promise<ChatUser> {
    return this.call({ method: 'GET', route: '/users/me' });
  }

  // Teams and channels

  teamByName(name: string): Promise<ChatTeam | null> {
    return this.orNull(this.call({ method: 'GET', route: '/teams/name/{name}', params: { name } }));
  }

  /** The admin bot becomes the team's first member (the server adds a team's creator). */
  createTeam(team: NewChatTeam): Promise<ChatTeam> {
    return this.call({ method: 'POST', route: '/teams', body: team });
  }

  channelByName(teamId: string, name: string): Promise<ChatChannel | null> {
    return this.orNull(
      this.call({
        method: 'GET',
        route: '/teams/{team_id}/channels/name/{channel_name}',
        params: { team_id: teamId, channel_name: name },
      }),
    );
  }

  /** Its creator (the admin bot) becomes its first member, private (`P`) or not. */
  createChannel(channel: NewChatChannel): Promise<ChatChannel> {
    return this.call({ method: 'POST', route: '/channels', body: channel });
  }

  /** The user ids of the channel's members, all pages. */
  async channelMembers(channelId: string): Promise<string[]> {
    const members = await this.pages<ChatChannelMember>('/channels/{channel_id}/members', {
      channel_id: channelId,
    });
    return [...new Set(members.map((m) => m.user_id))];
  }

  /** Idempotent; the user must be an active member of the channel's team (refused otherwise). */
  addChannelMember(channelId: string, userId: string): Promise<ChatChannelMember> {
    return this.call({
      method: 'POST',
      route: '/channels/{channel_id}/members',
      params: { channel_id: channelId },
      body: { user_id: userId },
    });
  }

  /** 404 `app.channel.get_member.missing.app_error` when the user is not in the channel. */
  async removeChannelMember(channelId: string, userId: string): Promise<void> {
    await this.call({
      method: 'DELETE',
      route: '/channels/{channel_id}/members/{user_id}',
      params: { channel_id: channelId, user_id: userId },
    });
  }

  // Team members

  /**
   * Idempotent: an active member is answered as is. A newcomer (or a removed member back) also
   * joins the team's default channels of the server (`town-square`, `off-topic`), not others.
   */
  addTeamMember(teamId: string, userId: string): Promise<ChatTeamMember> {
    return this.call({
      method: 'POST',
      route: '/teams/{team_id}/members',
      params: { team_id: teamId },
      body: { team_id: teamId, user_id: userId },
    });
  }

  /** The server keeps the row with `delete_at` set, and takes the user out of the team's channels. */
  async removeTeamMember(teamId: string, userId: string): Promise<void> {
    await this.call({
      method: 'DELETE',
      route: '/teams/{team_id}/members/{user_id}',
      params: { team_id: teamId, user_id: userId },
    });
  }

  /** The active members, all pages (the admin bot among them once it created the team). */
  async teamMembers(teamId: string): Promise<ChatTeamMember[]> {
    const list = await this.pages<ChatTeamMember>('/teams/{team_id}/members', { team_id: teamId });
    // By user: a member added while we page may shift another onto the next page twice.
    const members = new Map<string, ChatTeamMember>();
    for (const member of list) if (!member.delete_at) members.set(member.user_id, member);
    return [...members.values()];
  }

  /** Every page of a listing, up to `maxPages`. */
  private async pages<T>(route: string, params: Record<string, string>): Promise<T[]> {
    const all: T[] = [];
    const { maxPages } = this.options;
    for (let page = 0; page < maxPages; page++) {
      const list = await this.call<T[]>({
        method: 'GET',
        route,
        params,
        query: { page, per_page: PER_PAGE },
      });
      if (!Array.isArray(list)) throw unreadable(`GET ${route}`, 200);
      all.push(...list);
      if (list.length < PER_PAGE) return all;
    }
    throw new ChatApiError(
      0,
      'too_many_pages',
      `GET ${route}: still full pages after ${maxPages} pages`,
    );
  }

  // Posts

  createPost(channelId: string, message: string): Promise<ChatPost> {
    return this.call({ method: 'POST', route: '/posts', body: { channel_id: channelId, message } });
  }

  // HTTP

  /**
   * Null on the server's own "no such record". A 404 of a proxy (no error id) or of the router
   * (a wrong CHAT_URL path, an older server) stays an error: read as "missing", it would have
   * the caller create what may well exist.
   */
  private async orNull<T>(answer: Promise<T>): Promise<T | null> {
    try {
      return await answer;
    } catch (error) {
      const missing =
        error instanceof ChatApiError &&
        error.status === 404 &&
        error.id !== '' &&
        error.id !== 'api.context.404.app_error';
      if (missing) return null;
      throw error;
    }
  }

  private async call<T>(call: Call): Promise<T> {
    const { CHAT_URL: url, CHAT_ADMIN_TOKEN: adminToken } = this.env;
    if (!this.env.chatConfigured || !url || !adminToken) {
      throw new Error('team messaging is not configured: CHAT_URL and CHAT_ADMIN_TOKEN are unset');
    }
    const name = `${call.method} ${call.route}`;
    const timeoutMs = call.timeoutMs ?? this.options.timeoutMs;
    let answer: OutboundResponse;
    try {
      answer = await this.http.send({
        method: call.method,
        url: this.urlOf(url, call),
        headers: {
          authorization: `Bearer ${call.token ?? adminToken}`,
          accept: 'application/json',
        },
        json: call.body,
        repeatable: false,
        timeoutMs,
      });
    } catch (error) {
      if (!(error instanceof OutboundHttpError)) throw error;
      if (error.status !== undefined) throw errorOf(name, error.status, error.body);
      // The cause is fetch's own error: it names the address, never the headers.
      throw error.failure === 'timeout'
        ? new ChatApiError(0, 'timeout', `${name}: no answer in ${timeoutMs} ms`, undefined, {
            cause: error.cause,
          })
        : new ChatApiError(0, 'network', `${name}: ${networkError(error.cause)}`, undefined, {
            cause: error.cause,
          });
    }
    const { status, body } = answer;
    if (call.method !== 'DELETE' && (body === undefined || typeof body !== 'object')) {
      throw unreadable(name, status);
    }
    return body as T;
  }

  private urlOf(base: string, call: Call): URL {
    const path = call.route.replace(/\{(\w+)\}/g, (_, key: string) => {
      const value = call.params?.[key];
      if (value === undefined) throw new Error(`${call.route}: no value for {${key}}`);
      return encodeURIComponent(value);
    });
    const url = new URL(`${base.replace(/\/+$/, '')}/api/v4${path}`);
    for (const [key, value] of Object.entries(call.query ?? {})) {
      url.searchParams.set(key, String(value));
    }
    return url;
  }
}

const isErrorBody = (body: unknown): body is ChatErrorBody =>
  !!body &&
  typeof body === 'object' &&
  typeof (body as ChatErrorBody).id === 'string' &&
  typeof (body as ChatErrorBody).message === 'string';

function errorOf(name: string, status: number, body: unknown): ChatApiError {
  if (isErrorBody(body)) {
    return new ChatApiError(status, body.id, `${name}: ${body.message}`, body.request_id);
  }
  const text = typeof body === 'string' ? body.replace(/\s+/g, ' ').trim().slice(0, 200) : '';
  return new ChatApiError(
    status,
    '',
    `${name}: the messaging server answered ${status}${text ? ` (${text})` : ''}`,
  );
}

const unreadable = (name: string, status: number) =>
  new ChatApiError(status, '', `${name}: the messaging server answered ${status} without JSON`);
