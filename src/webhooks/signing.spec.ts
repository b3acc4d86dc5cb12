import { createHmac } from 'node:crypto';
import { deliveryHeaders, serviceSignature, verifyServiceSignature } from './signing';
import { standardSignature, verifyStandardSignature } from './standard-webhooks';

const FIRST_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const SECOND_SECRET = 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';

describe('Standard Webhooks signature', () => {
  // The published vector: standard-webhooks/standard-webhooks, libraries/javascript/src/webhook.test.ts
  // ("sign function works"); the same in the spec's other libraries.
  const published = {
    id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
    timestamp: 1614265330,
    body: '{"test": 2432232314}',
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
  };

  it('reproduces the published test vector and verifies it', () => {
    const { id, timestamp, body, secret, signature } = published;
    expect(standardSignature(id, timestamp, body, [secret])).toBe(signature);
    const headers = { id, timestamp: String(timestamp), signature };
    expect(verifyStandardSignature(headers, body, secret, { now: timestamp })).toBe(true);
    expect(verifyStandardSignature(headers, Buffer.from(body), secret, { now: timestamp })).toBe(
      true,
    );
  });

  it('refuses a tampered body, id or timestamp, an old timestamp and another secret', () => {
    const { id, timestamp, body, secret, signature } = published;
    const headers = { id, timestamp: String(timestamp), signature };
    const now = { now: timestamp };
    expect(verifyStandardSignature(headers, '{"test": 2432232315}', secret, now)).toBe(false);
    expect(verifyStandardSignature({ ...headers, id: 'msg_other' }, body, secret, now)).toBe(false);
    const later = { ...headers, timestamp: String(timestamp + 1) };
    expect(verifyStandardSignature(later, body, secret, now)).toBe(false);
    expect(verifyStandardSignature(headers, body, secret, { now: timestamp + 301 })).toBe(false);
    expect(verifyStandardSignature(headers, body, SECOND_SECRET, now)).toBe(false);
    expect(verifyStandardSignature({ ...headers, signature: 'v1,' }, body, secret, now)).toBe(
      false,
    );
  });

  it('refuses a secret without the whsec_ prefix or key', () => {
    expect(() => standardSignature('msg', 1, '{}', ['MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'])).toThrow();
    expect(() => standardSignature('msg', 1, '{}', ['whsec_'])).toThrow();
  });
});

// Our own vector; the pinned digests were computed once with `openssl dgst -sha256 -hmac`.
const delivery = {
  eventId: 'evt_0123456789abcdef0123456789abcdef',
  body: '{"id":"evt_0123456789abcdef0123456789abcdef","type":"member.added","api_version":"2025-01-01"}',
  timestamp: 1767225600,
  secrets: [FIRST_SECRET, SECOND_SECRET],
};
const FIRST_HEX = '3429e6e87c09947496858a8e65d791d37f2373e7b5d61ce50b2c27dc24902552';
const SECOND_HEX = '439f4f857ef23765a88161c071fe9de9a91b101af3ebbb661479c61e4bec2841';
const FIRST_BASE64 = 'doaEo6DbYO6n+aKDDsSRYqYQZ+oIDwfSHf+g++WzhUc=';
const SECOND_BASE64 = 'cv07bjmR1cRNf5p6kcf/C5/Jf+JE0wNX6ULhQB9t1YI=';

describe('Service-Signature', () => {
  const { body, timestamp } = delivery;
  const at = { now: timestamp };

  it('signs `<t>.<body>` keyed with the whole secret string, as pinned', () => {
    expect(serviceSignature(timestamp, body, [FIRST_SECRET])).toBe(
      `t=${timestamp},v1=${FIRST_HEX}`,
    );
    const independent = createHmac('sha256', FIRST_SECRET)
      .update(`${timestamp}.${body}`, 'utf8')
      .digest('hex');
    expect(independent).toBe(FIRST_HEX);
  });

  it('carries one v1 per active secret, each verifying on its own', () => {
    const header = serviceSignature(timestamp, body, delivery.secrets);
    expect(header).toBe(`t=${timestamp},v1=${FIRST_HEX},v1=${SECOND_HEX}`);
    expect(verifyServiceSignature(header, body, FIRST_SECRET, at)).toBe(true);
    expect(verifyServiceSignature(header, Buffer.from(body), SECOND_SECRET, at)).toBe(true);
    expect(verifyServiceSignature(header, body, 'whsec_another', at)).toBe(false);
  });

  it('refuses a tampered body or timestamp, an old or future timestamp and malformed headers', () => {
    const header = serviceSignature(timestamp, body, [FIRST_SECRET]);
    expect(
      verifyServiceSignature(header, body.replace('member', 'members'), FIRST_SECRET, at),
    ).toBe(false);
    const moved = header.replace(`t=${timestamp}`, `t=${timestamp + 1}`);
    expect(verifyServiceSignature(moved, body, FIRST_SECRET, at)).toBe(false);
    expect(verifyServiceSignature(header, body, FIRST_SECRET, { now: timestamp + 301 })).toBe(
      false,
    );
    expect(verifyServiceSignature(header, body, FIRST_SECRET, { now: timestamp - 301 })).toBe(
      false,
    );
    expect(verifyServiceSignature(header, body, FIRST_SECRET, { now: timestamp + 300 })).toBe(true);
    expect(verifyServiceSignature(`v1=${FIRST_HEX}`, body, FIRST_SECRET, at)).toBe(false);
    expect(
      verifyServiceSignature(
        `t=${timestamp},t=${timestamp},v1=${FIRST_HEX}`,
        body,
        FIRST_SECRET,
        at,
      ),
    ).toBe(false);
    expect(verifyServiceSignature(`t=${timestamp},v1`, body, FIRST_SECRET, at)).toBe(false);
  });
});

describe('deliveryHeaders', () => {
  it('gives both schemes for every active secret, and the JSON content type', () => {
    expect(deliveryHeaders(delivery)).toEqual({
      'Content-Type': 'application/json',
      'Service-Signature': `t=1767225600,v1=${FIRST_HEX},v1=${SECOND_HEX}`,
      'webhook-id': 'evt_0123456789abcdef0123456789abcdef',
      'webhook-timestamp': '1767225600',
      'webhook-signature': `v1,${FIRST_BASE64} v1,${SECOND_BASE64}`,
    });
  });

  it('verifies with either scheme and either secret', () => {
    const headers = deliveryHeaders(delivery);
    const at = { now: delivery.timestamp };
    const standard = {
      id: headers['webhook-id'],
      timestamp: headers['webhook-timestamp'],
      signature: headers['webhook-signature'],
    };
    for (const secret of delivery.secrets) {
      expect(verifyServiceSignature(headers['Service-Signature'], delivery.body, secret, at)).toBe(
        true,
      );
      expect(verifyStandardSignature(standard, delivery.body, secret, at)).toBe(true);
    }
  });

  it('signs a retry with its fresh timestamp under the same id', () => {
    const retry = deliveryHeaders({ ...delivery, timestamp: delivery.timestamp + 60 });
    expect(retry['webhook-id']).toBe(delivery.eventId);
    expect(retry['webhook-timestamp']).toBe('1767225660');
    expect(retry['Service-Signature']).not.toContain(FIRST_HEX);
  });

  it('refuses to sign without a secret or with a timestamp that is not whole seconds', () => {
    expect(() => deliveryHeaders({ ...delivery, secrets: [] })).toThrow();
    expect(() => deliveryHeaders({ ...delivery, timestamp: Date.now() / 1000 })).toThrow();
  });
});
