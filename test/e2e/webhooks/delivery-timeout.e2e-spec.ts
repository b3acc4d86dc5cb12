import { DELIVERY_TIMEOUT_MS } from '../../../src/webhooks/delivery/webhook-sender';
import { WebhookReceiver } from '../../fakes/webhook-receiver';
import { createTestApp, TestApp } from '../../support/app';
import { createOrg } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { registerEndpoint, webhookPath } from '../../support/webhooks';

/** A file of its own: it waits out the whole 30 seconds of an attempt. */
describe('webhook delivery timeout (spec section 6)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('gives up on an endpoint that does not answer within 30 seconds: httpStatus 0, the reason', async () => {
    expect(DELIVERY_TIMEOUT_MS).toBe(30_000);
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Slow Inc.');
    const endpoint = await registerEndpoint(owner.agent, org.id, receiver, { path: '/slow' });
    receiver.respond = () => 'hang';
    const started = Date.now();
    const res = await owner.agent
      .post(`${webhookPath(org.id)}/${endpoint.id}/test`)
      .send({})
      .expect(200);
    const waited = Date.now() - started;
    expect(res.body).toMatchObject({
      success: false,
      httpStatus: 0,
      error: 'no response within 30 seconds',
    });
    expect(waited).toBeGreaterThanOrEqual(DELIVERY_TIMEOUT_MS - 100);
    expect(res.body.responseTime).toBeGreaterThanOrEqual(DELIVERY_TIMEOUT_MS - 100);
    expect(receiver.at('/slow')).toHaveLength(1);
  }, 60_000);
});
