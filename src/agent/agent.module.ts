import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule, UsersModule } from '../auth';
import { CapTableCoreModule } from '../cap-table';
import { agentEnabled, loadEnv } from '../config';
import { OcfModule } from '../ocf';
import { OrganizationsModule } from '../organizations';
import { AgentChat } from './chat/agent-chat.service';
import { MemberAuthors } from './chat/member-authors';
import { AgentSteps } from './chat/agent-steps.service';
import { ChatController } from './chat/chat.controller';
import { AgentContextController } from './context/agent-context.controller';
import { AgentContext } from './context/agent-context.service';
import { AgentLimits } from './limits/agent-limits';
import { TokenBudgets } from './limits/token-budgets';
import { LlmClient } from './llm/llm-client';
import { OnboardingAnalysis } from './onboarding/onboarding-analysis.service';
import { OnboardingBuilder } from './onboarding/onboarding-build.service';
import { OnboardingRetention } from './onboarding/onboarding-retention';
import { SystemEventRetention } from './store/system-event-retention';
import { ConversationRetention } from './store/conversation-retention';
import { OnboardingConsumer } from './onboarding/onboarding.consumer';
import { OnboardingController } from './onboarding/onboarding.controller';
import { OnboardingService } from './onboarding/onboarding.service';
import { AgentOnboarding } from './onboarding/store/onboarding.entity';
import { Onboardings } from './onboarding/store/onboardings';
import { HookActors } from './hooks/hook-actors';
import { HookTurns } from './hooks/hook-turns';
import { AgentHookActor } from './store/agent-hook-actor.entity';
import { AgentSystemEvent } from './store/agent-system-event.entity';
import { SystemEvents } from './store/system-events';
import { AgentStatusController } from './status/agent-status.controller';
import { AgentConversation } from './store/agent-conversation.entity';
import { AgentMessage } from './store/agent-message.entity';
import { AgentStep } from './store/agent-step.entity';
import { Conversations } from './store/conversations';
import { AgentToolsController } from './tools/agent-tools.controller';
import { AgentTools } from './tools/agent-tools.service';
import { ToolRunner } from './tools/tool-runner';

/**
 * Whether the agent is on, decided when the app's modules are composed. An invalid configuration
 * counts as off here: start-up reports it by name right after.
 */
function enabled(): boolean {
  try {
    return agentEnabled(loadEnv());
  } catch {
    return false;
  }
}

/**
 * The AI agent (issue 23). Present only when LLM_API_KEY is set and AGENT_ENABLED is not `false`:
 * otherwise no route of it is mounted (404) and nothing of it runs.
 */
@Module({})
export class AgentModule {
  private static registered?: DynamicModule;

  /** The one composition of the module (the app and the hooks module import the same one). */
  static register(): DynamicModule {
    return (AgentModule.registered ??= AgentModule.compose());
  }

  private static compose(): DynamicModule {
    if (!enabled()) return { module: AgentModule };
    return {
      module: AgentModule,
      imports: [
        TypeOrmModule.forFeature([
          AgentConversation,
          AgentMessage,
          AgentStep,
          AgentOnboarding,
          AgentSystemEvent,
          AgentHookActor,
        ]),
        AuthModule,
        OrganizationsModule,
        UsersModule,
        CapTableCoreModule,
        OcfModule,
      ],
      controllers: [
        AgentStatusController,
        ChatController,
        AgentContextController,
        AgentToolsController,
        OnboardingController,
      ],
      providers: [
        LlmClient,
        AgentTools,
        ToolRunner,
        AgentLimits,
        TokenBudgets,
        MemberAuthors,
        Conversations,
        ConversationRetention,
        AgentSteps,
        AgentChat,
        AgentContext,
        Onboardings,
        OnboardingAnalysis,
        OnboardingBuilder,
        OnboardingService,
        OnboardingConsumer,
        OnboardingRetention,
        SystemEvents,
        SystemEventRetention,
        HookActors,
        HookTurns,
      ],
      exports: [HookTurns],
    };
  }
}
