import '../../support/agent-on';
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { TRANSACTIONS } from '../../../src/cap-table/ledger/transactions';
import { packageZip, warrantExercisedPackage } from '../../fixtures/ocf/ocf-packages';
import { FakeLlm } from '../../fakes/llm';
import { createTestApp, createTestDatabase, TestApp, TestDatabase } from '../../support/app';
import { ledgerRoutes, writeByExample } from '../../support/ledger-routes';
import { answered, WriteStep, writeEveryTransaction } from '../../support/every-transaction';
import { analysedOnboarding, fullDraft } from '../../support/onboarding';
import { createOrg, OrgFixture } from '../../support/orgs';
import { tempStorage } from '../../support/temp-storage';
import { loggedInAgent, logIn } from '../../support/users';

/** The organization's cached lists (`@CachedList` routes), as their readers ask for them. */
const cachedLists = (org: string) => [
  `/v1/organization/${org}/shareholding`,
  `/v1/organization/${org}/shareholding?status=all`,
  `/v1/organization/${org}/holding`,
  `/v1/organization/${org}/member`,
  `/v1/organization/${org}/plan`,
  `/v1/organization/${org}/security`,
];

/** What one write did to the organization's ledger and its cached lists. */
interface Outcome {
  what: string;
  /** The transaction types the write put in the log. */
  types: string[];
  /** Each way a cached list answered other than the truth. */
  stale: string[];
}

/**
 * Cached lists are never stale, by construction: a write bumps the version of every table it
 * wrote. For every transaction type of the registry, the lists it can change are warmed (read,
 * with their ETags), one write of that type runs, and then the plain read must be what the
 * service answers without a cache, and the old ETag must no longer answer 304 when the list
 * changed. A type added to the registry is checked here without editing this file: written by
 * its route's example when the story does not write it, else its test fails until a write of it
 * is in `writeEveryTransaction` (or the OCF import below).
 */
