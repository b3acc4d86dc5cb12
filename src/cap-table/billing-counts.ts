import { Injectable } from '@nestjs/common';
import { AccessContext } from '../common';
import { InTransaction } from '../database';
import { DomainEvent } from '../events';
import { readTally } from './ledger/equity-tally';

/**
 * The counts the billing provider charges by, as domain events recorded in the transaction of the
 * change: shareholders (members holding active shares) and members with equity (active shares or
 * an active grant, warrant, note or SAFE).
 */
@Injectable()
export class StakeholderCounts {
  async shareholders(tx: InTransaction, access: AccessContext): Promise<DomainEvent> {
    const row = { n: (await readTally(tx.manager, access.organizationId!)).shareholders };
    return {
      type: 'billing.shareholder_count_changed',
      organizationId: access.organizationId,
      actorUserId: access.userId,
      object: { organization: access.organizationId, shareholders: row.n },
      description: `${row.n} shareholders`,
    };
  }

  async members(tx: InTransaction, access: AccessContext): Promise<DomainEvent> {
    const row = { n: (await readTally(tx.manager, access.organizationId!)).members };
    return {
      type: 'billing.member_count_changed',
      organizationId: access.organizationId,
      actorUserId: access.userId,
      object: { organization: access.organizationId, members: row.n },
      description: `${row.n} members with equity`,
    };
  }
}
