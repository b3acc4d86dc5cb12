import { createHash } from 'node:crypto';
import type { Request } from 'express';

/**
 * JSON with the keys of every object in order: two bodies that differ only in their key order or
 * their white space are the same request. Values are as the body parsers left them (exact numbers
 * past a double's precision stay text, see common's jsonBody).
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * What makes a retry the same request: the method, the path as requested (its query string too:
 * `?dryRun=true` is another request) and the body. An upload's form is hashed as read: its fields
 * and each file's field, name, type and bytes; not the multipart encoding, whose boundary a client
 * draws anew for every attempt.
 */
export function requestFingerprint(req: Request): string {
  const files = (req.files as Express.Multer.File[] | undefined)?.map((f) => ({
    field: f.fieldname,
    name: f.originalname,
    type: f.mimetype,
    sha256: sha256(f.buffer),
  }));
  const body = (req.body as unknown) ?? null;
  return sha256(canonicalJson({ method: req.method, path: req.originalUrl, body, files }));
}
