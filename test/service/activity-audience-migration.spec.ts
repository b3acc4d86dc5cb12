import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ActivityAudience1795450000000 } from '../../src/database/migrations/1795450000000-ActivityAudience';
import { typeormOptions } from '../../src/database/typeorm-options';
import { createTestDatabase, TestDatabase } from '../support/app';

/**
 * Entries written before audiences existed get theirs from their type, and the member they are
 * about from the record they carry: the migration on rows as the old code wrote them.
 */
describe('migration ActivityAudience', () => {
  let database: TestDatabase;
  let ds: DataSource;
  beforeAll(async () => {
    database = await createTestDatabase();
    ds = new DataSource({ ...typeormOptions(database.url), entities: [] });
    await ds.initialize();
  });
  afterAll(async () => {
    await ds.destroy();
    await database.drop();
  });

  it('gives old entries the audience of their type and the members they are about', async () => {
    const migration = new ActivityAudience1795450000000();
    const runner = ds.createQueryRunner();
    const org = randomUUID();
    const member = randomUUID();
    const holder = randomUUID();
    const holdingId = randomUUID();
    try {
      await migration.down(runner);
      // A grant for the exercise entry to find its holder by (the FK checks are not the point).
      await runner.query(`SET session_replication_role = replica`);
      await runner.query(
        `INSERT INTO holding (id, organization_id, member_id, type, status, terms)
         VALUES ($1, $2, $3, 'option_nso', 'active', '{}')`,
        [holdingId, org, holder],
      );
      await runner.query(`SET session_replication_role = DEFAULT`);
      const rows: [string, string | null, unknown][] = [
        ['note.written', null, { anything: true }],
        ['member.added', 'evt_1', { data: { object: { id: member, email: 'a@b.c' } } }],
        ['shareholding.created', 'evt_2', { data: { object: { id: randomUUID(), member } } }],
        ['shareholding.transferred', 'evt_3', { data: { object: { source: { member } } } }],
        ['valuation.created', 'evt_4', { data: { object: { id: randomUUID() } } }],
        ['holding.created', 'evt_5', { data: { object: { id: holdingId, member: holder } } }],
        ['option.exercised', 'evt_6', { data: { object: { option: holdingId } } }],
        ['legend.created', 'evt_7', { data: { object: {} } }],
        ['gone.away', 'evt_8', { data: { object: { member } } }],
        ['member.updated', 'evt_9', { data: { object: { id: 'not-a-uuid' } } }],
      ];
      for (const [type, eventId, metadata] of rows) {
        await runner.query(
          `INSERT INTO activity_action (organization_id, type, description, event_id, metadata)
           VALUES ($1, $2, 'x', $3, $4)`,
          [org, type, eventId, JSON.stringify(metadata)],
        );
      }
      await migration.up(runner);
      const after = (await runner.query(
        `SELECT type, audience_permission AS permission, audience_member_ids AS members
         FROM activity_action WHERE organization_id = $1 ORDER BY type`,
        [org],
      )) as { type: string; permission: string; members: string[] }[];
      expect(Object.fromEntries(after.map((r) => [r.type, [r.permission, r.members]]))).toEqual({
        'note.written': ['canViewOrganization', []],
        'member.added': ['canViewMember', [member]],
        'shareholding.created': ['canViewCapitalizationOrSelf', [member]],
        'shareholding.transferred': ['canViewCapitalizationOrSelf', []],
        'valuation.created': ['canViewValuation', []],
        'holding.created': ['canViewHolding', [holder]],
        'option.exercised': ['canViewOption', [holder]],
        'legend.created': ['canViewCapTable', []],
        'gone.away': ['canEditOrganization', []],
        'member.updated': ['canViewMember', []],
      });
    } finally {
      await runner.release();
    }
  });
});
