import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type {
  ChatChannel,
  ChatChannelMember,
  ChatPost,
  ChatTeam,
  ChatTeamMember,
  ChatToken,
  ChatUser,
} from '../../src/chat/chat.wire';
import { listenOnFreePort } from './listen';

/** Who a request's bearer token is: `invalid` = a token the fake did not issue, or revoked. */
export type FakeChatBearer = 'admin' | 'user' | 'none' | 'invalid';

export interface FakeChatRequest {
  method: string;
  /** Without the query, percent-encoding kept (as sent). */
  path: string;
  query: Record<string, string>;
  bearer: FakeChatBearer;
  /** The parsed JSON body, if any. */
  body: unknown;
}

/** Requests held unanswered until the test lets them through (`hold`). */
interface Hold {
  path: RegExp;
  times: number;
  arrived: () => void;
  released: Promise<void>;
}

interface Fault {
  path?: RegExp;
  times: number;
  status: number | 'hang';
  /** Raw text instead of the server's error body (a proxy's page). */
  body?: string;
}

/** The server's two channels of every team; it joins a team's newcomers to them. */
const SERVER_CHANNELS = [
  { name: 'town-square', display_name: 'Town Square' },
  { name: 'off-topic', display_name: 'Off-Topic' },
];

/** The server's per_page cap. */
const MAX_PER_PAGE = 200;

/** Mattermost's ids: 26 characters of its base32 alphabet. */
const newId = () => {
  const alphabet = 'ybndrfg8ejkmcpqxot1uwisza345h769';
  return [...randomBytes(26)].map((b) => alphabet[b % 32]).join('');
};

/** An answer: a status and a body, or the server's error `{id, message, ...}`. */
type Answer = { status: number; body: unknown };
const ok = (body: unknown, status = 200): Answer => ({ status, body });
const fail = (status: number, id: string, message: string): Answer => ({
  status,
  body: { id, message, detailed_error: '', request_id: newId(), status_code: status },
});
const OK = ok({ status: 'OK' });

/** The server's errors the fake answers: status, id, message (in English). */
const ERRORS = {
  sessionExpired: [
    401,
    'api.context.session_expired.app_error',
    'Invalid or expired session, please login again.',
  ],
  forbidden: [
    403,
    'api.context.permissions.app_error',
    'You do not have the appropriate permissions.',
  ],
  noUser: [404, 'app.user.missing_account.const', 'Unable to find the user.'],
  badEmail: [400, 'model.user.is_valid.email.app_error', 'Invalid email.'],
  badUsername: [400, 'model.user.is_valid.username.app_error', 'Invalid username.'],
  badPassword: [
    400,
    'model.user.is_valid.pwd.app_error',
    'Your password must contain at least 8 characters.',
  ],
  emailTaken: [
    400,
    'app.user.save.email_exists.app_error',
    'An account with that email already exists.',
  ],
  usernameTaken: [
    400,
    'app.user.save.username_exists.app_error',
    'An account with that username already exists.',
  ],
  tokensDisabled: [
    501,
    'app.user_access_token.disabled',
    'Personal access tokens are disabled on this server. Please contact your system administrator for details.',
  ],
  badDescription: [
    400,
    'model.user_access_token.is_valid.description.app_error',
    'Invalid description, must be 255 or less characters.',
  ],
  noToken: [404, 'app.user_access_token.get_by_token.app_error', 'Unable to find the token.'],
  noTeamNamed: [404, 'app.team.get_by_name.missing.app_error', 'Unable to find the existing team.'],
  badTeamName: [
    400,
    'model.team.is_valid.characters.app_error',
    'Name must be 2 or more lowercase alphanumeric characters.',
  ],
  badTeamType: [400, 'model.team.is_valid.type.app_error', 'Invalid type.'],
  teamTaken: [400, 'app.team.save.existing.app_error', 'A team with that name already exists.'],
  noChannelNamed: [404, 'app.channel.get_by_name.missing.app_error', 'Channel does not exist.'],
  noTeam: [404, 'app.team.get.find.app_error', 'Unable to find the existing team.'],
  badChannelName: [400, 'model.channel.is_valid.name.app_error', 'Invalid channel name.'],
  badChannelType: [400, 'model.channel.is_valid.type.app_error', 'Invalid type.'],
  channelTaken: [
    400,
    'store.sql_channel.save_channel.exists.app_error',
    'A channel with that name already exists on the same team.',
  ],
  badTeamParam: [
    400,
    'api.context.invalid_body_param.app_error',
    'Invalid or missing team_id in request body.',
  ],
  // Sic: what the server answers to a removal from a team it does not have.
  noTeamToLeave: [
    404,
    'app.team.get_by_invite_id.finding.app_error',
    'Unable to find the existing team.',
  ],
  notAMember: [
    400,
    'api.team.remove_user_from_team.missing.app_error',
    'The user does not appear to be part of this team.',
  ],
  badMessage: [400, 'model.post.is_valid.msg.app_error', 'Invalid message.'],
  noChannel: [404, 'app.channel.get.existing.app_error', 'Unable to find the existing channel.'],
  notInTeam: [
    403,
    'api.channel.add_user.to.channel.failed.app_error',
    'Failed to add user to channel.',
  ],
  notInChannel: [
    404,
    'app.channel.get_member.missing.app_error',
    'No channel member found for that user ID and channel ID.',
  ],
  notFound: [404, 'api.context.404.app_error', 'Sorry, we could not find the page.'],
} satisfies Record<string, [number, string, string]>;
const refuse = (error: keyof typeof ERRORS) => fail(...ERRORS[error]);

