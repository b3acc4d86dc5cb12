import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AccessContext, DomainError } from '../../common';
import { readTally } from '../../cap-table';
import { OrganizationsDirectory } from '../../organizations';
import { AgentLimits } from '../limits/agent-limits';
import { TokenBudgets } from '../limits/token-budgets';
import { Conversations } from '../store/conversations';
import { AgentTools } from '../tools/agent-tools.service';
import { AgentContextView } from './agent-context.view';

@Injectable()
export class AgentContext {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly directory: OrganizationsDirectory,
    private readonly tools: AgentTools,
    private readonly limits: AgentLimits,
    private readonly budgets: TokenBudgets,
    private readonly conversations: Conversations,
  ) {}

  async of(access: AccessContext): Promise<AgentContextView> {
    const organizationId = access.organizationId!;
    const [organization, members, tally, tools, limits, tokens, main] = await Promise.all([
      this.directory.organization(organizationId),
      this.directory.currentMembers(organizationId),
      readTally(this.dataSource.manager, organizationId),
      this.tools.forCaller(access),
      this.limits.state(access.userId),
      this.budgets.state(this.budgets.organization(organizationId)),
      this.conversations.mainIdFor(access),
    ]);
    if (!organization) throw DomainError.notFound();
    return {
      organization: {
        id: organization.id,
        name: organization.name,
        legalName: organization.legalName,
        currency: organization.currency,
        type: organization.type,
      },
      role: access.roleId,
      permissions: [...access.permissions].sort(),
      counts: {
        members: members.length,
        shareholders: Number(tally?.shareholders ?? 0),
        stakeholders: Number(tally?.members ?? 0),
      },
      capabilities: {
        confirmWrites: this.tools.requiresConfirmation({ kind: 'write' }),
        tools: tools.filter((t) => t.allowed).map((t) => t.name),
      },
      limits: { ...limits, tokens },
      mainConversationId: main,
    };
  }
}
