import { Controller, Get, Module } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Test } from '@nestjs/testing';
import { Client, Pool } from 'pg';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { Public } from '../../../src/common';
import { ConfigModule } from '../../../src/config';
import { DatabaseModule } from '../../../src/database';
import { SiteAdminService } from '../../../src/organizations';
import { coherentPackage, packageZip } from '../../fixtures/ocf/ocf-packages';
import { createTestApp, TestApp } from '../../support/app';
import { createHolder, createSecurity, issue } from '../../support/cap-table';
import { sleep } from '../../support/eventually';
import { loggedInAgent } from '../../support/users';
import { tempStorage } from '../../support/temp-storage';
import { ownerWithOrg } from '../../support/world';

/** The request limit of the apps below: well above any statement of the setup, on a busy machine. */
const LIMIT_MS = 2000;
/** How long a lock is held against a request: past the request limit, far below the long one. */
const HOLD_MS = LIMIT_MS * 2.5;

const TIMEOUT_BODY = {
  error: 'Service Unavailable',
  key: 'databaseTimeout',
  message: expect.any(String),
};

/** Routes of the test only: a statement slower than the limit, through TypeORM and the raw pool. */
@Controller('test-only/slow')
class SlowController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Get('typeorm')
  @Public()
  async typeorm() {
    await this.dataSource.query('SELECT pg_sleep($1)', [(LIMIT_MS * 3) / 1000]);
    return { slept: true };
  }

  @Get('pool')
  @Public()
  async pool() {
    const pool = (this.dataSource.driver as unknown as { master: Pool }).master;
    await pool.query('SELECT pg_sleep($1)', [(LIMIT_MS * 3) / 1000]);
    return { slept: true };
  }

  @Get('quick')
  @Public()
  async quick() {
    await this.dataSource.query('SELECT pg_sleep(0.05)');
    return { slept: true };
  }
}

@Module({ controllers: [SlowController] })
class SlowModule {}

/**
 * Runs `request` while another connection holds an ACCESS EXCLUSIVE lock on `table` (so the
 * request's statement on it waits, and the wait counts towards statement_timeout), for at most
 * HOLD_MS once the request is seen waiting. Says whether the answer came while the lock was held.
 */
async function whileLocked(
  url: string,
  table: string,
  request: () => PromiseLike<Response>,
): Promise<{ res: Response; answeredWhileLocked: boolean }> {
  const locker = new Client({ connectionString: url });
  await locker.connect();
  try {
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    let settled = false;
    const pending = Promise.resolve(request()).finally(() => (settled = true));
    // Wait until the request's statement queues behind the lock (or it answered without it).
    for (let i = 0; i < 200 && !settled; i++) {
      const { rows } = await locker.query(
        `SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = $1::regclass`,
        [table],
      );
      if (rows[0].n > 0) break;
      await sleep(50);
    }
    await Promise.race([pending, sleep(HOLD_MS)]);
    const answeredWhileLocked = settled;
    await locker.query('COMMIT');
    return { res: await pending, answeredWhileLocked };
  } finally {
    await locker.end();
  }
}

