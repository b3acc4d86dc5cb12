import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Request } from 'express';
import { Repository } from 'typeorm';
import { Clock, DomainError, inProcessCallerOf } from '../../common';
import { Env } from '../../config';
import { OrganizationsDirectory, SELF_PERMISSIONS } from '../../organizations';
import { AgentLimits } from '../limits/agent-limits';
import { AgentConversation } from '../store/agent-conversation.entity';
import { AgentStep } from '../store/agent-step.entity';
import { Conversations, MAIN_CONVERSATION_PERMISSION } from '../store/conversations';
import { TOOLS, ToolDefinition } from '../tools/tool-catalogue';
import { outputText, ToolRunner } from '../tools/tool-runner';
import { ConfirmView, PendingConfirmationView } from './chat.view';
import { MemberAuthors } from './member-authors';
import { untrusted } from './untrusted';

const SUMMARY_CHARS = 500;

/** Write and destructive tool calls waiting for a person, and their decision. */
@Injectable()
export class AgentSteps {
  constructor(
    @InjectRepository(AgentStep) private readonly steps: Repository<AgentStep>,
    @InjectRepository(AgentConversation)
    private readonly conversationRows: Repository<AgentConversation>,
    private readonly conversations: Conversations,
    private readonly runner: ToolRunner,
    private readonly limits: AgentLimits,
    private readonly directory: OrganizationsDirectory,
    private readonly authors: MemberAuthors,
    private readonly env: Env,
    private readonly clock: Clock,
  ) {}

  /** Stores the call as a pending step of the conversation. */
  async propose(
    conversation: AgentConversation,
    proposedBy: string | null,
    toolUseId: string,
    tool: ToolDefinition,
    input: Record<string, unknown>,
  ): Promise<PendingConfirmationView> {
    const summary = `${tool.description} ${JSON.stringify(input)}`.slice(0, SUMMARY_CHARS);
    const expiresAt = this.clock.after(this.env.AGENT_PENDING_TTL_MINUTES * 60_000);
    const step = await this.steps.save(
      this.steps.create({
        conversationId: conversation.id,
        organizationId: conversation.organizationId,
        proposedBy,
        toolUseId,
        tool: tool.name,
        kind: tool.kind as 'write' | 'destructive',
        input,
        summary,
        status: 'pending',
        decidedBy: null,
        decidedAt: null,
        result: null,
        error: null,
        expiresAt,
      }),
    );
    return {
      stepId: step.id,
      tool: step.tool,
      kind: step.kind,
      input,
      summary,
      expiresAt: expiresAt.toISOString(),
    };
  }

  /**
   * A person's decision on a step: rejected, or run as that person. Either needs the step's tool
   * permission, checked now: without it the step is not theirs to decide (403, it stays pending
   * for someone who may), except that the person it was proposed to, having lost the permission
   * since, sees their confirmation decide it as `failed`. The conversation gets the outcome,
   * which the model reads on its next turn.
   */
  async decide(
    req: Request,
    userId: string,
    stepId: string,
    confirmed: boolean,
  ): Promise<ConfirmView> {
    const step = await this.steps.findOneBy({ id: stepId });
    const conversation =
      step && (await this.conversationRows.findOneBy({ id: step.conversationId }));
    if (!step || !conversation || !(await this.mayDecide(conversation, userId))) {
      throw DomainError.notFound();
    }
    if (step.status !== 'pending') throw DomainError.conflict(`the step is already ${step.status}`);
    if (step.expiresAt.getTime() <= this.clock.nowMs())
      throw DomainError.conflict('the step has expired');
    const tool = TOOLS.find((t) => t.name === step.tool)!;
    const permitted = await this.permitted(userId, step.organizationId, tool);
    if (!permitted && !(confirmed && step.proposedBy === userId)) {
      throw DomainError.forbidden(
        `deciding this step requires ${tool.permission}, which you do not hold here`,
      );
    }
    if (!confirmed) {
      await this.settle(step, userId, { status: 'rejected' });
      await this.tell(conversation, step, userId, 'was rejected by the person; it did not run');
      return { stepId, status: 'rejected' };
    }
    if (!permitted) {
      const error = `requires ${tool.permission}, which the confirming person does not hold`;
      await this.settle(step, userId, { status: 'failed', error });
      await this.tell(conversation, step, userId, `failed: ${error}`);
      return { stepId, status: 'failed', error };
    }
    // Refused by the limit: the step stays pending, to be confirmed later.
    await this.limits.consume(tool.kind === 'destructive' ? 'destructive' : 'writes', userId);
    if (!(await this.claim(step.id, userId))) {
      throw DomainError.conflict('the step was decided meanwhile');
    }
    const outcome = await this.runner.run(
      inProcessCallerOf(req),
      step.organizationId,
      tool,
      step.input,
    );
    const status = outcome.ok ? 'executed' : 'failed';
    await this.steps.update(step.id, {
      status,
      result: { status: outcome.status, body: outcome.body } as never,
      error: outcome.error ?? null,
    });
    await this.tell(
      conversation,
      step,
      userId,
      `was confirmed and run: ${outputText(outcome)}`,
      tool.permission,
    );
    return {
      stepId,
      status,
      ...(outcome.ok ? { result: outcome.body } : { error: outcome.error }),
    };
  }

  /** The caller's own chat, or the main conversation of an organization they take part in. */
  private async mayDecide(conversation: AgentConversation, userId: string): Promise<boolean> {
    if (conversation.kind === 'chat') return conversation.userId === userId;
    if (conversation.kind !== 'main') return false;
    const member = await this.directory.organizationsPermitting(
      userId,
      MAIN_CONVERSATION_PERMISSION,
    );
    return member.includes(conversation.organizationId);
  }

  private async permitted(userId: string, organizationId: string, tool: ToolDefinition) {
    if (SELF_PERMISSIONS.has(tool.permission)) return true;
    return (await this.directory.organizationsPermitting(userId, tool.permission)).includes(
      organizationId,
    );
  }

  /** Takes the decision for one caller: two confirmations at once run the step once. */
  private async claim(stepId: string, userId: string): Promise<boolean> {
    const [, affected] = (await this.steps.query(
      `UPDATE agent_step SET decided_by = $2, decided_at = now()
       WHERE id = $1 AND status = 'pending' AND decided_at IS NULL AND expires_at > $3`,
      [stepId, userId, this.clock.now()],
    )) as [unknown, number];
    return affected === 1;
  }

  private async settle(step: AgentStep, userId: string, outcome: Partial<AgentStep>) {
    const [, affected] = (await this.steps.query(
      `UPDATE agent_step SET decided_by = $2, decided_at = now(), status = $3, error = $4
       WHERE id = $1 AND status = 'pending' AND decided_at IS NULL`,
      [step.id, userId, outcome.status, outcome.error ?? null],
    )) as [unknown, number];
    if (affected !== 1) throw DomainError.conflict('the step was decided meanwhile');
  }

  /** The decision, as the decider's message; a run's answer keeps its tool's permission. */
  private async tell(
    conversation: AgentConversation,
    step: AgentStep,
    userId: string,
    what: string,
    permission: string | null = null,
  ) {
    await this.conversations.append(
      conversation.id,
      'user',
      [
        {
          type: 'text',
          text: untrusted(`step:${step.tool}`, `Step ${step.id} (${step.tool}) ${what}.`),
        },
      ],
      { ...(await this.authors.of(step.organizationId, userId)), permissions: [permission] },
    );
  }
}
