import type { Agent, Test } from 'supertest';
import {
  createHolding,
  createPlan,
  noteBody,
  optionBody,
  safeBody,
  warrantBody,
} from '../e2e/cap-table/holdings-fixtures';
import { createHolder, createSecurity, issue } from './cap-table';
import type { OrgFixture } from './orgs';

/**
 * Runs one write: `what` names it, `request` makes it. The caller decides what happens around it
 * (the freshness test warms the cached lists before and compares them after).
 */
export type WriteStep = <T = Record<string, any>>(
  what: string,
  request: () => Promise<T>,
) => Promise<T>;

/** The body of a request answering `status`; otherwise an error with what it answered. */
export async function answered<T = Record<string, any>>(req: Test, status: number): Promise<T> {
  const res = await req;
  if (res.status !== status) {
    const { method, url } = req as unknown as { method: string; url: string };
    throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body as T;
}

/**
 * Writes, through the routes, every transaction type the API writes (each at least once) in a
 * new organization `org` whose Owner is `owner`, every write through `step`. The log says which
 * types each step wrote; the types no route writes (a warrant's exercise) come in through the OCF
 * import, which the caller runs itself.
 */
export async function writeEveryTransaction(owner: Agent, org: OrgFixture, step: WriteStep) {
  const o = `/v1/organization/${org.id}`;

  // Classes: created, changed, more authorized shares, and one deleted at the end.
  const common = await step('class created', () =>
    createSecurity(owner, org.id, { authorizedShares: '1000000' }),
  );
  await step('class updated (name and authorized shares)', () =>
    answered(
      owner.put(`${o}/security/${common.id}`).send({
        name: 'Common Shares',
        classType: 'common',
        idPrefix: common.idPrefix,
        authorizedShares: '2000000',
      }),
      200,
    ),
  );
  await step('authorized shares added', () =>
    answered(owner.post(`${o}/security/${common.id}/shares`).send({ quantity: '500000' }), 201),
  );
  const unused = await step('a class to delete', () =>
    createSecurity(owner, org.id, { name: 'Unused', idPrefix: 'UN-' }),
  );

  // Legends
  const legend = await step('legend created', () =>
    answered(owner.post(`${o}/legend`).send({ name: 'Rule 144', text: 'Not registered.' }), 201),
  );
  await step('legend updated', () =>
    answered(owner.patch(`${o}/legend/${legend.id}`).send({ text: 'Not registered (1933).' }), 200),
  );
  await step('legend deleted', () => answered(owner.delete(`${o}/legend/${legend.id}`), 200));

  // Shareholdings: issued, amended, transferred in part, voided, then the class split.
  const alice = await step('member Alice', () => createHolder(owner, org.id, 'Alice'));
  const bob = await step('member Bob', () => createHolder(owner, org.id, 'Bob'));
  const shares = await step('shares issued', () =>
    issue(owner, org.id, { member: alice.id, security: common.id, quantity: '100000' }),
  );
  await step('shares amended', () =>
    answered(owner.patch(`/v1/shareholding/${shares.id}`).send({ consideration: 'Cash' }), 200),
  );
  await step('shares transferred in part', () =>
    answered(
      owner.post(`${o}/shareholding/transfer`).send({
        shareholding: shares.id,
        toMember: bob.id,
        quantity: '1000',
        date: '2024-02-01',
      }),
      201,
    ),
  );
  const toVoid = await step('shares to void', () =>
    issue(owner, org.id, { member: bob.id, security: common.id, quantity: '10' }),
  );
  await step('shares voided', () => answered(owner.delete(`/v1/shareholding/${toVoid.id}`), 200));
  await step('class split 2:1', () =>
    answered(
      owner
        .post(`${o}/security/${common.id}/split`)
        .send({ numerator: '2', denominator: '1', date: '2024-03-01' }),
      201,
    ),
  );

  // Valuations and capital changes
  const valuation = { organization: org.id, type: '409A', effectiveDate: '2024-01-01' };
  const recorded = await step('valuation recorded', () =>
    answered(owner.put('/v1/valuation').send({ ...valuation, pricePerShare: '1.25' }), 200),
  );
  await step('valuation amended', () =>
    answered(
      owner.put('/v1/valuation').send({ ...valuation, id: recorded.id, pricePerShare: '1.5' }),
      200,
    ),
  );
  const contribution = await step('capital change recorded', () =>
    answered(
      owner.post(`/v1/entity/${alice.entity}/capitalChange`).send({
        organization: org.id,
        member: alice.id,
        date: '2024-01-15',
        amount: '25000',
        currency: 'USD',
        type: 'contribution',
      }),
      201,
    ),
  );
  await step('capital change amended', () =>
    answered(
      owner
        .patch(`/v1/entity/${alice.entity}/capitalChange`)
        .send({ organization: org.id, id: contribution.id, amount: '26000' }),
      200,
    ),
  );

  // Plans: created with a pool, its reservation raised and pool changed, a pool added and removed,
  // a second plan deleted; vesting terms created and deleted.
  const plan = await step('plan created', () => createPlan(owner, org.id, common.id));
  const pool = plan.pools[0];
  const added = await step('pool added', () =>
    answered(
      owner.post(`/v1/plan/${plan.id}/pool`).send({ name: 'Advisors', sharesReserved: '1000' }),
      201,
    ),
  );
  await step('plan updated, pool changed, reservation raised, pool removed', () =>
    answered(
      owner.put(`/v1/plan/${plan.id}`).send({
        name: 'Renamed Plan',
        sharesReserved: '300000',
        pools: [{ id: pool.id, name: 'Employees (2024)', sharesReserved: '200000' }],
      }),
      200,
    ),
  );
  void added;
  const spare = await step('a plan to delete', () =>
    answered(
      owner
        .post(`${o}/plan`)
        .send({ name: 'Spare Plan', security: common.id, sharesReserved: '1000', pools: [] }),
      201,
    ),
  );
  await step('plan deleted', () => answered(owner.delete(`/v1/plan/${spare.id}`), 200));
  const schedule = await step('vesting terms created', () =>
    answered(
      owner.post('/v1/vestingSchedule').send({
        organization: org.id,
        name: 'Monthly over a year',
        totalPeriods: 12,
        periodLength: 1,
        periodType: 'months',
        cliffPeriods: 0,
        allocationType: 'CUMULATIVE_ROUNDING',
      }),
      201,
    ),
  );
  await step('vesting terms deleted', () =>
    answered(owner.delete(`/v1/plan/${plan.id}/vestingSchedule/${schedule.id}`), 200),
  );

  // Options: granted, an exercise requested and rejected, exercised, another cancelled.
  const table = { org, alice, security: common, plan, pool };
  const option = await step('option granted', () => createHolding(owner, optionBody(table)));
  const optionPath = `/v1/plan/${plan.id}/pool/${pool.id}/option/${option.id}`;
  const request = await step('exercise requested', () =>
    answered(owner.post(`${optionPath}/exercise/request`).send({ quantity: '100' }), 201),
  );
  await step('exercise request rejected', () =>
    answered(owner.delete(`${optionPath}/exercise/request/${request.id}`), 200),
  );
  await step('option exercised', () =>
    answered(owner.post(`${optionPath}/exercise`).send({ quantity: '200' }), 201),
  );
  const cancelled = await step('option to cancel', () => createHolding(owner, optionBody(table)));
  await step('option cancelled', () => answered(owner.delete(`/v1/holding/${cancelled.id}`), 200));

  // Warrants: issued, amended, cancelled.
  const warrant = await step('warrant issued', () => createHolding(owner, warrantBody(table)));
  await step('warrant amended', () =>
    answered(owner.patch(`/v1/holding/${warrant.id}`).send({ exercisePrice: '2.5' }), 200),
  );
  await step('warrant cancelled', () => answered(owner.delete(`/v1/holding/${warrant.id}`), 200));

  // Notes and SAFEs: a note repaid in part, a SAFE converted, another note cancelled.
  const note = await step('note issued', () => createHolding(owner, noteBody(table)));
  await step('note repaid in part', () =>
    answered(
      owner.post(`/v1/holding/${note.id}/repay`).send({ amount: '1000', date: '2024-06-01' }),
      200,
    ),
  );
  const safe = await step('SAFE issued', () => createHolding(owner, safeBody(table)));
  await step('SAFE converted', () =>
    answered(
      owner
        .post(`/v1/holding/${safe.id}/convert`)
        .send({ date: '2024-03-01', security: common.id, pricePerShare: '1' }),
      201,
    ),
  );
  const spareNote = await step('note to cancel', () => createHolding(owner, noteBody(table)));
  await step('note cancelled', () => answered(owner.delete(`/v1/holding/${spareNote.id}`), 200));

  await step('class deleted', () => answered(owner.delete(`${o}/security/${unused.id}`), 200));
}
