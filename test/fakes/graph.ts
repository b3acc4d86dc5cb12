import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { closeServer, listenOnFreePort } from './listen';

/** A drive item as the fake keeps it. */
export interface FakeGraphItem {
  id: string;
  name: string;
  folder: boolean;
  /** null for the drive's root. */
  parentId: string | null;
  data?: Buffer;
  created: Date;
}

export interface FakeGraphRequest {
  method: string;
  /** Without the query, as sent (encoded). */
  path: string;
  query: Record<string, string>;
  /** The Authorization header, if any. */
  authorization?: string;
  contentRange?: string;
  /** Bytes of the request body. */
  bodyBytes: number;
}

interface Fault {
  method?: string;
  path: RegExp;
  times: number;
  status: number;
  retryAfter?: string;
}

interface Session {
  parentId: string;
  name: string;
  /** The file whose content the session replaces; none for a new file. */
  itemId?: string;
  size?: number;
  chunks: Buffer[];
  received: number;
}

type Answer = { status: number; body?: unknown; headers?: Record<string, string> };

const graphError = (status: number, code: string, message: string): Answer => ({
  status,
  body: { error: { code, message } },
});

/**
 * A local Microsoft identity platform and Graph drive, on 127.0.0.1 at a free port:
 * - `POST /{tenant}/oauth2/v2.0/token`: client credentials for the one registered client and
 *   tenant (a `<graph>/.default` scope), answering a bearer token;
 * - `/v1.0/drives/{drive}/items/{id}…` with that token: the item, `children` (pages of
 *   `pageSize`, `@odata.nextLink`), `POST children` (a folder), `PUT {parent}:/{name}:/content`
 *   (a simple upload, at most 4 MiB), `POST {parent}:/{name}:/createUploadSession`, `PUT
 *   {id}/content` and `POST {id}/createUploadSession` (a file's content replaced: the same
 *   item), `PATCH` (rename, move), `DELETE` (with everything inside), `GET content` (302 to a
 *   download URL that needs no token). Names are unique in a folder whatever their case (409 `nameAlreadyExists`).
 * - an upload session's URL (`/upload/{id}`) takes the chunks (`Content-Range`, multiples of
 *   320 KiB but the last) without the token, and 409s a name taken by then.
 * Every request is recorded; `failNext` makes matching ones fail (429 with Retry-After...).
 */
export class FakeGraph {
  readonly tenant = 'fake-tenant';
  readonly clientId = 'fake-client';
  readonly clientSecret = 'fake-secret';
  readonly driveId = 'fake-drive';
  readonly items = new Map<string, FakeGraphItem>();
  readonly requests: FakeGraphRequest[] = [];
  /** Children per page of a `children` answer. */
  pageSize = 200;
  url = '';
  tokensIssued = 0;
  private readonly tokens = new Set<string>();
  private readonly sessions = new Map<string, Session>();
  private readonly faults: Fault[] = [];
  private server?: Server;

