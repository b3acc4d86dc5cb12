import { createHmac } from 'node:crypto';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { BillingProvider } from '../../../src/billing';
import { validateEnv } from '../../../src/config';
import { FakeBilling } from '../../fakes/billing';

/** What FakeBilling's webhooks look like on the wire, as the billing webhook route will receive them. */
describe('FakeBilling webhooks', () => {
  let fake: FakeBilling;
  let receiver: Server;
  let target: string;
  let received: { headers: IncomingHttpHeaders; body: string }[];

  beforeAll(async () => {
    fake = await FakeBilling.start();
    fake.seedCatalogue();
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/v1/billing/webhook`;
  });
  beforeEach(() => (received = []));
  afterAll(async () => {
    await new Promise((resolve) => receiver.close(resolve));
    await fake.close();
  });

  const hmac = (key: string, body: string) => createHmac('sha256', key).update(body).digest('hex');

  /** A subscription made through the fake's API, then changed at the provider. */
  async function subscription() {
    const customer = fake.seedCustomer({ reference: 'entity-1' });
    const provider = new BillingProvider(validateEnv(fake.env()));
    const created = await provider.createSubscription(
      { productHandle: 'starter', customerId: customer.id, seats: { members: 1, shareholders: 1 } },
      `signup-${customer.id}`,
    );
    await provider.onModuleDestroy();
    if (created.duplicate) throw new Error('unexpected duplicate');
    return fake.updateSubscription(created.value.id, { state: 'past_due' });
  }

  it('posts the form-encoded event, signed with the site shared key, with its id', async () => {
    const current = await subscription();
    const webhook = fake.subscriptionWebhook('subscription_state_change', current.id, {
      extra: { previous_state: 'active' },
    });
    const [delivery] = await fake.sendWebhook(target, webhook);
    expect(delivery).toEqual({ status: 200, body: 'ok' });
    const [{ headers, body }] = received;
    expect(headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(headers['x-chargify-webhook-id']).toBe(String(webhook.id));
    expect(headers['x-chargify-webhook-signature-hmac-sha-256']).toBe(
      hmac(fake.siteSharedKey, body),
    );
    const form = new URLSearchParams(body);
    expect(form.get('id')).toBe(String(webhook.id));
    expect(form.get('event')).toBe('subscription_state_change');
    expect(form.get('payload[subscription][id]')).toBe(String(current.id));
    expect(form.get('payload[subscription][state]')).toBe('past_due');
    expect(form.get('payload[subscription][updated_at]')).toBe(current.updated_at);
    expect(form.get('payload[subscription][customer][reference]')).toBe('entity-1');
    expect(form.get('payload[subscription][product][handle]')).toBe('starter');
    expect(form.get('payload[previous_state]')).toBe('active');
    expect(form.get('payload[site][subdomain]')).toBe('ledgerline-test');
  });

  it('repeats a delivery, signs badly on request and backdates updated_at', async () => {
    const { id } = await subscription();
    const webhook = fake.subscriptionWebhook('renewal_success', id, {
      updatedAt: '2025-12-31T23:59:59Z',
    });
    await fake.sendWebhook(target, webhook, { times: 2 });
    await fake.sendWebhook(target, webhook, { badSignature: true });
    expect(received).toHaveLength(3);
    const [first, second, forged] = received;
    expect(second.body).toBe(first.body);
    expect(second.headers['x-chargify-webhook-id']).toBe(first.headers['x-chargify-webhook-id']);
    expect(forged.body).toBe(first.body);
    expect(forged.headers['x-chargify-webhook-signature-hmac-sha-256']).not.toBe(
      hmac(fake.siteSharedKey, first.body),
    );
    expect(new URLSearchParams(first.body).get('payload[subscription][updated_at]')).toBe(
      '2025-12-31T23:59:59Z',
    );
  });
});
