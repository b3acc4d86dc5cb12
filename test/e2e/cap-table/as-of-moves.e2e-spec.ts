import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { TRANSACTIONS } from '../../../src/cap-table/ledger/transactions';
import { packageZip, warrantExercisedPackage } from '../../fixtures/ocf/ocf-packages';
import { createTestApp, TestApp } from '../../support/app';
import { answered, writeEveryTransaction } from '../../support/every-transaction';
import { ledgerRoutes, writeByExample } from '../../support/ledger-routes';
import { verifyLedger } from '../../support/ledger-verify';
import { createOrg } from '../../support/orgs';
import { tempStorage } from '../../support/temp-storage';
import { loggedInAgent } from '../../support/users';

/**
 * A position as of a past date is read from the ledger's moves, not by replaying the log; the
 * replay stays the oracle. After each write of every type the registry has (the routes' story,
 * a route's example for a type it does not write, the OCF import for the types no route writes,
 * and the CSV import's bulk path), the positions the moves make equal the log replayed as of
 * every date an entry counts from (`ledger:verify`'s comparison), and the dashboard and the CSV
 * export of a past date read them.
 */
describe('as-of reads from the moves', () => {
  let t: TestApp;
  let db: DataSource;
  let owner: Agent;
  /** The types each organization's log holds once its writes are done. */
  const written = new Set<string>();
  const storage = tempStorage();

  beforeAll(async () => {
    t = await createTestApp({ env: { STORAGE_DIR: storage.dir } });
    db = t.get(DataSource);
    owner = (await loggedInAgent(t)).agent;
  });
  afterAll(async () => {
    await t.close();
    storage.remove();
  });

  async function expectMovesEqualReplay(organizationId: string, after: string) {
    const verified = await verifyLedger(t, organizationId);
    expect({ after, replayError: verified.replayError, moves: verified.moveDifferences }).toEqual({
      after,
      replayError: undefined,
      moves: [],
    });
    const types = (await db.query(
      `SELECT DISTINCT type FROM equity_transaction WHERE organization_id = $1`,
      [organizationId],
    )) as { type: string }[];
    for (const { type } of types) written.add(type);
  }

  it('every write through the routes: the moves make what the replay makes, on every date', async () => {
    const org = await createOrg(owner, 'Moves Inc.');
    await writeEveryTransaction(owner, org, async (what, request) => {
      const made = await request();
      await expectMovesEqualReplay(org.id, what);
      return made;
    });
    for (const declared of ledgerRoutes()) {
      if (written.has(declared.name) || !(declared.name in TRANSACTIONS)) continue;
      await writeByExample(db, owner, org.id, declared);
      await expectMovesEqualReplay(org.id, `${declared.name}: its route's example`);
    }
  }, 240_000);

  it('the OCF import (a warrant exercised: no route writes it)', async () => {
    const org = await createOrg(owner, 'Imported Moves Inc.');
    const files = warrantExercisedPackage();
    await answered(
      owner
        .post(`/v1/organization/${org.id}/ocf`)
        .attach('file', await packageZip(files), 'package.zip'),
      201,
    );
    await expectMovesEqualReplay(org.id, 'OCF import');
  }, 120_000);

  it('the CSV import’s bulk issuances; the dashboard and the CSV export of a past date', async () => {
    const org = await createOrg(owner, 'Bulk Moves Inc.');
    const csv = [
      'holderName,holderEmail,security,classType,quantity,pricePerShare,issueDate,certificateNumber,status,ownershipPercent',
      'Ann,ann@example.com,Common,common,1000,0.01,2023-01-10,CS-1,,',
      'Ben,ben@example.com,Common,common,500,0.01,2023-06-10,CS-2,,',
      'Cat,cat@example.com,Common,common,250,0.01,2024-02-10,CS-3,,',
      '',
    ].join('\n');
    await answered(
      owner
        .post(`/v1/organization/${org.id}/import`)
        .attach('file', Buffer.from(csv), 'captable.csv'),
      201,
    );
    await expectMovesEqualReplay(org.id, 'CSV import');

    const dashboard = await answered(
      owner.get(`/v1/captable/${org.id}/dashboard?asOf=2023-07-01`),
      200,
    );
    expect(dashboard.issued).toBe('1500');
    expect(
      (dashboard.byHolder as { name: string; shares: string }[]).map((h) => [h.name, h.shares]),
    ).toEqual([
      ['Ann', '1000'],
      ['Ben', '500'],
    ]);
    const exported = await owner.get(`/v1/organization/${org.id}/captable?asOf=2023-07-01`);
    expect(exported.status).toBe(200);
    const lines = exported.text.trim().split('\r\n');
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 5).join(','))).toEqual([
      'Ann,ann@example.com,Common,common,1000',
      'Ben,ben@example.com,Common,common,500',
    ]);
  });

  it('between them, every type of the registry was written', () => {
    const missing = Object.keys(TRANSACTIONS).filter((type) => !written.has(type));
    expect(missing).toEqual([]);
  });
});