  static async start(): Promise<FakeGraph> {
    const fake = new FakeGraph();
    fake.items.set('root', {
      id: 'root',
      name: 'root',
      folder: true,
      parentId: null,
      created: new Date(),
    });
    fake.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        try {
          fake.send(res, fake.handle(req, Buffer.concat(chunks)));
        } catch (err) {
          fake.send(res, graphError(500, 'fakeError', (err as Error).message));
        }
      });
    });
    fake.url = `http://127.0.0.1:${await listenOnFreePort(fake.server)}`;
    return fake;
  }

  /** The app's configuration for this fake. */
  env(rootFolder = 'Ledgerline'): Record<string, string> {
    return {
      MICROSOFT_TENANT_ID: this.tenant,
      MICROSOFT_CLIENT_ID: this.clientId,
      MICROSOFT_CLIENT_SECRET: this.clientSecret,
      MICROSOFT_DRIVE_ID: this.driveId,
      MICROSOFT_ROOT_FOLDER: rootFolder,
      MICROSOFT_GRAPH_URL: this.url,
      MICROSOFT_LOGIN_URL: this.url,
    };
  }

  /** The next `times` requests matching `path` (and `method`) answer `status`. */
  failNext(
    path: RegExp,
    status: number,
    options: { method?: string; times?: number; retryAfter?: string } = {},
  ) {
    this.faults.push({ path, status, times: options.times ?? 1, ...options });
  }

  /** The item at a path of names from the drive's root (`Ledgerline/<org>/a.pdf`). */
  itemAt(path: string): FakeGraphItem | undefined {
    let current = this.items.get('root');
    for (const name of path.split('/').filter(Boolean)) {
      current = this.childNamed(current!.id, name);
      if (!current) return undefined;
    }
    return current;
  }

  childrenOf(id: string): FakeGraphItem[] {
    return [...this.items.values()].filter((i) => i.parentId === id);
  }

  /** Adds an item as someone using the drive directly would. */
  add(parentId: string, name: string, data?: Buffer): FakeGraphItem {
    const item: FakeGraphItem = {
      id: randomUUID().replace(/-/g, '').toUpperCase(),
      name,
      folder: data === undefined,
      parentId,
      data,
      created: new Date(),
    };
    this.items.set(item.id, item);
    return item;
  }

  close(): Promise<void> {
    return closeServer(this.server, new Set());
  }

  private childNamed(parentId: string, name: string, except?: string) {
    return this.childrenOf(parentId).find(
      (i) => i.name.toLowerCase() === name.toLowerCase() && i.id !== except,
    );
  }

  private view(item: FakeGraphItem) {
    return {
      id: item.id,
      name: item.name,
      createdDateTime: item.created.toISOString(),
      ...(item.parentId ? { parentReference: { driveId: this.driveId, id: item.parentId } } : {}),
      ...(item.folder
        ? { folder: { childCount: this.childrenOf(item.id).length }, size: 0 }
        : { file: { mimeType: 'application/octet-stream' }, size: item.data!.length }),
    };
  }

  private handle(req: IncomingMessage, body: Buffer): Answer {
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    this.requests.push({
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      authorization: req.headers.authorization,
      contentRange: req.headers['content-range'],
      bodyBytes: body.length,
    });
    const fault = this.faults.find(
      (f) => f.times > 0 && f.path.test(url.pathname) && (!f.method || f.method === method),
    );
    if (fault) {
      fault.times--;
      return {
        ...graphError(
          fault.status,
          fault.status === 429 ? 'tooManyRequests' : 'injected',
          'injected failure',
        ),
        headers: fault.retryAfter ? { 'Retry-After': fault.retryAfter } : undefined,
      };
    }
    const token = /^\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(url.pathname);
    if (token && method === 'POST')
      return this.token(token[1], new URLSearchParams(body.toString()));
    const upload = /^\/upload\/([^/]+)$/.exec(url.pathname);
    if (upload) return this.chunk(method, upload[1], req, body);
    const download = /^\/download\/([^/]+)$/.exec(url.pathname);
    if (download && method === 'GET') {
      const item = this.items.get(download[1]);
      if (!item?.data) return graphError(404, 'itemNotFound', 'no such item');
      return {
        status: 200,
        body: item.data,
        headers: { 'Content-Type': 'application/octet-stream' },
      };
    }
    const prefix = `/v1.0/drives/${this.driveId}/items/`;
    if (!url.pathname.startsWith(prefix))
      return graphError(400, 'invalidRequest', `unknown path ${url.pathname}`);
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !this.tokens.has(bearer))
      return graphError(401, 'InvalidAuthenticationToken', 'no valid token');
    return this.drive(method, url, url.pathname.slice(prefix.length), body);
  }

  private token(tenant: string, form: URLSearchParams): Answer {
    if (tenant !== this.tenant)
      return {
        status: 400,
        body: { error: 'invalid_request', error_description: 'unknown tenant' },
      };
    if (
      form.get('grant_type') !== 'client_credentials' ||
      form.get('client_id') !== this.clientId ||
      form.get('client_secret') !== this.clientSecret
    ) {
      return { status: 401, body: { error: 'invalid_client', error_description: 'bad client' } };
    }
    if (form.get('scope') !== `${this.url}/.default`) {
      return {
        status: 400,
        body: { error: 'invalid_scope', error_description: `scope ${form.get('scope')}` },
      };
    }
    const accessToken = `graph.${randomBytes(24).toString('base64url')}`;
    this.tokens.add(accessToken);
    this.tokensIssued++;
    return {
      status: 200,
      body: {
        token_type: 'Bearer',
        expires_in: 3599,
        ext_expires_in: 3599,
        access_token: accessToken,
      },
    };
  }

  private drive(method: string, url: URL, rest: string, body: Buffer): Answer {
    const json = () =>
      body.length ? (JSON.parse(body.toString()) as Record<string, unknown>) : {};
    const byName = /^([^/:]+):\/([^:]+):\/(content|createUploadSession)$/.exec(rest);
    if (byName) {
      const parent = this.items.get(decodeURIComponent(byName[1]));
      const name = decodeURIComponent(byName[2]);
      if (!parent?.folder) return graphError(404, 'itemNotFound', 'no such folder');
      if (byName[3] === 'content' && method === 'PUT') {
        if (body.length > 4 * 1024 * 1024)
          return graphError(413, 'requestTooLarge', 'over 4 MiB: use an upload session');
        if (this.childNamed(parent.id, name))
          return graphError(409, 'nameAlreadyExists', `${name} exists`);
        return { status: 201, body: this.view(this.add(parent.id, name, body)) };
      }
      if (byName[3] === 'createUploadSession' && method === 'POST') {
        if (this.childNamed(parent.id, name))
          return graphError(409, 'nameAlreadyExists', `${name} exists`);
        return this.openSession({ parentId: parent.id, name });
      }
    }
    const path = /^([^/:]+)(\/children|\/content|\/createUploadSession)?$/.exec(rest);
    if (!path) return graphError(400, 'invalidRequest', `unknown path ${rest}`);
    const item = this.items.get(decodeURIComponent(path[1]));
    if (!item) return graphError(404, 'itemNotFound', 'no such item');
    const what = path[2];
    if (what === '/children' && method === 'GET') {
      if (!item.folder) return graphError(400, 'invalidRequest', 'not a folder');
      const all = this.childrenOf(item.id).sort(
        (a, b) => a.created.getTime() - b.created.getTime(),
      );
      const from = Number(url.searchParams.get('$skiptoken') ?? 0);
      const page = all.slice(from, from + this.pageSize);
      const next =
        from + this.pageSize < all.length
          ? {
              '@odata.nextLink': `${this.url}/v1.0/drives/${this.driveId}/items/${item.id}/children?$skiptoken=${from + this.pageSize}`,
            }
          : {};
      return { status: 200, body: { value: page.map((i) => this.view(i)), ...next } };
    }
    if (what === '/children' && method === 'POST') {
      const { name, folder } = json() as { name?: string; folder?: unknown };
      if (!name || !folder) return graphError(400, 'invalidRequest', 'a folder needs a name');
      if (this.childNamed(item.id, name))
        return graphError(409, 'nameAlreadyExists', `${name} exists`);
      return { status: 201, body: this.view(this.add(item.id, name)) };
    }
    if (what === '/content' && method === 'GET') {
      if (item.folder) return graphError(404, 'itemNotFound', 'a folder has no content');
      return { status: 302, headers: { Location: `${this.url}/download/${item.id}` } };
    }
    if (what === '/content' && method === 'PUT') {
      if (item.folder) return graphError(400, 'invalidRequest', 'a folder has no content');
      if (body.length > 4 * 1024 * 1024)
        return graphError(413, 'requestTooLarge', 'over 4 MiB: use an upload session');
      item.data = body;
      return { status: 200, body: this.view(item) };
    }
    if (what === '/createUploadSession' && method === 'POST') {
      if (item.folder) return graphError(400, 'invalidRequest', 'a folder has no content');
      return this.openSession({ parentId: item.parentId!, name: item.name, itemId: item.id });
    }
    if (what) return graphError(405, 'notSupported', `${method} ${what}`);
    if (method === 'GET') return { status: 200, body: this.view(item) };
    if (method === 'PATCH') {
      const change = json() as { name?: string; parentReference?: { id?: string } };
      const parentId = change.parentReference?.id ?? item.parentId!;
      const parent = this.items.get(parentId);
      if (!parent?.folder) return graphError(404, 'itemNotFound', 'no such folder');
      for (
        let up: FakeGraphItem | undefined = parent;
        up;
        up = up.parentId ? this.items.get(up.parentId) : undefined
      ) {
        if (up.id === item.id)
          return graphError(400, 'invalidRequest', 'a folder cannot move into itself');
      }
      const name = change.name ?? item.name;
      if (this.childNamed(parentId, name, item.id))
        return graphError(409, 'nameAlreadyExists', `${name} exists`);
      Object.assign(item, { name, parentId });
      return { status: 200, body: this.view(item) };
    }
    if (method === 'DELETE') {
      const gone = [item.id];
      for (let i = 0; i < gone.length; i++) gone.push(...this.childrenOf(gone[i]).map((c) => c.id));
      for (const id of gone) this.items.delete(id);
      return { status: 204 };
    }
    return graphError(405, 'notSupported', method);
  }

  private openSession(target: Pick<Session, 'parentId' | 'name' | 'itemId'>): Answer {
    const id = randomBytes(12).toString('hex');
    this.sessions.set(id, { ...target, chunks: [], received: 0 });
    return {
      status: 200,
      body: {
        uploadUrl: `${this.url}/upload/${id}`,
        expirationDateTime: new Date(Date.now() + 3600_000).toISOString(),
      },
    };
  }

  private chunk(method: string, id: string, req: IncomingMessage, body: Buffer): Answer {
    const session = this.sessions.get(id);
    if (!session) return graphError(404, 'itemNotFound', 'no such upload session');
    if (method === 'DELETE') {
      this.sessions.delete(id);
      return { status: 204 };
    }
    const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(req.headers['content-range'] ?? ''));
    if (method !== 'PUT' || !range)
      return graphError(400, 'invalidRange', 'a chunk needs Content-Range');
    const [start, end, total] = range.slice(1).map(Number);
    const last = end + 1 === total;
    if (start !== session.received || end - start + 1 !== body.length) {
      return graphError(416, 'invalidRange', 'not the next range');
    }
    if (!last && body.length % (320 * 1024) !== 0) {
      return graphError(400, 'invalidRange', 'chunks are multiples of 320 KiB');
    }
    session.chunks.push(body);
    session.received += body.length;
    if (!last) return { status: 202, body: { nextExpectedRanges: [`${session.received}-`] } };
    this.sessions.delete(id);
    if (session.itemId) {
      const item = this.items.get(session.itemId);
      if (!item) return graphError(404, 'itemNotFound', 'no such item');
      item.data = Buffer.concat(session.chunks);
      return { status: 200, body: this.view(item) };
    }
    if (this.childNamed(session.parentId, session.name)) {
      return graphError(409, 'nameAlreadyExists', `${session.name} exists`);
    }
    return {
      status: 201,
      body: this.view(this.add(session.parentId, session.name, Buffer.concat(session.chunks))),
    };
  }

  private send(res: ServerResponse, answer: Answer) {
    const headers = { ...(answer.headers ?? {}) };
    let payload: Buffer | string | undefined;
    if (Buffer.isBuffer(answer.body)) payload = answer.body;
    else if (answer.body !== undefined) {
      payload = JSON.stringify(answer.body);
      headers['Content-Type'] ??= 'application/json';
    }
    res.writeHead(answer.status, headers);
    res.end(payload);
  }
}
