import { DataSource } from 'typeorm';
import { WebhookDeliveries } from '../../src/webhooks/delivery/webhook-deliveries.service';
import type { Received, WebhookReceiver } from '../fakes/webhook-receiver';
import type { TestApp } from './app';
import { takeClock } from './clock';
import { eventually } from './eventually';

export const webhookPath = (org: string) => `/v1/organization/${org}/webhook`;

type Agent = ReturnType<TestApp['agent']>;

/** Registers an endpoint of the organization at the receiver's `path`; answers it with its secret. */
export async function registerEndpoint(
  agent: Agent,
  org: string,
  receiver: WebhookReceiver,
  options: { path?: string; events?: string[] } = {},
): Promise<{ id: string; secret: string }> {
  const res = await agent
    .post(webhookPath(org))
    .send({
      url: receiver.url(options.path),
      ...(options.events ? { events: options.events } : {}),
    })
    .expect(201);
  return res.body as { id: string; secret: string };
}

/**
 * The app's clock, stopped and moved by the test: `set` fixes the time the delivery worker sees
 * (attempt times, retry schedule, failing streaks, leases), as every other module does.
 */
export function controlClock(t: TestApp) {
  const clock = takeClock(t).freeze();
  return {
    get now() {
      return clock.now();
    },
    set(at: Date) {
      clock.set(at);
    },
    advance: (ms: number) => clock.advance(ms),
    restore: () => clock.restore(),
  };
}

/** Runs the endpoint's worker now (as its wake-up job would) and waits for it. */
export const drain = (t: TestApp, endpointId: string) =>
  t.get<WebhookDeliveries>(WebhookDeliveries).drain(endpointId);

/** The stored deliveries of an endpoint, oldest event first. */
export const deliveriesOf = (t: TestApp, endpointId: string) =>
  t.get<DataSource>(DataSource).query(
    `SELECT id, event_id, event_type, status, attempts, next_attempt_at, test
       FROM webhook_delivery WHERE endpoint_id = $1 ORDER BY event_created, sequence`,
    [endpointId],
  ) as Promise<
    {
      id: string;
      event_id: string;
      event_type: string;
      status: string;
      attempts: number;
      next_attempt_at: Date | null;
      test: boolean;
    }[]
  >;

/** Waits until the receiver has `count` requests at `path`; answers them. */
export const receivedAt = (receiver: WebhookReceiver, path: string, count: number, ms = 10_000) =>
  eventually(async (): Promise<Received[]> => {
    const got = receiver.at(path);
    if (got.length < count) throw new Error(`${got.length} of ${count} requests at ${path}`);
    return got;
  }, ms);

/** Waits until no worker holds the endpoint (a wake-up job may still be finishing). */
export const leaseFree = (t: TestApp, endpointId: string) =>
  eventually(async () => {
    const [row] = (await t
      .get<DataSource>(DataSource)
      .query(`SELECT lease_token FROM webhook_endpoint WHERE id = $1`, [endpointId])) as {
      lease_token: string | null;
    }[];
    if (row?.lease_token) throw new Error('endpoint still held');
    return true;
  });

/** The endpoint's attempts, oldest first, straight from the table. */
export const attemptsOf = (t: TestApp, endpointId: string) =>
  t.get<DataSource>(DataSource).query(
    `SELECT event_id, attempt, timestamp, http_status FROM webhook_attempt
       WHERE endpoint_id = $1 ORDER BY timestamp, attempt`,
    [endpointId],
  ) as Promise<{ event_id: string; attempt: number; timestamp: Date; http_status: number }[]>;

/** A received request's Standard Webhooks headers, as `verifyStandardSignature` takes them. */
export const standardHeaders = (r: Received) => ({
  id: r.headers['webhook-id'],
  timestamp: r.headers['webhook-timestamp'],
  signature: r.headers['webhook-signature'],
});

/** A consumer's check time: its own clock, now (unix seconds), as the verify helpers take it. */
export const consumerNow = () => ({ now: Math.floor(Date.now() / 1000) });
