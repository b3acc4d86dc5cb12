import { filetypeextension } from 'magic-bytes.js';

/** The content type each allowed extension is stored and served with. */
const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  csv: 'text/csv; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  doc: 'application/msword',
  zip: 'application/zip',
};

/** Text formats: any valid UTF-8 without NUL bytes is one of them. */
const TEXT = new Set(['csv', 'txt', 'md']);

/** The only types a browser may be asked to show inline: no script can run in them. */
const INLINE = new Set(['application/pdf', 'image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** Every media type a stored file can be served with (parameters aside): the documented downloads. */
export const SERVED_MEDIA_TYPES = [
  ...new Set(Object.values(CONTENT_TYPES).map((t) => t.split(';')[0])),
  'application/octet-stream',
];

export const contentTypeOf = (extension: string) =>
  CONTENT_TYPES[extension] ?? 'application/octet-stream';

export const isInlineSafe = (contentType: string) => INLINE.has(contentType);

/** The extension of a file name, lower case, without the dot ('' when none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/**
 * Whether the bytes are what the extension says: binary formats by their magic bytes
 * (magic-bytes.js), text formats as valid UTF-8 without NUL bytes. An extension the library
 * knows nothing of passes unless the bytes are recognisably something else.
 */
export function contentMatches(extension: string, bytes: Buffer): boolean {
  if (TEXT.has(extension)) {
    if (bytes.includes(0)) return false;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      return true;
    } catch {
      return false;
    }
  }
  const detected = filetypeextension(bytes.subarray(0, 4100));
  const wanted = extension === 'jpg' ? 'jpeg' : extension;
  if (CONTENT_TYPES[extension]) return detected.includes(wanted);
  return detected.length === 0 || detected.includes(wanted);
}
