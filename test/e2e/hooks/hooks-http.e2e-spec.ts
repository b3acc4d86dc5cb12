import '../../support/hooks-on';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOOK_ACTIONS } from '../../../src/hooks/hook-actions';
import { Env } from '../../../src/config';
import { createTestApp, TestApp } from '../../support/app';
import { RecordingActions } from '../../support/recording-hook-actions';

const actions = new RecordingActions();

const TOKEN = randomBytes(20).toString('hex');
const ORG = randomUUID();
const LIMIT = 1024;

/** Every HOOKS_* variable the configuration declares. */
const HOOK_ENV_NAMES = Object.keys(new Env()).filter((name) => name.startsWith('HOOKS_'));

describe('gateway hooks: HTTP (issue 24)', () => {
  let t: TestApp;
  let base: string;
  let transforms: string;
  const hooksEnv = (mappings: unknown[]) => ({
    LLM_BASE_URL: 'http://127.0.0.1:9',
    HOOKS_ENABLED: 'true',
    HOOKS_TOKEN: TOKEN,
    HOOKS_MAX_BODY_BYTES: String(LIMIT),
    HOOKS_MAPPINGS: JSON.stringify(mappings),
    HOOKS_TRANSFORMS_DIR: transforms,
    HOOKS_HEARTBEAT_EVERY: '0',
  });

  beforeAll(async () => {
    base = mkdtempSync(join(tmpdir(), 'hooks-e2e-'));
    transforms = join(base, 'transforms');
    mkdirSync(transforms);
    writeFileSync(join(transforms, 'null.js'), 'module.exports = () => null;');
    writeFileSync(
      join(transforms, 'throws.js'),
      'exports.transform = () => { throw new Error("transform failed on purpose"); };',
    );
    // What a transform is shown: the names of the headers, the URL.
    writeFileSync(
      join(transforms, 'echo.js'),
      'exports.default = async (ctx) => ({ message: JSON.stringify({ headers: Object.keys(ctx.headers), url: ctx.url, path: ctx.path }) });',
    );
    writeFileSync(join(base, 'outside.js'), 'module.exports = () => ({ message: "outside" });');
    symlinkSync(join(base, 'outside.js'), join(transforms, 'escape.js'));
    actions.known.add(ORG);
    t = await createTestApp({
      env: hooksEnv([
        {
          match: { path: 'github' },
          name: 'GitHub',
          messageTemplate:
            '{{headers.x-github-event}} to {{repository.full_name}} by {{pusher.name}} ({{query.note}}, {{path}}) [{{headers.authorization}}{{query.token}}]',
          sessionKey: 'hook:github:{{repository.id}}',
          deliver: false,
          channel: 'chat',
          to: 'dev',
          timeoutSeconds: 45,
          thinking: 'low',
        },
        {
          match: { source: 'crm' },
          action: 'wake',
          textTemplate: 'CRM: {{event}}',
          mode: 'next-heartbeat',
        },
        { match: { path: 'note' }, action: 'wake', textTemplate: '{{note}}' },
        { match: { path: 'quiet' }, transform: { module: 'null.js' } },
        { match: { path: 'broken' }, transform: { module: 'throws.js' } },
        { match: { path: 'echo' }, transform: { module: 'echo.js' }, organization: ORG },
      ]),
      overrides: [[HOOK_ACTIONS, actions]],
    });
    const server = t.app.getHttpServer() as Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  beforeEach(() => actions.reset());
  afterAll(async () => {
    await t?.close();
    rmSync(base, { recursive: true, force: true });
  });

  const post = (path: string) =>
    t.http.post(`/hooks${path}`).set('Authorization', `Bearer ${TOKEN}`);

  /** A POST without Content-Length: the body is sent in chunks. */
  function postChunked(path: string, body: string) {
    const { port } = (t.app.getHttpServer() as Server).address() as AddressInfo;
    return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: `/hooks${path}`,
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode!,
              body: JSON.parse(Buffer.concat(chunks).toString()),
            }),
          );
        },
      );
      req.on('error', reject);
      for (let at = 0; at < body.length; at += 100) req.write(body.slice(at, at + 100));
      req.end();
    });
  }

  describe('token', () => {
    const wake = { text: 'ping', organization: ORG };

    it('is taken from Authorization: Bearer, x-service-token, or (deprecated) ?token=', async () => {
      const bearer = await t.http
        .post('/hooks/wake')
        .set('Authorization', `Bearer ${TOKEN}`)
        .send(wake)
        .expect(200);
      expect(bearer.headers.deprecation).toBeUndefined();
      const header = await t.http
        .post('/hooks/wake')
        .set('x-service-token', TOKEN)
        .send(wake)
        .expect(200);
      expect(header.headers.deprecation).toBeUndefined();
      const query = await t.http.post(`/hooks/wake?token=${TOKEN}`).send(wake).expect(200);
      expect(query.headers.deprecation).toBe('true');
      expect(actions.wakes).toHaveLength(3);
    });

    it('answers 401 to a missing or wrong token, of the same length or not', async () => {
      const sameLength = TOKEN.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a'));
      const attempts = [
        t.http.post('/hooks/wake'),
        t.http.post('/hooks/wake').set('Authorization', `Bearer ${sameLength}`),
        t.http.post('/hooks/wake').set('Authorization', 'Bearer short'),
        t.http.post('/hooks/wake').set('Authorization', `Bearer ${TOKEN}${'x'.repeat(500)}`),
        t.http.post('/hooks/wake').set('Authorization', `Basic ${TOKEN}`),
        t.http.post('/hooks/wake').set('x-service-token', sameLength),
        t.http.post(`/hooks/wake?token=${sameLength}`),
        t.http.post(`/hooks/wake?token=${TOKEN}&token=${TOKEN}`),
      ];
      for (const attempt of attempts) {
        const res = await attempt.send(wake).expect(401);
        expect(res.body).toEqual({ ok: false, error: expect.any(String) });
      }
      expect(actions.wakes).toEqual([]);
    });
  });

  it('answers 405 with Allow: POST to any other method on any path', async () => {
    for (const res of [
      await t.http.get('/hooks/wake'),
      await t.http.put('/hooks/agent').set('Authorization', `Bearer ${TOKEN}`),
      await t.http.delete('/hooks/some/deep/path'),
      await t.http.get('/hooks'),
    ]) {
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('POST');
      expect(res.body).toEqual({ ok: false, error: expect.any(String) });
    }
  });

  describe('body', () => {
    /** A /wake body of exactly `bytes` bytes. */
    const bodyOf = (bytes: number) => {
      const empty = JSON.stringify({ text: '', organization: ORG });
      return JSON.stringify({ text: 'x'.repeat(bytes - empty.length), organization: ORG });
    };

    it('may be as large as HOOKS_MAX_BODY_BYTES, with or without Content-Length', async () => {
      expect(Buffer.byteLength(bodyOf(LIMIT))).toBe(LIMIT);
      await post('/wake').type('json').send(bodyOf(LIMIT)).expect(200);
      expect(await postChunked('/wake', bodyOf(LIMIT))).toEqual({
        status: 200,
        body: { ok: true, mode: 'now' },
      });
      expect(actions.wakes).toHaveLength(2);
    });

    it('one byte more is 413, with or without Content-Length', async () => {
      const res = await post('/wake')
        .type('json')
        .send(bodyOf(LIMIT + 1))
        .expect(413);
      expect(res.body).toEqual({ ok: false, error: 'payload too large' });
      expect(await postChunked('/wake', bodyOf(LIMIT + 1))).toEqual({
        status: 413,
        body: { ok: false, error: 'payload too large' },
      });
      expect(actions.wakes).toEqual([]);
    });

    it('must be a JSON object; empty is {}', async () => {
      for (const body of ['{"text": ', '[{"text": "a"}]', '"text"', 'null']) {
        const res = await post('/wake').type('json').send(body).expect(400);
        expect(res.body).toEqual({ ok: false, error: expect.any(String) });
      }
      // {} has no text
      expect((await post('/wake').expect(400)).body).toEqual({
        ok: false,
        error: 'text must be a non-empty string',
      });
    });
  });

  describe('/wake', () => {
    it('queues a system event: 200 with the mode', async () => {
      expect(
        (await post('/wake').send({ text: 'Mail arrived', organization: ORG }).expect(200)).body,
      ).toEqual({ ok: true, mode: 'now' });
      expect(
        (
          await post('/wake')
            .send({ text: 'Later', mode: 'next-heartbeat', organization: ORG.toUpperCase() })
            .expect(200)
        ).body,
      ).toEqual({ ok: true, mode: 'next-heartbeat' });
      expect(actions.wakes).toEqual([
        { organizationId: ORG, text: 'Mail arrived', mode: 'now', source: 'wake' },
        { organizationId: ORG, text: 'Later', mode: 'next-heartbeat', source: 'wake' },
      ]);
    });

    it('answers 400 to a bad field or organization', async () => {
      const bad = [
        { organization: ORG },
        { text: '  ', organization: ORG },
        { text: 'x', mode: 'soon', organization: ORG },
        { text: 'x' },
        { text: 'x', organization: 'acme' },
        { text: 'x', organization: randomUUID() },
      ];
      for (const body of bad) {
        const res = await post('/wake').send(body).expect(400);
        expect(res.body).toEqual({ ok: false, error: expect.any(String) });
      }
      expect(actions.wakes).toEqual([]);
    });
  });

  describe('/agent', () => {
    it('queues an isolated run: 202 with its id, defaults filled', async () => {
      const res = await post('/agent')
        .send({ message: 'Summarize the day', organization: ORG })
        .expect(202);
      expect(res.body).toEqual({ ok: true, runId: 'run-1' });
      const everyField = {
        message: 'Check the CI',
        name: 'CI',
        sessionKey: 'hook:ci:main',
        wakeMode: 'next-heartbeat',
        deliver: false,
        channel: 'chat',
        to: 'builds',
        model: 'claude-haiku-4-5',
        thinking: 'high',
      };
      await post('/agent')
        .send({ ...everyField, timeoutSeconds: 59.9, organization: ORG })
        .expect(202);
      expect(actions.agents).toEqual([
        {
          organizationId: ORG,
          message: 'Summarize the day',
          name: 'Hook',
          wakeMode: 'now',
          deliver: true,
          channel: 'last',
          timeoutSeconds: 120,
        },
        { organizationId: ORG, ...everyField, timeoutSeconds: 59 },
      ]);
    });

    it('answers 400 naming the bad field', async () => {
      const cases: [Record<string, unknown>, string | RegExp][] = [
        [{}, 'message must be a non-empty string'],
        [{ message: 'x', channel: 'slack' }, 'channel must be last or chat (got "slack")'],
        [{ message: 'x', thinking: 'max' }, /^thinking must be low or medium or high/],
        [
          { message: 'x', timeoutSeconds: 0.5 },
          /^timeoutSeconds must be a number of seconds from 1 to 600/,
        ],
        [{ message: 'x', timeoutSeconds: 601 }, /^timeoutSeconds/],
        [{ message: 'x', timeoutSeconds: '60' }, /^timeoutSeconds/],
        [{ message: 'x', deliver: 'yes' }, 'deliver must be true or false'],
        [{ message: 'x', wakeMode: 'later' }, /^wakeMode must be now or next-heartbeat/],
        [{ message: 'x', organization: 'acme' }, 'organization must be a UUID'],
      ];
      for (const [body, error] of cases) {
        const res = await post('/agent')
          .send({ organization: ORG, ...body })
          .expect(400);
        expect(res.body).toEqual({
          ok: false,
          error: typeof error === 'string' ? error : expect.stringMatching(error),
        });
      }
      const unknown = await post('/agent')
        .send({ message: 'x', organization: randomUUID() })
        .expect(400);
      expect(unknown.body).toEqual({ ok: false, error: 'unknown organization' });
      const none = await post('/agent').send({ message: 'x' }).expect(400);
      expect(none.body).toEqual({
        ok: false,
        error: expect.stringMatching(/^organization is required/),
      });
      expect(actions.agents).toEqual([]);
    });
  });

  describe('mappings', () => {
    it('renders a templated mapping into an agent run', async () => {
      const res = await post('/github?note=nightly')
        .set('x-github-event', 'push')
        .send({
          organization: ORG,
          repository: { id: 42, full_name: 'acme/ledger' },
          pusher: { name: 'ada' },
        })
        .expect(202);
      expect(res.body).toEqual({ ok: true, runId: 'run-1' });
      expect(actions.agents).toEqual([
        {
          organizationId: ORG,
          message: 'push to acme/ledger by ada (nightly, github) []',
          name: 'GitHub',
          sessionKey: 'hook:github:42',
          wakeMode: 'now',
          deliver: false,
          channel: 'chat',
          to: 'dev',
          thinking: 'low',
          timeoutSeconds: 45,
        },
      ]);
    });

    it('routes on the payload’s source', async () => {
      const res = await post('/anything')
        .send({ source: 'crm', event: 'deal won', organization: ORG })
        .expect(200);
      expect(res.body).toEqual({ ok: true, mode: 'next-heartbeat' });
      expect(actions.wakes).toEqual([
        { organizationId: ORG, text: 'CRM: deal won', mode: 'next-heartbeat', source: 'anything' },
      ]);
    });

    it('shows transforms neither the token nor the credentials headers', async () => {
      await t.http
        .post(`/hooks/echo?token=${TOKEN}&x=1`)
        .set('x-service-token', TOKEN)
        .set('x-custom', 'seen')
        .send({})
        .expect(202);
      const seen = JSON.parse(actions.agents[0].message) as {
        headers: string[];
        url: string;
        path: string;
      };
      expect(seen.headers).toContain('x-custom');
      expect(seen.headers).not.toContain('x-service-token');
      expect(seen.headers).not.toContain('authorization');
      expect(seen.url).not.toContain(TOKEN);
      expect(seen.url).toMatch(/\/hooks\/echo\?x=1$/);
      expect(seen.path).toBe('echo');
      // The mapping's literal organization, as none was sent.
      expect(actions.agents[0].organizationId).toBe(ORG);
    });

    it('answers 204 when the transform returns null, 500 when it throws, 404 without a match', async () => {
      expect((await post('/quiet').send({ organization: ORG }).expect(204)).text).toBe('');
      expect((await post('/broken').send({ organization: ORG }).expect(500)).body).toEqual({
        ok: false,
        error: 'hook mapping failed',
      });
      expect((await post('/nothing-here').send({ organization: ORG }).expect(404)).body).toEqual({
        ok: false,
        error: expect.any(String),
      });
      await post('').send({ organization: ORG }).expect(404);
      expect(actions.agents).toEqual([]);
      expect(actions.wakes).toEqual([]);
    });

    it('answers 400 to an empty rendered text or a bad organization', async () => {
      const res = await post('/note').send({ organization: ORG }).expect(400);
      expect(res.body).toEqual({ ok: false, error: 'text must be a non-empty string' });
      await post('/note').send({ note: 'hello', organization: ORG }).expect(200);
      // Without the values of its session key, a run has a conversation of its own.
      await post('/github').send({ organization: ORG }).expect(202);
      expect(actions.agents[0].sessionKey).toBeUndefined();
      for (const organization of ['acme', randomUUID(), undefined]) {
        const bad = await post('/anything').send({ source: 'crm', organization }).expect(400);
        expect(bad.body).toEqual({ ok: false, error: expect.any(String) });
      }
      expect(actions.wakes).toHaveLength(1);
    });
  });

  it('mounts nothing when hooks are off (every HOOKS_* blank)', async () => {
    const off = await createTestApp({
      database: t.database,
      env: {
        ...Object.fromEntries(HOOK_ENV_NAMES.map((name) => [name, ''])),
        LLM_BASE_URL: 'http://127.0.0.1:9',
      },
      overrides: [[HOOK_ACTIONS, actions]],
    });
    try {
      await off.http
        .post('/hooks/wake')
        .set('Authorization', `Bearer ${TOKEN}`)
        .send({ text: 'x', organization: ORG })
        .expect(404);
      await off.http.post('/hooks/github').send({}).expect(404);
      expect(actions.wakes).toEqual([]);
    } finally {
      await off.close({ keepData: true });
    }
  });

  it('refuses to start with a transform leading out of HOOKS_TRANSFORMS_DIR, naming the mapping', async () => {
    // A symlink inside the folder to a file outside: found when the module is loaded.
    const boot = createTestApp({
      database: t.database,
      env: hooksEnv([
        { match: { path: 'out' }, name: 'Escape', transform: { module: 'escape.js' } },
      ]),
      overrides: [[HOOK_ACTIONS, actions]],
    });
    await expect(boot).rejects.toThrow(
      /HOOKS_MAPPINGS mapping 1 \(Escape\): transform.module "escape.js" leads out of HOOKS_TRANSFORMS_DIR/,
    );
    // `..` and absolute paths are refused earlier, by validateEnv (its unit tests): a
    // configuration error during the module's compilation would leave its connections open here.
  });
});
