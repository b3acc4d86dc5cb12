import { createHmac } from 'node:crypto';
import { constantTimeEqual, DomainError } from '../../common';

/**
 * A form body as nested objects: `payload[subscription][id]=1` → `{payload: {subscription: {id: '1'}}}`.
 * Every node is made without a prototype, so no name of the form reaches an inherited property.
 */
export type Form = { [key: string]: string | Form };

/** Names that reach an object's prototype chain: a form using one is refused, never written. */
const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);

/** 400 for a key naming a prototype segment (`payload[__proto__][x]=y`), before anything is written. */
export function parseForm(raw: string): Form {
  const form = emptyNode();
  for (const [key, value] of new URLSearchParams(raw)) {
    const [head, ...rest] = key.split('[');
    const path = [head, ...rest.map((part) => part.replace(/\]$/, ''))];
    if (path.some((name) => FORBIDDEN_SEGMENTS.has(name))) {
      throw DomainError.badRequest(
        `the form key ${JSON.stringify(key.slice(0, 200))} names __proto__, constructor or prototype`,
      );
    }
    let node = form;
    for (const name of path.slice(0, -1)) {
      const next = node[name];
      node = typeof next === 'object' ? next : (node[name] = emptyNode());
    }
    node[path[path.length - 1]] = value;
  }
  return form;
}

const emptyNode = (): Form => Object.create(null) as Form;

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
    if (typeof node !== 'object' || !Object.hasOwn(node, name)) return undefined;
    node = node[name];
  }
  return typeof node === 'string' && node !== '' ? node : undefined;
}
