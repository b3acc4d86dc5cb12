import '../../support/hooks-on';
import { Controller, Get, Module } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Test } from 'supertest';
import { DataSource } from 'typeorm';
import { Machine, MACHINE_SECURITY, MachineKind } from '../../../src/common';
import { listRoutes } from '../../../src/common/http/route-table';
import { HOOK_ACTIONS } from '../../../src/hooks/hook-actions';
import { openApiDocument } from '../../../src/openapi';
import { FakeBilling } from '../../fakes/billing';
import { formEncode, signature } from '../../fakes/billing-webhooks';
import { createTestApp, TEST_FRONTEND_URL, TestApp } from '../../support/app';
import { RecordingActions } from '../../support/recording-hook-actions';
import { loggedInAgent, LoggedInUser, randomIp } from '../../support/users';

/** A route for integrators' API keys, which no module verifies yet. */
@Controller('v1/test-machine/api-key')
class ApiKeyRouteController {
  static calls = 0;

  @Get()
  @Machine('apiKey')
  secret() {
    ApiKeyRouteController.calls++;
    return { secret: true };
  }
}

@Module({ controllers: [ApiKeyRouteController] })
class ApiKeyRouteModule {}

const GATEWAY_TOKEN = randomBytes(24).toString('hex');
const HOOKS_TOKEN = randomBytes(24).toString('hex');
const ORG = randomUUID();
const actions = new RecordingActions();

type Kind = Exclude<MachineKind, 'apiKey'>;
const KINDS: Kind[] = ['gatewayToken', 'billingSignature', 'hooksToken'];

/**
 * `@Machine(kind)` (issue 36): the access guard decides the routes of machine callers through the
 * verifier their module registered, counts failed checks per kind and client address, and refuses
 * every call of a kind nobody verifies (`apiKey`); routes that take their body raw touch no
 * session.
 */
