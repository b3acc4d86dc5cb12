import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { Injectable } from '@nestjs/common';
import {
  Client,
  Context,
  GraphError,
  Middleware,
  ResponseType,
  RetryHandler,
  RetryHandlerOptions,
} from '@microsoft/microsoft-graph-client';
import { DomainError, OutboundHttp } from '../../common';
import { Env } from '../../config';
import { GraphToken } from './graph-token';

/** A drive item as Graph answers it (the fields we read). */
export interface DriveItem {
  id: string;
  name: string;
  size?: number;
  createdDateTime?: string;
  file?: { mimeType?: string };
  folder?: { childCount?: number };
  parentReference?: { id?: string };
}

/** Graph's simple upload takes at most 4 MiB; anything larger goes through an upload session. */
export const SIMPLE_UPLOAD_MAX_BYTES = 4 * 1024 * 1024;
/** Upload-session chunks: 5 MiB, a multiple of the 320 KiB Graph requires. */
export const UPLOAD_CHUNK_BYTES = 16 * 320 * 1024;
/** Retries of a 429, 503 or 504, each after the Retry-After asked. */
const MAX_RETRIES = 3;

const FAIL_ON_CONFLICT = { '@microsoft.graph.conflictBehavior': 'fail' };

/**
 * Adds the app's token to the requests for Graph itself, by origin: a redirect's download URL
 * and an upload session's URL are pre-authenticated and must not receive it. Our own handler
 * rather than the library's AuthenticationHandler, which recognises Graph (and `customHosts`)
 * on https URLs only, so that a local fake on http gets the token too.
 */
class GraphTokenHandler implements Middleware {
  private next?: Middleware;

  constructor(
    private readonly token: GraphToken,
    private readonly origin: string,
  ) {}

  setNext(next: Middleware) {
    this.next = next;
  }

  async execute(context: Context): Promise<void> {
    const url = typeof context.request === 'string' ? context.request : context.request.url;
    if (new URL(url).origin === this.origin) {
      const options = (context.options ??= {});
      const headers = new Headers(options.headers as ConstructorParameters<typeof Headers>[0]);
      headers.set('Authorization', `Bearer ${await this.token.get()}`);
      options.headers = Object.fromEntries(headers);
    }
    await this.next!.execute(context);
  }
}

/** The last of the chain: the request on the outbound base, redirects answered, not followed. */
class OutboundFetchHandler implements Middleware {
  constructor(private readonly send: typeof globalThis.fetch) {}

  async execute(context: Context): Promise<void> {
    if (typeof context.request !== 'string') throw new Error('Graph requests are URLs');
    context.response = await this.send(context.request, {
      ...(context.options as RequestInit),
      redirect: 'manual',
    });
  }
}

/**
 * The drive of the productivity-suite store (MICROSOFT_DRIVE_ID) through Microsoft Graph: its
 * items by id (`/drives/{drive}/items/{id}`). Graph's 404 and 409 are answered as ours; a 429
 * (or 503) is tried again after its Retry-After (the library's RetryHandler); anything else is
 * a 503 naming Graph's error.
 */
@Injectable()
export class GraphDrive {
  private readonly http = new OutboundHttp({ provider: 'microsoft-graph', timeoutMs: 60_000 });
  private client?: Client;

  constructor(private readonly env: Env) {}

  private get graph(): Client {
    // An organization switched to the suite while it was configured, served after it no longer is.
    if (!this.env.suiteConfigured) {
      throw DomainError.serviceUnavailable(
        'the productivity-suite store is not configured (MICROSOFT_TENANT_ID, MICROSOFT_CLIENT_ID, MICROSOFT_CLIENT_SECRET, MICROSOFT_DRIVE_ID)',
      );
    }
    return (this.client ??= this.createClient());
  }

  private createClient(): Client {
    const base = this.env.MICROSOFT_GRAPH_URL;
    const origin = new URL(base).origin;
    const token = new GraphTokenHandler(new GraphToken(this.env), origin);
    // Retry-After is waited as asked (up to the library's 180 s cap); 1 s without one.
    const retry = new RetryHandler(new RetryHandlerOptions(1, MAX_RETRIES));
    token.setNext(retry);
    retry.setNext(new OutboundFetchHandler(this.http.asFetch()));
    return Client.initWithMiddleware({
      baseUrl: `${base}/`,
      defaultVersion: 'v1.0',
      customHosts: new Set([new URL(base).host]),
      middleware: token,
    });
  }

  private items(id: string) {
    return `/drives/${encodeURIComponent(this.env.MICROSOFT_DRIVE_ID!)}/items/${encodeURIComponent(id)}`;
  }

  /** A child's path under a folder, for the calls that address it by name. */
  private child(parentId: string, name: string) {
    return `${this.items(parentId)}:/${encodeURIComponent(name)}:`;
  }

  item(id: string): Promise<DriveItem> {
    return this.call(() => this.graph.api(this.items(id)).get());
  }

  /** A folder's children, every page (`@odata.nextLink`). */
  async children(folderId: string): Promise<DriveItem[]> {
    const items: DriveItem[] = [];
    let path: string | undefined = `${this.items(folderId)}/children`;
    while (path) {
      const page: { value: DriveItem[]; '@odata.nextLink'?: string } = await this.call(() =>
        this.graph.api(path!).get(),
      );
      items.push(...page.value);
      path = this.relative(page['@odata.nextLink']);
    }
    return items;
  }