describe('statement limits (DATABASE_STATEMENT_TIMEOUT_MS)', () => {
  describe('by default', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());

    it('every pool connection has statement_timeout 15 s', async () => {
      const ds = t.get<DataSource>(DataSource);
      const [typeorm] = await ds.query('SHOW statement_timeout');
      expect(typeorm.statement_timeout).toBe('15s');
      const pool = (ds.driver as unknown as { master: Pool }).master;
      // Every connection, not only the first: hold several at once.
      const clients = await Promise.all([1, 2, 3].map(() => pool.connect()));
      try {
        for (const c of clients) {
          expect((await c.query('SHOW statement_timeout')).rows[0].statement_timeout).toBe('15s');
        }
      } finally {
        clients.forEach((c) => c.release());
      }
    });
  });

  describe(`set to ${LIMIT_MS} ms`, () => {
    let t: TestApp;
    const storage = tempStorage();
    beforeAll(async () => {
      t = await createTestApp({
        env: { DATABASE_STATEMENT_TIMEOUT_MS: String(LIMIT_MS), STORAGE_DIR: storage.dir },
        imports: [SlowModule],
      });
    });
    afterAll(async () => {
      await t.close();
      storage.remove();
    });

    async function withShares() {
      const c = await ownerWithOrg(t);
      const security = await createSecurity(c.owner.agent, c.org.id);
      const holder = await createHolder(c.owner.agent, c.org.id, 'Hanna Holder');
      await issue(c.owner.agent, c.org.id, {
        member: holder.id,
        security: security.id,
        quantity: '1000',
      });
      return c;
    }

    it('a statement past the limit is cancelled: 503 databaseTimeout, through TypeORM or the raw pool', async () => {
      await t.http.get('/test-only/slow/quick').expect(200, { slept: true });
      for (const path of ['/test-only/slow/typeorm', '/test-only/slow/pool']) {
        const started = Date.now();
        const res = await t.http.get(path);
        expect({ path, status: res.status, body: res.body as unknown }).toEqual({
          path,
          status: 503,
          body: TIMEOUT_BODY,
        });
        // Cut at the limit, not when the statement would have ended (3 × the limit).
        expect(Date.now() - started).toBeLessThan(LIMIT_MS * 3);
      }
    });

    it('a real route whose statement waits past the limit answers 503 databaseTimeout, then 200 again', async () => {
      const { owner, org } = await withShares();
      const { res, answeredWhileLocked } = await whileLocked(t.database.url, 'shareholding', () =>
        owner.agent.get(`/v1/captable/${org.id}/dashboard`),
      );
      expect({ status: res.status, body: res.body as unknown }).toEqual({
        status: 503,
        body: TIMEOUT_BODY,
      });
      expect(answeredWhileLocked).toBe(true);
      await owner.agent.get(`/v1/captable/${org.id}/dashboard`).expect(200);
    });

    it('the pool of the CLI (ledger:verify) has the long limit, not the request limit', async () => {
      Object.assign(process.env, { DATABASE_URL: t.database.url });
      const moduleRef = await Test.createTestingModule({
        imports: [ConfigModule, DatabaseModule.withAllEntities()],
      }).compile();
      await moduleRef.init();
      try {
        const [row] = await moduleRef.get(DataSource).query('SHOW statement_timeout');
        expect(row.statement_timeout).toBe('5min');
      } finally {
        await moduleRef.close();
      }
    });

    describe('imports and exports run under the long limit (DATABASE_LONG_STATEMENT_TIMEOUT_MS)', () => {
      /** The request outlives a lock held past the request limit, and then succeeds. */
      async function outlivesLock(table: string, request: () => PromiseLike<Response>) {
        const { res, answeredWhileLocked } = await whileLocked(t.database.url, table, request);
        expect({ status: res.status, answeredWhileLocked }).toEqual({
          status: expect.any(Number),
          answeredWhileLocked: false,
        });
        return res;
      }

      it('the CSV export', async () => {
        const { owner, org } = await withShares();
        const res = await outlivesLock('shareholding', () =>
          owner.agent.get(`/v1/organization/${org.id}/captable`),
        );
        expect(res.status).toBe(200);
        expect(res.text).toContain('Hanna Holder');
      });

      it('the site-wide CSV export', async () => {
        const { org } = await withShares();
        const admin = await loggedInAgent(t);
        await t.get<SiteAdminService>(SiteAdminService).grant(admin.email);
        const res = await outlivesLock('member', () => admin.agent.get('/v1/site/captable'));
        expect(res.status).toBe(200);
        expect(res.text).toContain(`${org.id},Hanna Holder`);
      });

      it('the CSV import, and its dry run', async () => {
        const { owner, org } = await ownerWithOrg(t);
        const csv = Buffer.from(
          'holderName,holderEmail,security,classType,quantity,pricePerShare,issueDate,certificateNumber,status,ownershipPercent\r\n' +
            'Ivan Importer,ivan@example.com,Common Stock,common,1000,0.01,2024-01-15,CS-1,active,100.0000\r\n',
        );
        const post = (query: string) => () =>
          owner.agent
            .post(`/v1/organization/${org.id}/import${query}`)
            .attach('file', csv, 'captable.csv');
        const dry = await outlivesLock('security', post('?dryRun=true'));
        expect({ status: dry.status, body: dry.body as unknown }).toMatchObject({ status: 200 });
        const real = await outlivesLock('security', post(''));
        expect({ status: real.status, body: real.body as unknown }).toMatchObject({
          status: 201,
          body: { imported: { shareholdings: 1 } },
        });
      });

      it('the OCF import', async () => {
        const { owner, org } = await ownerWithOrg(t, 'Imported Inc.');
        const zip = await packageZip(coherentPackage());
        const res = await outlivesLock('equity_transaction', () =>
          owner.agent.post(`/v1/organization/${org.id}/ocf`).attach('file', zip, 'package.zip'),
        );
        expect({ status: res.status, body: res.body as unknown }).toMatchObject({
          status: 201,
          body: { dryRun: false },
        });
      });

      it('the OCF export', async () => {
        const { owner, org } = await withShares();
        const res = await outlivesLock('equity_transaction', () =>
          owner.agent
            .get(`/v1/organization/${org.id}/ocf`)
            .buffer(true)
            .parse((r, done) => {
              const chunks: Buffer[] = [];
              r.on('data', (c: Buffer) => chunks.push(c));
              r.on('end', () => done(null, Buffer.concat(chunks)));
            }),
        );
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toBe('application/zip');
        expect((res.body as Buffer).subarray(0, 2).toString('latin1')).toBe('PK');
      });

      it('the long limit ends with its transaction: every pool connection is back at the request limit', async () => {
        const pool = (t.get<DataSource>(DataSource).driver as unknown as { master: Pool }).master;
        // All ten connections of the pool, among them those the imports and exports above used.
        const clients = await Promise.all(Array.from({ length: 10 }, () => pool.connect()));
        try {
          const limits = await Promise.all(
            clients.map(async (c) => (await c.query('SHOW statement_timeout')).rows[0]),
          );
          expect(limits).toEqual(Array(10).fill({ statement_timeout: '2s' }));
        } finally {
          clients.forEach((c) => c.release());
        }
      });
    });
  });
});
