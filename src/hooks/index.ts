export { HooksModule } from './hooks.module';
export { HOOK_ACTIONS } from './hook-actions';
export type { AgentHookRequest, HookActions, WakeRequest } from './hook-actions';
