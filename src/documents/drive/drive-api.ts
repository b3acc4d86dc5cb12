import { gaxios, type OAuth2Client } from 'google-auth-library';

export const FOLDER_MIME_TYPE = 'application/vnd.google-apps.folder';
const NATIVE_PREFIX = 'application/vnd.google-apps.';

/** What Drive itself refuses to export beyond (its documented 10 MB export limit). */
export const EXPORT_MAX_BYTES = 10 * 1024 * 1024;
/** The folder picker shows at most this many folders of one parent. */
export const MAX_FOLDERS = 1000;
const CHILDREN_PAGE_SIZE = 100;
/**
 * 100,000 entries in one folder: past that the listing is refused rather than walked for ever
 * (a page token the API keeps answering would otherwise never end the loop).
 */
const MAX_CHILDREN_PAGES = 1000;
/** Ids go into `q` and into paths: Drive's ids are of these characters. */
const DRIVE_ID = /^[A-Za-z0-9_-]{1,128}$/;
const ITEM_FIELDS = 'nextPageToken, files(id,name,mimeType,md5Checksum,modifiedTime,size)';

/** A file or folder of a Drive folder. */
export interface DriveItem {
  id: string;
  name: string;
  mimeType: string;
  /** Binary files only: the change key of their content. */
  md5Checksum?: string;
  /** RFC 3339; the change key of native files, which have no checksum. */
  modifiedTime: string;
  /** Binary files only. */
  size?: number;
  isFolder: boolean;
  /** A Google Docs-family file (not a folder): no bytes of its own, exported if at all. */
  native: boolean;
}

export interface ExportFormat {
  mimeType: string;
  extension: string;
}

