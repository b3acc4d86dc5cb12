import {
  DynamicModule,
  MiddlewareConsumer,
  Module,
  NestModule,
  NotFoundException,
  OnModuleInit,
} from '@nestjs/common';
import { AgentModule } from '../agent';
import { ChatModule } from '../chat';
import { Env, loadEnv } from '../config';
import { OrganizationsModule } from '../organizations';
import { HOOK_ACTIONS } from './hook-actions';
import { HookRequests, HooksController, hooksController, HooksTokenVerifier } from './http';
import { HeartbeatConsumer } from './runs/heartbeat.consumer';
import { HeartbeatSchedule } from './runs/heartbeat.schedule';
import { Heartbeats } from './runs/heartbeats';
import { HookActionsService } from './runs/hook-actions.service';
import { HookDelivery } from './runs/hook-delivery';
import { HookRunConsumer } from './runs/hook-run.consumer';

/**
 * Whether the hooks are on, and their path, decided when the app's modules are composed (as the
 * agent's).
 */
function composition(): { path: string } | undefined {
  try {
    const env = loadEnv();
    return env.HOOKS_ENABLED === true ? { path: env.HOOKS_PATH } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Gateway hooks (issue 24): outside systems wake the organization's agent or hand it a task.
 * Its routes (`http/`) are at HOOKS_PATH, for callers with HOOKS_TOKEN (`@Machine('hooksToken')`);
 * the module runs heartbeats and hook runs. Nothing of it exists unless HOOKS_ENABLED (which needs
 * the agent on).
 */
@Module({})
export class HooksModule implements NestModule, OnModuleInit {
  /** HOOKS_PATH as composed (the routes' path). */
  private static composedPath?: string;

  constructor(private readonly env: Env) {}

  static register(): DynamicModule {
    const on = composition();
    if (!on) return { module: HooksModule };
    HooksModule.composedPath = on.path;
    return {
      module: HooksModule,
      imports: [AgentModule.register(), ChatModule, OrganizationsModule],
      controllers: [hooksController(on.path)],
      providers: [
        Heartbeats,
        HookDelivery,
        HookActionsService,
        { provide: HOOK_ACTIONS, useExisting: HookActionsService },
        HookRequests,
        HooksTokenVerifier,
        HeartbeatConsumer,
        HookRunConsumer,
        HeartbeatSchedule,
      ],
    };
  }

  /** The routes were made for the composed path: an app configured with another is refused. */
  onModuleInit() {
    const composed = HooksModule.composedPath;
    if (this.env.HOOKS_ENABLED && composed !== undefined && this.env.HOOKS_PATH !== composed) {
      throw new Error(
        `HOOKS_PATH is ${this.env.HOOKS_PATH}, but the hooks' routes were composed at ${composed}`,
      );
    }
  }

  /**
   * An app whose modules were composed with the hooks on but that runs with them off (tests
   * configure each app) serves none of them: 404 as for any unknown route.
   */
  configure(consumer: MiddlewareConsumer) {
    if (this.env.HOOKS_ENABLED || HooksModule.composedPath === undefined) return;
    consumer
      .apply((_req: unknown, _res: unknown, next: (err?: unknown) => void) =>
        next(new NotFoundException()),
      )
      .forRoutes(HooksController);
  }
}
