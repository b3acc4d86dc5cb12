import { pipeline, type Readable } from 'node:stream';
import contentDisposition from 'content-disposition';
import type { Response } from 'express';
import { isInlineSafe, SERVED_MEDIA_TYPES } from './file-types';
import type { StoredFile } from './stored-file.entity';

/** The schema of a binary answer (a download: a file's bytes, a PDF, a CSV file). */
export const BINARY = { type: 'string', format: 'binary' } as const;

/** The `content` of a binary answer in the given media types. */
export const binaryContent = (...types: string[]) =>
  Object.fromEntries(types.map((type) => [type, { schema: BINARY }]));

/** The `headers` of a download: its Content-Disposition. */
export const DOWNLOAD_HEADERS = {
  'Content-Disposition': {
    description:
      '`attachment` (or `inline`) with the file name, RFC 6266 (`filename`, ASCII) and RFC 5987 (`filename*`, UTF-8)',
    schema: { type: 'string' },
  },
};

/**
 * A stored file's answer, documented: the bytes in the file's own media type (each type an
 * allowed extension is served with; `application/octet-stream` for any other extension).
 */
export const storedFileResponse = (description: string) => ({
  description,
  headers: DOWNLOAD_HEADERS,
  content: binaryContent(...SERVED_MEDIA_TYPES),
});

/**
 * Sends a stored file: its own content type, an RFC 6266 / 5987 `Content-Disposition` (the name
 * in ASCII and in UTF-8), `nosniff`, and inline only for PDFs and raster images (anything that
 * could run script, HTML or SVG, is always an attachment).
 */
export function sendStoredFile(
  res: Response,
  file: Pick<StoredFile, 'name' | 'size' | 'contentType'>,
  bytes: Readable,
  wanted: 'attachment' | 'inline',
  name = file.name,
): void {
  const type = wanted === 'inline' && isInlineSafe(file.contentType) ? 'inline' : 'attachment';
  res.setHeader('Content-Type', file.contentType);
  res.setHeader('Content-Length', String(file.size));
  res.setHeader(
    'Content-Disposition',
    contentDisposition(name, { type, fallback: asciiName(name) }),
  );
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', 'private, no-store');
  // pipeline closes the source when the client goes away early (pipe would leave it open).
  pipeline(bytes, res, () => undefined);
}

/**
 * The name for clients that read only `filename=`: accents dropped, anything else outside
 * printable ASCII replaced (the full name is in `filename*`, RFC 5987).
 */
export const asciiName = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\]/g, '_');
