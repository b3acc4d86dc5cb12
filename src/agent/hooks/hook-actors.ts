import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SystemAccounts, SystemSessions } from '../../auth';
import { AccessContext, DomainError, InProcessCaller } from '../../common';
import { lockUntilCommit } from '../../database';
import { UnitOfWork } from '../../events';
import { BUILT_IN_ROLES, OrganizationsDirectory, SystemMembers } from '../../organizations';
import { AgentHookActor } from '../store/agent-hook-actor.entity';

const VIEWER = BUILT_IN_ROLES.find((r) => r.key === 'viewer')!;
const ACTOR_NAME = 'Gateway hooks (system)';

/** A hook actor at work: its session (as an in-process caller) and its access. */
export interface ActingAs {
  caller: InProcessCaller;
  access: AccessContext;
}

/**
 * Who a gateway hook's agent turns act as: one system account per organization, an active member
 * holding the built-in Viewer role, made on first use. Its requests carry a session minted for
 * it, so the permission guard decides them as any Viewer's: it reads, and writes nothing.
 */
@Injectable()
export class HookActors {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly accounts: SystemAccounts,
    private readonly members: SystemMembers,
    private readonly sessions: SystemSessions,
    private readonly organizations: OrganizationsDirectory,
  ) {}

  /** Runs `work` as the organization's hook actor, its minted session ended afterwards. */
  async actAs<T>(organizationId: string, work: (acting: ActingAs) => Promise<T>): Promise<T> {
    const organization = await this.organizations.organization(organizationId);
    if (!organization) throw DomainError.notFound('no such organization');
    const actor = await this.actorOf(organizationId);
    const session = await this.sessions.open(actor.userId);
    try {
      return await work({
        caller: { cookie: session.cookie },
        access: {
          userId: actor.userId,
          organizationId,
          organization: {
            id: organizationId,
            type: organization.type,
            currency: organization.currency,
          },
          memberId: actor.memberId,
          roleId: VIEWER.id,
          scope: 'all',
          permissions: new Set(VIEWER.permissions),
          versions: {},
        },
      });
    } finally {
      await session.end();
    }
  }

  private async actorOf(organizationId: string): Promise<AgentHookActor> {
    const found = await this.dataSource.manager.findOneBy(AgentHookActor, { organizationId });
    if (found) return found;
    return this.uow.run(async (tx) => {
      await lockUntilCommit(tx.manager, `agent:hook-actor:${organizationId}`);
      const made = await tx.manager.findOneBy(AgentHookActor, { organizationId });
      if (made) return made;
      const account = await this.accounts.create(tx, ACTOR_NAME);
      const memberId = await this.members.addViewer(tx, organizationId, {
        userId: account.id,
        entityId: account.entityId,
        name: ACTOR_NAME,
      });
      return tx.manager.save(
        tx.manager.create(AgentHookActor, { organizationId, userId: account.id, memberId }),
      );
    });
  }
}
