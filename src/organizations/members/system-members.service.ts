import { Injectable } from '@nestjs/common';
import type { Tx } from '../../events';
import { RoleLookup } from '../roles/role-lookup';
import { MemberRepository } from './member.repository';
import { memberEvent } from './member-rules';

/** A system account to make a member of an organization (see auth's SystemAccounts). */
export interface SystemAccountRef {
  userId: string;
  entityId: string;
  name: string;
}

/**
 * Members that are the service's own actors (a gateway hook's): active, holding the built-in
 * Viewer role, so the permission guard decides their requests as any Viewer's.
 */
@Injectable()
export class SystemMembers {
  constructor(
    private readonly members: MemberRepository,
    private readonly roles: RoleLookup,
  ) {}

  /** Adds the account as a Viewer of the organization, with its `member.added` event; the member id. */
  async addViewer(tx: Tx, organizationId: string, account: SystemAccountRef): Promise<string> {
    const role = await this.roles.resolve(tx, organizationId, 'Viewer');
    const member = await this.members.add(
      {
        organizationId,
        userId: account.userId,
        entityId: account.entityId,
        name: account.name,
        email: null,
        roleId: role.id,
        status: 'active',
      },
      tx,
    );
    await tx.record(
      memberEvent(
        'member.added',
        account.userId,
        member,
        `member ${account.name}: added as Viewer (the gateway hooks' system account)`,
      ),
    );
    return member.id;
  }
}
