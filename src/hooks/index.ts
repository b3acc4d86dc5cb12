export { HooksModule } from './hooks.module';
export { HOOK_ACTIONS } from './hook-actions';
export type { AgentHookRequest, HookActions, WakeRequest } from './hook-actions';
// setupApp mounts the HTTP layer at HOOKS_PATH (when HOOKS_ENABLED).
export { mountHooks } from './http';
