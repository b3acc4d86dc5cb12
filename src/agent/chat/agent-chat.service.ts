import { Injectable } from '@nestjs/common';
import type Anthropic from '@anthropic-ai/sdk';
import type { Request } from 'express';
import { AccessContext, DomainError, InProcessCaller, inProcessCallerOf } from '../../common';
import { Env } from '../../config';
import { AgentLimits } from '../limits/agent-limits';
import { TokenBudgets } from '../limits/token-budgets';
import { LlmClient } from '../llm/llm-client';
import { AgentConversation } from '../store/agent-conversation.entity';
import { Author, Conversations } from '../store/conversations';
import { AgentTools } from '../tools/agent-tools.service';
import { TOOLS, ToolDefinition } from '../tools/tool-catalogue';
import { outputText, ToolOutcome, ToolRunner } from '../tools/tool-runner';
import { AgentSteps } from './agent-steps.service';
import { ChatDto } from './chat.dto';
import { ChatView, ToolCallView } from './chat.view';
import { MemberAuthors } from './member-authors';
import { buildPrompt } from './prompt';
import { systemPrompt, untrusted } from './untrusted';

type ToolUse = Anthropic.ToolUseBlock;

/** One turn of the agent (see AgentChat.runTurn). */
export interface Turn {
  /** Whose session the tools run with. */
  caller: InProcessCaller;
  /** That user's access in the conversation's organization. */
  access: AccessContext;
  conversation: AgentConversation;
  message: Anthropic.ContentBlockParam[];
  /**
   * A gateway hook's turn: every write and destructive tool is offered but only proposed (never
   * run), as a step of `stepsIn` that the organization's members decide.
   */
  proposeAll?: boolean;
  stepsIn?: AgentConversation;
  /** Whose per-user limits the turn spends; default the user's (its tokens: the organization's). */
  budget?: string;
  model?: string;
  /** Extended thinking's budget, in tokens. */
  thinkingTokens?: number;
  signal?: AbortSignal;
}
type ToolResult = Anthropic.ToolResultBlockParam;

/** Roles of a seeding history: alternating from `user` to a final `assistant`. */
function checkHistory(dto: ChatDto) {
  if (!dto.history) return;
  if (dto.conversationId) {
    throw DomainError.badRequest('history seeds a new conversation only: leave out conversationId');
  }
  const alternates = dto.history.every((m, i) => m.role === (i % 2 === 0 ? 'user' : 'assistant'));
  if (!alternates || dto.history.length % 2 !== 0) {
    throw DomainError.badRequest('history: roles alternate from user to a final assistant message');
  }
}

/** A seeded conversation must fit in one prompt with the message: its oldest would never be read. */
function checkHistorySize(dto: ChatDto, organizationId: string, maxChars: number) {
  if (!dto.history) return;
  const messages = [...dto.history, { role: 'user', content: dto.message }].map((m) => ({
    role: m.role,
    content: [{ type: 'text', text: m.content }],
  }));
  const chars = systemPrompt(organizationId).length + JSON.stringify(messages).length;
  if (chars > maxChars) {
    throw DomainError.badRequest(
      `history: the conversation would be ${chars} characters, over the prompt's bound of ${maxChars} (AGENT_MAX_PROMPT_CHARS)`,
    );
  }
}

const textOf = (content: Anthropic.ContentBlock[]) =>
  content
    .filter((b): b is Anthropic.TextBlock => b.type === 'text')
    .map((b) => b.text)
    .join('\n')
    .trim();

/**
 * One chat turn: the person's message, then rounds of the model and its tools until it answers,
 * at most AGENT_MAX_TOOL_ROUNDS rounds. Reads run at once as the person; writes and destructive
 * actions wait as steps unless writes need no confirmation, and always when another person's
 * message is in the prompt (the main conversation: its requests are proposals). Every message is
 * stored with its author and the permission of each tool result, so the conversation goes on
 * where it stopped (a refused round included) and each caller's prompt shows what they may read.
 * Every model call spends the organization's daily tokens (TokenBudgets).
 */
