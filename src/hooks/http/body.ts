import type { IncomingMessage } from 'node:http';

export type BodyResult =
  { payload: Record<string, unknown> } | { status: 400 | 413 | 415; error: string };

const TOO_LARGE = { status: 413, error: 'payload too large' } as const;

/**
 * The JSON object of the body, read up to `max` bytes: a declared `Content-Length` above it is
 * refused before reading, a body without one (chunked) as soon as it grows past. The rest of a
 * refused body is read and dropped, so a client still writing it gets the answer, not a reset.
 * Empty means `{}`.
 */
export function readJsonBody(req: IncomingMessage, max: number): Promise<BodyResult> {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity')
    return Promise.resolve({ status: 415, error: `content encoding ${encoding} is not supported` });
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > max) return Promise.resolve(TOO_LARGE);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) return void chunks.push(chunk);
      req.off('data', onData).off('end', onEnd);
      req.resume();
      resolve(TOO_LARGE);
    };
    const onEnd = () => resolve(parse(Buffer.concat(chunks).toString('utf8')));
    req.on('data', onData).on('end', onEnd);
    req.on('error', () => resolve({ status: 400, error: 'the request body could not be read' }));
  });
}

function parse(text: string): BodyResult {
  if (!text.trim()) return { payload: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { status: 400, error: 'the request body is not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { status: 400, error: 'the request body must be a JSON object' };
  return { payload: value as Record<string, unknown> };
}
