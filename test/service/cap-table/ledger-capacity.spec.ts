import { randomUUID } from 'node:crypto';
import type { AccessContext } from '../../../src/common';
import { DomainError } from '../../../src/common';
import { LedgerRuleError, emptyState } from '../../../src/cap-table/ledger/ledger-state';
import { applyTransaction } from '../../../src/cap-table/ledger/reducer';
import { SecuritiesService } from '../../../src/cap-table/securities/securities.service';
import { ShareholdingsService } from '../../../src/cap-table/shareholdings/shareholdings.service';
import { MemberAdditionsService } from '../../../src/organizations/members/member-additions.service';
import { OrganizationsService } from '../../../src/organizations/organizations/organizations.service';
import { BUILT_IN_ROLES, OWNER_ROLE_ID } from '../../../src/organizations/permissions/permissions';
import { createTestApp, TestApp } from '../../support/app';
import { classCreated, securityRecord, tx } from '../../support/ledger-records';
import { registerUser } from '../../support/users';

/**
 * The ledger's capacity (numeric(38, 10): 28 digits before the point) is one rule of the ledger:
 * wherever a quantity, a share number or a price can grow past it, the write is refused as
 * invalid input naming its field, before the database would refuse it, and an import or a
 * replay refuses the same transaction.
 */

const NINES = '9'.repeat(28);
/** 10^27: 28 digits, the most a ratio of 10 can still grow. */
const E27 = `1${'0'.repeat(27)}`;

/** The refusal as the API renders it: status, message and the field it names. */
async function refusal(work: Promise<unknown>) {
  try {
    await work;
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return { status: err.status, message: err.message, field: err.details.body?.field };
  }
  throw new Error('accepted');
}

describe('the ledger capacity (28 digits before the point)', () => {
  let t: TestApp;
  let securities: SecuritiesService;
  let shareholdings: ShareholdingsService;
  let owner: AccessContext;
  let holder: string;

  beforeAll(async () => {
    t = await createTestApp();
    securities = t.get(SecuritiesService);
    shareholdings = t.get(ShareholdingsService);
    const userId = (await registerUser(t)).user.id;
    const org = await t
      .get<OrganizationsService>(OrganizationsService)
      .create(userId, { name: 'Capacity Inc.' });
    owner = {
      userId,
      organizationId: org.id,
      organization: { id: org.id, type: 'corporation', currency: 'USD' },
      memberId: randomUUID(),
      roleId: OWNER_ROLE_ID,
      scope: 'all',
      permissions: new Set(BUILT_IN_ROLES.find((r) => r.id === OWNER_ROLE_ID)!.permissions),
      versions: {},
    } as AccessContext;
    holder = (
      await t.get<MemberAdditionsService>(MemberAdditionsService).add(owner, { name: 'Ada' })
    ).id;
  });
  afterAll(() => t.close());

  const createClass = (idPrefix: string, fields: Record<string, string> = {}) =>
    securities.create(owner, {
      name: idPrefix,
      classType: 'common',
      idPrefix,
      authorizedShares: NINES,
      ...fields,
    });

  const issue = (security: string, quantity: string) =>
    shareholdings.issue(owner, {
      security,
      member: holder,
      quantity,
      issueDate: '2024-01-15',
    } as never);

  it('refuses more authorized shares than the columns hold, naming quantity', async () => {
    const s = await createClass('ADD-');
    expect(await refusal(securities.addShares(owner, s.id, { quantity: '1' }))).toEqual({
      status: 400,
      message: 'quantity would take authorizedShares past 28 digits before the point',
      field: 'quantity',
    });
    expect((await securities.get(owner.organizationId!, s.id)).authorizedShares).toBe(NINES);
  });

  it('refuses an issuance whose share numbers would pass it (numbers only grow: voids retire them)', async () => {
    const s = await createClass('NUM-');
    const all = await issue(s.id, NINES);
    await shareholdings.void(owner, all.id);
    expect(await refusal(issue(s.id, '1'))).toEqual({
      status: 400,
      message: expect.stringContaining('28 digits'),
      field: 'quantity',
    });
    expect((await securities.get(owner.organizationId!, s.id)).issuedShares).toBe('0');
  });

  it('refuses a forward split that would take the authorized shares past it', async () => {
    const s = await createClass('FWD-', { authorizedShares: E27 });
    await issue(s.id, '1000');
    expect(
      await refusal(securities.split(owner, s.id, { numerator: '10', denominator: '1' })),
    ).toEqual({ status: 400, message: expect.stringContaining('28 digits'), field: 'numerator' });
    expect((await securities.get(owner.organizationId!, s.id)).authorizedShares).toBe(E27);
  });

  it('refuses a reverse split that would take the original issue price past it', async () => {
    const s = await createClass('REV-', { authorizedShares: '1000000', originalIssuePrice: E27 });
    expect(
      await refusal(securities.split(owner, s.id, { numerator: '1', denominator: '10' })),
    ).toEqual({
      status: 400,
      message: expect.stringContaining('28 digits'),
      field: 'denominator',
    });
    expect((await securities.get(owner.organizationId!, s.id)).originalIssuePrice).toBe(E27);
  });

  it('an import or a replay refuses the same: a class or an adjustment past it', () => {
    const refused = (run: () => void) => {
      try {
        run();
      } catch (err) {
        if (err instanceof LedgerRuleError) return err.rule;
        throw err;
      }
      return 'accepted';
    };
    const huge = `1${'0'.repeat(28)}`;
    expect(
      refused(() =>
        applyTransaction(emptyState(), classCreated(securityRecord({ authorizedShares: huge }))),
      ),
    ).toBe('invalid');
    const state = emptyState();
    const s = securityRecord();
    applyTransaction(state, classCreated(s));
    expect(
      refused(() =>
        applyTransaction(
          state,
          tx('TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT', {
            securityId: s.id,
            previousSharesAuthorized: '1000',
            newSharesAuthorized: huge,
            reason: null,
          }),
        ),
      ),
    ).toBe('invalid');
  });
});
