import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CreditExpiry } from '../../../src/referral/credit/credit-expiry';
import { redemptionId } from '../../../src/referral/credit/credit-redemptions.service';
import { createTestApp, TestApp } from '../../support/app';
import { TestClock } from '../../support/clock';
import { balanceOf } from '../../support/credit';
import { loggedInAgent } from '../../support/users';

const DAY = 24 * 3600_000;

describe('credit ledger rules (service level)', () => {
  let t: TestApp;
  let ds: DataSource;
  const clock = new TestClock().freeze();
  beforeAll(async () => {
    t = await createTestApp({ overrides: clock.override });
    ds = t.get<DataSource>(DataSource);
  });
  afterAll(() => t.close());

  const now = clock.now();
  async function entry(entityId: string, kind: string, amount: string, daysAgo: number) {
    await ds.query(
      `INSERT INTO credit_entry (id, entity_id, kind, amount, currency, movement_id, created)
       VALUES ($1, $2, $3, $4, 'USD', $5, $6)`,
      [randomUUID(), entityId, kind, amount, randomUUID(), new Date(now.getTime() - daysAgo * DAY)],
    );
  }
  const entries = (entityId: string) =>
    ds.query(`SELECT kind, amount FROM credit_entry WHERE entity_id = $1 ORDER BY sequence`, [
      entityId,
    ]);
  it('expires the part of a balance older than the period, oldest credit spent first, once', async () => {
    const [stale, spent, fresh] = await Promise.all([1, 2, 3].map(() => loggedInAgent(t)));
    // 10 old + 5 recent - 3 spent: the 3 came out of the old 10, so 7 are stale.
    await entry(stale.user.entityId, 'grant', '10.00', 40);
    await entry(stale.user.entityId, 'transfer_in', '5.00', 10);
    await entry(stale.user.entityId, 'transfer_out', '-3.00', 5);
    // Everything old was spent.
    await entry(spent.user.entityId, 'grant', '10.00', 40);
    await entry(spent.user.entityId, 'transfer_out', '-10.00', 35);
    // 4 old, 8 new, 6 spent: the old 4 went first, nothing left of them.
    await entry(fresh.user.entityId, 'grant', '4.00', 40);
    await entry(fresh.user.entityId, 'grant', '8.00', 1);
    await entry(fresh.user.entityId, 'transfer_out', '-6.00', 1);

    const expiry = t.get<CreditExpiry>(CreditExpiry);
    expect(await expiry.expireAll(30)).toBe(1);
    expect(await balanceOf(ds, stale.user.entityId)).toBe('5.00');
    expect((await entries(stale.user.entityId)).at(-1)).toEqual({
      kind: 'expiry',
      amount: '-7.00',
    });
    expect(await balanceOf(ds, spent.user.entityId)).toBe('0.00');
    expect(await balanceOf(ds, fresh.user.entityId)).toBe('6.00');
    // A second run finds nothing more to expire.
    expect(await expiry.expireAll(30)).toBe(0);
    expect(await entries(stale.user.entityId)).toHaveLength(4);
  });

  it('derives a redemption id from the entity and its movement count (a retry reuses it)', () => {
    const entity = randomUUID();
    expect(redemptionId(entity, 3)).toBe(redemptionId(entity, 3));
    expect(redemptionId(entity, 3)).not.toBe(redemptionId(entity, 4));
    expect(redemptionId(entity, 3)).not.toBe(redemptionId(randomUUID(), 3));
    expect(redemptionId(entity, 3)).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});