@Injectable()
export class AgentChat {
  constructor(
    private readonly llm: LlmClient,
    private readonly conversations: Conversations,
    private readonly tools: AgentTools,
    private readonly runner: ToolRunner,
    private readonly limits: AgentLimits,
    private readonly steps: AgentSteps,
    private readonly budgets: TokenBudgets,
    private readonly authors: MemberAuthors,
    private readonly env: Env,
  ) {}

  /**
   * A person's turn (`POST /v1/agent/chat`): AGENT_TURNS_PER_USER_PER_HOUR, counted once the
   * request is known to be valid and theirs to make.
   */
  async turn(req: Request, access: AccessContext, dto: ChatDto): Promise<ChatView> {
    const organizationId = access.organizationId!;
    checkHistory(dto);
    checkHistorySize(dto, organizationId, this.env.AGENT_MAX_PROMPT_CHARS);
    const continued =
      dto.conversationId && (await this.conversations.continued(access, dto.conversationId));
    await this.limits.consume('turns', access.userId);
    const author = await this.authors.of(organizationId, access.userId);
    const conversation =
      continued ||
      (await this.conversations.start(organizationId, access.userId, dto.history, author));
    return this.runTurn({
      caller: inProcessCallerOf(req),
      access,
      conversation,
      message: [{ type: 'text', text: dto.message }],
    });
  }

  /**
   * One turn in `conversation` as `turn.access`'s user, whose session `turn.caller` carries:
   * the message stored, then rounds of the model and its tools. A gateway hook's turn (see
   * TurnOptions) offers write tools only as steps of the organization's main conversation and
   * spends the organization's budget.
   */
  async runTurn(turn: Turn): Promise<ChatView> {
    const { access, conversation } = turn;
    const organizationId = access.organizationId!;
    const budget = this.budgets.organization(organizationId);
    // A spent budget refuses the turn before anything of it is stored.
    await this.budgets.assertAvailable(budget);
    const author = await this.authors.of(organizationId, access.userId);
    await this.conversations.append(conversation.id, 'user', turn.message, author);

    const offered = (await this.tools.forCaller(access)).filter(
      (t) => t.allowed || (turn.proposeAll && t.kind !== 'read' && t.inputSchema),
    );
    const usable = new Map(
      offered.map((t) => [t.name, TOOLS.find((d) => d.name === t.name)!] as const),
    );
    const apiTools: Anthropic.Tool[] = offered.map((t) => ({
      name: t.name,
      description: t.description,
      input_schema: t.inputSchema!,
    }));
    const view: ChatView = {
      response: '',
      conversationId: conversation.id,
      truncated: false,
      toolCalls: [],
      pendingConfirmations: [],
    };
    for (let round = 1; ; round++) {
      const prompt = buildPrompt({
        window: await this.conversations.window(conversation.id),
        caller: { userId: access.userId, permissions: access.permissions },
        conversation,
        system: (others) =>
          systemPrompt(
            organizationId,
            others ? { name: author.authorName, role: author.authorRole } : undefined,
          ),
        maxChars: this.env.AGENT_MAX_PROMPT_CHARS,
      });
      if (prompt.over) {
        if (round > 1) {
          view.truncated = true;
          return view;
        }
        throw DomainError.badRequest(
          `the message does not fit in the prompt's bound of ${this.env.AGENT_MAX_PROMPT_CHARS} characters (AGENT_MAX_PROMPT_CHARS)`,
        );
      }
      const reply = await this.budgets.metered(budget, () =>
        this.llm.createMessage(
          {
            system: prompt.system,
            messages: prompt.messages,
            ...(apiTools.length ? { tools: apiTools } : {}),
            ...(turn.model ? { model: turn.model } : {}),
            ...(turn.thinkingTokens
              ? {
                  thinking: { type: 'enabled', budget_tokens: turn.thinkingTokens },
                  max_tokens: turn.thinkingTokens + this.env.LLM_MAX_TOKENS,
                }
              : {}),
          },
          { signal: turn.signal },
        ),
      );
      await this.conversations.append(conversation.id, 'assistant', reply.content);
      view.response = textOf(reply.content) || view.response;
      if (reply.stop_reason !== 'tool_use') return view;
      const uses = reply.content.filter((b): b is ToolUse => b.type === 'tool_use');
      await this.runRound(turn, uses, usable, view, {
        author,
        confirmAll: prompt.othersPresent,
      });
      if (round >= this.env.AGENT_MAX_TOOL_ROUNDS) {
        view.truncated = true;
        return view;
      }
    }
  }

