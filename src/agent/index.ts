export { AgentModule } from './agent.module';
// The gateway hooks' turns (issue 24): heartbeats and hook runs as the organization's hook actor.
export { HEARTBEAT_OK, HookTurns, isAcknowledgementOnly } from './hooks/hook-turns';
export type { HeartbeatOutcome, HookRun } from './hooks/hook-turns';