/** A download or export answered more bytes than the caller allows; the rest was not read. */
export class TooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the file is larger than ${maxBytes} bytes`);
    this.name = 'TooLargeError';
  }
}

const EXPORT_FORMATS: Record<string, ExportFormat> = {
  [`${NATIVE_PREFIX}document`]: {
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    extension: 'docx',
  },
  [`${NATIVE_PREFIX}spreadsheet`]: {
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    extension: 'xlsx',
  },
  [`${NATIVE_PREFIX}presentation`]: { mimeType: 'application/pdf', extension: 'pdf' },
  [`${NATIVE_PREFIX}drawing`]: { mimeType: 'application/pdf', extension: 'pdf' },
};

/** What a native file is stored as; null for the native types that are not synced (forms...). */
export function exportFormat(mimeType: string): ExportFormat | null {
  return EXPORT_FORMATS[mimeType] ?? null;
}

interface FileResource {
  id?: string;
  name?: string;
  mimeType?: string;
  md5Checksum?: string;
  modifiedTime?: string;
  size?: string;
}

interface FileList {
  files?: FileResource[];
  nextPageToken?: string;
}

type Chunk = Uint8Array | string;
/** A streamed body: a web ReadableStream (native fetch) or a Node Readable (node-fetch). */
type Body = AsyncIterable<Chunk> & { cancel?: () => Promise<void>; destroy?: () => void };

function checkedId(id: string, what: string): string {
  if (id !== 'root' && !DRIVE_ID.test(id)) throw new Error(`not a Drive ${what} id`);
  return id;
}

/**
 * A streamed call's refusal carries its body as text (gaxios does not parse it); parsed here, so
 * that every call's GaxiosError has the API's JSON error, `error.errors[0].reason` and all.
 */
function withParsedBody(err: unknown): unknown {
  const response = err instanceof gaxios.GaxiosError ? err.response : undefined;
  if (response && typeof response.data === 'string') {
    try {
      response.data = JSON.parse(response.data);
    } catch {
      // Not JSON (a proxy's page): left as the text it is.
    }
  }
  return err;
}

function itemOf(file: FileResource): DriveItem | null {
  if (typeof file.id !== 'string' || typeof file.mimeType !== 'string') return null;
  const size = file.size === undefined ? NaN : Number(file.size);
  const isFolder = file.mimeType === FOLDER_MIME_TYPE;
  return {
    id: file.id,
    name: file.name ?? '',
    mimeType: file.mimeType,
    ...(file.md5Checksum ? { md5Checksum: file.md5Checksum } : {}),
    modifiedTime: file.modifiedTime ?? '',
    ...(Number.isSafeInteger(size) && size >= 0 ? { size } : {}),
    isFolder,
    native: !isFolder && file.mimeType.startsWith(NATIVE_PREFIX),
  };
}

/**
 * Drive API v3 reads on a user's grant, through the OAuth2Client that holds it (it adds the
 * bearer and refreshes it; its errors, GaxiosErrors, are thrown as they are for the caller to
 * map). `baseUrl` is IDP_DRIVE_API_URL, normalised to end with `/`.
 */
export class DriveApi {
  private readonly baseUrl: string;

  constructor(
    private readonly client: OAuth2Client,
    baseUrl: string,
  ) {
    this.baseUrl = baseUrl.replace(/\/?$/, '/');
  }

  /** The connected account's e-mail, when Drive names it. */
  async about(): Promise<{ email: string | null }> {
    const res = await this.client.request<{ user?: { emailAddress?: unknown } }>({
      url: this.url('about'),
      params: { fields: 'user' },
    });
    const email = res.data?.user?.emailAddress;
    return { email: typeof email === 'string' && email ? email : null };
  }

  /** The folders (not trashed) of a parent, by name, at most MAX_FOLDERS of them. */
  async folders(parentId: string): Promise<{ id: string; name: string }[]> {
    const q = this.childrenQuery(parentId, ` and mimeType='${FOLDER_MIME_TYPE}'`);
    const folders: { id: string; name: string }[] = [];
    let pageToken: string | undefined;
    do {
      const page = await this.list({
        q,
        pageSize: MAX_FOLDERS,
        orderBy: 'name',
        fields: 'nextPageToken, files(id,name)',
        pageToken,
      });
      for (const file of page.files ?? []) {
        if (typeof file.id === 'string') folders.push({ id: file.id, name: file.name ?? '' });
      }
      pageToken = page.nextPageToken;
    } while (pageToken && folders.length < MAX_FOLDERS);
    return folders.slice(0, MAX_FOLDERS).sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * The files and folders (not trashed) of a folder, page by page as they are read: a large
   * folder is never held whole. A malformed id throws here, before any request.
   */
  children(folderId: string): AsyncIterable<DriveItem> {
    const q = this.childrenQuery(folderId, '');
    const list = (pageToken?: string) =>
      this.list({ q, pageSize: CHILDREN_PAGE_SIZE, fields: ITEM_FIELDS, pageToken });
    return {
      async *[Symbol.asyncIterator]() {
        let pageToken: string | undefined;
        for (let page = 0; page < MAX_CHILDREN_PAGES; page++) {
          const answer = await list(pageToken);
          for (const file of answer.files ?? []) {
            const item = itemOf(file);
            if (item) yield item;
          }
          pageToken = answer.nextPageToken;
          if (!pageToken) return;
        }
        throw new Error(`Drive folder ${folderId} has more than ${MAX_CHILDREN_PAGES} pages`);
      },
    };
  }

  /** A binary file's bytes; TooLargeError as soon as more than `maxBytes` arrive. */
  async download(fileId: string, maxBytes: number): Promise<Buffer> {
    const url = this.url(`files/${checkedId(fileId, 'file')}`);
    return this.bytes(url, { alt: 'media', supportsAllDrives: true }, maxBytes);
  }

  /** A native file exported to `mimeType`; TooLargeError past `maxBytes`. */
  async export(fileId: string, mimeType: string, maxBytes = EXPORT_MAX_BYTES): Promise<Buffer> {
    const url = this.url(`files/${checkedId(fileId, 'file')}/export`);
    return this.bytes(url, { mimeType }, maxBytes);
  }

  exportFormat(mimeType: string): ExportFormat | null {
    return exportFormat(mimeType);
  }

  private url(path: string): string {
    return `${this.baseUrl}drive/v3/${path}`;
  }

  private childrenQuery(parentId: string, mimeTypeClause: string): string {
    return `'${checkedId(parentId, 'folder')}' in parents and trashed=false${mimeTypeClause}`;
  }

  private async list(params: {
    q: string;
    pageSize: number;
    fields: string;
    orderBy?: string;
    pageToken?: string;
  }): Promise<FileList> {
    const { pageToken, orderBy, ...rest } = params;
    const res = await this.client.request<FileList>({
      url: this.url('files'),
      params: {
        ...rest,
        supportsAllDrives: true,
        includeItemsFromAllDrives: true,
        ...(orderBy ? { orderBy } : {}),
        ...(pageToken ? { pageToken } : {}),
      },
    });
    return res.data ?? {};
  }

  /**
   * Reads a streamed answer up to `maxBytes`: a larger declared length is refused unread, and a
   * body that runs over is cut off there (the request aborted), so no body is held unbounded.
   */
  private async bytes(
    url: string,
    params: Record<string, string | boolean>,
    maxBytes: number,
  ): Promise<Buffer> {
    const abort = new AbortController();
    const res = await this.client
      .request<Body>({ url, params, responseType: 'stream', signal: abort.signal })
      .catch((err: unknown) => {
        throw withParsedBody(err);
      });
    const body = res.data;
    try {
      const declared = Number(res.headers.get('content-length') ?? NaN);
      if (declared > maxBytes) throw new TooLargeError(maxBytes);
      const chunks: Buffer[] = [];
      let received = 0;
      for await (const chunk of body) {
        const bytes =
          typeof chunk === 'string'
            ? Buffer.from(chunk)
            : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        received += bytes.length;
        if (received > maxBytes) throw new TooLargeError(maxBytes);
        chunks.push(bytes);
      }
      return Buffer.concat(chunks, received);
    } catch (err) {
      abort.abort();
      await body.cancel?.().catch(() => undefined);
      body.destroy?.();
      throw err;
    }
  }
}