type Handler = (match: string[], request: FakeChatRequest, caller: ChatUser) => Answer;
interface Route {
  method: string;
  pattern: RegExp;
  handle: Handler;
  /** Callable with a user's token; the others need the admin's (403 otherwise). */
  forUsers?: boolean;
}

/**
 * A local Mattermost server (REST API v4, under `/api/v4`): the calls ChatClient makes, in the
 * server's JSON and error bodies, on 127.0.0.1 at a free port. Requests need a bearer token: the
 * admin bot's (`adminToken`) or a personal access token the fake issued and did not revoke (401
 * `api.context.session_expired.app_error` otherwise); a user's token may only read `/users/me`.
 * As the server does: e-mails and usernames are unique (400 `app.user.save.*_exists.app_error`),
 * a team gets `town-square` and `off-topic` and its creator as first member, a newcomer to a team
 * joins those two channels, a removed member keeps its row (`delete_at`) and leaves the team's
 * channels, `per_page` is cut to 200. `tokensDisabled` plays a server without personal access
 * tokens. Every request is recorded; `failNext` injects failures.
 */
export class FakeChat {
  readonly adminToken = 'fake-chat-admin-token';
  /** The bot CHAT_ADMIN_TOKEN belongs to (a system admin). */
  readonly admin: ChatUser;
  readonly requests: FakeChatRequest[] = [];
  url = '';
  /** Off: creating a token answers 501 and issued tokens stop working (401), as on the server. */
  tokensDisabled = false;

