import { createHash } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { listenOnFreePort } from './listen';

/** One object as the fake keeps it. Tests may change `data` to play a corrupted object. */
export interface FakeGcsObject {
  bucket: string;
  name: string;
  data: Buffer;
  contentType: string;
  /** base64 MD5 and CRC32C of the bytes as uploaded (what Cloud Storage reports and validates). */
  md5Hash: string;
  crc32c: string;
  generation: string;
  created: Date;
}

/** The requests the fake tells apart; `failNext` makes one of them fail. */
export type FakeGcsOperation = 'upload' | 'metadata' | 'download' | 'delete';

export interface FakeGcsRequest {
  operation: FakeGcsOperation | 'unknown';
  method: string;
  url: string;
}

interface Failure {
  status: number;
  /** Requests of the operation let through before the failing ones. */
  skip: number;
  times: number;
  /** Keep the upload before answering the error (a failure after the object was written). */
  store: boolean;
}

/**
 * A local Cloud Storage server: the part of the JSON API that @google-cloud/storage 7 uses for
 * GcsStorageDriver (multipart and media uploads, object metadata, media download, delete), on
 * 127.0.0.1 with a free port. Point the driver at it with `apiEndpoint: fake.url` (or the app
 * with `STORAGE_API_ENDPOINT`). Every bucket exists. Errors have Cloud Storage's JSON body, and
 * uploads and downloads carry the hashes the client validates (md5Hash / crc32c metadata on
 * upload, `x-goog-hash` on download).
 */
export class FakeGcs {
  /** By `<bucket>/<object name>` (the name decoded: `org/file`). */
  readonly objects = new Map<string, FakeGcsObject>();
  readonly requests: FakeGcsRequest[] = [];
  url = '';
  private server?: Server;
  private generation = 1_700_000_000_000_000;
  private readonly failures = new Map<FakeGcsOperation, Failure>();

  static async start(): Promise<FakeGcs> {
    const fake = new FakeGcs();
    await fake.listen();
    return fake;
  }

  /**
   * The next request of `operation` (after `skip` that succeed) answers `status` with a Cloud
   * Storage error body, `times` times in a row. With `store`, an upload is kept before the error
   * is answered (the object exists although the client saw a failure).
   */
  failNext(
    operation: FakeGcsOperation,
    status: number,
    options: { skip?: number; times?: number; store?: boolean } = {},
  ): void {
    const { skip = 0, times = 1, store = false } = options;
    this.failures.set(operation, { status, skip, times, store });
  }

  /** The names of the objects of `bucket`, sorted. */
  names(bucket: string): string[] {
    return [...this.objects.values()]
      .filter((o) => o.bucket === bucket)
      .map((o) => o.name)
      .sort();
  }

  object(bucket: string, name: string): FakeGcsObject | undefined {
    return this.objects.get(`${bucket}/${name}`);
  }

  close(): Promise<void> {
    return new Promise((resolve, reject) => {
      if (!this.server) return resolve();
      this.server.closeAllConnections();
      this.server.close((err) => (err ? reject(err) : resolve()));
    });
  }

  private async listen(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        try {
          this.handle(req, Buffer.concat(chunks), res);
        } catch (err) {
          sendError(res, 500, `fake gcs: ${(err as Error).message}`);
        }
      });
    });
    const port = await listenOnFreePort(this.server);
    this.url = `http://127.0.0.1:${port}`;
  }

  private handle(req: IncomingMessage, body: Buffer, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    const route = routeOf(method, url);
    this.requests.push({ operation: route?.operation ?? 'unknown', method, url: req.url ?? '' });
    if (!route) {
      return sendError(res, 501, `the fake does not implement ${method} ${url.pathname}`);
    }
    const failure = this.failureOf(route.operation);
    if (failure && !(failure.store && route.operation === 'upload')) {
      return sendError(res, failure.status, 'injected failure');
    }

    switch (route.operation) {
      case 'upload': {
        const upload = parseUpload(req, url, body);
        if ('error' in upload) return sendError(res, 400, upload.error);
        const object = this.save(route.bucket, upload.name, upload.data, upload.contentType);
        if (failure) return sendError(res, failure.status, 'injected failure');
        return sendJson(res, 200, resource(object, this.url));
      }
      case 'metadata':
      case 'download': {
        const object = this.objects.get(`${route.bucket}/${route.object}`);
        if (!object) return sendError(res, 404, `No such object: ${route.bucket}/${route.object}`);
        if (route.operation === 'metadata') return sendJson(res, 200, resource(object, this.url));
        res.writeHead(200, {
          'content-type': object.contentType,
          'content-length': String(object.data.length),
          'x-goog-generation': object.generation,
          'x-goog-stored-content-encoding': 'identity',
          'x-goog-hash': `crc32c=${object.crc32c},md5=${object.md5Hash}`,
        });
        return res.end(object.data);
      }
      case 'delete': {
        if (!this.objects.delete(`${route.bucket}/${route.object}`)) {
          return sendError(res, 404, `No such object: ${route.bucket}/${route.object}`);
        }
        return res.writeHead(204).end();
      }
    }
  }

  /** The injected failure this request gets, if any (counting down skip, then times). */
  private failureOf(operation: FakeGcsOperation): Failure | undefined {
    const failure = this.failures.get(operation);
    if (!failure) return undefined;
    if (failure.skip > 0) {
      failure.skip--;
      return undefined;
    }
    if (--failure.times <= 0) this.failures.delete(operation);
    return failure;
  }

  private save(bucket: string, name: string, data: Buffer, contentType: string): FakeGcsObject {
    const object: FakeGcsObject = {
      bucket,
      name,
      data,
      contentType,
      md5Hash: createHash('md5').update(data).digest('base64'),
      crc32c: crc32c(data),
      generation: String(++this.generation),
      created: new Date(),
    };
    this.objects.set(`${bucket}/${name}`, object);
    return object;
  }
}

