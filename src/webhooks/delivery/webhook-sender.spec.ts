import { WebhookReceiver } from '../../../test/fakes/webhook-receiver';
import { captureOutput } from '../../../test/support/output';
import { validateEnv } from '../../config';
import { WebhookHostResolver } from '../host-resolver';
import { RESPONSE_BODY_BYTES } from './webhook-attempt.entity';
import { WebhookSender } from './webhook-sender';

/** WebhookSender on the outbound base, against a local receiver: what goes over the wire. */
describe('WebhookSender', () => {
  let receiver: WebhookReceiver;
  let sender: WebhookSender;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    sender = new WebhookSender(
      validateEnv({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }),
      new WebhookHostResolver(),
    );
  });
  afterAll(async () => {
    await sender.onModuleDestroy();
    await receiver.close();
  });
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.respond = () => ({ status: 200, body: 'ok' });
  });

  const headers = { 'content-type': 'application/json', 'webhook-signature': 'v1,c2lnbmF0dXJl' };

  it('posts the body with its headers once, and keeps the first bytes of any answer', async () => {
    receiver.respond = () => ({ status: 503, body: `${'é'.repeat(RESPONSE_BODY_BYTES)}tail` });
    const result = await sender.send(receiver.url('/hook'), headers, '{"id":"evt_1"}');
    expect(result).toMatchObject({ httpStatus: 503, error: null });
    expect(Buffer.byteLength(result.responseBody!)).toBeLessThanOrEqual(RESPONSE_BODY_BYTES + 2);
    expect(result.responseBody!.startsWith('é'.repeat(RESPONSE_BODY_BYTES / 2))).toBe(true);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]).toMatchObject({ path: '/hook', body: '{"id":"evt_1"}' });
    expect(receiver.received[0].headers).toMatchObject(headers);
  });

  it('does not follow a redirect: the 3xx is the answer', async () => {
    receiver.respond = (req) =>
      req.path === '/moved' ? { status: 302, headers: { location: '/hook' } } : { status: 200 };
    const result = await sender.send(receiver.url('/moved'), headers, '{}');
    expect(result).toMatchObject({ httpStatus: 302, error: null });
    expect(receiver.received.map((r) => r.path)).toEqual(['/moved']);
  });

  it('delivers to a URL with user info without sending it, as before', async () => {
    const url = `http://alice:pa55word-1234@127.0.0.1:${receiver.port}/with-user`;
    const result = await sender.send(url, headers, '{}');
    expect(result).toMatchObject({ httpStatus: 200, error: null });
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0].headers.authorization).toBeUndefined();
  });

  it('names a refused connection, and logs the call without the URL path or the signature', async () => {
    const output = captureOutput();
    try {
      await sender.send(receiver.url('/services/T0/B0/secret-path-1234'), headers, '{}');
      const closed = await sender.send('http://127.0.0.1:1024/services/x', headers, '{}');
      expect(closed).toMatchObject({ httpStatus: 0, responseBody: null });
      expect(closed.error).toMatch(/^ECONNREFUSED: connect ECONNREFUSED/);
      const written = output.text();
      expect(written).toContain(
        `webhooks POST http://127.0.0.1:${receiver.port}/[redacted]: answered 200`,
      );
      expect(written).not.toContain('secret-path-1234');
      expect(written).not.toContain('c2lnbmF0dXJl');
      expect(written).toContain('webhook-signature: [redacted]');
    } finally {
      output.restore();
    }
  });
});