  readonly users = new Map<string, ChatUser>();
  readonly tokens = new Map<string, ChatToken>();
  readonly teams = new Map<string, ChatTeam>();
  readonly channels = new Map<string, ChatChannel>();
  readonly posts: ChatPost[] = [];
  /** By post id: who was in its channel when it was posted (the audience it reached). */
  readonly postAudience = new Map<string, string[]>();
  /** By team id, then user id; removed members stay with `delete_at` set. */
  private readonly teamMembers = new Map<string, Map<string, ChatTeamMember>>();
  /** By channel id: the user ids. */
  private readonly channelMembers = new Map<string, Set<string>>();
  private faults: Fault[] = [];
  private holds: Hold[] = [];
  private readonly hanging = new Set<ServerResponse>();
  private server?: Server;
  private readonly routes: Route[] = [
    { method: 'GET', pattern: /^\/users\/me$/, handle: (_, __, me) => ok(me), forUsers: true },
    { method: 'GET', pattern: /^\/users\/email\/([^/]+)$/, handle: ([e]) => this.userByEmail(e) },
    { method: 'POST', pattern: /^\/users$/, handle: (_, r) => this.createUser(fields(r)) },
    { method: 'POST', pattern: /^\/users\/tokens\/revoke$/, handle: (_, r) => this.revoke(r) },
    {
      method: 'POST',
      pattern: /^\/users\/([^/]+)\/tokens$/,
      handle: ([userId], r) => this.createToken(userId, fields(r)),
    },
    {
      method: 'GET',
      pattern: /^\/teams\/name\/([^/]+)$/,
      handle: ([name]) => this.teamNamed(name),
    },
    { method: 'POST', pattern: /^\/teams$/, handle: (_, r) => this.createTeam(fields(r)) },
    {
      method: 'GET',
      pattern: /^\/teams\/([^/]+)\/channels\/name\/([^/]+)$/,
      handle: ([teamId, name]) => this.channelNamed(teamId, name),
    },
    {
      method: 'POST',
      pattern: /^\/channels$/,
      handle: (_, r, me) => this.createChannel(fields(r), me),
    },
    { method: 'GET', pattern: /^\/channels\/([^/]+)$/, handle: ([id]) => this.channelById(id) },
    {
      method: 'GET',
      pattern: /^\/channels\/([^/]+)\/members$/,
      handle: ([id], r) => this.listChannelMembers(id, r.query),
    },
    {
      method: 'POST',
      pattern: /^\/channels\/([^/]+)\/members$/,
      handle: ([id], r) => this.addChannelMember(id, fields(r)),
    },
    {
      method: 'DELETE',
      pattern: /^\/channels\/([^/]+)\/members\/([^/]+)$/,
      handle: ([id, userId]) => this.removeChannelMember(id, userId),
    },
    {
      method: 'POST',
      pattern: /^\/teams\/([^/]+)\/members$/,
      handle: ([teamId], r) => this.addMember(teamId, fields(r)),
    },
    {
      method: 'GET',
      pattern: /^\/teams\/([^/]+)\/members$/,
      handle: ([teamId], r) => this.listMembers(teamId, r.query),
    },
    {
      method: 'DELETE',
      pattern: /^\/teams\/([^/]+)\/members\/([^/]+)$/,
      handle: ([teamId, userId]) => this.removeMember(teamId, userId),
    },
    { method: 'POST', pattern: /^\/posts$/, handle: (_, r, me) => this.createPost(fields(r), me) },
  ];

  private constructor() {
    this.admin = this.seedUser({
      email: 'ledgerline-bot@chat.example.test',
      username: 'ledgerline-bot',
    });
    this.admin.roles = 'system_user system_admin';
  }

