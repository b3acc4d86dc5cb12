import type { Agent } from 'supertest';
import type { TestApp } from '../../support/app';
import { createSecurity, issue } from '../../support/cap-table';
import { createOrg } from '../../support/orgs';
import { loggedInAgent, LoggedInUser } from '../../support/users';

/**
 * A rich organization for the OCF export and import tests, built through the routes: every holding
 * type (common and preferred shares, ISO and NSO options, an RSU, a warrant, a SAFE and two
 * convertible notes), two legends, a plan with a pool (its reservation adjusted), a vesting
 * schedule, two valuations (a 409A of the common class and a round price of no class), a partial
 * and a full transfer, a voided shareholding, a cancelled option, an exercise, two conversions, a
 * partial and a full repayment and an authorized-shares change.
 *
 * Every date below 2024-01-01, so `?asOf=2021-12-31` cuts the log in the middle: the preferred
 * round (2022-06-01) and everything after it are later.
 */
export interface RichOrganization {
  owner: LoggedInUser;
  org: { id: string; entity: string; address: string };
  name: string;
  members: Record<'alice' | 'bob' | 'carol' | 'dan' | 'erin', string>;
  securities: { common: string; preferred: string };
  legends: { rule144: string; lockUp: string };
  plan: string;
  pool: string;
  schedule: string;
  shareholdings: {
    aliceCommon: string;
    bobCommon: string;
    danPreferred: string;
    voided: string;
    /** Alice → Carol, 200,000 of Alice's 1,000,000 (partial). */
    carolFromAlice: string;
    /** Bob → Erin, all 500,000 (full). */
    erinFromBob: string;
    exercised: string;
    fromSafe: string;
    fromNote: string;
  };
  holdings: {
    isoOption: string;
    nsoOption: string;
    rsu: string;
    warrant: string;
    safe: string;
    repaidNote: string;
    convertedNote: string;
  };
  valuations: { common409a: string; round: string };
}

async function ok<T = Record<string, any>>(
  res: Promise<{ status: number; body: unknown }>,
  status: number,
  what: string,
): Promise<T> {
  const r = await res;
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as T;
}

async function member(agent: Agent, orgId: string, name: string, email?: string) {
  const body = await ok<{ id: string }>(
    agent.post(`/v1/organization/${orgId}/member`).send({ name, email }),
    201,
    `member ${name}`,
  );
  return body.id;
}

