import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../../common';

/** A form body as nested objects: `payload[subscription][id]=1` → `{payload: {subscription: {id: '1'}}}`. */
export type Form = { [key: string]: string | Form };

export function parseForm(raw: string): Form {
  const form: Form = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const [head, ...rest] = key.split('[');
    const path = [head, ...rest.map((part) => part.replace(/\]$/, ''))];
    let node = form;
    for (const name of path.slice(0, -1)) {
      const next = node[name];
      node = typeof next === 'object' ? next : (node[name] = {});
    }
    node[path[path.length - 1]] = value;
  }
  return form;
}

/** The provider's signature: hex HMAC-SHA256 of the raw body with the site's shared key. */
export function signedBy(sharedKey: string, raw: Buffer, signature: string | undefined): boolean {
  if (!signature) return false;
  const expected = createHmac('sha256', sharedKey).update(raw).digest('hex');
  return constantTimeEqual(expected, signature.trim().toLowerCase());
}

/** A field of the form, as text; undefined when absent or not text. */
export function field(form: Form, ...path: string[]): string | undefined {
  let node: string | Form | undefined = form;
  for (const name of path) {
    if (typeof node !== 'object') return undefined;
    node = node[name];
  }
  return typeof node === 'string' && node !== '' ? node : undefined;
}