describe('cached lists after every kind of write', () => {
  let database: TestDatabase;
  let cached: TestApp;
  /** The same service without a cache: what a list truly is now. */
  let truth: TestApp;
  let fake: FakeLlm;
  let db: DataSource;
  const storage = tempStorage();
  const outcomes: Outcome[] = [];
  const redisPrefix = `lltest:fresh:${randomUUID().slice(0, 8)}:`;

  /** The cached app's reader and the uncached app's, both logged in as the Owner. */
  interface Readers {
    cached: Agent;
    truth: Agent;
  }

  async function readers(): Promise<Readers & { owner: Agent }> {
    const owner = await loggedInAgent(cached);
    return {
      owner: owner.agent,
      cached: owner.agent,
      truth: await logIn(truth, owner.email, owner.password),
    };
  }

  async function warm(as: Readers, org: string) {
    const seen = new Map<string, { etag: string; body: unknown }>();
    for (const url of cachedLists(org)) {
      const res = await as.cached.get(url).expect(200);
      seen.set(url, { etag: res.headers.etag, body: res.body });
    }
    return seen;
  }

  async function compare(
    as: Readers,
    org: string,
    warmed: Map<string, { etag: string; body: unknown }>,
  ): Promise<string[]> {
    const stale: string[] = [];
    for (const url of cachedLists(org)) {
      const now = (await as.truth.get(url).expect(200)).body;
      const plain = await as.cached.get(url).expect(200);
      if (!isDeepStrictEqual(plain.body, now)) stale.push(`${url}: the plain read is stale`);
      const before = warmed.get(url)!;
      if (!before.etag) {
        stale.push(`${url}: no ETag`);
        continue;
      }
      const conditional = await as.cached.get(url).set('If-None-Match', before.etag);
      if (conditional.status === 304 && !isDeepStrictEqual(before.body, now)) {
        stale.push(`${url}: the old ETag answers 304 for a changed list`);
      }
    }
    return stale;
  }

  const lastSequence = async (org: string) =>
    String(
      (
        (await db.query(
          'SELECT coalesce(max(sequence), 0)::text AS s FROM equity_transaction WHERE organization_id = $1',
          [org],
        )) as { s: string }[]
      )[0].s,
    );

  const typesAfter = async (org: string, sequence: string) =>
    (
      (await db.query(
        'SELECT DISTINCT type FROM equity_transaction WHERE organization_id = $1 AND sequence > $2',
        [org, sequence],
      )) as { type: string }[]
    ).map((r) => r.type);

  /** Each write warmed before and compared after, its outcome kept. */
  const checked =
    (as: Readers, org: string): WriteStep =>
    async (what, request) => {
      const warmed = await warm(as, org);
      const sequence = await lastSequence(org);
      const made = await request();
      outcomes.push({
        what,
        types: await typesAfter(org, sequence),
        stale: await compare(as, org, warmed),
      });
      return made;
    };

  // Every write of the registry runs here (about 30 s alone; more on a loaded machine).
  beforeAll(async () => {
    database = await createTestDatabase();
    fake = await FakeLlm.start();
    const env = { ...fake.env(), STORAGE_DIR: storage.dir };
    cached = await createTestApp({ database, redisPrefix, env: { ...env, LIST_CACHE: 'on' } });
    truth = await createTestApp({ database, redisPrefix, env: { ...env, LIST_CACHE: 'off' } });
    db = cached.get(DataSource);

    // Every type the routes write, in one organization.
    const api = await readers();
    const org = await createOrg(api.owner, 'Every Write Inc.');
    await writeEveryTransaction(api.owner, org, checked(api, org.id));

    // A type the story does not write, with a route: its definition's example, on an active
    // record of the story's of the kind its path names.
    const written = new Set(outcomes.flatMap((o) => o.types));
    for (const declared of ledgerRoutes()) {
      if (written.has(declared.name) || !(declared.name in TRANSACTIONS)) continue;
      await checked(api, org.id)(`${declared.name}: its route's example`, () =>
        writeByExample(db, api.owner, org.id, declared),
      );
    }

    // The OCF import, into an empty cap table whose lists were read: with a warrant exercised
    // (no route writes that type).
    const ocf = await readers();
    const imported = await createOrg(ocf.owner, 'Imported Inc.');
    await checked(ocf, imported.id)('OCF import', async () => {
      const files = warrantExercisedPackage();
      return answered(
        ocf.owner
          .post(`/v1/organization/${imported.id}/ocf`)
          .attach('file', await packageZip(files), 'package.zip'),
        201,
      );
    });
  }, 180_000);

  afterAll(async () => {
    await truth.close({ keepData: true });
    await cached.close();
    await fake.close();
    storage.remove();
  });

  it.each(Object.keys(TRANSACTIONS))('%s: the lists it changes are fresh after it', (type) => {
    const writes = outcomes.filter((o) => o.types.includes(type));
    expect({ type, writes: writes.length }).not.toEqual({ type, writes: 0 });
    expect(writes.flatMap((w) => w.stale.map((s) => `${w.what}: ${s}`))).toEqual([]);
  });

  it('the other writes on the way (members) keep them fresh too', () => {
    const others = outcomes.filter((o) => o.types.length === 0);
    expect(others.length).toBeGreaterThan(0);
    expect(others.flatMap((w) => w.stale.map((s) => `${w.what}: ${s}`))).toEqual([]);
  });

  it('a CSV import: the lists read before it show what it brought', async () => {
    const as = await readers();
    const org: OrgFixture = await createOrg(as.owner, 'CSV Inc.');
    const step = checked(as, org.id);
    await step('CSV import', () =>
      answered(
        as.owner
          .post(`/v1/organization/${org.id}/import`)
          .attach(
            'file',
            Buffer.from(
              'holderName,holderEmail,security,classType,quantity,pricePerShare,issueDate,certificateNumber,status,ownershipPercent\n' +
                'Grace Hopper,grace@example.com,Series Seed,preferred,250,1.25,2024-02-01,SS-7,active,\n',
            ),
            'captable.csv',
          ),
        201,
      ),
    );
    const outcome = outcomes.at(-1)!;
    expect(outcome.types).toContain('TX_STOCK_ISSUANCE');
    expect(outcome.stale).toEqual([]);
  });

  it('onboarding’s build: the new organization’s lists are what it wrote, versions bumped', async () => {
    const founder = await loggedInAgent(cached);
    const draft = fullDraft(founder.email);
    for (const c of draft.shareClasses as { par_value?: string }[]) c.par_value ??= '0.0001';
    const { id } = await analysedOnboarding(cached, fake, founder.email, draft);
    const built = await answered(
      founder.agent.post('/v1/agent/onboarding/setup').send({ onboardingId: id }),
      200,
    );
    const org = built.organizationId as string;
    const truthAgent = await logIn(truth, founder.email, founder.password);
    for (const url of cachedLists(org)) {
      const now = (await truthAgent.get(url).expect(200)).body;
      expect({ url, body: (await founder.agent.get(url).expect(200)).body }).toEqual({
        url,
        body: now,
      });
    }
    const versions = (await db.query(
      'SELECT resource FROM resource_version WHERE organization_id = $1 ORDER BY 1',
      [org],
    )) as { resource: string }[];
    expect(versions.map((v) => v.resource)).toEqual(
      expect.arrayContaining(['holding', 'member', 'security', 'shareholding']),
    );
  });
});