describe('machine callers: @Machine(kind) in the access guard (issue 36)', () => {
  let t: TestApp;
  let fake: FakeBilling;
  let user: LoggedInUser;

  beforeAll(async () => {
    fake = await FakeBilling.start();
    fake.seedCatalogue();
    actions.known.add(ORG);
    t = await createTestApp({
      env: {
        ...fake.env(),
        CHAT_GATEWAY_TOKEN: GATEWAY_TOKEN,
        LLM_BASE_URL: 'http://127.0.0.1:9',
        HOOKS_ENABLED: 'true',
        HOOKS_TOKEN,
        HOOKS_HEARTBEAT_EVERY: '0',
      },
      overrides: [[HOOK_ACTIONS, actions]],
      imports: [ApiKeyRouteModule],
    });
    user = await loggedInAgent(t);
  });
  beforeEach(() => actions.reset());
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  /** A webhook about nothing of ours: recorded only (200) once its signature is accepted. */
  const webhookBody = () =>
    formEncode({ id: randomBytes(6).toString('hex'), event: 'customer_update', payload: {} });
  const receivedWebhooks = async () =>
    Number(
      (await t.get<DataSource>(DataSource).query('SELECT count(*) AS n FROM billing_webhook'))[0].n,
    );

  /**
   * One call of each kind from `ip`: with the right credential (`right`), a wrong one, or none;
   * `from` sends it with the logged-in user's cookie.
   */
  function call(kind: Kind, credential: 'right' | 'wrong' | 'none', ip: string, from = t.http) {
    switch (kind) {
      case 'gatewayToken': {
        const req = from.get('/api/v1/chat/team-mapping/no-such-team').set('X-Forwarded-For', ip);
        if (credential === 'none') return req;
        return req.set('Authorization', `Bearer ${credential === 'right' ? GATEWAY_TOKEN : 'x'}`);
      }
      case 'billingSignature': {
        const body = webhookBody();
        const req = from
          .post('/v1/billing/webhook')
          .set('X-Forwarded-For', ip)
          .set('content-type', 'application/x-www-form-urlencoded');
        if (credential !== 'none') {
          const key = credential === 'right' ? fake.siteSharedKey : 'not-the-site-shared-key';
          req.set('x-chargify-webhook-signature-hmac-sha-256', signature(key, body));
        }
        return req.send(body);
      }
      case 'hooksToken': {
        const req = from.post('/hooks/wake').set('X-Forwarded-For', ip);
        if (credential !== 'none') {
          req.set('Authorization', `Bearer ${credential === 'right' ? HOOKS_TOKEN : 'x'}`);
        }
        return req.send({ text: 'ping', organization: ORG });
      }
    }
  }

  /** What each kind's route answers when it takes the call. */
  const ACCEPTED: Record<Kind, number> = {
    gatewayToken: 404, // no such team: the call reached the service
    billingSignature: 200,
    hooksToken: 200,
  };

  /** Each route's 401 in its own documented shape. */
  const refusedBody = (kind: Kind) =>
    kind === 'hooksToken'
      ? { ok: false, error: 'unauthorized' }
      : { error: 'Unauthorized', key: 'unauthorized', message: expect.any(String) };

  it('each kind refuses a missing or wrong credential with its route’s 401 and shape, and takes the right one', async () => {
    for (const kind of KINDS) {
      for (const credential of ['none', 'wrong'] as const) {
        const res = await call(kind, credential, randomIp());
        expect([kind, credential, res.status, res.body]).toEqual([
          kind,
          credential,
          401,
          refusedBody(kind),
        ]);
      }
      const res = await call(kind, 'right', randomIp());
      expect([kind, res.status]).toEqual([kind, ACCEPTED[kind]]);
    }
    expect(actions.wakes).toHaveLength(1);
  });

  it('a session is no machine credential', async () => {
    for (const kind of KINDS) {
      const res = await call(kind, 'none', randomIp(), user.agent as never);
      expect([kind, res.status, res.body]).toEqual([kind, 401, refusedBody(kind)]);
    }
  });

  it('apiKey refuses every call, whatever it carries: no module verifies API keys yet', async () => {
    const ip = randomIp();
    const path = '/v1/test-machine/api-key';
    const attempts: Test[] = [
      t.http.get(path),
      t.http.get(path).set('Authorization', `Bearer ${randomBytes(24).toString('hex')}`),
      t.http.get(path).set('Authorization', `Bearer ${GATEWAY_TOKEN}`),
      t.http.get(path).set('Authorization', `Bearer ${HOOKS_TOKEN}`),
      t.http.get(path).set('x-api-key', randomBytes(24).toString('hex')),
      user.agent.get(path) as unknown as Test,
    ];
    // More than the failures an address may use: an unverifiable kind is not a guess to count.
    for (let i = 0; i < 12; i++) attempts.push(t.http.get(path));
    for (const attempt of attempts) {
      const res = await attempt.set('X-Forwarded-For', ip);
      expect([res.status, res.body]).toEqual([
        401,
        { error: 'Unauthorized', key: 'unauthorized', message: 'API keys are not accepted yet' },
      ]);
    }
    expect(ApiKeyRouteController.calls).toBe(0);
  });

  it.each(KINDS)(
    'throttles failed %s checks per client address: 429 in the route’s shape, a right credential too; other addresses and kinds go on',
    async (kind) => {
      const ip = randomIp();
      for (let i = 0; i < 10; i++) expect((await call(kind, 'wrong', ip)).status).toBe(401);
      const limited = await call(kind, 'wrong', ip);
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual(
        kind === 'hooksToken'
          ? { ok: false, error: expect.any(String) }
          : { error: 'Too Many Requests', message: expect.any(String) },
      );
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.headers['x-ratelimit-limit']).toBe('10');
      expect(limited.headers['x-ratelimit-remaining']).toBe('0');
      expect(Number(limited.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
      // The right credential from there is refused too: a guess that hits is not told apart.
      const webhooks = await receivedWebhooks();
      expect((await call(kind, 'right', ip)).status).toBe(429);
      expect((await call(kind, 'none', ip)).status).toBe(429);
      expect(actions.wakes).toEqual([]);
      expect(await receivedWebhooks()).toBe(webhooks);
      // Another address goes on, and the same address with another kind's credential.
      expect((await call(kind, 'right', randomIp())).status).toBe(ACCEPTED[kind]);
      for (const other of KINDS.filter((k) => k !== kind)) {
        expect([other, (await call(other, 'right', ip)).status]).toEqual([other, ACCEPTED[other]]);
      }
    },
  );

  it('routes that take their body raw touch no session and answer no CORS', async () => {
    // A route that reads the session refreshes its cookie (rolling sessions) ...
    const read = await user.agent
      .get('/v1/user/session')
      .set('Origin', TEST_FRONTEND_URL)
      .expect(200);
    expect(read.headers['set-cookie']).toBeDefined();
    expect(read.headers['access-control-allow-origin']).toBe(TEST_FRONTEND_URL);
    // ... the billing provider's webhook and the hooks never do, with a session cookie or not.
    for (const kind of ['billingSignature', 'hooksToken'] as const) {
      const res = await call(kind, 'right', randomIp(), user.agent as never).set(
        'Origin',
        TEST_FRONTEND_URL,
      );
      expect([kind, res.status]).toEqual([kind, ACCEPTED[kind]]);
      expect([kind, res.headers['set-cookie']]).toEqual([kind, undefined]);
      expect([kind, res.headers['access-control-allow-origin']]).toEqual([kind, undefined]);
    }
    // A preflight of the hooks is one more method they do not take.
    const preflight = await t.http
      .options('/hooks/wake')
      .set('Origin', TEST_FRONTEND_URL)
      .set('Access-Control-Request-Method', 'POST');
    expect(preflight.status).toBe(405);
    expect(preflight.headers.allow).toBe('POST');
  });

  it('declares every machine route @Machine(kind), documented with its kind’s security schemes', async () => {
    const routes = listRoutes(t.app);
    const machineRoutes = routes
      .filter((r) => r.access?.kind === 'machine')
      .map((r) => `${r.method} ${r.path} ${(r.access as { machine: string }).machine}`)
      .sort();
    expect(machineRoutes).toEqual(
      [
        'GET /api/v1/chat/team-mapping/:teamId gatewayToken',
        'GET /api/v1/chat/user-mapping/:chatUserId gatewayToken',
        'GET /v1/test-machine/api-key apiKey',
        'POST /hooks hooksToken',
        'POST /hooks/*mapping hooksToken',
        'POST /hooks/:name hooksToken',
        'POST /hooks/agent hooksToken',
        'POST /hooks/wake hooksToken',
        'POST /v1/billing/webhook billingSignature',
      ].sort(),
    );
    // The hooks' only public route answers 405 to whatever is not a POST.
    expect(
      routes.filter((r) => r.path.startsWith('/hooks') && r.access?.kind === 'public'),
    ).toEqual([
      expect.objectContaining({ method: 'ALL', path: '/hooks', handler: 'otherMethod' }),
      expect.objectContaining({ method: 'ALL', path: '/hooks/*path', handler: 'otherMethod' }),
    ]);
    const doc = (await openApiDocument(t.app)) as unknown as {
      paths: Record<string, Record<string, { security?: unknown[]; 'x-machine'?: string }>>;
    };
    for (const [path, kind] of [
      ['/api/v1/chat/team-mapping/{teamId}', 'gatewayToken'],
      ['/v1/billing/webhook', 'billingSignature'],
      ['/hooks/wake', 'hooksToken'],
      ['/hooks/agent', 'hooksToken'],
      ['/hooks/{name}', 'hooksToken'],
    ] as const) {
      const op = Object.values(doc.paths[path])[0];
      expect([path, op['x-machine'], op.security]).toEqual([
        path,
        kind,
        MACHINE_SECURITY[kind].map((scheme) => ({ [scheme]: [] })),
      ]);
    }
  });
});
