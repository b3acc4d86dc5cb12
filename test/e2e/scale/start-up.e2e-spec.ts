import { createHash, randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { withDatabase } from '../../../scripts/pg-admin';
import { createEmptyTestDatabase, deleteRedisKeys, TestDatabase } from '../../support/isolation';
import { eventually } from '../../support/eventually';
import { Instance, startInstance, stopAll, waitUntilReady } from '../../support/instances';

const START_MS = 150_000;
const KEY = randomBytes(32).toString('hex');
const OTHER_KEY = randomBytes(32).toString('hex');
const MIGRATIONS = readdirSync(join(__dirname, '../../../src/database/migrations')).filter((f) =>
  f.endsWith('.ts'),
);

/** Every column of the public schema, with its type: what the migrations built. */
async function schemaOf(url: string): Promise<string[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ c: string }>(
      `SELECT table_name || '.' || column_name || ' ' || data_type AS c
         FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1`,
    );
    return rows.map((r) => r.c);
  } finally {
    await client.end();
  }
}

/** The rows of every table (counted), and the stored fingerprint. */
async function contentsOf(client: Client): Promise<Record<string, unknown>> {
  const { rows: tables } = await client.query<{ t: string }>(
    `SELECT table_name AS t FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  const contents: Record<string, unknown> = {};
  for (const { t } of tables) {
    contents[t] = (await client.query(`SELECT count(*)::int AS n FROM "${t}"`)).rows[0].n;
  }
  contents.fingerprint = (await client.query(`SELECT * FROM encryption_key_fingerprint`)).rows;
  return contents;
}

describe('instances starting side by side (issue 38)', () => {
  let database: TestDatabase;
  let client: Client;
  const redisPrefix = `lltest:${randomBytes(4).toString('hex')}:`;
  const instances: Instance[] = [];
  /** An instance on the test's database; ready unless `ready` is false (it may refuse). */
  const start = async (key: string, ready = true) => {
    const instance = await startInstance(
      { DATABASE_URL: database.url, REDIS_PREFIX: redisPrefix, ENCRYPTION_KEY: key },
      { waitReady: false },
    );
    instances.push(instance);
    // Generous: ts-node compiles the service at each start, on a machine shared with others.
    if (ready) await waitUntilReady(instance, START_MS);
    return instance;
  };

  beforeAll(async () => {
    database = await createEmptyTestDatabase();
    client = new Client({ connectionString: database.url });
    await client.connect();
  });
  afterAll(async () => {
    await stopAll(instances);
    await client?.end();
    await database?.drop();
    await deleteRedisKeys(redisPrefix, process.env.REDIS_URL);
  });

  it(
    'two instances started together on an empty database apply each migration once and both serve; one with another ENCRYPTION_KEY refuses to start and changes nothing',
    async () => {
      // Both instances are made to reach the migrations at the same moment: the test holds the
      // (empty) migrations table, created as TypeORM creates it, until both wait for it or for
      // the other instance.
      await client.query(
        `CREATE TABLE "migrations" ("id" SERIAL NOT NULL, "timestamp" bigint NOT NULL,
         "name" character varying NOT NULL, CONSTRAINT "PK_8c82d7f526340ab734260ea46be" PRIMARY KEY ("id"))`,
      );
      const gate = new Client({ connectionString: database.url });
      await gate.connect();
      await gate.query('BEGIN');
      await gate.query('LOCK TABLE migrations IN ACCESS EXCLUSIVE MODE');
      const starting = [start(KEY), start(KEY)];
      await eventually(async () => {
        const { rows } = await client.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = $1 AND wait_event_type = 'Lock'`,
          [database.name],
        );
        if (rows[0].n < 2) throw new Error('the instances are not both waiting yet');
        return true;
      }, START_MS);
      await gate.query('COMMIT');
      await gate.end();
      const [a, b] = await Promise.all(starting);
      // Neither met the other's migration half-way (a failed start that its retry then hid).
      for (const instance of [a, b]) {
        expect(instance.output()).not.toMatch(/Unable to connect to the database|already exists/);
      }
      await a.http.get('/health').expect(200);
      await b.http.get('/health').expect(200);

      const { rows: applied } = await client.query<{ name: string; n: number }>(
        `SELECT name, count(*)::int AS n FROM migrations GROUP BY name ORDER BY name`,
      );
      expect(applied).toHaveLength(MIGRATIONS.length);
      expect(applied.filter((m) => m.n !== 1)).toEqual([]);
      const template = withDatabase(process.env.TEST_PG_SERVER_URL!, process.env.TEST_PG_TEMPLATE!);
      expect(await schemaOf(database.url)).toEqual(await schemaOf(template));

      // One fingerprint, of the key both use: neither the key nor its plain hash.
      const { rows: stored } = await client.query<{ fingerprint: string }>(
        `SELECT fingerprint FROM encryption_key_fingerprint`,
      );
      expect(stored).toHaveLength(1);
      const sha256 = createHash('sha256').update(Buffer.from(KEY, 'hex')).digest('hex');
      expect(stored[0].fingerprint).not.toContain(KEY);
      expect(stored[0].fingerprint).not.toBe(sha256);

      // Stopped, so that nothing else writes while the wrongly keyed one tries.
      await stopAll([a, b]);
      const before = await contentsOf(client);
      const wrong = await start(OTHER_KEY, false);
      expect(await wrong.exited).toBe(1);
      expect(wrong.output()).toContain('Ledgerline could not start.');
      expect(wrong.output()).toMatch(/ENCRYPTION_KEY is not the key this database is used with/);
      expect(wrong.output()).not.toContain(KEY);
      expect(wrong.output()).not.toContain(OTHER_KEY);
      expect(wrong.output()).not.toContain(stored[0].fingerprint);
      expect(await contentsOf(client)).toEqual(before);

      // The same key again: it starts.
      const again = await start(KEY);
      await again.http.get('/health').expect(200);
    },
    3 * START_MS,
  );
});
