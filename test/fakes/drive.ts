import { createHash, randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { SignJWT } from 'jose';
import { closeServer, listenOnFreePort } from './listen';

/** A person of an account's contacts, in the People API's shape. */
export interface FakePerson {
  resourceName?: string;
  names?: { displayName?: string; metadata?: { primary?: boolean } }[];
  emailAddresses?: { value?: string; metadata?: { primary?: boolean } }[];
}

export interface FakeDriveRequest {
  method: string;
  /** Without the query. */
  path: string;
  query: Record<string, string>;
  /** The form fields of a form-encoded body. */
  form: Record<string, string>;
  /** The bearer token, if any. */
  bearer?: string;
}

interface Account {
  email: string;
  sub: string;
  contacts: FakePerson[];
  /** The id of the account's "My Drive" folder (`root` in a query means it). */
  rootId: string;
}

/** What a native (Google Docs family) file is; its MIME type is `application/vnd.google-apps.<kind>`. */
export type NativeKind = 'document' | 'spreadsheet' | 'presentation' | 'drawing' | 'form';

/** A file or folder of an account's drive, as the Drive API v3 describes it. */
export interface FakeDriveFile {
  id: string;
  name: string;
  mimeType: string;
  parentId: string;
  /** RFC 3339, as the API gives it. */
  modifiedTime: string;
  trashed: boolean;
  /** Binary files only. */
  content?: Buffer;
  /** Native files only: the export answers 403 `exportSizeLimitExceeded`. */
  exportTooLarge?: boolean;
}

interface StoredFile extends FakeDriveFile {
  owner: string;
}

interface CodeGrant {
  email: string;
  scope: string;
  clientId: string;
  redirectUri: string;
  /** Whether the token answer carries a refresh token (offline access). */
  offline: boolean;
  codeChallenge?: string;
  codeChallengeMethod?: string;
  expiresAt: number;
  used: boolean;
}

interface IssuedToken {
  email: string;
  scope: string;
  revoked: boolean;
  /** Access tokens only: epoch ms. */
  expiresAt?: number;
  /** Access tokens only: the refresh token it came from. */
  refreshToken?: string;
}

interface Fault {
  path?: RegExp;
  times: number;
  status: number | 'hang';
}

/** A body that is a Buffer is sent as it is (with the headers' content-type), anything else as JSON. */
type Answer = { status: number; body: unknown; headers?: Record<string, string> };

export const CONTACTS_READONLY = 'https://www.googleapis.com/auth/contacts.readonly';
export const DRIVE_READONLY = 'https://www.googleapis.com/auth/drive.readonly';
/** Either Drive scope opens the Drive API (the full one is never asked by the app). */
const DRIVE_SCOPES = [DRIVE_READONLY, 'https://www.googleapis.com/auth/drive'];
export const FOLDER_MIME = 'application/vnd.google-apps.folder';
const NATIVE_PREFIX = 'application/vnd.google-apps.';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
const PDF = 'application/pdf';
/** The targets each native kind exports to (a subset of Google's); a form exports to none. */
const EXPORTS: Record<string, string[]> = {
  document: [DOCX, PDF, 'text/plain'],
  spreadsheet: [XLSX, PDF, 'text/csv'],
  presentation: [PPTX, PDF],
  drawing: [PDF, 'image/png'],
};
/** The content types of the few extensions tests name; anything else is `application/octet-stream`. */
const BY_EXTENSION: Record<string, string> = {
  pdf: PDF,
  txt: 'text/plain',
  csv: 'text/csv',
  png: 'image/png',
  jpg: 'image/jpeg',
  docx: DOCX,
  xlsx: XLSX,
};
/**
 * The listing queries the app sends, and only those: a parent's children not in the trash,
 * optionally only its folders or only its files.
 */
const CHILDREN_QUERY =
  /^'([A-Za-z0-9_-]+)' in parents and trashed=false(?: and mimeType(!?=)'application\/vnd\.google-apps\.folder')?$/;
const CODE_TTL_MS = 10 * 60 * 1000;
const token = (prefix: string) => `${prefix}.${randomBytes(24).toString('base64url')}`;
const oauthError = (status: number, error: string, error_description: string): Answer => ({
  status,
  body: { error, error_description },
});
const apiError = (code: number, status: string, message: string): Answer => ({
  status: code,
  body: { error: { code, message, status } },
});
/** The Drive API's error shape: Google's, with the v2-style `errors[].reason` Drive still gives. */
const driveError = (code: number, reason: string, message: string, status?: string): Answer => ({
  status: code,
  body: {
    error: {
      code,
      message,
      errors: [{ message, domain: 'global', reason }],
      ...(status ? { status } : {}),
    },
  },
});
const md5 = (content: Buffer) => createHash('md5').update(content).digest('hex');

/**
 * A local Google identity provider, as far as the OAuth 2.0 web-server flow, the People API's
 * connections and the Drive API v3's reads go, on 127.0.0.1 at a free port:
 * - `GET /accounts/o/oauth2/v2/auth`: the consent page. It checks the client, the redirect URI
 *   (either registered one, exactly: `redirectUri` for contacts, `driveRedirectUri` for the drive),
 *   `response_type=code` and the scope, and redirects (302) to the redirect URI with a code and
 *   the state, for the account named by the `x-fake-account` header (the browser's signed-in
 *   account; `authorize()` plays the browser). PKCE (`S256`, `plain`) is checked at the exchange.
 * - `POST /oauth2/token`: `authorization_code` (a code is good once, 10 minutes, for its client
 *   and redirect URI) and `refresh_token`; the client authenticates by its secret (form or Basic).
 *   Google's errors: 400 `invalid_grant`, 401 `invalid_client`, 400 `unsupported_grant_type`.
 *   With `openid` in the scope the answer has an `id_token` (with `email`).
 * - `POST /oauth2/revoke?token=`: revokes a refresh token (its access tokens too) or an access token.
 * - `GET /people/v1/people/me/connections`: the bearer's account's contacts, `personFields`
 *   required (only those fields are given), `pageSize` (at most `maxPageSize`), `pageToken`;
 *   401 `UNAUTHENTICATED` for an unknown, expired or revoked token, 403 without the contacts scope.
 * - Drive API v3 on the bearer's account's own files (401 and 403 as above, 403 without the
 *   `drive.readonly` scope):
 *   - `GET /drive/v3/about?fields=user`: the account's `emailAddress` and `displayName`.
 *   - `GET /drive/v3/files`: `q` `'<id>' in parents and trashed=false`, optionally
 *     ` and mimeType='application/vnd.google-apps.folder'` (or `!=`), nothing else (400); `root` is
 *     the account's root folder. `pageSize` 1..1000 (100), at most `maxDrivePageSize`; `pageToken`;
 *     `orderBy` (`name` sorts by name, the rest is accepted); `fields`, `supportsAllDrives`,
 *     `includeItemsFromAllDrives` accepted. Each file: id, name, mimeType, modifiedTime, and for
 *     binary files md5Checksum and size (a string, as the API gives int64). Unknown parent: no files.
 *   - `GET /drive/v3/files/:id`: its metadata; `?alt=media` its bytes (with its content-type;
 *     Content-Length unless `sendContentLength` is off), 403 `fileNotDownloadable` for a native
 *     file; 404 `notFound` for an id the account does not have.
 *   - `GET /drive/v3/files/:id/export?mimeType=`: a native file's export (deterministic bytes:
 *     `PK\x03\x04…` for the Office types, `%PDF-1.4…` for PDF, `exportOf`); 403
 *     `exportSizeLimitExceeded` when marked too large; 400 for a binary file or another target.
 *   Tests fill the drives with `addFolder`, `addFile`, `addNativeFile`, and change them with
 *   `updateFile`, `trashFile`, `removeFile`.
 * Faults: `failNext` (5xx or a hang), `revokeGrantsOf` (the user removed the app's access),
 * `expireAccessTokens`, `accessTokenLifetime`. Every request is recorded.
 */
export class FakeDrive {
  readonly clientId = 'fake-drive-client.apps.example.test';
  readonly clientSecret = 'fake-drive-client-secret';
  readonly redirectUri = 'https://app.example.test/referral/contacts/callback';
  readonly driveRedirectUri = 'https://app.example.test/documents/drive/callback';
  readonly requests: FakeDriveRequest[] = [];
  url = '';
  /** The lifetime (seconds) of the access tokens issued from now on. */
  accessTokenLifetime = 3599;
  /** The People API's cap on `pageSize`. */
  maxPageSize = 1000;
  /** The Drive API's cap on `pageSize` (tests lower it to see paging). */
  maxDrivePageSize = 1000;
  /** Whether downloads and exports say their length (off: chunked, as a streamed answer). */
  sendContentLength = true;

  private readonly accounts = new Map<string, Account>();
  private readonly codes = new Map<string, CodeGrant>();
  private readonly refreshTokens = new Map<string, IssuedToken>();
  private readonly accessTokens = new Map<string, IssuedToken>();
  private readonly files = new Map<string, StoredFile>();
  private readonly idTokenKey = randomBytes(32);
  private faults: Fault[] = [];
  private readonly hanging = new Set<ServerResponse>();
  private server?: Server;

  static async start(): Promise<FakeDrive> {
    const fake = new FakeDrive();
    fake.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        fake.receive(req, Buffer.concat(chunks).toString('utf8'), res).catch((err: unknown) => {
          res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
        });
      });
    });
    fake.url = `http://127.0.0.1:${await listenOnFreePort(fake.server)}`;
    return fake;
  }

  /** The app's IDP_* variables of the OAuth client and the People API, pointing at this fake. */
  env(): Record<string, string> {
    return {
      IDP_DRIVE_CLIENT_ID: this.clientId,
      IDP_DRIVE_CLIENT_SECRET: this.clientSecret,
      IDP_DRIVE_AUTH_URL: `${this.url}/accounts/o/oauth2/v2/auth`,
      IDP_DRIVE_TOKEN_URL: `${this.url}/oauth2/token`,
      IDP_DRIVE_REVOKE_URL: `${this.url}/oauth2/revoke`,
      IDP_CONTACTS_REDIRECT_URI: this.redirectUri,
      IDP_PEOPLE_API_URL: `${this.url}/people/`,
      IDP_DRIVE_SYNC_REDIRECT_URI: this.driveRedirectUri,
      IDP_DRIVE_API_URL: `${this.url}/`,
    };
  }

  close(): Promise<void> {
    return closeServer(this.server, this.hanging);
  }

  // Accounts and grants, for tests

  /** An account (by e-mail) with these contacts; replaces the contacts of an existing one. */
  addAccount(email: string, contacts: FakePerson[] = []): void {
    const known = this.accounts.get(email);
    const sub = known?.sub ?? String(100000 + this.accounts.size);
    const rootId = known?.rootId ?? `0A${randomBytes(12).toString('base64url')}`;
    this.accounts.set(email, { email, sub, contacts, rootId });
  }

  /**
   * A code as the consent page would give it to `email`'s browser (no PKCE): by default with the
   * contacts scope, `openid email`, a refresh token and the contacts redirect URI.
   */
  issueCode(
    email: string,
    options: { scope?: string; offline?: boolean; redirectUri?: string } = {},
  ): string {
    if (!this.accounts.has(email)) this.addAccount(email);
    const code = token('4/code');
    this.codes.set(code, {
      email,
      scope: options.scope ?? `${CONTACTS_READONLY} openid email`,
      clientId: this.clientId,
      redirectUri: options.redirectUri ?? this.redirectUri,
      offline: options.offline ?? true,
      expiresAt: Date.now() + CODE_TTL_MS,
      used: false,
    });
    return code;
  }

  /**
   * The browser's part: opens the consent URL as `email` (consenting to everything asked) and
   * answers what the provider put on the redirect URI.
   */
  async authorize(authUrl: string, email: string): Promise<{ code: string; state: string }> {
    if (!this.accounts.has(email)) this.addAccount(email);
    const res = await fetch(authUrl, { headers: { 'x-fake-account': email }, redirect: 'manual' });
    const location = res.headers.get('location');
    if (res.status !== 302 || !location) {
      throw new Error(`consent page: ${res.status} ${await res.text()}`);
    }
    const back = new URL(location);
    return { code: back.searchParams.get('code')!, state: back.searchParams.get('state')! };
  }

  /** The user removed the app's access: every token of their account stops working. */
  revokeGrantsOf(email: string): void {
    for (const issued of [...this.refreshTokens.values(), ...this.accessTokens.values()]) {
      if (issued.email === email) issued.revoked = true;
    }
  }

  /** Every access token issued so far expires now (their refresh tokens still work). */
  expireAccessTokens(): void {
    for (const issued of this.accessTokens.values()) issued.expiresAt = Date.now() - 1;
  }

  /** Whether `value` is a refresh or access token the fake issued and has not revoked. */
  isLive(value: string): boolean {
    const issued = this.refreshTokens.get(value) ?? this.accessTokens.get(value);
    return Boolean(issued && !issued.revoked);
  }

  /** The tokens issued so far (for checks that none of them is stored in the clear). */
  issuedTokens(): string[] {
    return [...this.refreshTokens.keys(), ...this.accessTokens.keys()];
  }

  // Drives, for tests

  /** The id of the account's root folder (what `root` stands for). */
  rootIdOf(email: string): string {
    if (!this.accounts.has(email)) this.addAccount(email);
    return this.accounts.get(email)!.rootId;
  }

  /** A folder in `email`'s drive (under its root by default); answers its id. */
  addFolder(email: string, options: { id?: string; name: string; parentId?: string }): string {
    return this.store(email, { ...options, mimeType: FOLDER_MIME });
  }

  /** A binary file (md5Checksum and size from its content); answers its id. */
  addFile(
    email: string,
    options: {
      id?: string;
      name: string;
      parentId?: string;
      content: Buffer;
      mimeType?: string;
      modifiedTime?: string;
    },
  ): string {
    const extension = /\.([^.]+)$/.exec(options.name)?.[1]?.toLowerCase() ?? '';
    const mimeType = options.mimeType ?? BY_EXTENSION[extension] ?? 'application/octet-stream';
    return this.store(email, { ...options, mimeType, content: Buffer.from(options.content) });
  }

  /** A Google Docs-family file (no bytes of its own: exported); answers its id. */
  addNativeFile(
    email: string,
    options: {
      id?: string;
      name: string;
      parentId?: string;
      kind: NativeKind;
      modifiedTime?: string;
      exportTooLarge?: boolean;
    },
  ): string {
    const { kind, ...rest } = options;
    return this.store(email, { ...rest, mimeType: `${NATIVE_PREFIX}${kind}` });
  }

  /**
   * Changes a file as an edit would: new content (md5Checksum and size follow) or name, and a
   * later modifiedTime (the one given, else now, always after the previous one).
   */
  updateFile(
    id: string,
    changes: { content?: Buffer; name?: string; modifiedTime?: string },
  ): void {
    const file = this.stored(id);
    if (changes.content && !file.content) {
      throw new Error(`FakeDrive: ${id} is a native file or a folder: it has no content`);
    }
    if (changes.content) file.content = Buffer.from(changes.content);
    if (changes.name !== undefined) file.name = changes.name;
    const previous = Date.parse(file.modifiedTime);
    file.modifiedTime =
      changes.modifiedTime ?? new Date(Math.max(Date.now(), previous + 1)).toISOString();
  }

  /** Moves a file to the trash: listings leave it out, it can still be downloaded. */
  trashFile(id: string): void {
    this.stored(id).trashed = true;
  }

  /** Deletes a file for good: every call about it answers 404. */
  removeFile(id: string): void {
    this.stored(id);
    this.files.delete(id);
  }

  /** A file as the fake holds it (a copy). */
  fileOf(id: string): FakeDriveFile {
    const { owner: _owner, ...file } = this.stored(id);
    return { ...file, content: file.content && Buffer.from(file.content) };
  }

  /** The bytes the export of native file `id` to `mimeType` answers (as of its modifiedTime). */
  exportOf(id: string, mimeType: string): Buffer {
    const file = this.stored(id);
    const text = `fake export of ${file.id} (${file.name}) at ${file.modifiedTime} as ${mimeType}\n`;
    if (mimeType === PDF) return Buffer.from(`%PDF-1.4\n%${text}%%EOF\n`, 'latin1');
    if ([DOCX, XLSX, PPTX].includes(mimeType)) {
      return Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from(text)]);
    }
    return Buffer.from(text);
  }

  private store(
    email: string,
    options: {
      id?: string;
      name: string;
      parentId?: string;
      mimeType: string;
      content?: Buffer;
      modifiedTime?: string;
      exportTooLarge?: boolean;
    },
  ): string {
    const rootId = this.rootIdOf(email);
    const id = options.id ?? `1F${randomBytes(16).toString('base64url')}`;
    if (this.files.has(id) || [...this.accounts.values()].some((a) => a.rootId === id)) {
      throw new Error(`FakeDrive: the id ${id} is taken`);
    }
    const parentId = !options.parentId || options.parentId === 'root' ? rootId : options.parentId;
    const parent = this.files.get(parentId);
    if (parentId !== rootId && (parent?.owner !== email || parent.mimeType !== FOLDER_MIME)) {
      throw new Error(`FakeDrive: ${parentId} is not a folder of ${email}`);
    }
    this.files.set(id, {
      id,
      owner: email,
      name: options.name,
      mimeType: options.mimeType,
      parentId,
      modifiedTime: options.modifiedTime ?? new Date().toISOString(),
      trashed: false,
      ...(options.content ? { content: options.content } : {}),
      ...(options.exportTooLarge ? { exportTooLarge: true } : {}),
    });
    return id;
  }

  private stored(id: string): StoredFile {
    const file = this.files.get(id);
    if (!file) throw new Error(`FakeDrive: no file ${id}`);
    return file;
  }

  // Faults and the log

  /**
   * The next `count` requests (whose path matches `path` if given) answer `status` (default 500)
   * and change nothing; `hang`: no answer until the client gives up or the fake closes.
   */
  failNext(count: number, options: { path?: RegExp; status?: number | 'hang' } = {}): void {
    this.faults.push({ times: count, path: options.path, status: options.status ?? 500 });
  }

  requestsTo(method: string, path: RegExp): FakeDriveRequest[] {
    return this.requests.filter((r) => r.method === method && path.test(r.path));
  }

  // Serving

  private async receive(req: IncomingMessage, raw: string, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const form = /application\/x-www-form-urlencoded/.test(req.headers['content-type'] ?? '')
      ? Object.fromEntries(new URLSearchParams(raw))
      : {};
    const request: FakeDriveRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      form,
      bearer: /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1],
    };
    this.requests.push(request);
    const fault = this.faultFor(request.path);
    if (fault?.status === 'hang') {
      this.hanging.add(res);
      res.on('close', () => this.hanging.delete(res));
      return;
    }
    const answer = fault
      ? apiError(fault.status, 'INTERNAL', `injected failure ${fault.status}`)
      : await this.answer(request, req);
    if (Buffer.isBuffer(answer.body)) {
      res.writeHead(answer.status, answer.headers).end(answer.body);
      return;
    }
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(answer.status === 302 ? '' : JSON.stringify(answer.body));
  }

  private faultFor(path: string): Fault | undefined {
    const fault = this.faults.find((f) => !f.path || f.path.test(path));
    if (fault && --fault.times <= 0) this.faults = this.faults.filter((f) => f !== fault);
    return fault;
  }

  private answer(request: FakeDriveRequest, req: IncomingMessage): Answer | Promise<Answer> {
    const route = `${request.method} ${request.path}`;
    switch (route) {
      case 'GET /accounts/o/oauth2/v2/auth':
        return this.consent(request, String(req.headers['x-fake-account'] ?? ''));
      case 'POST /oauth2/token':
        return this.token(request, req.headers.authorization);
      case 'POST /oauth2/revoke':
        return this.revoke(request);
      case 'GET /people/v1/people/me/connections':
        return this.connections(request);
      case 'GET /drive/v3/about':
        return this.about(request);
      case 'GET /drive/v3/files':
        return this.list(request);
    }
    const file = /^GET \/drive\/v3\/files\/([^/]+)(\/export)?$/.exec(route);
    if (file) {
      const id = decodeURIComponent(file[1]);
      return file[2] ? this.export(request, id) : this.get(request, id);
    }
    return apiError(404, 'NOT_FOUND', `no route ${route}`);
  }

  // OAuth 2.0

  private consent(request: FakeDriveRequest, email: string): Answer {
    const q = request.query;
    if (q.client_id !== this.clientId)
      return oauthError(401, 'invalid_client', 'The OAuth client was not found.');
    if (q.redirect_uri !== this.redirectUri && q.redirect_uri !== this.driveRedirectUri) {
      return oauthError(400, 'redirect_uri_mismatch', 'The redirect URI is not registered.');
    }
    if (q.response_type !== 'code')
      return oauthError(400, 'unsupported_response_type', 'code only');
    if (!q.scope) return oauthError(400, 'invalid_request', 'Missing required parameter: scope');
    if (q.code_challenge_method && !['S256', 'plain'].includes(q.code_challenge_method)) {
      return oauthError(400, 'invalid_request', 'Invalid code_challenge_method');
    }
    if (!this.accounts.has(email)) return oauthError(400, 'access_denied', 'No signed-in account.');
    const code = token('4/code');
    this.codes.set(code, {
      email,
      scope: q.scope,
      clientId: q.client_id,
      redirectUri: q.redirect_uri,
      offline: q.access_type === 'offline',
      codeChallenge: q.code_challenge,
      codeChallengeMethod: q.code_challenge ? (q.code_challenge_method ?? 'plain') : undefined,
      expiresAt: Date.now() + CODE_TTL_MS,
      used: false,
    });
    const back = new URL(q.redirect_uri);
    back.searchParams.set('code', code);
    if (q.state !== undefined) back.searchParams.set('state', q.state);
    back.searchParams.set('scope', q.scope);
    return { status: 302, body: null, headers: { location: back.toString() } };
  }

  private async token(request: FakeDriveRequest, authorization?: string): Promise<Answer> {
    const form = request.form;
    const basic = /^Basic (.+)$/i.exec(authorization ?? '')?.[1];
    const [basicId, basicSecret] = basic
      ? Buffer.from(basic, 'base64').toString('utf8').split(':')
      : [];
    const clientId = form.client_id ?? basicId;
    const secret = form.client_secret ?? basicSecret;
    if (clientId !== this.clientId || secret !== this.clientSecret) {
      return oauthError(401, 'invalid_client', 'Unauthorized');
    }
    if (form.grant_type === 'authorization_code') return this.exchange(form);
    if (form.grant_type === 'refresh_token') return this.refresh(form);
    return oauthError(400, 'unsupported_grant_type', 'Invalid grant_type: ' + form.grant_type);
  }

  private async exchange(form: Record<string, string>): Promise<Answer> {
    const grant = this.codes.get(form.code ?? '');
    const badGrant = oauthError(400, 'invalid_grant', 'Malformed auth code.');
    if (!grant || grant.used || grant.expiresAt <= Date.now()) return badGrant;
    if (grant.redirectUri !== form.redirect_uri) {
      return oauthError(400, 'redirect_uri_mismatch', 'Bad Request');
    }
    if (grant.codeChallenge) {
      const verifier = form.code_verifier ?? '';
      const expected =
        grant.codeChallengeMethod === 'S256'
          ? createHash('sha256').update(verifier).digest('base64url')
          : verifier;
      if (expected !== grant.codeChallenge) {
        return oauthError(400, 'invalid_grant', 'Invalid code verifier.');
      }
    }
    grant.used = true;
    const refreshToken = grant.offline ? token('1//refresh') : undefined;
    if (refreshToken) {
      this.refreshTokens.set(refreshToken, {
        email: grant.email,
        scope: grant.scope,
        revoked: false,
      });
    }
    return { status: 200, body: await this.tokens(grant.email, grant.scope, refreshToken, true) };
  }

  private async refresh(form: Record<string, string>): Promise<Answer> {
    const refreshToken = form.refresh_token ?? '';
    const issued = this.refreshTokens.get(refreshToken);
    if (!issued || issued.revoked) {
      return oauthError(400, 'invalid_grant', 'Token has been expired or revoked.');
    }
    return {
      status: 200,
      body: await this.tokens(issued.email, issued.scope, refreshToken, false),
    };
  }

  /** A token answer: a new access token, the refresh token only on an exchange. */
  private async tokens(
    email: string,
    scope: string,
    refreshToken: string | undefined,
    exchange: boolean,
  ) {
    const accessToken = token('ya29');
    this.accessTokens.set(accessToken, {
      email,
      scope,
      revoked: false,
      expiresAt: Date.now() + this.accessTokenLifetime * 1000,
      refreshToken,
    });
    const scopes = scope.split(' ');
    return {
      access_token: accessToken,
      expires_in: this.accessTokenLifetime,
      scope,
      token_type: 'Bearer',
      ...(exchange && refreshToken ? { refresh_token: refreshToken } : {}),
      ...(scopes.includes('openid') ? { id_token: await this.idToken(email, scopes) } : {}),
    };
  }

  private idToken(email: string, scopes: string[]): Promise<string> {
    const account = this.accounts.get(email)!;
    return new SignJWT(scopes.includes('email') ? { email, email_verified: true } : {})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('https://accounts.google.com')
      .setAudience(this.clientId)
      .setSubject(account.sub)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(this.idTokenKey);
  }

  private revoke(request: FakeDriveRequest): Answer {
    const value = request.query.token ?? request.form.token ?? '';
    const refresh = this.refreshTokens.get(value);
    const access = this.accessTokens.get(value);
    if (!refresh && !access) return oauthError(400, 'invalid_token', 'Token expired or revoked');
    if (refresh) {
      refresh.revoked = true;
      for (const issued of this.accessTokens.values()) {
        if (issued.refreshToken === value) issued.revoked = true;
      }
    }
    if (access) access.revoked = true;
    return { status: 200, body: {} };
  }

  // People API

  /** The bearer's live access token with one of `scopes`, else the API's 401 or 403. */
  private bearerOf(request: FakeDriveRequest, scopes: string[]): IssuedToken | Answer {
    const issued = request.bearer ? this.accessTokens.get(request.bearer) : undefined;
    if (!issued || issued.revoked || (issued.expiresAt ?? 0) <= Date.now()) {
      return apiError(
        401,
        'UNAUTHENTICATED',
        'Request had invalid authentication credentials. Expected OAuth 2 access token.',
      );
    }
    if (!issued.scope.split(' ').some((s) => scopes.includes(s))) {
      return apiError(403, 'PERMISSION_DENIED', 'Request had insufficient authentication scopes.');
    }
    return issued;
  }

  private connections(request: FakeDriveRequest): Answer {
    const issued = this.bearerOf(request, [CONTACTS_READONLY]);
    if ('status' in issued) return issued;
    const fields = (request.query.personFields ?? '').split(',').filter(Boolean);
    if (!fields.length) {
      return apiError(400, 'INVALID_ARGUMENT', 'personFields mask is required.');
    }
    const pageSize = Number(request.query.pageSize ?? 100);
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) {
      return apiError(400, 'INVALID_ARGUMENT', 'pageSize must be between 1 and 1000.');
    }
    const offset = request.query.pageToken ? Number(request.query.pageToken.slice(1)) : 0;
    if (!Number.isInteger(offset) || offset < 0) {
      return apiError(400, 'INVALID_ARGUMENT', 'Page token is not valid.');
    }
    const contacts = this.accounts.get(issued.email)?.contacts ?? [];
    const size = Math.min(pageSize, this.maxPageSize);
    const page = contacts.slice(offset, offset + size).map((person, i) => ({
      resourceName: person.resourceName ?? `people/c${offset + i}`,
      etag: `%E${offset + i}`,
      ...Object.fromEntries(
        fields.filter((f) => f in person).map((f) => [f, person[f as keyof FakePerson]]),
      ),
    }));
    const next = offset + size < contacts.length ? `p${offset + size}` : undefined;
    return {
      status: 200,
      body: {
        // As the API does, an empty page has no `connections` at all.
        ...(page.length ? { connections: page } : {}),
        ...(next ? { nextPageToken: next } : {}),
        totalPeople: contacts.length,
        totalItems: contacts.length,
      },
    };
  }

  // Drive API v3

  private about(request: FakeDriveRequest): Answer {
    const issued = this.bearerOf(request, DRIVE_SCOPES);
    if ('status' in issued) return issued;
    if (!(request.query.fields ?? '').split(',').includes('user')) {
      return driveError(400, 'required', "The 'fields' parameter is required for this method.");
    }
    const email = issued.email;
    return {
      status: 200,
      body: { user: { emailAddress: email, displayName: email.split('@')[0] } },
    };
  }

  private list(request: FakeDriveRequest): Answer {
    const issued = this.bearerOf(request, DRIVE_SCOPES);
    if ('status' in issued) return issued;
    const invalid = (message: string) => driveError(400, 'invalid', message, 'INVALID_ARGUMENT');
    const query = CHILDREN_QUERY.exec(request.query.q ?? '');
    if (!query) return invalid(`Invalid Value: q=${request.query.q ?? ''}`);
    const pageSize = Number(request.query.pageSize ?? 100);
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) {
      return invalid('pageSize must be between 1 and 1000.');
    }
    const offset = request.query.pageToken ? Number(request.query.pageToken.slice(1)) : 0;
    if (!Number.isInteger(offset) || offset < 0) return invalid('Invalid Value: pageToken');
    const rootId = this.accounts.get(issued.email)!.rootId;
    const parentId = query[1] === 'root' ? rootId : query[1];
    const folders = query[2] === undefined ? undefined : query[2] === '=';
    const matching = [...this.files.values()].filter(
      (f) =>
        f.owner === issued.email &&
        f.parentId === parentId &&
        !f.trashed &&
        (folders === undefined || (f.mimeType === FOLDER_MIME) === folders),
    );
    const order = /^name( desc)?$/.exec(
      (request.query.orderBy ?? '').split(',').find((key) => key.startsWith('name')) ?? '',
    );
    if (order) {
      matching.sort((a, b) => (order[1] ? -1 : 1) * a.name.localeCompare(b.name));
    }
    const size = Math.min(pageSize, this.maxDrivePageSize);
    const page = matching.slice(offset, offset + size).map((f) => this.describe(f));
    const next = offset + size < matching.length ? `p${offset + size}` : undefined;
    return { status: 200, body: { ...(next ? { nextPageToken: next } : {}), files: page } };
  }

  private get(request: FakeDriveRequest, id: string): Answer {
    const issued = this.bearerOf(request, DRIVE_SCOPES);
    if ('status' in issued) return issued;
    const file = this.files.get(id);
    if (!file || file.owner !== issued.email) return this.notFound(id);
    if (request.query.alt !== 'media') return { status: 200, body: this.describe(file) };
    if (!file.content) {
      return driveError(
        403,
        'fileNotDownloadable',
        'Only files with binary content can be downloaded. Use Export with Docs Editors files.',
      );
    }
    return this.bytes(file.content, file.mimeType);
  }

  private export(request: FakeDriveRequest, id: string): Answer {
    const issued = this.bearerOf(request, DRIVE_SCOPES);
    if ('status' in issued) return issued;
    const file = this.files.get(id);
    if (!file || file.owner !== issued.email) return this.notFound(id);
    const target = request.query.mimeType ?? '';
    if (!target) return driveError(400, 'required', 'Required parameter: mimeType');
    const kind = file.mimeType.startsWith(NATIVE_PREFIX)
      ? file.mimeType.slice(NATIVE_PREFIX.length)
      : undefined;
    if (!kind || !(EXPORTS[kind] ?? []).includes(target)) {
      return driveError(400, 'badRequest', 'The requested conversion is not supported.');
    }
    if (file.exportTooLarge) {
      return driveError(403, 'exportSizeLimitExceeded', 'This file is too large to be exported.');
    }
    return this.bytes(this.exportOf(id, target), target);
  }

  private notFound(id: string): Answer {
    return driveError(404, 'notFound', `File not found: ${id}.`);
  }

  private bytes(content: Buffer, contentType: string): Answer {
    return {
      status: 200,
      body: content,
      headers: {
        'content-type': contentType,
        ...(this.sendContentLength ? { 'content-length': String(content.length) } : {}),
      },
    };
  }

  /** A file's resource: md5Checksum and size only for binary files, size a string (int64). */
  private describe(file: StoredFile) {
    return {
      kind: 'drive#file',
      id: file.id,
      name: file.name,
      mimeType: file.mimeType,
      modifiedTime: file.modifiedTime,
      ...(file.content
        ? { md5Checksum: md5(file.content), size: String(file.content.length) }
        : {}),
    };
  }
}
