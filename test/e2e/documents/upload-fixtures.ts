import type { Test } from 'supertest';

/** Sample uploads of the data room and files e2e tests: bytes that are what their names say. */

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const MISSING = '00000000-0000-4000-8000-00000000abcd';

export const pdf = (text = 'hello') => Buffer.from(`%PDF-1.4\n% ${text}\n%%EOF\n`, 'latin1');
export const png = () =>
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
export const txt = (text = 'plain text') => Buffer.from(text, 'utf8');
/** A Windows executable's first bytes. */
export const exe = () => Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1');

/** Reads a download's body as bytes, whatever its content type. */
export const bytes = (req: Test) =>
  req.buffer(true).parse((res: any, done: (err: Error | null, body: Buffer) => void) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });

/**
 * A multipart body of one file part whose name is given the RFC 5987 way
 * (`filename*=UTF-8''...`), which the multipart parser decodes; send it with `.type(type)`.
 * (A raw UTF-8 `filename="..."`, as browsers send it, is read as Latin-1 by the parser's default;
 * see the report of issue 12.)
 */
export function utf8NamedUpload(name: string, content: Buffer) {
  const boundary = 'ledgerline-test-boundary';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; ` +
        `filename*=UTF-8''${encodeURIComponent(name)}\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { type: `multipart/form-data; boundary=${boundary}`, body };
}
