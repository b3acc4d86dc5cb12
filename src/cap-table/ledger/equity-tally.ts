import type { EntityManager } from 'typeorm';

/**
 * The organization's counts as the database keeps them (triggers on the holdings' tables, see the
 * migration EquityTallies): read in the change's transaction after its writes, they include them.
 */
const TALLY = `
  SELECT coalesce(max(shareholders), 0)::int AS shareholders, coalesce(max(members), 0)::int AS members
  FROM organization_equity_tally WHERE organization_id = $1`;

/** Each count recounted from the holdings, for `ledger:verify` to compare with the tally. */
const RECOUNT = `
  SELECT count(*) FILTER (WHERE s > 0)::int AS shareholders, count(*)::int AS members FROM (
    SELECT member_id, count(*) FILTER (WHERE k = 's') AS s FROM (
      SELECT member_id, 's' AS k FROM shareholding WHERE organization_id = $1 AND status = 'active'
      UNION ALL
      SELECT member_id, 'h' FROM holding WHERE organization_id = $1 AND status = 'active') a
    GROUP BY member_id) m`;

/**
 * The organization's count as a SQL expression over an outbox event's row `e` (an event's part
 * read at commit, `DomainEvent.atCommit`): after every write of the change and its triggers.
 */
export const tallyAtCommit = (count: keyof Tally) =>
  `(SELECT coalesce(max(t.${count}), 0) FROM organization_equity_tally t WHERE t.organization_id = e.organization_id)`;

/** The organization's billing counts. */
export interface Tally {
  shareholders: number;
  members: number;
}

export async function readTally(manager: EntityManager, organizationId: string): Promise<Tally> {
  return ((await manager.query(TALLY, [organizationId])) as Tally[])[0];
}

export async function recountTally(manager: EntityManager, organizationId: string): Promise<Tally> {
  return ((await manager.query(RECOUNT, [organizationId])) as Tally[])[0];
}
