import { Injectable } from '@nestjs/common';
import { AccessContext } from '../common';
import { ownedSql } from '../database';
import { DomainEvent } from '../events';
import { tallyAtCommit } from './ledger/equity-tally';

/** Whose change it is. */
type Counted = Pick<AccessContext, 'organizationId' | 'userId'>;

/**
 * The counts the billing provider charges by, as domain events recorded in the transaction of the
 * change: shareholders (members holding active shares) and members with equity (active shares or
 * an active grant, warrant, note or SAFE). The database keeps both (triggers on the holdings'
 * tables); each event reads its count when it is written, at the end of the change, so the count
 * includes every write of the change and costs no round trip of its own.
 */
@Injectable()
export class StakeholderCounts {
  shareholders(access: Counted): DomainEvent {
    return this.event(access, 'billing.shareholder_count_changed', 'shareholders', 'shareholders');
  }

  members(access: Counted): DomainEvent {
    return this.event(access, 'billing.member_count_changed', 'members', 'members with equity');
  }

  private event(
    access: Counted,
    type: DomainEvent['type'],
    count: 'shareholders' | 'members',
    words: string,
  ): DomainEvent {
    // Written into the outbox's statement (events'): marked as the cap table's SQL.
    const n = ownedSql('cap-table', tallyAtCommit(count));
    return {
      type,
      organizationId: access.organizationId,
      actorUserId: access.userId,
      object: { organization: access.organizationId },
      atCommit: {
        object: `jsonb_build_object('organization', e.organization_id, '${count}', ${n})`,
        description: `${n}::text || ' ${words}'`,
      },
    };
  }
}
