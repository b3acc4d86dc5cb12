import { createHmac } from 'node:crypto';

/**
 * Webhooks as the provider sends them: a form-encoded body (`id`, `event`, `payload[...]` with
 * nested keys), signed with the site's shared key (hex HMAC-SHA256 of the raw body in
 * `X-Chargify-Webhook-Signature-Hmac-Sha-256`), its id in `X-Chargify-Webhook-Id`.
 */

export interface FakeWebhook {
  id: number;
  event: string;
  payload: Record<string, unknown>;
}

export interface WebhookDelivery {
  status: number;
  body: string;
}

export interface SendOptions {
  /** Sign with another key (the receiver must answer 401). */
  badSignature?: boolean;
  /** Deliver the same body this many times (the provider repeats until it sees a 2xx). */
  times?: number;
}

/** `payload[subscription][id]=1&…`: nested objects by brackets, lists by index, null as ''. */
export function formEncode(fields: Record<string, unknown>): string {
  const pairs = new URLSearchParams();
  const add = (key: string, value: unknown) => {
    if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) add(`${key}[${k}]`, v);
    } else {
      pairs.append(key, value === null || value === undefined ? '' : String(value));
    }
  };
  for (const [key, value] of Object.entries(fields)) add(key, value);
  return pairs.toString();
}

export const signature = (key: string, body: string) =>
  createHmac('sha256', key).update(body).digest('hex');

export async function deliver(
  target: string,
  webhook: FakeWebhook,
  sharedKey: string,
  options: SendOptions = {},
): Promise<WebhookDelivery[]> {
  const body = formEncode({ id: webhook.id, event: webhook.event, payload: webhook.payload });
  const key = options.badSignature ? `${sharedKey}-not` : sharedKey;
  const deliveries: WebhookDelivery[] = [];
  for (let i = 0; i < (options.times ?? 1); i++) {
    const response = await fetch(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-chargify-webhook-id': String(webhook.id),
        'x-chargify-webhook-signature-hmac-sha-256': signature(key, body),
      },
      body,
    });
    deliveries.push({ status: response.status, body: await response.text() });
  }
  return deliveries;
}
