import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { TestApp } from '../../support/app';
import { createHolder } from '../../support/cap-table';
import { orgWithClass } from '../../support/world';

/** What the holdings e2e files share: a cap table with a plan, and reads of the log and outbox. */

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const MISSING = '00000000-0000-4000-8000-00000000abcd';
export const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export interface PlanBody {
  id: string;
  security: string;
  defaultCancellationBehavior: string;
  pools: { id: string; name: string; sharesReserved: string; granted: string; available: string }[];
}

/** A plan through `POST /v1/organization/:organization/plan` (one pool by default). */
export async function createPlan(
  agent: Agent,
  orgId: string,
  security: string,
  fields: Record<string, unknown> = {},
): Promise<PlanBody> {
  const res = await agent.post(`/v1/organization/${orgId}/plan`).send({
    name: 'Equity Incentive Plan',
    security,
    sharesReserved: '100000',
    pools: [{ name: 'Employees', sharesReserved: '50000' }],
    ...fields,
  });
  if (res.status !== 201) throw new Error(`create plan: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function getPlan(agent: Agent, planId: string): Promise<PlanBody> {
  const res = await agent.get(`/v1/plan/${planId}`);
  if (res.status !== 200) throw new Error(`get plan: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The standard 4-year, 1-year-cliff schedule (or `fields`) through `POST /v1/vestingSchedule`. */
export async function createSchedule(
  agent: Agent,
  orgId: string,
  fields: Record<string, unknown> = {},
): Promise<{ id: string }> {
  const res = await agent.post('/v1/vestingSchedule').send({
    organization: orgId,
    name: 'Standard 4y / 1y cliff',
    totalPeriods: 48,
    periodLength: 1,
    periodType: 'months',
    cliffPeriods: 12,
    allocationType: 'CUMULATIVE_ROUNDING',
    ...fields,
  });
  if (res.status !== 201) {
    throw new Error(`create schedule: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body;
}

/** `POST /v1/holding`, expecting 201. */
export async function createHolding(agent: Agent, body: Record<string, unknown>) {
  const res = await agent.post('/v1/holding').send(body);
  if (res.status !== 201) {
    throw new Error(`create holding: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body as Record<string, any> & { id: string; status: string };
}

/** An organization with its owner, a class of 1,000,000 shares, a holder and a plan with a pool. */
export async function incentiveTable(t: TestApp, type?: 'llc') {
  const { owner, org, security } = await orgWithClass(t, { type });
  const alice = await createHolder(owner.agent, org.id, 'Alice');
  const plan = await createPlan(owner.agent, org.id, security.id);
  return { owner, org, security, alice, plan, pool: plan.pools[0] };
}

export type IncentiveTable = Awaited<ReturnType<typeof incentiveTable>>;

/** What the body builders below read of a table: the ids only. */
type Ids<K extends keyof IncentiveTable> = Record<K, { id: string }>;

/** The body of an ISO option grant of `quantity` from the table's pool. */
export const optionBody = (
  x: Ids<'org' | 'alice' | 'plan' | 'pool'>,
  fields: Record<string, unknown> = {},
) => ({
  organization: x.org.id,
  member: x.alice.id,
  type: 'option_iso',
  plan: x.plan.id,
  pool: x.pool.id,
  quantity: '4800',
  exercisePrice: '0.5',
  grantDate: '2019-01-01',
  ...fields,
});

export const noteBody = (x: Ids<'org' | 'alice'>, fields: Record<string, unknown> = {}) => ({
  organization: x.org.id,
  member: x.alice.id,
  type: 'convertible_note',
  principal: '100000',
  interestRate: '6',
  interestType: 'simple',
  dayCount: '30/360',
  issueDate: '2024-01-01',
  maturityDate: '2026-01-01',
  ...fields,
});

export const safeBody = (x: Ids<'org' | 'alice'>, fields: Record<string, unknown> = {}) => ({
  organization: x.org.id,
  member: x.alice.id,
  type: 'safe',
  amount: '100000',
  safeType: 'post_money',
  valuationCap: '4000000',
  issueDate: '2024-01-01',
  ...fields,
});

export const warrantBody = (
  x: Ids<'org' | 'alice' | 'security'>,
  fields: Record<string, unknown> = {},
) => ({
  organization: x.org.id,
  member: x.alice.id,
  type: 'warrant',
  security: x.security.id,
  quantity: '1000',
  exercisePrice: '2',
  grantDate: '2024-01-01',
  ...fields,
});

export interface LogEntry {
  type: string;
  effectiveDate: string;
  actor: string;
  payload: Record<string, any>;
}

export const ledgerLog = async (db: DataSource, orgId: string) =>
  (await db.query(
    `SELECT type, effective_date::text AS "effectiveDate", actor_user_id AS actor, payload
     FROM equity_transaction WHERE organization_id = $1 ORDER BY sequence`,
    [orgId],
  )) as LogEntry[];

export interface OutboxRow {
  type: string;
  description: string | null;
  data: { object: Record<string, any>; previous_attributes: Record<string, any> };
}

export const outbox = async (db: DataSource, orgId: string) =>
  (await db.query(
    `SELECT type, description, data FROM outbox_event WHERE organization_id = $1 ORDER BY sequence`,
    [orgId],
  )) as OutboxRow[];

export const holdingCount = async (db: DataSource, orgId: string) =>
  Number(
    (
      (await db.query('SELECT count(*)::int AS n FROM holding WHERE organization_id = $1', [
        orgId,
      ])) as { n: number }[]
    )[0].n,
  );

/** Today as the service computes it (UTC). */
export const todayUtc = () => new Date().toISOString().slice(0, 10);