/** Builds the rich organization (a new owner and organization named `name`). */
export async function buildRichOrganization(
  t: TestApp,
  name = 'Rich Cap Table Inc.',
): Promise<RichOrganization> {
  const owner = await loggedInAgent(t);
  const a = owner.agent;
  const org = await createOrg(a, name);
  const o = org.id;
  const tag = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

  const common = await createSecurity(a, o, {
    name: 'Common Stock',
    classType: 'common',
    idPrefix: 'CS-',
    authorizedShares: '10000000',
    parValue: '0.0001',
    boardApprovalDate: '2019-01-01',
  });
  const preferred = await createSecurity(a, o, {
    name: 'Series A Preferred',
    classType: 'preferred',
    idPrefix: 'PA-',
    authorizedShares: '3000000',
    parValue: '0.0001',
    originalIssuePrice: '1',
    seniority: 2,
    liquidationPreferenceMultiple: '1',
    participating: true,
    participationCapMultiple: '3',
    conversionRatio: '1',
    boardApprovalDate: '2022-05-15',
  });

  const rule144 = await ok(
    a.post(`/v1/organization/${o}/legend`).send({
      name: 'Rule 144',
      text: 'THESE SECURITIES HAVE NOT BEEN REGISTERED UNDER THE SECURITIES ACT OF 1933.',
    }),
    201,
    'legend',
  );
  const lockUp = await ok(
    a.post(`/v1/organization/${o}/legend`).send({
      name: 'Lock-up',
      text: 'These shares are subject to a lock-up of 180 days after an initial public offering.',
    }),
    201,
    'legend',
  );

  const alice = await member(a, o, 'Alice Founder', `alice-${tag}@example.com`);
  const bob = await member(a, o, 'Bob Founder', `bob-${tag}@example.com`);
  const carol = await member(a, o, 'Carol Employee');
  const dan = await member(a, o, 'Dan Investor', `dan-${tag}@example.com`);
  const erin = await member(a, o, 'Erin Angel');

  const aliceCommon = await issue(a, o, {
    member: alice,
    security: common.id,
    quantity: '1000000',
    pricePerShare: '0.0001',
    issueDate: '2020-01-01',
    legendIds: [rule144.id],
    consideration: 'Assignment of intellectual property',
  });
  const bobCommon = await issue(a, o, {
    member: bob,
    security: common.id,
    quantity: '500000',
    pricePerShare: '0.0001',
    issueDate: '2020-02-01',
    legendIds: [rule144.id, lockUp.id],
  });
  await ok(
    a
      .post(`/v1/organization/${o}/security/${common.id}/shares`)
      .send({ quantity: '1000000', date: '2021-01-15', reason: 'Board consent of 2021-01-15' }),
    201,
    'authorized shares',
  );

  const plan = await ok(
    a.post(`/v1/organization/${o}/plan`).send({
      name: '2019 Equity Incentive Plan',
      security: common.id,
      sharesReserved: '1000000',
      boardApprovalDate: '2019-01-01',
      stockholderApprovalDate: '2019-01-15',
      pools: [{ name: 'Employees', sharesReserved: '800000' }],
    }),
    201,
    'plan',
  );
  const pool = plan.pools[0].id as string;
  await ok(
    a.put(`/v1/plan/${plan.id}`).send({
      name: '2019 Equity Incentive Plan',
      sharesReserved: '1200000',
      boardApprovalDate: '2019-01-01',
      stockholderApprovalDate: '2019-01-15',
      defaultCancellationBehavior: 'return_to_pool',
      pools: [{ id: pool, name: 'Employees', sharesReserved: '1000000' }],
    }),
    200,
    'plan reservation',
  );
  const schedule = await ok(
    a.post('/v1/vestingSchedule').send({
      organization: o,
      name: 'Standard 4y / 1y cliff',
      totalPeriods: 48,
      periodLength: 1,
      periodType: 'months',
      cliffPeriods: 12,
      allocationType: 'CUMULATIVE_ROUNDING',
    }),
    201,
    'vesting schedule',
  );

  const grant = (body: Record<string, unknown>) =>
    ok(a.post('/v1/holding').send({ organization: o, ...body }), 201, `holding ${body.type}`);
  const isoOption = await grant({
    member: carol,
    type: 'option_iso',
    plan: plan.id,
    pool,
    quantity: '4800',
    exercisePrice: '0.5',
    grantDate: '2019-01-01',
    vestingStartDate: '2019-01-01',
    expirationDate: '2029-01-01',
    vestingSchedule: schedule.id,
    terminationExerciseWindows: [{ reason: 'VOLUNTARY_OTHER', period: 3, periodType: 'months' }],
  });
  const nsoOption = await grant({
    member: bob,
    type: 'option_nso',
    plan: plan.id,
    pool,
    quantity: '10000',
    exercisePrice: '0.5',
    grantDate: '2020-01-01',
  });
  const rsu = await grant({
    member: erin,
    type: 'rsu',
    plan: plan.id,
    pool,
    quantity: '2000',
    grantDate: '2020-06-01',
    vestingSchedule: schedule.id,
  });

  // Alice gives Carol 200,000 of her 1,000,000 (partial); Bob gives Erin all his 500,000.
  const partial = await ok(
    a.post(`/v1/organization/${o}/shareholding/transfer`).send({
      shareholding: aliceCommon.id,
      toMember: carol,
      quantity: '200000',
      date: '2021-03-01',
      pricePerShare: '0.5',
    }),
    201,
    'partial transfer',
  );
  const full = await ok(
    a
      .post(`/v1/organization/${o}/shareholding/transfer`)
      .send({ shareholding: bobCommon.id, toMember: erin, quantity: '500000', date: '2021-04-01' }),
    201,
    'full transfer',
  );
  const voided = await issue(a, o, {
    member: carol,
    security: common.id,
    quantity: '10000',
    issueDate: '2021-05-01',
  });
  await ok(a.delete(`/v1/shareholding/${voided.id}`), 200, 'void');
  await ok(a.delete(`/v1/holding/${nsoOption.id}`), 200, 'cancel option');
  const exercise = await ok(
    a
      .post(`/v1/plan/${plan.id}/pool/${pool}/option/${isoOption.id}/exercise`)
      .send({ quantity: '1000', date: '2021-06-01' }),
    201,
    'exercise',
  );

  const common409a = await ok(
    a.put('/v1/valuation').send({
      organization: o,
      type: '409A',
      pricePerShare: '0.25',
      security: common.id,
      effectiveDate: '2021-01-01',
      provider: 'Valuation Partners LLC',
    }),
    200,
    'valuation',
  );

  const safe = await grant({
    member: dan,
    type: 'safe',
    amount: '100000',
    safeType: 'post_money',
    valuationCap: '8000000',
    discount: '20',
    issueDate: '2021-01-01',
    proRata: true,
  });
  const repaidNote = await grant({
    member: erin,
    type: 'convertible_note',
    principal: '50000',
    interestRate: '6',
    interestType: 'simple',
    dayCount: '30/360',
    issueDate: '2021-01-01',
    maturityDate: '2023-01-01',
  });
  const convertedNote = await grant({
    member: carol,
    type: 'convertible_note',
    principal: '20000',
    interestRate: '5',
    interestType: 'simple',
    dayCount: 'actual/365',
    issueDate: '2021-07-01',
    maturityDate: '2023-07-01',
    valuationCap: '6000000',
    discount: '15',
  });
  // 30/360 simple 6 % on 50,000 for 2021: 3,000 of interest; 10,000 pays it and 7,000 of principal.
  await ok(
    a.post(`/v1/holding/${repaidNote.id}/repay`).send({ amount: '10000', date: '2021-12-31' }),
    200,
    'partial repayment',
  );

  // The Series A round of 2022-06-01.
  const danPreferred = await issue(a, o, {
    member: dan,
    security: preferred.id,
    quantity: '1000000',
    pricePerShare: '1',
    issueDate: '2022-06-01',
    legendIds: [rule144.id],
  });
  const round = await ok(
    a.put('/v1/valuation').send({
      organization: o,
      type: 'preferred_round',
      pricePerShare: '1',
      effectiveDate: '2022-06-01',
    }),
    200,
    'round valuation',
  );
  const fromSafe = await ok(
    a
      .post(`/v1/holding/${safe.id}/convert`)
      .send({ date: '2022-06-01', security: preferred.id, pricePerShare: '1' }),
    201,
    'convert safe',
  );
  const fromNote = await ok(
    a
      .post(`/v1/holding/${convertedNote.id}/convert`)
      .send({ date: '2022-06-01', security: preferred.id, pricePerShare: '1' }),
    201,
    'convert note',
  );
  const warrant = await grant({
    member: dan,
    type: 'warrant',
    security: preferred.id,
    quantity: '50000',
    exercisePrice: '1',
    grantDate: '2022-06-01',
    expirationDate: '2032-06-01',
  });
  // 30/360 simple 6 % on the 43,000 left, 2022-01-01 … 2023-01-01 (360 days): 2,580.
  await ok(
    a.post(`/v1/holding/${repaidNote.id}/repay`).send({ amount: '45580', date: '2022-12-31' }),
    200,
    'full repayment',
  );

  return {
    owner,
    org,
    name,
    members: { alice, bob, carol, dan, erin },
    securities: { common: common.id, preferred: preferred.id },
    legends: { rule144: rule144.id, lockUp: lockUp.id },
    plan: plan.id,
    pool,
    schedule: schedule.id,
    shareholdings: {
      aliceCommon: aliceCommon.id,
      bobCommon: bobCommon.id,
      danPreferred: danPreferred.id,
      voided: voided.id,
      carolFromAlice: partial.destination.id,
      erinFromBob: full.destination.id,
      exercised: exercise.shareholding?.id ?? exercise.shareholding,
      fromSafe: fromSafe.shareholding.id,
      fromNote: fromNote.shareholding.id,
    },
    holdings: {
      isoOption: isoOption.id,
      nsoOption: nsoOption.id,
      rsu: rsu.id,
      warrant: warrant.id,
      safe: safe.id,
      repaidNote: repaidNote.id,
      convertedNote: convertedNote.id,
    },
    valuations: { common409a: common409a.id, round: round.id },
  };
}
