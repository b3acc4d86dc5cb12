import '../../support/hooks-on';
import { Logger } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOOK_ACTIONS } from '../../../src/hooks/hook-actions';
import { createTestApp, TestApp } from '../../support/app';
import { RecordingActions } from '../../support/recording-hook-actions';
import { randomIp } from '../../support/users';

const actions = new RecordingActions();
const TOKEN = randomBytes(20).toString('hex');
/** Within HOOKS_ALLOWED_ORGANIZATIONS. */
const ORG = randomUUID();
const OTHER = randomUUID();
/** An organization of the service that no hook may reach. */
const OUTSIDE = randomUUID();

/**
 * Which organization a gateway hook reaches (issue 35): the mapping's own organization (literal or
 * its transform's) before the payload's, and never one outside HOOKS_ALLOWED_ORGANIZATIONS; and
 * how the token is checked (failures throttled per client address, the deprecation of `?token=`
 * only reported for an accepted token).
 */
describe('gateway hooks: reach and token checks (issue 35)', () => {
  let t: TestApp;
  let transforms: string;

  beforeAll(async () => {
    transforms = mkdtempSync(join(tmpdir(), 'hooks-reach-'));
    writeFileSync(
      join(transforms, 'fixed.js'),
      `module.exports = () => ({ message: 'from the transform', organization: '${ORG}' });`,
    );
    for (const id of [ORG, OTHER, OUTSIDE]) actions.known.add(id);
    t = await createTestApp({
      env: {
        LLM_BASE_URL: 'http://127.0.0.1:9',
        HOOKS_ENABLED: 'true',
        HOOKS_TOKEN: TOKEN,
        HOOKS_TRANSFORMS_DIR: transforms,
        HOOKS_HEARTBEAT_EVERY: '0',
        HOOKS_ALLOWED_ORGANIZATIONS: `${ORG},${OTHER.toUpperCase()}`,
        HOOKS_MAPPINGS: JSON.stringify([
          { match: { path: 'literal' }, messageTemplate: 'literal {{note}}', organization: ORG },
          { match: { path: 'transformed' }, transform: { module: 'fixed.js' } },
          { match: { path: 'free' }, messageTemplate: 'free {{note}}' },
        ]),
      },
      overrides: [[HOOK_ACTIONS, actions]],
    });
  });
  beforeEach(() => actions.reset());
  afterAll(async () => {
    await t?.close();
    rmSync(transforms, { recursive: true, force: true });
  });

  const post = (path: string, ip = randomIp()) =>
    t.http
      .post(`/hooks/${path}`)
      .set('X-Forwarded-For', ip)
      .set('Authorization', `Bearer ${TOKEN}`);

  describe('organization', () => {
    it('is the mapping’s literal one, whatever the payload names', async () => {
      await post('literal').send({ note: 'a', organization: OTHER }).expect(202);
      expect(actions.agents.map((a) => a.organizationId)).toEqual([ORG]);
    });

    it('is its transform’s, whatever the payload names', async () => {
      await post('transformed').send({ organization: OTHER }).expect(202);
      expect(actions.agents.map((a) => [a.organizationId, a.message])).toEqual([
        [ORG, 'from the transform'],
      ]);
    });

    it('is the payload’s only where the mapping fixes none', async () => {
      await post('free').send({ note: 'b', organization: OTHER }).expect(202);
      expect(actions.agents.map((a) => a.organizationId)).toEqual([OTHER]);
    });

    it('is never one outside HOOKS_ALLOWED_ORGANIZATIONS: 403, existing or not, nothing queued', async () => {
      const refused = [
        post('wake').send({ text: 'x', organization: OUTSIDE }),
        post('agent').send({ message: 'x', organization: OUTSIDE }),
        post('free').send({ note: 'x', organization: OUTSIDE }),
        // One that does not exist is refused the same way: the bound is checked first.
        post('agent').send({ message: 'x', organization: randomUUID() }),
      ];
      for (const request of refused) {
        const res = await request.expect(403);
        expect(res.body).toEqual({
          ok: false,
          error: 'organization is not among HOOKS_ALLOWED_ORGANIZATIONS',
        });
      }
      expect(actions.agents).toEqual([]);
      expect(actions.wakes).toEqual([]);
      await post('wake').send({ text: 'x', organization: OTHER }).expect(200);
      expect(actions.wakes.map((w) => w.organizationId)).toEqual([OTHER]);
    });
  });

  describe('token', () => {
    it('throttles failed checks per client address: 429 with Retry-After, even for the right token there', async () => {
      const ip = randomIp();
      const attempt = (token: string, from = ip) =>
        t.http
          .post('/hooks/wake')
          .set('X-Forwarded-For', from)
          .set('Authorization', `Bearer ${token}`)
          .send({ text: 'x', organization: ORG });
      for (let i = 0; i < 10; i++) await attempt('wrong-token').expect(401);
      const limited = await attempt('wrong-token').expect(429);
      expect(limited.body).toEqual({ ok: false, error: expect.any(String) });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.headers['x-ratelimit-limit']).toBe('10');
      expect(limited.headers['x-ratelimit-remaining']).toBe('0');
      expect(Number(limited.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
      await attempt(TOKEN).expect(429);
      // Without a token at all it is no better there.
      await t.http.post('/hooks/wake').set('X-Forwarded-For', ip).send({}).expect(429);
      expect(actions.wakes).toEqual([]);
      // Another address with the right token goes on.
      await attempt(TOKEN, randomIp()).expect(200);
      expect(actions.wakes).toHaveLength(1);
    });

    it('reports the deprecated ?token= only once the token is accepted', async () => {
      // The test app logs errors only: the warning is read where it is made.
      const warn = jest.spyOn(Logger.prototype, 'warn');
      const deprecations = () =>
        warn.mock.calls.filter(([message]) => /token in the query string/.test(String(message)));
      try {
        const refused = await t.http
          .post('/hooks/wake?token=not-the-token')
          .set('X-Forwarded-For', randomIp())
          .send({ text: 'x', organization: ORG })
          .expect(401);
        expect(refused.headers.deprecation).toBeUndefined();
        expect(deprecations()).toEqual([]);
        const accepted = await t.http
          .post(`/hooks/wake?token=${TOKEN}`)
          .set('X-Forwarded-For', randomIp())
          .send({ text: 'x', organization: ORG })
          .expect(200);
        expect(accepted.headers.deprecation).toBe('true');
        expect(deprecations()).toHaveLength(1);
      } finally {
        warn.mockRestore();
      }
    });
  });
});
