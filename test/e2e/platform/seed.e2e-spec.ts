import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createTestApp, createTestDatabase, TestApp, TestDatabase } from '../../support/app';
import { TEST_SECRETS } from '../../support/isolation';

function runSeed(env: Record<string, string | undefined>) {
  return new Promise<{ code: number | null; out: string }>((done) => {
    const child = spawn(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', 'src/seed.ts'],
      {
        cwd: resolve(__dirname, '../../..'),
        env: env as NodeJS.ProcessEnv,
      },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (out += c));
    child.on('close', (code) => done({ code, out }));
  });
}

describe('npm run seed', () => {
  let database: TestDatabase;
  let t: TestApp | undefined;
  const redisPrefix = `lltest:seed:${process.pid}:`;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    if (t) await t.close();
    else await database.drop();
  });

  it('refuses to run in production', async () => {
    const run = await runSeed({
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: database.url,
    });
    expect(run.code).toBe(1);
    expect(run.out).toContain('refuses to run when NODE_ENV=production');
  });

  it('loads two users with the printed passwords and an organization with every role', async () => {
    const env = {
      ...process.env,
      NODE_ENV: 'development',
      // The key the test app opens the database with below (one key per database).
      ...TEST_SECRETS,
      DATABASE_URL: database.url,
      REDIS_PREFIX: redisPrefix,
      OUTBOX_RELAY_INTERVAL_MS: '0',
    };
    const first = await runSeed(env);
    expect(first.code).toBe(0);
    const owner = /Owner: (\S+) \/ (\S+)/.exec(first.out)!;
    const admin = /Admin: (\S+) \/ (\S+)/.exec(first.out)!;
    // Again: nothing new.
    expect((await runSeed(env)).code).toBe(0);

    t = await createTestApp({ database, redisPrefix });
    const agent = t.agent();
    await agent.post('/v1/user/login').send({ email: owner[1], password: owner[2] }).expect(200);
    const orgs = (await agent.get('/v1/organization').expect(200)).body;
    expect(orgs).toHaveLength(1);
    const members = (await agent.get(`/v1/organization/${orgs[0].id}/member`).expect(200)).body;
    const roles = members.map((m: { role: string }) => m.role).sort();
    expect(roles).toEqual([1, 2, 3, 4, 5].map((n) => `00000000-0000-4000-8000-00000000000${n}`));
    const adminAgent = t.agent();
    await adminAgent
      .post('/v1/user/login')
      .send({ email: admin[1], password: admin[2] })
      .expect(200);
    await adminAgent.get(`/v1/organization/${orgs[0].id}`).expect(200);
  }, 90_000);
});
