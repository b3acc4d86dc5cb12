import { DynamicModule, Module } from '@nestjs/common';
import { AgentModule } from '../agent';
import { ChatModule } from '../chat';
import { loadEnv } from '../config';
import { OrganizationsModule } from '../organizations';
import { HOOK_ACTIONS } from './hook-actions';
import { HeartbeatConsumer } from './runs/heartbeat.consumer';
import { HeartbeatSchedule } from './runs/heartbeat.schedule';
import { Heartbeats } from './runs/heartbeats';
import { HookActionsService } from './runs/hook-actions.service';
import { HookDelivery } from './runs/hook-delivery';
import { HookRunConsumer } from './runs/hook-run.consumer';

/** Whether the hooks are on, decided when the app's modules are composed (as the agent's). */
function enabled(): boolean {
  try {
    return loadEnv().HOOKS_ENABLED === true;
  } catch {
    return false;
  }
}

/**
 * Gateway hooks (issue 24): outside systems wake the organization's agent or hand it a task.
 * The HTTP layer is an Express router `setupApp` mounts at HOOKS_PATH (src/hooks/http); this
 * module gives it its actions, and runs heartbeats and hook runs. Nothing of it exists unless
 * HOOKS_ENABLED (which needs the agent on).
 */
@Module({})
export class HooksModule {
  static register(): DynamicModule {
    if (!enabled()) return { module: HooksModule };
    return {
      module: HooksModule,
      imports: [AgentModule.register(), ChatModule, OrganizationsModule],
      providers: [
        Heartbeats,
        HookDelivery,
        HookActionsService,
        { provide: HOOK_ACTIONS, useExisting: HookActionsService },
        HeartbeatConsumer,
        HookRunConsumer,
        HeartbeatSchedule,
      ],
    };
  }
}
