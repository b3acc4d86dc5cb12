import { Injectable } from '@nestjs/common';
import { AccessContext } from '../common';
import { InTransaction } from '../database';
import { DomainEvent } from '../events';

/**
 * The counts the billing provider charges by, as domain events recorded in the transaction of the
 * change: shareholders (members holding active shares) and members with equity (active shares or
 * an active grant, warrant, note or SAFE).
 */
@Injectable()
export class StakeholderCounts {
  async shareholders(tx: InTransaction, access: AccessContext): Promise<DomainEvent> {
    const [row] = (await tx.manager.query(
      `SELECT count(DISTINCT member_id)::int AS n FROM shareholding
       WHERE organization_id = $1 AND status = 'active'`,
      [access.organizationId],
    )) as { n: number }[];
    return {
      type: 'billing.shareholder_count_changed',
      organizationId: access.organizationId,
      actorUserId: access.userId,
      object: { organization: access.organizationId, shareholders: row.n },
      description: `${row.n} shareholders`,
    };
  }

  async members(tx: InTransaction, access: AccessContext): Promise<DomainEvent> {
    const [row] = (await tx.manager.query(
      `SELECT count(*)::int AS n FROM (
         SELECT member_id FROM shareholding WHERE organization_id = $1 AND status = 'active'
         UNION
         SELECT member_id FROM holding WHERE organization_id = $1 AND status = 'active'
       ) m`,
      [access.organizationId],
    )) as { n: number }[];
    return {
      type: 'billing.member_count_changed',
      organizationId: access.organizationId,
      actorUserId: access.userId,
      object: { organization: access.organizationId, members: row.n },
      description: `${row.n} members with equity`,
    };
  }
}
