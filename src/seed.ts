import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { setupApp } from './app.setup';
import { AccountProvisioning } from './auth';
import { AppLogger } from './common';
import { declaredNodeEnv, loadEnv } from './config';

/**
 * `npm run seed` (development only): a small demo to click through. Two users with known
 * passwords, one organization with a member in each role. Runs the service in-process and goes
 * through its HTTP API like a client; running it again changes nothing.
 */
const DEMO = {
  organization: 'Demo Ventures Inc.',
  owner: {
    email: 'owner@demo.ledgerline.test',
    password: 'demo-owner-passphrase',
    name: 'Olivia Owner',
  },
  admin: {
    email: 'admin@demo.ledgerline.test',
    password: 'demo-admin-passphrase',
    name: 'Adam Admin',
  },
  records: [
    { name: 'Eddie Editor', email: 'editor@demo.ledgerline.test', role: 'Editor' },
    { name: 'Vera Viewer', email: 'viewer@demo.ledgerline.test', role: 'Viewer' },
    { name: 'Sam Shareholder', email: 'shareholder@demo.ledgerline.test', role: 'Shareholder' },
  ],
};

class Client {
  private cookie = '';
  constructor(private readonly base: string) {}

  async call<T>(method: string, path: string, body?: object): Promise<T> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: {
        'Content-Type': 'application/json',
        ...(this.cookie ? { Cookie: this.cookie } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0];
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }
}

async function seed() {
  if (declaredNodeEnv() === 'production') {
    console.error(
      'npm run seed loads demo accounts with known passwords: it refuses to run when NODE_ENV=production.',
    );
    process.exit(1);
  }
  loadEnv();
  const app = await NestFactory.create(AppModule, { logger: new AppLogger('warn') });
  await setupApp(app);
  await app.listen(0, '127.0.0.1');
  try {
    const accounts = app.get(AccountProvisioning);
    for (const person of [DEMO.owner, DEMO.admin]) {
      if (!(await accounts.exists(person.email))) await accounts.createVerified(person);
    }
    const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    const owner = new Client(base);
    await owner.call('POST', '/v1/user/login', DEMO.owner);
    const orgs = await owner.call<{ id: string; name: string }[]>('GET', '/v1/organization');
    let org = orgs.find((o) => o.name === DEMO.organization);
    if (!org) {
      org = await owner.call<{ id: string; name: string }>('POST', '/v1/organization', {
        name: DEMO.organization,
        country: 'US',
      });
      for (const record of DEMO.records) {
        await owner.call('POST', `/v1/organization/${org.id}/member`, record);
      }
      await owner.call('POST', `/v1/organization/${org.id}/member/invite`, {
        email: DEMO.admin.email,
        role: 'Admin',
      });
      const admin = new Client(base);
      await admin.call('POST', '/v1/user/login', DEMO.admin);
      const [invitation] = await admin.call<{ id: string }[]>('GET', '/v1/user/invitations');
      await admin.call('POST', `/v1/user/invitations/${invitation.id}/accept`);
    }
    console.log(
      [
        '',
        `Demo organization "${DEMO.organization}" (${org.id})`,
        `  Owner: ${DEMO.owner.email} / ${DEMO.owner.password}`,
        `  Admin: ${DEMO.admin.email} / ${DEMO.admin.password}`,
        `  Members without an account: ${DEMO.records.map((r) => `${r.name} (${r.role})`).join(', ')}`,
        '',
      ].join('\n'),
    );
  } finally {
    await app.close();
  }
}

seed().catch((err: Error) => {
  console.error(`\nnpm run seed failed: ${err.message}\n`);
  process.exit(1);
});