  /**
   * A round's tool calls, counted against the tool-call budget before any runs (over it none
   * runs: each is answered "rate limited", the round is stored and the turn answers 429), then
   * run in order. Their results are stored as the next message, each with the permission of the
   * tool that produced it. `confirmAll`: every write and destructive call waits as a step.
   */
  private async runRound(
    turn: Turn,
    uses: ToolUse[],
    usable: Map<string, ToolDefinition>,
    view: ChatView,
    round: { author: Author; confirmAll: boolean },
  ): Promise<void> {
    const { access, conversation } = turn;
    const budget = turn.budget ?? access.userId;
    try {
      await this.limits.consume('toolCalls', budget, uses.length);
    } catch (limited) {
      await this.conversations.append(
        conversation.id,
        'user',
        uses.map((use) => ({
          type: 'tool_result',
          tool_use_id: use.id,
          is_error: true,
          content: 'rate limited: too many tool calls; try again later',
        })),
        round.author,
      );
      throw limited;
    }
    const results: ToolResult[] = [];
    const permissions: (string | null)[] = [];
    let refused: unknown;
    for (const use of uses) {
      const input = (use.input ?? {}) as Record<string, unknown>;
      const call: ToolCallView = { id: use.id, name: use.name, input, status: 'failed' };
      view.toolCalls.push(call);
      const tool = usable.get(use.name);
      if (!tool) {
        call.error = `no tool ${use.name} is available to this person here`;
        results.push(errorResult(use, call.error));
        permissions.push(null);
        continue;
      }
      const waits = turn.proposeAll || round.confirmAll || this.tools.requiresConfirmation(tool);
      if (tool.kind !== 'read' && waits) {
        const pending = await this.steps.propose(
          turn.stepsIn ?? conversation,
          turn.proposeAll ? null : access.userId,
          use.id,
          tool,
          input,
        );
        view.pendingConfirmations.push(pending);
        call.status = 'pending';
        results.push({
          type: 'tool_result',
          tool_use_id: use.id,
          content:
            `Not run: waits for the person's confirmation (step ${pending.stepId}, until ` +
            `${pending.expiresAt}). Tell them what it will do.`,
        });
        permissions.push(null);
        continue;
      }
      if (tool.kind !== 'read') {
        try {
          await this.limits.consume('writes', budget);
        } catch (limited) {
          refused ??= limited;
          call.error = 'rate limited: too many writes; try again later';
          results.push(errorResult(use, call.error));
          permissions.push(null);
          continue;
        }
      }
      const outcome = await this.runner.run(turn.caller, access.organizationId!, tool, input);
      settle(call, outcome);
      results.push({
        type: 'tool_result',
        tool_use_id: use.id,
        ...(outcome.ok ? {} : { is_error: true }),
        content: untrusted(`tool:${tool.name}`, outputText(outcome)),
      });
      permissions.push(tool.permission);
    }
    await this.conversations.append(conversation.id, 'user', results, {
      ...round.author,
      permissions,
    });
    if (refused) throw refused;
  }
}

function settle(call: ToolCallView, outcome: ToolOutcome) {
  call.status = outcome.ok ? 'executed' : 'failed';
  if (outcome.ok) call.result = outcome.body;
  else call.error = outcome.error;
}

const errorResult = (use: ToolUse, error: string): ToolResult => ({
  type: 'tool_result',
  tool_use_id: use.id,
  is_error: true,
  content: error,
});
