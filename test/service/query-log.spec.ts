import { randomUUID } from 'node:crypto';
import { ownedSql } from '../../src/database';
import { OrganizationsDirectory, OrganizationsModule } from '../../src/organizations';
import { buildAccessQuery } from '../../src/organizations/permissions/access-query';
import { MemberRepository } from '../../src/organizations/members/member.repository';
import { AccessRepository } from '../../src/organizations/permissions/access.repository';
import { statementsSent, takeForeignStatements } from '../support/query-log';
import { createServiceTest, ServiceTest } from '../support/service';
import { createOrganization } from '../support/service-world';

/**
 * The tests' query log (test/support/query-log.ts) names the module whose code sent each
 * statement, and fails on SQL naming another module's table unless that module wrote it.
 */
describe('query log', () => {
  let s: ServiceTest;
  beforeAll(async () => {
    s = await createServiceTest(OrganizationsModule);
  });
  afterAll(() => s.close());
  beforeEach(() => takeForeignStatements());

  /** The access query (organizations') with a record resolver of the given SQL. */
  const decide = (resolver: string) =>
    s
      .get<AccessRepository>(AccessRepository)
      .decide(
        buildAccessQuery(
          { resolver: { sql: resolver }, id: randomUUID(), pathOrganization: null },
          randomUUID(),
        ),
      );
  const HOLDING_RESOLVER =
    'SELECT organization_id, NULL::uuid AS owner_user_id FROM holding WHERE id = {id}';

  it("fails a module's statement naming another module's table", async () => {
    await decide(HOLDING_RESOLVER);
    const found = await takeForeignStatements();
    expect(found).toEqual([
      expect.stringMatching(
        /^organizations, in AccessRepository\.decide .* names holding \(cap-table's\)/,
      ),
    ]);
  });

  it("takes what another module's ownedSql marks as that module's", async () => {
    await decide(ownedSql('cap-table', HOLDING_RESOLVER));
    expect(await takeForeignStatements()).toEqual([]);
    await decide(ownedSql('documents', HOLDING_RESOLVER));
    expect(await takeForeignStatements()).toEqual([
      expect.stringContaining("holding (cap-table's)"),
    ]);
  });

  it('names the caller of a repository across the promises TypeORM does not await', async () => {
    const org = await createOrganization(s);
    await takeForeignStatements();
    await s.get<OrganizationsDirectory>(OrganizationsDirectory).currentMembers(org.id);
    // The outbox relay runs beside the test: its statements are the events module's.
    expect(statementsSent().filter((x) => /FROM "member"/.test(x.sql))).toEqual([
      expect.objectContaining({
        module: 'organizations',
        at: expect.stringContaining('MemberRepository.findManyBy'),
      }),
    ]);
  });

  it('names the module that made a cursor, not the one iterating it', async () => {
    const org = await createOrganization(s);
    await s.dataSource.transaction(async (manager) => {
      const batches = s
        .get<MemberRepository>(MemberRepository)
        .listingByName({ manager }, org.id, []);
      for await (const batch of batches) expect(batch).toEqual([]);
    });
    expect(statementsSent().filter((x) => x.sql.startsWith('DECLARE'))).toEqual([
      expect.objectContaining({ module: 'organizations' }),
    ]);
  });

  it("leaves the tests' own SQL alone", async () => {
    await s.dataSource.query('SELECT count(*) FROM holding');
    expect(statementsSent().filter((x) => x.sql.includes('FROM holding'))).toEqual([]);
  });
});