  createFolder(parentId: string, name: string): Promise<DriveItem> {
    return this.call(() =>
      this.graph
        .api(`${this.items(parentId)}/children`)
        .post({ name, folder: {}, ...FAIL_ON_CONFLICT }),
    );
  }

  /** Stores a new file in the folder (409 when the name is taken). */
  upload(parentId: string, name: string, bytes: Buffer, contentType: string): Promise<DriveItem> {
    if (bytes.length <= SIMPLE_UPLOAD_MAX_BYTES) {
      return this.call(() =>
        this.graph
          .api(`${this.child(parentId, name)}/content`)
          .query(FAIL_ON_CONFLICT)
          .header('Content-Type', contentType)
          .put(bytes),
      );
    }
    return this.sendInSession(`${this.child(parentId, name)}/createUploadSession`, bytes, {
      ...FAIL_ON_CONFLICT,
      name,
    });
  }

  /** Gives a file new bytes: the same item (its id, name and folder), its content replaced. */
  replaceContent(itemId: string, bytes: Buffer, contentType: string): Promise<DriveItem> {
    if (bytes.length <= SIMPLE_UPLOAD_MAX_BYTES) {
      return this.call(() =>
        this.graph
          .api(`${this.items(itemId)}/content`)
          .header('Content-Type', contentType)
          .put(bytes),
      );
    }
    return this.sendInSession(`${this.items(itemId)}/createUploadSession`, bytes, {
      '@microsoft.graph.conflictBehavior': 'replace',
    });
  }

  /**
   * An upload session, then the bytes in 5 MiB chunks PUT to its URL, which carries its own
   * authorization: the chunks go without our token. A failed upload cancels its session.
   */
  private async sendInSession(
    sessionPath: string,
    bytes: Buffer,
    item: Record<string, string>,
  ): Promise<DriveItem> {
    const session: { uploadUrl: string } = await this.call(() =>
      this.graph.api(sessionPath).post({ item }),
    );
    const put = this.http.asFetch();
    try {
      for (let start = 0; start < bytes.length; start += UPLOAD_CHUNK_BYTES) {
        const chunk = bytes.subarray(start, Math.min(start + UPLOAD_CHUNK_BYTES, bytes.length));
        const end = start + chunk.length - 1;
        const res = await put(session.uploadUrl, {
          method: 'PUT',
          headers: {
            'Content-Length': String(chunk.length),
            'Content-Range': `bytes ${start}-${end}/${bytes.length}`,
          },
          body: chunk,
        });
        const body = (await res.json().catch(() => ({}))) as DriveItem & GraphErrorBody;
        if (res.status === 200 || res.status === 201) return body;
        if (res.status !== 202) throw failure(res.status, body.error?.code, body.error?.message);
      }
      throw failure(502, 'uploadIncomplete', 'the upload session did not complete the file');
    } catch (err) {
      await put(session.uploadUrl, { method: 'DELETE' }).catch(() => undefined);
      throw err;
    }
  }

  /** Renames and/or moves an item (409 when the name is taken in the destination). */
  update(id: string, change: { name?: string; parentId?: string }): Promise<DriveItem> {
    return this.call(() =>
      this.graph
        .api(this.items(id))
        .query(FAIL_ON_CONFLICT)
        .patch({
          ...(change.name !== undefined ? { name: change.name } : {}),
          ...(change.parentId !== undefined ? { parentReference: { id: change.parentId } } : {}),
        }),
    );
  }

  async remove(id: string): Promise<void> {
    await this.call(() => this.graph.api(this.items(id)).delete());
  }

  /** A file's bytes: Graph answers 302 to a pre-authenticated download URL, read without our token. */
  async download(id: string): Promise<Readable> {
    const answer: Response = await this.call(() =>
      this.graph
        .api(`${this.items(id)}/content`)
        .responseType(ResponseType.RAW)
        .get(),
    );
    let res = answer;
    const location = answer.headers.get('location');
    if (answer.status >= 300 && answer.status < 400 && location) {
      await answer.body?.cancel();
      res = await this.http.asFetch(() => true)(
        new URL(location, answer.url || this.env.MICROSOFT_GRAPH_URL).toString(),
      );
    }
    if (!res.ok || !res.body) {
      const body = (await res.json().catch(() => ({}))) as GraphErrorBody;
      throw failure(res.status, body.error?.code, body.error?.message);
    }
    return Readable.fromWeb(res.body as unknown as WebReadableStream);
  }

  /** A next page's path relative to the client's base (`@odata.nextLink` is absolute). */
  private relative(link: string | undefined): string | undefined {
    if (!link) return undefined;
    const prefix = `${this.env.MICROSOFT_GRAPH_URL}/v1.0`;
    if (!link.startsWith(prefix)) throw failure(502, 'badNextLink', 'a next page outside Graph');
    return link.slice(prefix.length);
  }

  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (err) {
      if (err instanceof GraphError) throw failure(err.statusCode, err.code, err.message);
      if (err instanceof DomainError) throw err;
      throw DomainError.serviceUnavailable(
        `the productivity-suite store did not answer: ${(err as Error).message}`,
      );
    }
  }
}

interface GraphErrorBody {
  error?: { code?: string; message?: string };
}

/** Graph's refusal as ours: 404 and 409 kept, anything else the store being unavailable. */
function failure(status: number, code?: string | null, message?: string | null): DomainError {
  const why = [code, message].filter(Boolean).join(': ') || `status ${status}`;
  if (status === 404) return DomainError.notFound('no such document');
  if (status === 409) return DomainError.conflict(`already in this folder: ${why}`);
  return DomainError.serviceUnavailable(`the productivity-suite store refused: ${why}`);
}
