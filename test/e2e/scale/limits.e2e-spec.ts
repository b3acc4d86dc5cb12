import { randomBytes } from 'node:crypto';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UPLOAD_LEASE_MS, UploadSlots } from '../../../src/common/http/upload-slots';
import { FakeBilling } from '../../fakes/billing';
import { createTestApp, createTestDatabase, TestApp, TestDatabase } from '../../support/app';
import { TestClock } from '../../support/clock';
import { eventually } from '../../support/eventually';
import { Instance, startInstance } from '../../support/instances';
import { createOrg } from '../../support/orgs';
import { sessionSetCookie } from '../../support/sessions';
import { tempStorage } from '../../support/temp-storage';
import { LoggedInUser, loggedInAgent, randomIp } from '../../support/users';
import { pdf } from '../documents/upload-fixtures';

jest.setTimeout(180_000);

const BOUNDARY = 'scale-limits-boundary';
const storage = tempStorage();

/**
 * Limits count once across instances: two instances on one database and one Redis prefix (and a
 * third in a process of its own, killed) share the login throttle, a promotion code's limit and
 * the uploads in progress per user.
 */
describe('limits across instances', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let fake: FakeBilling;
  let server: Server;
  let child: Instance | undefined;
  const clock = new TestClock();
  const redisPrefix = `lltest:limits:${randomBytes(4).toString('hex')}:`;
  const env = () => ({
    ...fake.env(),
    STORAGE_DIR: storage.dir,
    UPLOAD_CONCURRENCY_PER_USER: '2',
  });

  beforeAll(async () => {
    fake = await FakeBilling.start();
    fake.seedCatalogue();
    database = await createTestDatabase();
    a = await createTestApp({ database, redisPrefix, env: env() });
    b = await createTestApp({ database, redisPrefix, env: env(), overrides: clock.override });
    server = a.app.getHttpServer() as Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await child?.stop();
    server?.closeAllConnections();
    await b?.close({ keepData: true });
    await a?.close();
    await fake?.close();
    storage.remove();
  });

  it('the login throttle: failures on either instance lock the account on both', async () => {
    const { email, password } = await loggedInAgent(a);
    const ip = randomIp();
    // MAX_FAILURES (10) wrong passwords, half on each instance.
    for (let i = 0; i < 10; i++) {
      await (i % 2 ? a : b).http
        .post('/v1/user/login')
        .set('X-Forwarded-For', ip)
        .send({ email, password: 'wrong-password' })
        .expect(400);
    }
    for (const t of [a, b]) {
      const refused = await t.http.post('/v1/user/login').send({ email, password }).expect(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('a promotion code’s limit: 10 a minute per user across both instances', async () => {
    const user = await loggedInAgent(a);
    const onB = b.agent();
    await onB.post('/v1/user/login').send({ email: user.email, password: user.password });
    for (let i = 0; i < 10; i++) {
      await (i % 2 ? user.agent : onB)
        .post('/v1/promo/validate')
        .send({ code: `C${i}` })
        .expect(200);
    }
    for (const agent of [user.agent, onB]) {
      const refused = await agent.post('/v1/promo/validate').send({ code: 'C10' }).expect(429);
      expect(refused.headers['x-ratelimit-limit']).toBe('10');
    }
  });

  async function uploader() {
    const owner = await loggedInAgent(a);
    const org = await createOrg(owner.agent);
    const login = await a.http
      .post('/v1/user/login')
      .send({ email: owner.email, password: owner.password });
    return { owner, path: `/v1/organization/${org.id}/file`, cookie: cookieOf(login) };
  }
  const cookieOf = (res: Parameters<typeof sessionSetCookie>[0]) =>
    sessionSetCookie(res)!.split(';')[0];
  const upload = (owner: LoggedInUser, path: string) =>
    owner.agent.post(path).attach('file', pdf('quick'), 'quick.pdf');
  const uploadOn = (t: TestApp, path: string, cookie: string) =>
    t.http.post(path).set('Cookie', cookie).attach('file', pdf('quick'), 'quick.pdf');
  const inUse = (userId: string) => b.get<UploadSlots>(UploadSlots).inUse(userId);

  it('uploads in progress: two held on A leave none for B', async () => {
    const { owner, path, cookie } = await uploader();
    const port = (server.address() as AddressInfo).port;
    const first = heldUpload(port, path, cookie);
    const second = heldUpload(port, path, cookie);
    try {
      await eventually(async () => (await inUse(owner.user.id)) === 2, 10_000);
      const refused = await uploadOn(b, path, cookie).expect(429);
      expect(refused.body).toMatchObject({ key: 'tooManyUploads' });
      first.finish();
      expect(await first.answer).toBe(201);
      await eventually(async () => (await inUse(owner.user.id)) === 1);
      await uploadOn(b, path, cookie).expect(201);
    } finally {
      first.abort();
      second.abort();
    }
    await eventually(async () => (await inUse(owner.user.id)) === 0);
    await upload(owner, path).expect(201);
  });

  it('an instance killed while uploading holds its places only until their lease ends', async () => {
    const { owner, path, cookie } = await uploader();
    child = await startInstance({
      DATABASE_URL: database.url,
      REDIS_PREFIX: redisPrefix,
      STORAGE_DIR: storage.dir,
      UPLOAD_CONCURRENCY_PER_USER: '2',
      OUTBOX_RELAY_INTERVAL_MS: '0',
    });
    const held = [heldUpload(child.port, path, cookie), heldUpload(child.port, path, cookie)];
    await eventually(async () => (await inUse(owner.user.id)) === 2, 20_000);
    await child.stop('SIGKILL');
    held.forEach((h) => h.abort());
    // Nobody released them: they still count, on the other instance too.
    expect(await inUse(owner.user.id)).toBe(2);
    await uploadOn(b, path, cookie).expect(429);
    // B's clock past the leases, which nobody renews any more.
    clock.advance(UPLOAD_LEASE_MS + 1000);
    expect(await inUse(owner.user.id)).toBe(0);
    await uploadOn(b, path, cookie).expect(201);
  });
});

/** A multipart upload over a raw connection, its body held open until `finish` or `abort`. */
function heldUpload(port: number, path: string, cookie: string) {
  const content = pdf('held open');
  const req = httpRequest({
    host: '127.0.0.1',
    port,
    path,
    method: 'POST',
    headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, Cookie: cookie },
  });
  const answer = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
  });
  // An aborted upload rejects its answer on purpose; nobody waits for it then.
  answer.catch(() => undefined);
  const head =
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="held.pdf"\r\n` +
    'Content-Type: application/pdf\r\n\r\n';
  req.write(Buffer.concat([Buffer.from(head), content.subarray(0, 8)]));
  return {
    answer,
    finish: () =>
      req.end(Buffer.concat([content.subarray(8), Buffer.from(`\r\n--${BOUNDARY}--\r\n`)])),
    abort: () => req.destroy(),
  };
}