  static async start(): Promise<FakeChat> {
    const fake = new FakeChat();
    fake.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => fake.receive(req, Buffer.concat(chunks).toString('utf8'), res));
    });
    const port = await listenOnFreePort(fake.server);
    fake.url = `http://127.0.0.1:${port}`;
    return fake;
  }

  /** The app's CHAT_* variables pointing at this fake (CHAT_PUBLIC_URL is what browsers get). */
  env(): Record<string, string> {
    return {
      CHAT_URL: this.url,
      CHAT_PUBLIC_URL: 'https://chat.example.test',
      CHAT_ADMIN_TOKEN: this.adminToken,
      // `announcements` is none of the server's own channels: the module has to create it.
      CHAT_DEFAULT_CHANNELS: 'town-square,off-topic,announcements',
    };
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.hanging.clear();
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve, reject) =>
      this.server!.close((err) => (err ? reject(err) : resolve())),
    );
  }

  // Faults and the log

  /**
   * The next `count` requests (whose path, from `/api/v4` on, matches `path` if given) answer
   * `status` (default 500) with the server's error body, or `body` as text/html (a proxy's
   * page), and change nothing; `hang`: no answer until the client gives up or the fake closes.
   */
  failNext(
    count: number,
    options: { path?: RegExp; status?: number | 'hang'; body?: string } = {},
  ): void {
    const { path, status = 500, body } = options;
    this.faults.push({ times: count, path, status, body });
  }

  /**
   * The next `count` requests whose path matches are held unanswered until `release` (then
   * answered as usual): a test can look at the app while it waits for the server.
   */
  hold(path: RegExp, count = 1): { arrived: Promise<void>; release: () => void } {
    let arrived!: () => void;
    let release!: () => void;
    const arrival = new Promise<void>((resolve) => (arrived = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.holds.push({ path, times: count, arrived, released });
    return { arrived: arrival, release };
  }

  /** The recorded requests of one method whose path (from `/api/v4` on) matches. */
  requestsTo(method: string, path: RegExp): FakeChatRequest[] {
    return this.requests.filter((r) => r.method === method && path.test(r.path));
  }

  // State, for tests

  /**
   * Seeds a team as POST /teams by `creator` would make it (someone else than the service, say):
   * the server's channels, the creator its first member.
   */
  seedTeam(team: { name: string; type?: 'O' | 'I' }, creator: ChatUser): ChatTeam {
    const made: ChatTeam = {
      id: newId(),
      name: team.name,
      display_name: team.name,
      type: team.type ?? 'O',
      delete_at: 0,
    };
    this.teams.set(made.id, made);
    for (const channel of SERVER_CHANNELS) this.addChannel(made.id, { ...channel, type: 'O' });
    this.join(made.id, creator.id);
    return made;
  }

  /** Adds a team member to a channel, as a channel member may (no check of the team). */
  seedChannelMember(channelId: string, userId: string): void {
    this.channelMembers.get(channelId)!.add(userId);
  }

  /** The user ids in a channel. */
  channelMembersOf(channelId: string): string[] {
    return [...(this.channelMembers.get(channelId) ?? [])].sort();
  }

  /** The channel a post went to. */
  channelOfPost(message: string): ChatChannel | undefined {
    const post = this.posts.find((p) => p.message === message);
    return post && this.channels.get(post.channel_id);
  }

  /** Seeds a user as POST /users would make it (no request recorded, no check of uniqueness). */
  seedUser(user: { email: string; username: string; roles?: string }): ChatUser {
    const made: ChatUser = {
      id: newId(),
      username: user.username.toLowerCase(),
      email: user.email.toLowerCase(),
      first_name: '',
      last_name: '',
      create_at: Date.now(),
      delete_at: 0,
      roles: user.roles ?? 'system_user',
    };
    this.users.set(made.id, made);
    return made;
  }

  /** Adds `userId` to the team as POST /teams/{team_id}/members would (default channels too). */
  seedMember(teamId: string, userId: string): ChatTeamMember {
    return this.join(teamId, userId);
  }

  /** The active members of a team. */
  members(teamId: string): ChatTeamMember[] {
    return [...(this.teamMembers.get(teamId)?.values() ?? [])].filter((m) => !m.delete_at);
  }

  /** The names of the channels of `teamId` that `userId` is in. */
  channelsOf(teamId: string, userId: string): string[] {
    return [...this.channels.values()]
      .filter((c) => c.team_id === teamId && this.channelMembers.get(c.id)?.has(userId))
      .map((c) => c.name)
      .sort();
  }

  /** Makes every issued token invalid (as an expiry or an operator's revocation would). */
  revokeAll(): void {
    for (const token of this.tokens.values()) token.is_active = false;
  }

  /** Makes one token invalid, by its value. */
  revokeToken(token: string): void {
    const found = this.tokens.get(token);
    if (found) found.is_active = false;
  }

  // Serving

  private receive(req: IncomingMessage, raw: string, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname.replace(/^\/api\/v4(?=\/)/, '');
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    const token = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const caller = token === undefined ? undefined : this.caller(token);
    const request: FakeChatRequest = {
      method: req.method ?? 'GET',
      path,
      query: Object.fromEntries(url.searchParams),
      bearer:
        token === undefined
          ? 'none'
          : !caller
            ? 'invalid'
            : caller === this.admin
              ? 'admin'
              : 'user',
      body,
    };
    this.requests.push(request);
    const hold = this.holdFor(path);
    if (hold) {
      this.hanging.add(res);
      res.on('close', () => this.hanging.delete(res));
      hold.arrived();
      void hold.released.then(() => {
        if (!this.hanging.delete(res)) return;
        this.respond(request, caller, url, res);
      });
      return;
    }
    this.respond(request, caller, url, res);
  }

  private respond(
    request: FakeChatRequest,
    caller: ChatUser | undefined,
    url: URL,
    res: ServerResponse,
  ): void {
    const fault = this.faultFor(request.path);
    if (fault?.status === 'hang') {
      this.hanging.add(res);
      res.on('close', () => this.hanging.delete(res));
      return;
    }
    if (fault?.body !== undefined) {
      res.writeHead(fault.status, { 'content-type': 'text/html' }).end(fault.body);
      return;
    }
    const answer = fault
      ? fail(fault.status, 'fake.injected.app_error', `injected failure ${fault.status}`)
      : url.pathname.startsWith('/api/v4/')
        ? this.answer(request, caller)
        : refuse('notFound');
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer.body));
  }

  private holdFor(path: string): Hold | undefined {
    const hold = this.holds.find((h) => h.path.test(path));
    if (hold && --hold.times <= 0) this.holds = this.holds.filter((h) => h !== hold);
    return hold;
  }

  private faultFor(path: string): Fault | undefined {
    const fault = this.faults.find((f) => !f.path || f.path.test(path));
    if (fault && --fault.times <= 0) this.faults = this.faults.filter((f) => f !== fault);
    return fault;
  }

  private caller(token: string): ChatUser | undefined {
    if (token === this.adminToken) return this.admin;
    const issued = this.tokens.get(token);
    if (!issued?.is_active || this.tokensDisabled) return undefined;
    return this.users.get(issued.user_id);
  }

  private answer(request: FakeChatRequest, caller: ChatUser | undefined): Answer {
    for (const route of this.routes) {
      const m = route.method === request.method ? route.pattern.exec(request.path) : null;
      if (!m) continue;
      if (!caller) return refuse('sessionExpired');
      if (caller !== this.admin && !route.forUsers) return refuse('forbidden');
      return route.handle(m.slice(1).map(decodeURIComponent), request, caller);
    }
    return refuse('notFound');
  }

  // Users and tokens

  private userByEmail(email: string): Answer {
    const user = [...this.users.values()].find((u) => u.email === email.toLowerCase());
    return user ? ok(user) : refuse('noUser');
  }

  private createUser(input: Record<string, unknown>): Answer {
    const email = String(input.email ?? '').toLowerCase();
    const username = String(input.username ?? '').toLowerCase();
    if (!/^[^@\s]+@[^@\s]+$/.test(email)) return refuse('badEmail');
    if (!/^[a-z][a-z0-9._-]{2,21}$/.test(username)) return refuse('badUsername');
    if (typeof input.password !== 'string' || input.password.length < 8)
      return refuse('badPassword');
    // The server's unique index on e-mails is checked first.
    const users = [...this.users.values()];
    if (users.some((u) => u.email === email)) return refuse('emailTaken');
    if (users.some((u) => u.username === username)) return refuse('usernameTaken');
    const user = this.seedUser({ email, username });
    user.first_name = String(input.first_name ?? '');
    user.last_name = String(input.last_name ?? '');
    return ok(user, 201);
  }

  private createToken(userId: string, input: Record<string, unknown>): Answer {
    if (this.tokensDisabled) return refuse('tokensDisabled');
    if (!this.users.has(userId)) return refuse('noUser');
    if (!input.description) return refuse('badDescription');
    const token: ChatToken = {
      id: newId(),
      token: newId(),
      user_id: userId,
      description: String(input.description),
      is_active: true,
    };
    this.tokens.set(token.token, token);
    return ok(token);
  }

  private revoke(request: FakeChatRequest): Answer {
    const id = fields(request).token_id;
    const token = [...this.tokens.values()].find((t) => t.id === id);
    if (!token) return refuse('noToken');
    this.tokens.delete(token.token);
    return OK;
  }

  // Teams and channels

  private teamNamed(name: string): Answer {
    const team = [...this.teams.values()].find((t) => t.name === name);
    return team ? ok(team) : refuse('noTeamNamed');
  }

  private createTeam(input: Record<string, unknown>): Answer {
    const name = String(input.name ?? '');
    if (!/^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])$/.test(name)) return refuse('badTeamName');
    if (input.type !== 'O' && input.type !== 'I') return refuse('badTeamType');
    if ([...this.teams.values()].some((t) => t.name === name)) return refuse('teamTaken');
    const team: ChatTeam = {
      id: newId(),
      name,
      display_name: String(input.display_name ?? name),
      type: input.type,
      delete_at: 0,
    };
    this.teams.set(team.id, team);
    for (const channel of SERVER_CHANNELS) this.addChannel(team.id, { ...channel, type: 'O' });
    this.join(team.id, this.admin.id);
    return ok(team, 201);
  }

  private channelNamed(teamId: string, name: string): Answer {
    const channel = [...this.channels.values()].find(
      (c) => c.team_id === teamId && c.name === name,
    );
    return channel ? ok(channel) : refuse('noChannelNamed');
  }

  /** The creator joins the channel it made (as on the server, public or private). */
  private createChannel(input: Record<string, unknown>, creator: ChatUser): Answer {
    const teamId = String(input.team_id ?? '');
    const name = String(input.name ?? '');
    if (!this.teams.has(teamId)) return refuse('noTeam');
    if (!/^[a-z0-9][a-z0-9_-]{0,63}$/.test(name)) return refuse('badChannelName');
    if (input.type !== 'O' && input.type !== 'P') return refuse('badChannelType');
    if ([...this.channels.values()].some((c) => c.team_id === teamId && c.name === name))
      return refuse('channelTaken');
    const display_name = String(input.display_name ?? name);
    const channel = this.addChannel(teamId, { name, display_name, type: input.type });
    this.channelMembers.get(channel.id)!.add(creator.id);
    return ok(channel, 201);
  }

  private channelById(id: string): Answer {
    const channel = this.channels.get(id);
    return channel ? ok(channel) : refuse('noChannel');
  }

  private channelMember(channelId: string, userId: string): ChatChannelMember {
    return { channel_id: channelId, user_id: userId, roles: 'channel_user' };
  }

  private listChannelMembers(channelId: string, query: Record<string, string>): Answer {
    if (!this.channels.has(channelId)) return refuse('noChannel');
    const page = Math.max(0, Number(query.page ?? 0) || 0);
    const perPage = Math.min(MAX_PER_PAGE, Math.max(1, Number(query.per_page ?? 60) || 60));
    const all = this.channelMembersOf(channelId).map((u) => this.channelMember(channelId, u));
    return ok(all.slice(page * perPage, (page + 1) * perPage));
  }

  /** Only a member of the channel's team may join it; joining twice is fine. */
  private addChannelMember(channelId: string, input: Record<string, unknown>): Answer {
    const channel = this.channels.get(channelId);
    if (!channel) return refuse('noChannel');
    const userId = String(input.user_id ?? '');
    if (!this.users.has(userId)) return refuse('noUser');
    const member = this.teamMembers.get(channel.team_id)?.get(userId);
    if (!member || member.delete_at) return refuse('notInTeam');
    this.channelMembers.get(channelId)!.add(userId);
    return ok(this.channelMember(channelId, userId), 201);
  }

  private removeChannelMember(channelId: string, userId: string): Answer {
    if (!this.channels.has(channelId)) return refuse('noChannel');
    if (!this.users.has(userId)) return refuse('noUser');
    if (!this.channelMembers.get(channelId)!.delete(userId)) return refuse('notInChannel');
    return OK;
  }

  private addChannel(
    teamId: string,
    fields: Pick<ChatChannel, 'name' | 'display_name' | 'type'>,
  ): ChatChannel {
    const channel: ChatChannel = { id: newId(), team_id: teamId, delete_at: 0, ...fields };
    this.channels.set(channel.id, channel);
    this.channelMembers.set(channel.id, new Set());
    return channel;
  }

  // Team members

  private addMember(teamId: string, input: Record<string, unknown>): Answer {
    const userId = String(input.user_id ?? '');
    if (input.team_id !== teamId) return refuse('badTeamParam');
    if (!this.teams.has(teamId)) return refuse('noTeam');
    if (!this.users.has(userId)) return refuse('noUser');
    // 201 whether the user was a member already or not, as the server answers.
    return ok(this.join(teamId, userId), 201);
  }

  /** A newcomer (or a removed member back) joins the server's channels of the team. */
  private join(teamId: string, userId: string): ChatTeamMember {
    const members = this.teamMembers.get(teamId) ?? new Map<string, ChatTeamMember>();
    this.teamMembers.set(teamId, members);
    const existing = members.get(userId);
    if (existing && !existing.delete_at) return existing;
    const member: ChatTeamMember = {
      team_id: teamId,
      user_id: userId,
      roles: 'team_user',
      delete_at: 0,
    };
    members.set(userId, member);
    for (const channel of this.channels.values()) {
      if (channel.team_id === teamId && SERVER_CHANNELS.some((c) => c.name === channel.name)) {
        this.channelMembers.get(channel.id)!.add(userId);
      }
    }
    return member;
  }

  private listMembers(teamId: string, query: Record<string, string>): Answer {
    if (!this.teams.has(teamId)) return refuse('noTeam');
    const page = Math.max(0, Number(query.page ?? 0) || 0);
    const perPage = Math.min(MAX_PER_PAGE, Math.max(1, Number(query.per_page ?? 60) || 60));
    return ok(this.members(teamId).slice(page * perPage, (page + 1) * perPage));
  }

  private removeMember(teamId: string, userId: string): Answer {
    if (!this.teams.has(teamId)) return refuse('noTeamToLeave');
    if (!this.users.has(userId)) return refuse('noUser');
    const member = this.teamMembers.get(teamId)?.get(userId);
    if (!member) return refuse('notAMember');
    // The server keeps the row (a removed member removed again is fine) and empties its channels.
    member.delete_at = member.delete_at || Date.now();
    for (const channel of this.channels.values()) {
      if (channel.team_id === teamId) this.channelMembers.get(channel.id)!.delete(userId);
    }
    return OK;
  }

  // Posts

  private createPost(input: Record<string, unknown>, author: ChatUser): Answer {
    const channel = this.channels.get(String(input.channel_id ?? ''));
    if (!channel) return refuse('forbidden');
    if (typeof input.message !== 'string' || !input.message) return refuse('badMessage');
    const post: ChatPost = {
      id: newId(),
      channel_id: channel.id,
      user_id: author.id,
      message: input.message,
      create_at: Date.now(),
    };
    this.posts.push(post);
    this.postAudience.set(post.id, this.channelMembersOf(channel.id));
    return ok(post, 201);
  }
}

/** The body's fields (nothing when the body is not a JSON object). */
const fields = (request: FakeChatRequest): Record<string, unknown> =>
  request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {};