interface Route {
  operation: FakeGcsOperation;
  bucket: string;
  /** The decoded object name (absent for uploads: it is in the query or the metadata). */
  object?: string;
}

/** The API's paths; object names are one URL-encoded segment (`org%2Ffile`). */
function routeOf(method: string, url: URL): Route | undefined {
  const upload = /^\/upload\/storage\/v1\/b\/([^/]+)\/o$/.exec(url.pathname);
  if (upload && method === 'POST') return { operation: 'upload', bucket: decode(upload[1]) };
  const object = /^\/(storage|download\/storage)\/v1\/b\/([^/]+)\/o\/([^/]+)$/.exec(url.pathname);
  if (!object) return undefined;
  const [, api, bucket, name] = object;
  const target = { bucket: decode(bucket), object: decode(name) };
  if (method === 'DELETE' && api === 'storage') return { operation: 'delete', ...target };
  if (method !== 'GET') return undefined;
  const media = url.searchParams.get('alt') === 'media';
  if (api === 'download/storage' && !media) return undefined;
  return { operation: media ? 'download' : 'metadata', ...target };
}

const decode = (segment: string) => decodeURIComponent(segment);

type ParsedUpload = { name: string; data: Buffer; contentType: string } | { error: string };

/**
 * `uploadType=media` (the bytes are the body, the name in the query) or `multipart`
 * (`multipart/related`: the JSON metadata, then the bytes). Resumable sessions are not spoken.
 */
function parseUpload(req: IncomingMessage, url: URL, body: Buffer): ParsedUpload {
  const type = url.searchParams.get('uploadType');
  const headerType = req.headers['content-type'] ?? 'application/octet-stream';
  if (type === 'media') {
    const name = url.searchParams.get('name');
    return name ? { name, data: body, contentType: headerType } : { error: 'name is required' };
  }
  if (type !== 'multipart') return { error: `uploadType ${type} is not spoken by the fake` };
  const boundary = /boundary="?([^";]+)"?/.exec(headerType)?.[1];
  if (!boundary) return { error: 'multipart upload without a boundary' };
  const parts = multipartParts(body, boundary);
  if (parts.length !== 2) return { error: `multipart upload with ${parts.length} parts` };
  const metadata = JSON.parse(parts[0].content.toString('utf8')) as {
    name?: string;
    contentType?: string;
  };
  const name = metadata.name ?? url.searchParams.get('name');
  if (!name) return { error: 'name is required' };
  return {
    name,
    data: parts[1].content,
    contentType: metadata.contentType ?? parts[1].headers['content-type'] ?? headerType,
  };
}

interface Part {
  headers: Record<string, string>;
  content: Buffer;
}

/** The parts of a `multipart/related` body, bytes untouched. */
function multipartParts(body: Buffer, boundary: string): Part[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Part[] = [];
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next < 0) break;
    // Each part: CRLF after the delimiter, headers, a blank line, the content, CRLF.
    const part = body.subarray(start + 2, next - 2);
    const split = part.indexOf('\r\n\r\n');
    const headers: Record<string, string> = {};
    for (const line of part.subarray(0, split).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0)
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    parts.push({ headers, content: part.subarray(split + 4) });
    at = next;
  }
  return parts;
}

/** The object resource of the JSON API. */
function resource(o: FakeGcsObject, base: string) {
  const path = `b/${encodeURIComponent(o.bucket)}/o/${encodeURIComponent(o.name)}`;
  const time = o.created.toISOString();
  return {
    kind: 'storage#object',
    id: `${o.bucket}/${o.name}/${o.generation}`,
    selfLink: `${base}/storage/v1/${path}`,
    mediaLink: `${base}/download/storage/v1/${path}?generation=${o.generation}&alt=media`,
    name: o.name,
    bucket: o.bucket,
    generation: o.generation,
    metageneration: '1',
    contentType: o.contentType,
    storageClass: 'STANDARD',
    size: String(o.data.length),
    md5Hash: o.md5Hash,
    crc32c: o.crc32c,
    etag: Buffer.from(o.generation).toString('base64'),
    timeCreated: time,
    updated: time,
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify(body));
}

/** Cloud Storage's error body. */
function sendError(res: ServerResponse, status: number, message: string) {
  const reason = status === 404 ? 'notFound' : status === 403 ? 'forbidden' : 'backendError';
  sendJson(res, status, {
    error: { code: status, message, errors: [{ message, domain: 'global', reason }] },
  });
}

/** CRC32C (Castagnoli), base64 of the big-endian value, as Cloud Storage reports it. */
function crc32c(data: Buffer): string {
  let crc = 0xffffffff;
  for (const byte of data) crc = CRC32C_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  const out = Buffer.alloc(4);
  out.writeUInt32BE((crc ^ 0xffffffff) >>> 0);
  return out.toString('base64');
}

const CRC32C_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
